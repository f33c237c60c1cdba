package files

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Xargs builds and runs command lines from standard input.
//
//	xargs [-0rt] [-d DELIM] [-n MAX] [-L MAX] [-I REPLACE] [-s SIZE] [-P N] [-a FILE] [COMMAND [ARG]...]
//
// Commands run one after another: -P N > 1 is recorded as Partial and
// runs sequentially, which is one of the schedules GNU xargs may pick.
func Xargs(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "0rtd:n:L:I:i::s:P:a:E:e::xpl::",
		Long: []getopt.Long{
			{"arg-file=", "a"}, {"delimiter=", "d"}, {"eof=", "E"}, {"exit", "x"},
			{"interactive", "p"}, {"max-args=", "n"}, {"max-chars=", "s"}, {"max-lines=", "L"},
			{"max-procs=", "P"}, {"no-run-if-empty", "r"}, {"null", "0"}, {"open-tty", "o"},
			{"process-slot-var=", "psv"}, {"replace", "i"}, {"replace=", "i"},
			{"show-limits", "sl"}, {"verbose", "t"},
		},
		NoPerm:  true,
		Partial: map[string]bool{"p": true, "o": true, "psv": true, "sl": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	x := &xargser{inv: inv, maxArgs: 0, maxChars: 131072}
	var delim *byte
	argFile := ""
	eof := ""
	for _, o := range opts {
		switch o.Name {
		case "0":
			d := byte(0)
			delim = &d
		case "d":
			d, ok := parseDelim(o.Val)
			if !ok {
				errorf(inv, "Invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", o.Val)
				return 1
			}
			delim = &d
		case "r":
			x.noEmpty = true
		case "t":
			x.trace = true
		case "n":
			n, ok := xargsNumber(inv, o.Val, "-n")
			if !ok {
				return 1
			}
			x.maxArgs = n
			x.maxLines = 0
		case "L", "l":
			n := 1
			if o.Val != "" {
				v, ok := xargsNumber(inv, o.Val, "-L")
				if !ok {
					return 1
				}
				n = v
			}
			x.maxLines = n
			x.maxArgs = 0
		case "I", "i":
			if x.maxArgs > 0 {
				errorf(inv, "warning: options --max-args and --replace/-I/-i are mutually exclusive, ignoring previous --max-args value")
				x.maxArgs = 0
			}
			if x.maxLines > 0 {
				errorf(inv, "warning: options --max-lines and --replace/-I/-i are mutually exclusive, ignoring previous --max-lines value")
				x.maxLines = 0
			}
			r := o.Val
			if r == "" {
				r = "{}"
			}
			x.replace = r
		case "s":
			n, err := strconv.Atoi(o.Val)
			if err != nil {
				errorf(inv, "invalid number \"%s\" for -s option", o.Val)
				fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
				return 1
			}
			if n < 1 {
				errorf(inv, "value %d for -s option should be >= 1", n)
				errorf(inv, "cannot fit single argument within argument list size limit")
				return 1
			}
			x.maxChars = n
		case "P":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				errorf(inv, "invalid number \"%s\" for -P option", o.Val)
				fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
				return 1
			}
			if n != 1 {
				inv.Sys.Partial("xargs -P")
			}
		case "a":
			argFile = o.Val
		case "E", "e":
			eof = o.Val
		case "x":
			x.exit = true
		}
	}
	if len(operands) == 0 {
		operands = []string{"echo"}
	}
	x.cmd = operands
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	in := inv.Stdin
	x.childStdin = strings.NewReader("")
	if argFile != "" {
		data, err := inv.FS.ReadFile(inv.Abs(argFile))
		if err != nil {
			errorf(inv, "Cannot open input file %s: %s", q(argFile), command.Message(err))
			return 1
		}
		x.childStdin = inv.Stdin
		in = strings.NewReader(string(data))
	}
	src := &xargsInput{inv: inv, r: bufio.NewReader(in), delim: delim, lineMode: x.replace != "", eof: eof}
	return x.run(src)
}

// xargsInput yields xargs' input one logical line at a time (a line
// ending in a blank continues on the next), so commands start while input
// is still arriving, as with GNU xargs.
type xargsInput struct {
	inv      *command.Invocation
	r        *bufio.Reader
	delim    *byte
	lineMode bool // -I: one item per line, leading blanks removed
	eof      string
	done     bool
}

// next returns the items of the next logical line; ok is false at the end.
func (in *xargsInput) next() (items []string, ok bool, err error) {
	for !in.done {
		if in.delim != nil {
			s, rerr := in.r.ReadString(*in.delim)
			if rerr != nil {
				in.done = true
				if s == "" {
					return nil, false, nil
				}
			} else {
				s = s[:len(s)-1]
			}
			if err := in.inv.Sys.Charge(int64(len(s)) + 1); err != nil {
				return nil, false, &stopError{err}
			}
			return []string{s}, true, nil
		}
		var chunk strings.Builder
		for {
			s, rerr := in.r.ReadString('\n')
			chunk.WriteString(s)
			if err := in.inv.Sys.Charge(int64(len(s)) + 1); err != nil {
				return nil, false, &stopError{err}
			}
			if rerr != nil {
				in.done = true
				break
			}
			t := strings.TrimSuffix(s, "\n")
			if in.lineMode || !(strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t")) {
				break
			}
		}
		line := chunk.String()
		if in.lineMode {
			line = strings.TrimLeft(strings.TrimSuffix(line, "\n"), " \t")
			if line == "" {
				continue
			}
			if in.eof != "" && line == in.eof {
				in.done = true
				return nil, false, nil
			}
			return []string{line}, true, nil
		}
		lines, hitEOF, err := splitXargs(line, in.eof)
		if err != nil {
			in.done = true
			return nil, false, err
		}
		if hitEOF {
			in.done = true
		}
		var flat []string
		for _, l := range lines {
			flat = append(flat, l...)
		}
		if len(flat) > 0 {
			return flat, true, nil
		}
	}
	return nil, false, nil
}

type xargser struct {
	inv                         *command.Invocation
	cmd                         []string
	noEmpty, trace, exit        bool
	maxArgs, maxLines, maxChars int
	replace                     string
	childStdin                  io.Reader
	status                      int
}

func (x *xargser) run(in *xargsInput) int {
	ran := false
	flush := func(items []string) int {
		ran = true
		var argv []string
		if x.replace != "" {
			for _, c := range x.cmd {
				argv = append(argv, strings.ReplaceAll(c, x.replace, items[0]))
			}
		} else {
			argv = append(append([]string{}, x.cmd...), items...)
		}
		return x.exec(argv)
	}
	base := 0
	for _, c := range x.cmd {
		base += len(c) + 1
	}
	var cur []string
	size, lines := base, 0
	for {
		items, ok, err := in.next()
		if err != nil {
			var stop *stopError
			if errors.As(err, &stop) {
				return 1
			}
			// Bad input (an unmatched quote): GNU still runs what it has.
			errorf(x.inv, "%s", err)
			if len(cur) > 0 {
				flush(cur)
			}
			return 1
		}
		if !ok {
			break
		}
		if x.replace != "" {
			if stop := flush(items); stop >= 0 {
				return stop
			}
			continue
		}
		if x.maxLines > 0 {
			cur = append(cur, items...)
			lines++
			if lines == x.maxLines {
				if stop := flush(cur); stop >= 0 {
					return stop
				}
				cur, lines = nil, 0
			}
			continue
		}
		for _, it := range items {
			if len(cur) > 0 && (x.maxArgs > 0 && len(cur) >= x.maxArgs || size+len(it)+1 > x.maxChars) {
				if stop := flush(cur); stop >= 0 {
					return stop
				}
				cur, size = nil, base
			}
			cur = append(cur, it)
			size += len(it) + 1
		}
	}
	if len(cur) > 0 {
		if stop := flush(cur); stop >= 0 {
			return stop
		}
	}
	if !ran && !x.noEmpty && x.replace == "" {
		if stop := x.exec(append([]string{}, x.cmd...)); stop >= 0 {
			return stop
		}
	}
	return x.status
}

// stopError wraps a Charge failure: the process must stop at once.
type stopError struct{ err error }

func (e *stopError) Error() string { return e.err.Error() }

// exec runs one command line; it returns a status to stop with, or -1.
func (x *xargser) exec(argv []string) int {
	inv := x.inv
	if x.trace {
		fmt.Fprintln(inv.Stderr, strings.Join(argv, " "))
	}
	st, stop := runChild(inv, command.ExecRequest{Args: argv, Stdin: x.childStdin, Stdout: inv.Stdout, Stderr: inv.Stderr})
	if stop {
		return 1
	}
	switch {
	case st == 255:
		errorf(inv, "%s: exited with status 255; aborting", argv[0])
		return 124
	case st == 126 || st == 127:
		return st
	case st > 128:
		errorf(inv, "%s: terminated by signal %d", argv[0], st-128)
		return 125
	case st != 0:
		x.status = 123
	}
	return -1
}

// splitXargs splits xargs' default input: blanks and newlines separate
// items, single and double quotes and backslashes quote. Items are grouped
// by the input line they end on (for -L).
func splitXargs(s, eof string) ([][]string, bool, error) {
	var lines [][]string
	var line []string
	var cur strings.Builder
	inItem := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			nl := strings.IndexByte(s[i+1:], '\n')
			if j < 0 || nl >= 0 && nl < j {
				kind := "single"
				if c == '"' {
					kind = "double"
				}
				return nil, false, fmt.Errorf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", kind)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inItem = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inItem = true
		case c == ' ' || c == '\t' || c == '\n':
			if inItem {
				if eof != "" && cur.String() == eof {
					if len(line) > 0 {
						lines = append(lines, line)
					}
					return lines, true, nil
				}
				line = append(line, cur.String())
				cur.Reset()
				inItem = false
			}
			// A trailing blank continues the line for -L.
			if c == '\n' && !(i > 0 && (s[i-1] == ' ' || s[i-1] == '\t')) {
				if len(line) > 0 {
					lines = append(lines, line)
				}
				line = nil
			}
		default:
			cur.WriteByte(c)
			inItem = true
		}
	}
	hit := false
	if inItem {
		if eof != "" && cur.String() == eof {
			hit = true
		} else {
			line = append(line, cur.String())
		}
	}
	if len(line) > 0 {
		lines = append(lines, line)
	}
	return lines, hit, nil
}

// xargsNumber reads the count of -n or -L the way GNU xargs checks it.
func xargsNumber(inv *command.Invocation, s, flag string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil {
		errorf(inv, "invalid number \"%s\" for %s option", s, flag)
	} else if n < 1 {
		errorf(inv, "value %d for %s option should be >= 1", n, flag)
	} else {
		return n, true
	}
	fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
	return 0, false
}

func parseDelim(s string) (byte, bool) {
	if len(s) == 1 {
		return s[0], true
	}
	if len(s) >= 2 && s[0] == '\\' {
		switch s[1] {
		case 'n':
			return '\n', len(s) == 2
		case 't':
			return '\t', len(s) == 2
		case '0':
			if len(s) == 2 {
				return 0, true
			}
			v, err := strconv.ParseUint(s[1:], 8, 8)
			return byte(v), err == nil
		case '\\':
			return '\\', len(s) == 2
		case 'x':
			v, err := strconv.ParseUint(s[2:], 16, 8)
			return byte(v), err == nil
		}
	}
	return 0, false
}
