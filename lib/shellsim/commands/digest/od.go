package digest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// od - dump files in octal and other formats
//
//	od [-A d|o|x|n] [-t TYPE]... [-bcdiloxsv] [-j SKIP] [-N COUNT] [FILE]...
//
// TYPE is a, c, d[SIZE], o[SIZE], u[SIZE] or x[SIZE] (SIZE 1, 2, 4, 8 or
// C, S, I, L); floating point types are not modeled. Repeated 16-byte
// blocks collapse to "*" unless -v. Columns line up across several types
// the way GNU od pads them.

type odType struct {
	kind  byte // a c d o u x
	size  int
	width int // GNU field width without the separating pad
}

// GNU od's -w takes an optional argument (-w[BYTES]); ShellSim refuses -w
// either way, and parses it as taking a required one as it always has.
var odSpec = getopt.Spec{Short: "A:t:j:N:w:bcdiloxsv", Long: []getopt.Long{
	{"address-radix=", "A"}, {"format=", "t"}, {"output-duplicates", "v"}, {"read-bytes=", "N"},
	{"skip-bytes=", "j"}, {"width=", "w"},
}}

func odWidth(kind byte, size int) int {
	switch kind {
	case 'x':
		return size * 2
	case 'o':
		return map[int]int{1: 3, 2: 6, 4: 11, 8: 22}[size]
	case 'u':
		return map[int]int{1: 3, 2: 5, 4: 10, 8: 20}[size]
	case 'd':
		return map[int]int{1: 4, 2: 6, 4: 11, 8: 20}[size]
	}
	return 3 // a, c
}

// parseOdType parses one -t argument, which may hold several types ("x1c").
func parseOdType(s string) ([]odType, bool) {
	var out []odType
	for len(s) > 0 {
		k := s[0]
		s = s[1:]
		switch k {
		case 'a', 'c':
			out = append(out, odType{k, 1, 3})
			continue
		case 'd', 'o', 'u', 'x':
		default:
			return nil, false
		}
		size := 4
		if len(s) > 0 {
			switch s[0] {
			case 'C':
				size, s = 1, s[1:]
			case 'S':
				size, s = 2, s[1:]
			case 'I':
				size, s = 4, s[1:]
			case 'L':
				size, s = 8, s[1:]
			default:
				j := 0
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				if j > 0 {
					n, _ := strconv.Atoi(s[:j])
					if n != 1 && n != 2 && n != 4 && n != 8 {
						return nil, false
					}
					size, s = n, s[j:]
				}
			}
		}
		out = append(out, odType{k, size, odWidth(k, size)})
	}
	return out, len(out) > 0
}

// parseSize parses od's byte counts: decimal, 0x hex, leading-0 octal,
// with optional b (512), k (1024) or m suffixes.
func parseSize(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "b") && !strings.HasPrefix(s, "0x"):
		mult, s = 512, s[:len(s)-1]
	case strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K"):
		mult, s = 1024, s[:len(s)-1]
	case strings.HasSuffix(s, "m") || strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n * mult, true
}

// Od runs od.
func Od(inv *command.Invocation) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	opts, files, st, ok := getopt.Parse(inv, &odSpec)
	if !ok {
		return st
	}
	radix := byte('o')
	var types []odType
	var skip, limit int64 = 0, -1
	dup := false
	add := func(s string) bool {
		t, ok := parseOdType(s)
		if !ok {
			fmt.Fprintf(inv.Stderr, "od: invalid type string '%s'\n", s)
			return false
		}
		types = append(types, t...)
		return true
	}
	for _, o := range opts {
		switch o.Name {
		case "A":
			if len(o.Val) != 1 || !strings.Contains("doxn", o.Val) {
				fmt.Fprintf(inv.Stderr, "od: invalid output address radix '%s'; it must be one character from [doxn]\n", o.Val)
				return 1
			}
			radix = o.Val[0]
		case "t":
			if strings.ContainsAny(o.Val, "fz") {
				inv.Sys.Partial("od -t " + o.Val)
				fmt.Fprintf(inv.Stderr, "od: type '%s' is not supported here\n", o.Val)
				return 1
			}
			if !add(o.Val) {
				return 1
			}
		case "j", "N":
			n, ok := parseSize(o.Val)
			if !ok {
				fmt.Fprintf(inv.Stderr, "od: invalid argument '%s'\n", o.Val)
				return 1
			}
			if o.Name == "j" {
				skip = n
			} else {
				limit = n
			}
		case "v":
			dup = true
		case "w":
			inv.Sys.Partial("od -w")
			fmt.Fprintln(inv.Stderr, "od: -w is not supported here")
			return 1
		case "b":
			add("o1")
		case "c":
			add("c")
		case "d":
			add("u2")
		case "i":
			add("d4")
		case "l":
			add("d8")
		case "o":
			add("o2")
		case "s":
			add("d2")
		case "x":
			add("x2")
		}
	}
	if len(types) == 0 {
		types = []odType{{'o', 2, 6}}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	// od reads its operands as one stream.
	var data []byte
	status := 0
	for _, f := range files {
		r, err := open(inv, f)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "od: %s: %s\n", f, command.Message(err))
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
			fmt.Fprintf(inv.Stderr, "od: %s: %s\n", f, command.Message(err))
			status = 1
			continue
		}
		data = append(data, b...)
	}
	if skip > int64(len(data)) {
		fmt.Fprintln(inv.Stderr, "od: cannot skip past end of combined input")
		return 1
	}
	data = data[skip:]
	if limit >= 0 && limit < int64(len(data)) {
		data = data[:limit]
	}
	var out bytes.Buffer
	odDump(&out, data, types, radix, skip, dup)
	if inv.Sys.Charge(int64(out.Len())) != nil {
		return 1
	}
	if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
		return 1
	}
	return status
}

func odAddr(radix byte, n int64) string {
	switch radix {
	case 'd':
		return fmt.Sprintf("%07d", n)
	case 'x':
		return fmt.Sprintf("%06x", n)
	case 'n':
		return ""
	}
	return fmt.Sprintf("%07o", n)
}

var odNames = [...]string{"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"}

func odDump(out *bytes.Buffer, data []byte, types []odType, radix byte, base int64, noDup bool) {
	const block = 16
	widthPerBlock := 0
	for _, t := range types {
		widthPerBlock = max(widthPerBlock, (t.width+1)*(block/t.size))
	}
	var prev []byte
	starred := false
	for off := 0; off < len(data); off += block {
		line := data[off:min(len(data), off+block)]
		if !noDup && prev != nil && len(line) == block && bytes.Equal(line, prev) {
			if !starred {
				out.WriteString("*\n")
				starred = true
			}
			continue
		}
		starred = false
		prev = line
		padded := make([]byte, block)
		copy(padded, line)
		addr := odAddr(radix, base+int64(off))
		for i, t := range types {
			if i == 0 {
				out.WriteString(addr)
			} else {
				out.WriteString(strings.Repeat(" ", len(addr)))
			}
			fields := block / t.size
			shown := (len(line) + t.size - 1) / t.size
			pad := widthPerBlock - t.width*fields
			padRemaining := pad
			for f := 0; f < shown; f++ {
				nextPad := pad * (fields - f - 1) / fields
				w := padRemaining - nextPad + t.width
				padRemaining = nextPad
				out.WriteString(fmt.Sprintf("%*s", w, odField(t, padded[f*t.size:(f+1)*t.size])))
			}
			out.WriteByte('\n')
		}
	}
	if radix != 'n' {
		out.WriteString(odAddr(radix, base+int64(len(data))) + "\n")
	}
}

func odField(t odType, b []byte) string {
	var u uint64
	switch t.size {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		u = binary.LittleEndian.Uint64(b)
	}
	switch t.kind {
	case 'x':
		return fmt.Sprintf("%0*x", t.width, u)
	case 'o':
		return fmt.Sprintf("%0*o", t.width, u)
	case 'u':
		return strconv.FormatUint(u, 10)
	case 'd':
		shift := 64 - 8*t.size
		return strconv.FormatInt(int64(u<<shift)>>shift, 10)
	case 'a':
		c := b[0] & 0x7f
		switch {
		case c <= 32:
			return odNames[c]
		case c == 127:
			return "del"
		}
		return string(rune(c))
	}
	c := b[0]
	switch c {
	case 0:
		return `\0`
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if c >= 0x20 && c < 0x7f {
		return string(rune(c))
	}
	return fmt.Sprintf("%03o", c)
}
