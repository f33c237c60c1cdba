package digest

import (
	"bytes"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// hexdump - display file contents in hexadecimal
//
//	hexdump [-C] [-v] [-n LENGTH] [-s OFFSET] [FILE]...
//
// Without -C it prints 16-bit little-endian words ("0000000 6568 6c6c");
// -C prints the canonical hex+ASCII layout. Custom -e formats are not
// modeled.

var hexdumpSpec = getopt.Spec{Short: "Cvn:s:bcdoxe:f:", Long: []getopt.Long{
	{"canonical", "C"}, {"length=", "n"}, {"no-squeezing", "v"}, {"skip=", "s"},
}}

// Hexdump runs hexdump.
func Hexdump(inv *command.Invocation) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	opts, files, st, ok := getopt.Parse(inv, &hexdumpSpec)
	if !ok {
		return st
	}
	canon, noSqueeze := false, false
	var skip, length int64 = 0, -1
	for _, o := range opts {
		switch o.Name {
		case "C":
			canon = true
		case "v":
			noSqueeze = true
		case "n", "s":
			n, ok := parseSize(o.Val)
			if !ok {
				fmt.Fprintf(inv.Stderr, "hexdump: invalid number '%s'\n", o.Val)
				return 1
			}
			if o.Name == "n" {
				length = n
			} else {
				skip = n
			}
		case "x":
			canon = false
		default:
			inv.Sys.Partial("hexdump -" + o.Name)
			fmt.Fprintf(inv.Stderr, "hexdump: option -%s is not supported here\n", o.Name)
			return 1
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var data []byte
	status := 0
	for _, f := range files {
		r, err := open(inv, f)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "hexdump: %s: %s\n", f, command.Message(err))
			status = 1
			continue
		}
		b, release, err := readAll(inv, r)
		r.Close()
		defer release()
		if err == errStop {
			return 1
		}
		if err != nil {
			fmt.Fprintf(inv.Stderr, "hexdump: %s: %s\n", f, command.Message(err))
			status = 1
			continue
		}
		data = append(data, b...)
	}
	skipped := skip > 0 && len(data) > 0
	skip = min(skip, int64(len(data)))
	data = data[skip:]
	if length >= 0 && length < int64(len(data)) {
		data = data[:length]
	}
	var out bytes.Buffer
	var prev []byte
	starred := false
	for off := 0; off < len(data); off += 16 {
		line := data[off:min(len(data), off+16)]
		if !noSqueeze && prev != nil && len(line) == 16 && bytes.Equal(line, prev) {
			if !starred {
				out.WriteString("*\n")
				starred = true
			}
			continue
		}
		starred, prev = false, line
		addr := skip + int64(off)
		if canon {
			fmt.Fprintf(&out, "%08x ", addr)
			for i := 0; i < 16; i++ {
				if i == 8 {
					out.WriteByte(' ')
				}
				if i < len(line) {
					fmt.Fprintf(&out, " %02x", line[i])
				} else {
					out.WriteString("   ")
				}
			}
			out.WriteString("  |")
			for _, c := range line {
				if c >= 0x20 && c < 0x7f {
					out.WriteByte(c)
				} else {
					out.WriteByte('.')
				}
			}
			out.WriteString("|\n")
			continue
		}
		fmt.Fprintf(&out, "%07x", addr)
		for i := 0; i < 16; i += 2 {
			switch {
			case i+1 < len(line):
				fmt.Fprintf(&out, " %02x%02x", line[i+1], line[i])
			case i < len(line):
				fmt.Fprintf(&out, " 00%02x", line[i])
			default:
				out.WriteString("     ")
			}
		}
		out.WriteByte('\n')
	}
	// An empty dump prints nothing, unless -s moved the offset.
	if len(data) > 0 || skipped {
		if canon {
			fmt.Fprintf(&out, "%08x\n", skip+int64(len(data)))
		} else {
			fmt.Fprintf(&out, "%07x\n", skip+int64(len(data)))
		}
	}
	if inv.Sys.Charge(int64(out.Len())) != nil {
		return 1
	}
	if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
		return 1
	}
	return status
}
