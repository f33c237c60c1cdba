package files

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Xargs builds and runs command lines from standard input.
//
//	xargs [-0rt] [-d DELIM] [-n MAX] [-L MAX] [-I REPLACE] [-s SIZE] [-P N] [-a FILE] [COMMAND [ARG]...]
//
// Commands run one after another: -P N > 1 is recorded as Partial and
// runs sequentially, which is one of the schedules GNU xargs may pick.
func Xargs(inv *command.Invocation) int {
	spec := &optSpec{
		short: "0rtd:n:L:I:i::s:P:a:E:e::xpl::",
		long: map[string]string{"null": "0", "no-run-if-empty": "r", "verbose": "t",
			"delimiter=": "d", "max-args=": "n", "max-lines=": "L", "replace": "i", "replace=": "i",
			"max-chars=": "s", "max-procs=": "P", "arg-file=": "a", "eof=": "E", "exit": "x",
			"interactive": "p", "open-tty": "o", "process-slot-var=": "psv", "show-limits": "sl"},
		noPerm:  true,
		partial: map[string]bool{"p": true, "o": true, "psv": true, "sl": true},
	}
	opts, operands, st, ok := getopts(inv, spec)
	if !ok {
		return st
	}
	x := &xargser{inv: inv, maxArgs: 0, maxChars: 131072}
	var delim *byte
	argFile := ""
	eof := ""
	for _, o := range opts {
		switch o.name {
		case "0":
			d := byte(0)
			delim = &d
		case "d":
			d, ok := parseDelim(o.val)
			if !ok {
				errorf(inv, "invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", o.val)
				return 1
			}
			delim = &d
		case "r":
			x.noEmpty = true
		case "t":
			x.trace = true
		case "n":
			n, err := strconv.Atoi(o.val)
			if err != nil || n < 1 {
				errorf(inv, "value %s for -n option should be >= 1", q(o.val))
				return 1
			}
			x.maxArgs = n
			x.maxLines = 0
		case "L", "l":
			n := 1
			if o.val != "" {
				v, err := strconv.Atoi(o.val)
				if err != nil || v < 1 {
					errorf(inv, "value %s for -L option should be >= 1", q(o.val))
					return 1
				}
				n = v
			}
			x.maxLines = n
			x.maxArgs = 0
		case "I", "i":
			r := o.val
			if r == "" {
				r = "{}"
			}
			x.replace = r
		case "s":
			n, err := strconv.Atoi(o.val)
			if err != nil || n < 1 {
				errorf(inv, "invalid number %s for -s option", q(o.val))
				return 1
			}
			x.maxChars = n
		case "P":
			n, err := strconv.Atoi(o.val)
			if err != nil || n < 0 {
				errorf(inv, "invalid number %s for -P option", q(o.val))
				return 1
			}
			if n != 1 {
				inv.Sys.Partial("xargs -P")
			}
		case "a":
			argFile = o.val
		case "E", "e":
			eof = o.val
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
			errorf(inv, "%s: %s", argFile, command.Message(err))
			return 1
		}
		x.childStdin = inv.Stdin
		in = strings.NewReader(string(data))
	}
	data, err := io.ReadAll(in)
	if err != nil {
		return 1
	}
	release, err := inv.Sys.Reserve(int64(len(data)))
	if err != nil {
		return 1
	}
	defer release()
	if err := inv.Sys.Charge(int64(len(data))); err != nil {
		return 1
	}
	var items [][]string // items grouped by input line (for -L)
	if delim != nil {
		var cur []string
		for _, it := range strings.Split(string(data), string(*delim)) {
			cur = append(cur, it)
		}
		if n := len(cur); n > 0 && cur[n-1] == "" {
			cur = cur[:n-1]
		}
		for _, it := range cur {
			items = append(items, []string{it})
		}
	} else if x.replace != "" {
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimLeft(line, " \t")
			if line == "" {
				continue
			}
			items = append(items, []string{line})
		}
		if n := len(items); n > 0 && items[n-1][0] == "" {
			items = items[:n-1]
		}
	} else {
		lines, err := splitXargs(string(data), eof)
		if err != nil {
			errorf(inv, "%s", err)
			return 1
		}
		items = lines
	}
	return x.run(items)
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

func (x *xargser) run(lines [][]string) int {
	if x.replace != "" {
		for _, l := range lines {
			argv := make([]string, len(x.cmd))
			for i, c := range x.cmd {
				argv[i] = strings.ReplaceAll(c, x.replace, l[0])
			}
			if stop := x.exec(argv); stop >= 0 {
				return stop
			}
		}
		return x.status
	}
	var flat []string
	total := 0
	for _, l := range lines {
		flat = append(flat, l...)
		total += len(l)
	}
	if total == 0 {
		if x.noEmpty {
			return 0
		}
		if stop := x.exec(append([]string{}, x.cmd...)); stop >= 0 {
			return stop
		}
		return x.status
	}
	var batches [][]string
	switch {
	case x.maxLines > 0:
		var cur []string
		n := 0
		for _, l := range lines {
			if len(l) == 0 {
				continue
			}
			cur = append(cur, l...)
			n++
			if n == x.maxLines {
				batches = append(batches, cur)
				cur, n = nil, 0
			}
		}
		if len(cur) > 0 {
			batches = append(batches, cur)
		}
	default:
		base := 0
		for _, c := range x.cmd {
			base += len(c) + 1
		}
		var cur []string
		size := base
		for _, it := range flat {
			if len(cur) > 0 && (x.maxArgs > 0 && len(cur) >= x.maxArgs || size+len(it)+1 > x.maxChars) {
				batches = append(batches, cur)
				cur, size = nil, base
			}
			cur = append(cur, it)
			size += len(it) + 1
		}
		if len(cur) > 0 {
			batches = append(batches, cur)
		}
	}
	for _, b := range batches {
		argv := append(append([]string{}, x.cmd...), b...)
		if stop := x.exec(argv); stop >= 0 {
			return stop
		}
	}
	return x.status
}

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
func splitXargs(s, eof string) ([][]string, error) {
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
				return nil, fmt.Errorf("unmatched %s quote; by default quotes are special to xargs unless you use the -0 option", kind)
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
					return lines, nil
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
	if inItem {
		if !(eof != "" && cur.String() == eof) {
			line = append(line, cur.String())
		}
	}
	if len(line) > 0 {
		lines = append(lines, line)
	}
	return lines, nil
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

func init() { command.Register("xargs", command.Real, Xargs) }
