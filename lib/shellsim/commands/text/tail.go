package text

import (
	"io"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// tail - output the last part of files
//
//	tail [-n [+]NUM] [-c [+]NUM] [-qvz] [FILE]...
//	tail -NUM | +NUM [FILE]...
//
// Prints the last 10 lines of each FILE; "+NUM" starts at line (or byte)
// NUM instead. Following (-f, -F, --follow, --retry, --pid, -s) is not
// modeled: it is recorded as partial and fails.
func init() { command.Register("tail", command.Partial, Tail) }

var tailSpec = optSpec{short: "c:n:qvzfFs:", long: []longOpt{
	{"bytes", reqArg, "c"}, {"lines", reqArg, "n"}, {"quiet", noArg, "q"},
	{"silent", noArg, "q"}, {"verbose", noArg, "v"}, {"zero-terminated", noArg, "z"},
	{"follow", optArg, "f"}, {"retry", noArg, "retry"}, {"pid", reqArg, "pid"},
	{"sleep-interval", reqArg, "s"}, {"max-unchanged-stats", reqArg, "max-unchanged-stats"},
}}

// Tail runs tail.
func Tail(inv *command.Invocation) int {
	p := newProc(inv, 1)
	inv2 := *inv
	inv2.Args = obsoleteCount(inv.Args, true)
	p.Invocation = &inv2
	opts, files, ok := p.parse(tailSpec)
	if !ok {
		return p.status
	}
	n, bytes, fromStart := int64(10), false, false
	headers := 0
	delim := byte('\n')
	for _, o := range opts {
		switch o.key {
		case "c", "n":
			arg := o.arg
			fromStart = strings.HasPrefix(arg, "+")
			arg = strings.TrimPrefix(strings.TrimPrefix(arg, "+"), "-")
			what := "lines"
			if o.key == "c" {
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
			n, bytes = v, o.key == "c"
		case "q":
			headers = -1
		case "v":
			headers = 1
		case "z":
			delim = 0
		case "f", "F", "retry", "pid", "s", "max-unchanged-stats":
			name := "-" + o.key
			if len(o.key) > 1 {
				name = "--" + o.key
			}
			return p.partial("tail "+name, "following files ("+name+") is not supported in shellsim")
		}
	}
	files = defaultStdin(files)
	show := headers == 1 || (headers == 0 && len(files) > 1)
	status := 0
	printed := false
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
				p.warn("error reading %s: %s", quote(f), command.Message(err))
			} else {
				p.warn("cannot open %s for reading: %s", quote(f), command.Message(err))
			}
			status = 1
			continue
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
			p.warn("error reading %s: %s", quote(f), command.Message(err))
			status = 1
		}
	}
	return p.exit(status)
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
