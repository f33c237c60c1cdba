package text

import (
	"io"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// head - output the first part of files
//
//	head [-n [-]NUM] [-c [-]NUM] [-qvz] [FILE]...
//	head -NUM [FILE]...
//
// Prints the first 10 lines of each FILE; a leading '-' on NUM prints all
// but the last NUM lines or bytes. Several files get "==> FILE <==" headers.

var headSpec = getopt.Spec{
	Short: "c:n:qvz",
	Long: []getopt.Long{
		{"bytes=", "c"}, {"lines=", "n"}, {"quiet", "q"}, {"silent", "q"}, {"verbose", "v"},
		{"zero-terminated", "z"}, {"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

// Head runs head.
func Head(inv *command.Invocation) int {
	p := newProc(inv, 1)
	args := obsoleteCount(inv.Args, false)
	inv2 := *inv
	inv2.Args = args
	p.Invocation = &inv2
	opts, files, ok := p.parse(&headSpec)
	if !ok {
		return p.status
	}
	n, bytes, allBut := int64(10), false, false
	headers := 0 // 0 auto, 1 always, -1 never
	delim := byte('\n')
	for _, o := range opts {
		switch o.Name {
		case "c", "n":
			arg := o.Val
			allBut = strings.HasPrefix(arg, "-")
			arg = strings.TrimPrefix(arg, "-")
			arg = strings.TrimPrefix(arg, "+")
			v, err := parseCount(arg)
			what := "lines"
			if o.Name == "c" {
				what = "bytes"
			}
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
				p.warn("error reading %s: %s", qfile(f), command.Message(err))
			} else {
				p.warn("cannot open %s for reading: %s", qfile(f), command.Message(err))
			}
			status = 1
			continue
		}
		switch {
		case bytes && !allBut:
			_, err = io.Copy(writerFunc(p.write), io.LimitReader(r, n))
		case bytes:
			err = p.headAllButBytes(r, n)
		case !allBut:
			err = p.headLines(r, n, delim)
		default:
			err = p.headAllButLines(r, n, delim)
		}
		r.Close()
		if p.stop || err == errStop {
			return p.exit(1)
		}
		if err != nil {
			p.warn("error reading %s: %s", qfile(f), command.Message(err))
			status = 1
		}
	}
	return p.exit(status)
}

// displayName is how headers name a file operand.
func displayName(f string) string {
	if f == "-" {
		return "standard input"
	}
	return f
}

// obsoleteCount rewrites a leading "-NUM[bcklm...]" (and for tail "+NUM")
// into "-n NUM" / "-c NUM", the historical syntax head and tail accept.
func obsoleteCount(args []string, tail bool) []string {
	if len(args) < 2 {
		return args
	}
	a := args[1]
	if len(a) < 2 || !(a[0] == '-' || (tail && a[0] == '+')) || a[1] < '0' || a[1] > '9' {
		return args
	}
	i := 1
	for i < len(a) && a[i] >= '0' && a[i] <= '9' {
		i++
	}
	num, suf := a[1:i], a[i:]
	key := "-n"
	switch suf {
	case "", "l":
	case "c":
		key = "-c"
	case "b", "k", "m":
		key = "-c"
		num += suf
	default:
		return args
	}
	if tail && a[0] == '+' {
		num = "+" + num
	}
	out := append([]string{args[0], key, num}, args[2:]...)
	return out
}

// writerFunc adapts proc.write to io.Writer.
type writerFunc func([]byte) bool

func (w writerFunc) Write(b []byte) (int, error) {
	if !w(b) {
		return 0, errStop
	}
	return len(b), nil
}

func (p *proc) headLines(r io.Reader, n int64, delim byte) error {
	if n == 0 {
		return nil
	}
	lr := newLineReader(r, delim)
	for n > 0 {
		line, err := lr.next()
		if len(line) > 0 && !p.write(line) {
			return errStop
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		n--
	}
	return nil
}

func (p *proc) headAllButLines(r io.Reader, n int64, delim byte) error {
	// Keep a ring of the last n lines; print each line once n newer ones
	// have arrived.
	lr := newLineReader(r, delim)
	var ring [][]byte
	var peak peakMem
	for {
		line, err := lr.next()
		if len(line) > 0 {
			cp := append([]byte(nil), line...)
			ring = append(ring, cp)
			if !peak.add(p, int64(len(cp))) {
				return errStop
			}
			if int64(len(ring)) > n {
				if !p.write(ring[0]) {
					return errStop
				}
				peak.held -= int64(len(ring[0]))
				ring = ring[1:]
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (p *proc) headAllButBytes(r io.Reader, n int64) error {
	data, err := p.slurp(r)
	if err != nil {
		return err
	}
	if int64(len(data)) > n {
		p.write(data[:int64(len(data))-n])
	}
	return nil
}
