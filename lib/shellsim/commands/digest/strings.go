package digest

import (
	"bytes"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"strconv"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// strings - print the sequences of printable characters in files
//
//	strings [-a] [-n MIN | -MIN] [-t d|o|x] [FILE]...
//
// A string is a run of at least MIN (default 4) printable ASCII bytes or
// tabs; the whole file is always scanned (-a is the default).

// Strings runs strings.
func Strings(inv *command.Invocation) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	// -NUM is an old spelling of -n NUM.
	args := []string{inv.Args[0]}
	for _, a := range inv.Args[1:] {
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			args = append(args, "-n", a[1:])
			continue
		}
		args = append(args, a)
	}
	sub := *inv
	sub.Args = args
	opts, files, st, ok := getopt.Parse(&sub, &getopt.Spec{Short: "an:t:fd", Long: []getopt.Long{
		{"all", "a"}, {"bytes=", "n"}, {"data", "d"}, {"print-file-name", "f"}, {"radix=", "t"},
	}})
	if !ok {
		return st
	}
	minLen, radix, withName := 4, byte(0), false
	for _, o := range opts {
		switch o.Name {
		case "n":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 1 {
				fmt.Fprintf(inv.Stderr, "strings: invalid minimum string length %s\n", o.Val)
				return 1
			}
			minLen = n
		case "t":
			if o.Val != "d" && o.Val != "o" && o.Val != "x" {
				fmt.Fprintf(inv.Stderr, "strings: invalid radix: %s\n", o.Val)
				return 1
			}
			radix = o.Val[0]
		case "f":
			withName = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		r, err := open(inv, f)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "strings: %s: %s\n", f, command.Message(err))
			status = 1
			continue
		}
		data, release, err := readAll(inv, r)
		r.Close()
		if err == errStop {
			return 1
		}
		if err != nil {
			release()
			fmt.Fprintf(inv.Stderr, "strings: %s: %s\n", f, command.Message(err))
			status = 1
			continue
		}
		var out bytes.Buffer
		name := f
		if f == "-" {
			name = "{standard input}"
		}
		start := -1
		flush := func(end int) {
			if start >= 0 && end-start >= minLen {
				if withName {
					out.WriteString(name + ": ")
				}
				switch radix {
				case 'd':
					fmt.Fprintf(&out, "%7d ", start)
				case 'o':
					fmt.Fprintf(&out, "%7o ", start)
				case 'x':
					fmt.Fprintf(&out, "%7x ", start)
				}
				out.Write(data[start:end])
				out.WriteByte('\n')
			}
			start = -1
		}
		for i, c := range data {
			if (c >= 0x20 && c < 0x7f) || c == '\t' {
				if start < 0 {
					start = i
				}
				continue
			}
			flush(i)
		}
		flush(len(data))
		release()
		if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
			return 1
		}
	}
	return status
}
