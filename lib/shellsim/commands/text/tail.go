package text

import (
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// tail - output the last part of files
//
//	tail [-n [+]NUM] [-c [+]NUM] [-qvz] [FILE]...
//	tail -NUM | +NUM [FILE]...
//
// Prints the last 10 lines of each FILE; "+NUM" starts at line (or byte)
// NUM instead. -f (--follow[=descriptor|name], -F) then polls the files
// every -s seconds of virtual time and prints what is appended, until the
// process is signalled (e.g. by timeout) or the --pid process is gone. A
// piped standard input is not followed, as in GNU tail. --retry and -F
// keep waiting for files that do not exist yet.

var tailSpec = getopt.Spec{
	Short: "c:n:qvzfFs:",
	Long: []getopt.Long{
		{"bytes=", "c"}, {"follow", "f"}, {"follow=", "f"}, {"lines=", "n"},
		{"max-unchanged-stats=", "max-unchanged-stats"}, {"pid=", "pid"}, {"quiet", "q"},
		{"retry", "retry"}, {"silent", "q"}, {"sleep-interval=", "s"}, {"verbose", "v"},
		{"zero-terminated", "z"}, {"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

// Tail runs tail.
func Tail(inv *command.Invocation) int {
	p := newProc(inv, 1)
	inv2 := *inv
	inv2.Args = obsoleteCount(inv.Args, true)
	p.Invocation = &inv2
	opts, files, ok := p.parse(&tailSpec)
	if !ok {
		return p.status
	}
	n, bytes, fromStart := int64(10), false, false
	headers := 0
	delim := byte('\n')
	follow, retry := false, false
	interval := time.Second
	pid := 0
	for _, o := range opts {
		switch o.Name {
		case "c", "n":
			arg := o.Val
			fromStart = strings.HasPrefix(arg, "+")
			arg = strings.TrimPrefix(strings.TrimPrefix(arg, "+"), "-")
			what := "lines"
			if o.Name == "c" {
				what = "bytes"
			}
			v, err := parseCount(arg)
			if err != nil {
				if err == errTooLarge {
					p.warn("invalid number of %s: %s: %s", what, quote(arg), err)
				} else {
					p.warn("invalid number of %s: %s", what, quote(arg))
				}
				return p.exit(1)
			}
			n, bytes = v, o.Name == "c"
		case "q":
			headers = -1
		case "v":
			headers = 1
		case "z":
			delim = 0
		case "f":
			follow = true
			if o.HasVal && o.Val != "descriptor" && o.Val != "name" {
				p.warn("invalid argument %s for %s", quote(o.Val), quote("--follow"))
				p.errLines("Valid arguments are:\n  - \uE000descriptor\uE001\n  - \uE000name\uE001\n")
				return p.usageErr("")
			}
		case "F":
			follow, retry = true, true
		case "retry":
			retry = true
		case "s":
			secs, err := strconv.ParseFloat(o.Val, 64)
			if err != nil || secs < 0 {
				p.warn("invalid number of seconds: %s", quote(o.Val))
				return p.exit(1)
			}
			interval = time.Duration(secs * float64(time.Second))
		case "pid":
			v, err := strconv.Atoi(o.Val)
			if err != nil || v < 0 {
				p.warn("invalid PID: %s", quote(o.Val))
				return p.exit(1)
			}
			pid = v
		case "max-unchanged-stats":
			// Tuning for real file systems; nothing to do here.
		}
	}
	files = defaultStdin(files)
	show := headers == 1 || (headers == 0 && len(files) > 1)
	status := 0
	printed := false
	var followed []*tailFile
	for _, f := range files {
		r, err := p.open(f)
		if show && (err == nil || err == command.ErrIsDir) {
			sep := "\n"
			if !printed {
				sep = ""
			}
			printed = true
			p.writeString(sep + "==> " + displayName(f) + " <==\n")
		}
		if err != nil {
			if err == command.ErrIsDir {
				p.warn("error reading %s: %s", qfile(f), command.Message(err))
			} else {
				p.warn("cannot open %s for reading: %s", qfile(f), command.Message(err))
			}
			status = 1
			if follow && retry && f != "-" {
				followed = append(followed, &tailFile{name: f, missing: true})
			}
			continue
		}
		if follow && f != "-" {
			followed = append(followed, &tailFile{name: f})
		}
		switch {
		case bytes && fromStart:
			err = p.tailFromByte(r, n)
		case bytes:
			err = p.tailBytes(r, n)
		case fromStart:
			err = p.tailFromLine(r, n, delim)
		default:
			err = p.tailLines(r, n, delim)
		}
		r.Close()
		if p.stop || err == errStop {
			return p.exit(1)
		}
		if err != nil {
			p.warn("error reading %s: %s", qfile(f), command.Message(err))
			status = 1
		}
		if follow && f != "-" {
			if fi, err := p.FS.Stat(p.Abs(f)); err == nil {
				followed[len(followed)-1].size = fi.Size
			}
		}
	}
	if !follow {
		return p.exit(status)
	}
	if len(followed) == 0 {
		// Only a piped standard input: GNU does not follow it.
		if status != 0 {
			p.warn("no files remaining")
		}
		return p.exit(status)
	}
	last := ""
	if len(files) > 0 {
		last = files[len(files)-1]
	}
	return p.exit(p.follow(followed, show, last, interval, pid))
}

// tailFile is a file being followed.
type tailFile struct {
	name    string
	size    int64
	missing bool
}

// follow polls the files every interval of virtual time, printing what
// was appended (with a header when the file changes), until Sleep fails
// (a signal) or the --pid process has exited.
func (p *proc) follow(files []*tailFile, headers bool, last string, interval time.Duration, pid int) int {
	if interval <= 0 {
		interval = time.Second
	}
	for {
		if !p.flush() {
			return 1
		}
		alive := pid == 0
		if pid != 0 {
			for _, pr := range p.Sys.Processes() {
				if pr.PID == pid && pr.State != "Z" {
					alive = true
				}
			}
		}
		if alive {
			if err := p.Sys.Sleep(interval); err != nil {
				p.stop = true
				return 1
			}
		}
		if !p.charge(int64(10 * len(files))) {
			return 1
		}
		for _, t := range files {
			fi, err := p.FS.Stat(p.Abs(t.name))
			if err != nil {
				if !t.missing {
					t.missing = true
				}
				continue
			}
			if t.missing {
				t.missing = false
				t.size = 0
				p.warn("%s has appeared;  following new file", qfile(t.name))
			}
			if fi.Size < t.size {
				p.warn("%s: file truncated", t.name)
				t.size = 0
			}
			if fi.Size == t.size {
				continue
			}
			f, err := p.FS.Open(p.Abs(t.name))
			if err != nil {
				continue
			}
			if _, err := f.Seek(t.size, io.SeekStart); err == nil {
				if headers && t.name != last {
					p.writeString("\n==> " + t.name + " <==\n")
					last = t.name
				}
				n, _ := io.Copy(writerFunc(p.write), &meter{p, f})
				t.size += n
			}
			f.Close()
			if p.stop {
				return 1
			}
		}
		if !alive {
			return 0
		}
	}
}

func (p *proc) tailFromByte(r io.Reader, n int64) error {
	if n > 0 {
		n--
	}
	if _, err := io.CopyN(io.Discard, r, n); err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	_, err := io.Copy(writerFunc(p.write), r)
	return err
}

func (p *proc) tailFromLine(r io.Reader, n int64, delim byte) error {
	lr := newLineReader(r, delim)
	for line := int64(1); ; line++ {
		b, err := lr.next()
		if line >= n && len(b) > 0 && !p.write(b) {
			return errStop
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (p *proc) tailBytes(r io.Reader, n int64) error {
	// A sliding window of at most 2n bytes (plus one read) is held.
	var buf []byte
	var peak peakMem
	chunk := make([]byte, 32*1024)
	for {
		k, err := r.Read(chunk)
		if k > 0 {
			buf = append(buf, chunk[:k]...)
			if !peak.add(p, int64(k)) {
				return errStop
			}
			if n < 1<<40 && int64(len(buf)) > 2*n+int64(len(chunk)) {
				drop := int64(len(buf)) - n
				peak.held -= drop
				buf = append(buf[:0:0], buf[drop:]...)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if int64(len(buf)) > n {
		buf = buf[int64(len(buf))-n:]
	}
	p.write(buf)
	return nil
}

func (p *proc) tailLines(r io.Reader, n int64, delim byte) error {
	if n == 0 {
		_, err := io.Copy(io.Discard, r)
		return err
	}
	lr := newLineReader(r, delim)
	var ring [][]byte
	var peak peakMem
	for {
		line, err := lr.next()
		if len(line) > 0 {
			ring = append(ring, append([]byte(nil), line...))
			if !peak.add(p, int64(len(line))) {
				return errStop
			}
			if int64(len(ring)) > n {
				peak.held -= int64(len(ring[0]))
				ring[0] = nil
				ring = ring[1:]
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	for _, l := range ring {
		if !p.write(l) {
			return errStop
		}
	}
	return nil
}
