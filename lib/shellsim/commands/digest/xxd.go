package digest

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// xxd - make a hex dump or do the reverse
//
//	xxd [-p] [-u] [-c COLS] [-g BYTES] [-l LEN] [-s SEEK] [-r] [INFILE [OUTFILE]]
//
// The default layout is "00000000: 6865 6c6c 6f0a  hello."; -p prints
// plain hex (30 bytes a line); -r turns either layout back into bytes.

type xxdOpts struct {
	plain, upper, reverse bool
	include               bool
	cols, group           int
	length, seek          int64
	hasLen                bool
}

// Xxd runs xxd.
func Xxd(inv *command.Invocation) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	o := xxdOpts{cols: -1, group: -1}
	var files []string
	args := inv.Args[1:]
	num := func(s string) (int64, bool) {
		n, err := strconv.ParseInt(s, 0, 64)
		return n, err == nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") {
			files = append(files, a)
			continue
		}
		flag := strings.TrimLeft(a, "-")
		var key, val string
		for _, k := range []string{"cols", "groupsize", "len", "seek", "c", "g", "l", "s"} {
			if strings.HasPrefix(flag, k) {
				key, val = k[:1], flag[len(k):]
				break
			}
		}
		if key != "" {
			val = strings.TrimPrefix(val, "=")
			if val == "" {
				if i+1 >= len(args) {
					fmt.Fprintf(inv.Stderr, "xxd: option -%s requires an argument\n", key)
					return 1
				}
				i++
				val = args[i]
			}
			n, ok := num(strings.TrimPrefix(val, "+"))
			if !ok {
				fmt.Fprintf(inv.Stderr, "xxd: invalid number '%s'\n", val)
				return 1
			}
			switch key {
			case "c":
				o.cols = int(n)
			case "g":
				o.group = int(n)
			case "l":
				o.length, o.hasLen = n, true
			case "s":
				o.seek = n
			}
			continue
		}
		switch flag {
		case "p", "ps", "postscript", "plain":
			o.plain = true
		case "u":
			o.upper = true
		case "r", "revert":
			o.reverse = true
		case "rp", "pr":
			o.reverse, o.plain = true, true
		case "i", "include":
			o.include = true
		default:
			inv.Sys.Partial("xxd " + a)
			fmt.Fprintf(inv.Stderr, "xxd: option %s is not supported here\n", a)
			return 1
		}
	}
	if len(files) > 2 {
		fmt.Fprintf(inv.Stderr, "xxd: too many arguments\n")
		return 1
	}
	in := "-"
	if len(files) > 0 {
		in = files[0]
	}
	r, err := open(inv, in)
	if err != nil {
		fmt.Fprintf(inv.Stderr, "xxd: %s: %s\n", in, command.Message(err))
		return 2
	}
	data, release, err := readAll(inv, r)
	r.Close()
	defer release()
	if err == errStop {
		return 1
	}
	if err != nil {
		fmt.Fprintf(inv.Stderr, "xxd: %s: %s\n", in, command.Message(err))
		return 2
	}
	var out bytes.Buffer
	if o.reverse {
		out.Write(xxdReverse(data, o.plain))
	} else {
		if o.seek < 0 {
			o.seek += int64(len(data))
		}
		o.seek = min(max(o.seek, 0), int64(len(data)))
		data = data[o.seek:]
		if o.hasLen && o.length < int64(len(data)) {
			data = data[:max(o.length, 0)]
		}
		if o.include {
			o.cInclude(&out, data, in)
		} else {
			o.dump(&out, data)
		}
	}
	if inv.Sys.Charge(int64(out.Len())) != nil {
		return 1
	}
	if len(files) == 2 {
		if err := inv.FS.WriteFile(inv.Abs(files[1]), out.Bytes(), 0o644); err != nil {
			fmt.Fprintf(inv.Stderr, "xxd: %s: %s\n", files[1], command.Message(err))
			return 3
		}
		return 0
	}
	if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
		return 1
	}
	return 0
}

func (o *xxdOpts) dump(out *bytes.Buffer, data []byte) {
	hexd := "0123456789abcdef"
	if o.upper {
		hexd = "0123456789ABCDEF"
	}
	if o.plain {
		cols := o.cols
		if cols <= 0 {
			cols = 30
		}
		for i := 0; i < len(data); i += cols {
			for _, c := range data[i:min(len(data), i+cols)] {
				out.WriteByte(hexd[c>>4])
				out.WriteByte(hexd[c&15])
			}
			out.WriteByte('\n')
		}
		return
	}
	cols, group := o.cols, o.group
	if cols <= 0 {
		cols = 16
	}
	if group < 0 {
		group = 2
	}
	if group == 0 {
		group = cols
	}
	width := cols*2 + (cols+group-1)/group
	for i := 0; i < len(data); i += cols {
		line := data[i:min(len(data), i+cols)]
		fmt.Fprintf(out, "%08x: ", o.seek+int64(i))
		start := out.Len()
		for j, c := range line {
			out.WriteByte(hexd[c>>4])
			out.WriteByte(hexd[c&15])
			if (j+1)%group == 0 || j == cols-1 {
				out.WriteByte(' ')
			}
		}
		if len(line) < cols && len(line)%group != 0 {
			out.WriteByte(' ')
		}
		for out.Len()-start < width {
			out.WriteByte(' ')
		}
		out.WriteByte(' ')
		for _, c := range line {
			if c >= 0x20 && c < 0x7f {
				out.WriteByte(c)
			} else {
				out.WriteByte('.')
			}
		}
		out.WriteByte('\n')
	}
}

// xxdReverse turns a hex dump back into bytes. In the default layout each
// line is "ADDR: HEX...  ASCII" and the bytes land at ADDR.
func xxdReverse(data []byte, plain bool) []byte {
	var out []byte
	hexval := func(c byte) int {
		switch {
		case c >= '0' && c <= '9':
			return int(c - '0')
		case c >= 'a' && c <= 'f':
			return int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			return int(c-'A') + 10
		}
		return -1
	}
	if plain {
		hi := -1
		for _, c := range data {
			v := hexval(c)
			if v < 0 {
				continue
			}
			if hi < 0 {
				hi = v
			} else {
				out = append(out, byte(hi<<4|v))
				hi = -1
			}
		}
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		addrS, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		addr, err := strconv.ParseInt(strings.TrimSpace(addrS), 16, 64)
		if err != nil {
			continue
		}
		// The hex column ends at the first double space.
		if i := strings.Index(strings.TrimLeft(rest, " "), "  "); i >= 0 {
			rest = strings.TrimLeft(rest, " ")[:i]
		}
		var b []byte
		hi := -1
		for _, c := range []byte(rest) {
			v := hexval(c)
			if v < 0 {
				if c != ' ' {
					break
				}
				continue
			}
			if hi < 0 {
				hi = v
			} else {
				b = append(b, byte(hi<<4|v))
				hi = -1
			}
		}
		for int64(len(out)) < addr {
			out = append(out, 0)
		}
		end := int(addr) + len(b)
		if end > len(out) {
			out = append(out, make([]byte, end-len(out))...)
		}
		copy(out[addr:], b)
	}
	return out
}

// cInclude writes data as a C array (xxd -i), named after the file.
func (o *xxdOpts) cInclude(out *bytes.Buffer, data []byte, name string) {
	cols := o.cols
	if cols <= 0 {
		cols = 12
	}
	hexd := "0123456789abcdef"
	if o.upper {
		hexd = "0123456789ABCDEF"
	}
	ident := ""
	if name != "-" {
		b := []byte(name)
		for i, c := range b {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				b[i] = '_'
			}
		}
		ident = string(b)
		if ident != "" && ident[0] >= '0' && ident[0] <= '9' {
			ident = "__" + ident
		}
		fmt.Fprintf(out, "unsigned char %s[] = {\n", ident)
	}
	for i := 0; i < len(data); i += cols {
		out.WriteString("  ")
		end := min(len(data), i+cols)
		for j := i; j < end; j++ {
			out.WriteString("0x")
			out.WriteByte(hexd[data[j]>>4])
			out.WriteByte(hexd[data[j]&15])
			if j+1 < len(data) {
				out.WriteByte(',')
				if j+1 < end {
					out.WriteByte(' ')
				}
			}
		}
		out.WriteByte('\n')
	}
	if ident != "" {
		fmt.Fprintf(out, "};\nunsigned int %s_len = %d;\n", ident, len(data))
	}
}
