package diff

import (
	"bytes"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"
	"strconv"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// cmp - compare two files byte by byte
//
//	cmp [-b] [-l | -s] [-i SKIP] [-n LIMIT] FILE1 [FILE2]
//
// Prints "a b differ: byte N, line M" for the first difference (exit 1);
// -l lists every differing byte in octal; -s prints nothing.

var cmpSpec = getopt.Spec{
	Short: "bli:n:s",
	Long: []getopt.Long{
		{"bytes=", "n"}, {"ignore-initial=", "i"}, {"print-bytes", "b"}, {"quiet", "s"},
		{"silent", "s"}, {"verbose", "l"},
	},
	Status: 2,
}

// Cmp runs cmp.
func Cmp(inv *command.Invocation) int {
	if inv.Sys.Charge(50) != nil {
		return 2
	}
	opts, files, st, ok := getopt.Parse(inv, &cmpSpec)
	if !ok {
		return st
	}
	printBytes, list, silent := false, false, false
	var skip, limit int64 = 0, -1
	for _, o := range opts {
		switch o.Name {
		case "b":
			printBytes = true
		case "l":
			list = true
		case "s":
			silent = true
		case "i", "n":
			n, err := strconv.ParseInt(o.Val, 10, 64)
			if err != nil || n < 0 {
				what := map[string]string{"i": "ignore-initial", "n": "--bytes"}[o.Name]
				fmt.Fprintf(inv.Stderr, "cmp: invalid %s value '%s'\n", what, o.Val)
				return 2
			}
			if o.Name == "i" {
				skip = n
			} else {
				limit = n
			}
		}
	}
	if list && silent {
		fmt.Fprintf(inv.Stderr, "cmp: options -l and -s are incompatible\n")
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintf(inv.Stderr, "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n")
		return 2
	}
	if len(files) == 1 {
		files = append(files, "-")
	}
	if len(files) > 2 {
		fmt.Fprintf(inv.Stderr, "cmp: invalid --ignore-initial value '%s'\ncmp: Try 'cmp --help' for more information.\n", files[2])
		return 2
	}
	var data [2][]byte
	for i, f := range files {
		var err error
		if f == "-" {
			data[i], err = io.ReadAll(inv.Stdin)
		} else {
			p := inv.Abs(f)
			var fi command.FileInfo
			if fi, err = inv.FS.Stat(p); err == nil && fi.IsDir() {
				err = command.ErrIsDir
			} else if err == nil {
				data[i], err = inv.FS.ReadFile(p)
			}
		}
		if err != nil {
			fmt.Fprintf(inv.Stderr, "cmp: %s: %s\n", f, command.Message(err))
			return 2
		}
		if inv.Sys.Charge(int64(len(data[i]))) != nil {
			return 2
		}
		data[i] = data[i][min(skip, int64(len(data[i]))):]
		if limit >= 0 && int64(len(data[i])) > limit {
			data[i] = data[i][:limit]
		}
	}
	a, b := data[0], data[1]
	n := min(len(a), len(b))
	var out bytes.Buffer
	status := 0
	if list {
		width := len(strconv.Itoa(n))
		for i := 0; i < n; i++ {
			if a[i] != b[i] {
				if printBytes {
					fmt.Fprintf(&out, "%*d %3o %-4s %3o %s\n", width, i+1, a[i], printable(a[i]), b[i], printable(b[i]))
				} else {
					fmt.Fprintf(&out, "%*d %3o %3o\n", width, i+1, a[i], b[i])
				}
				status = 1
			}
		}
	} else {
		line := 1
		for i := 0; i < n; i++ {
			if a[i] != b[i] {
				if !silent {
					if printBytes {
						fmt.Fprintf(&out, "%s %s differ: byte %d, line %d is %3o %s %3o %s\n", files[0], files[1], i+1, line, a[i], printable(a[i]), b[i], printable(b[i]))
					} else {
						fmt.Fprintf(&out, "%s %s differ: byte %d, line %d\n", files[0], files[1], i+1, line)
					}
				}
				if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
					return 2
				}
				return 1
			}
			if a[i] == '\n' {
				line++
			}
		}
	}
	if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
		return 2
	}
	if len(a) != len(b) {
		short := files[0]
		if len(b) < len(a) {
			short = files[1]
		}
		if !silent {
			switch {
			case n == 0:
				fmt.Fprintf(inv.Stderr, "cmp: EOF on %s which is empty\n", short)
			case list:
				fmt.Fprintf(inv.Stderr, "cmp: EOF on %s after byte %d\n", short, n)
			default:
				lines := bytes.Count(a[:n], []byte("\n"))
				// GNU counts the line the EOF falls on; a final newline ends it.
				if n > 0 && a[n-1] != '\n' {
					lines++
				}
				fmt.Fprintf(inv.Stderr, "cmp: EOF on %s after byte %d, line %d\n", short, n, lines)
			}
		}
		return 1
	}
	return status
}

// printable renders a byte the way cmp -b does (cat -v style).
func printable(c byte) string {
	var s string
	if c >= 128 {
		s = "M-"
		c -= 128
	}
	switch {
	case c < 32:
		return s + "^" + string(rune(c+64))
	case c == 127:
		return s + "^?"
	}
	return s + string(rune(c))
}
