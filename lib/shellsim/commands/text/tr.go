package text

import (
	"fmt"
	"io"
	"strconv"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// tr - translate or delete characters
//
//	tr [-cdst] SET1 [SET2]
//
// Sets take escapes (\n, \t, \NNN), ranges (a-z), classes ([:digit:]),
// equivalence classes ([=c=]) and repeats ([c*N], [c*]). Characters are
// bytes, as in the C locale.

var trSpec = getopt.Spec{
	Short: "cCdst",
	Long: []getopt.Long{
		{"complement", "c"}, {"delete", "d"}, {"squeeze-repeats", "s"}, {"truncate-set1", "t"},
		{"help", "help"}, {"version", "version"},
	},
	GNUOrder: true,
}

var trClasses = map[string]func(c byte) bool{
	"alnum": isAlnum, "alpha": isAlpha, "digit": isDigit,
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"cntrl":  func(c byte) bool { return c < 32 || c == 127 },
	"graph":  func(c byte) bool { return c > 32 && c < 127 },
	"lower":  func(c byte) bool { return c >= 'a' && c <= 'z' },
	"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
	"print":  func(c byte) bool { return c >= 32 && c < 127 },
	"punct":  func(c byte) bool { return c > 32 && c < 127 && !isAlnum(c) },
	"space":  func(c byte) bool { return c == ' ' || (c >= 9 && c <= 13) },
	"xdigit": isHex,
}

// trSet is an expanded set; fill marks the position of a [c*] repeat.
type trSet struct {
	chars   []byte
	fill    int // index of [c*] in chars, -1 if none
	fillC   byte
	classes []string
}

// parseTrSet expands a SET operand. second is true for SET2.
func parseTrSet(p *proc, s string, second bool) (trSet, string) {
	set := trSet{fill: -1}
	b := []byte(s)
	// unescape one character at i, returning it and the next index.
	esc := func(i int) (byte, int) {
		if b[i] != '\\' {
			return b[i], i + 1
		}
		if i+1 >= len(b) {
			p.warn("warning: an unescaped backslash at end of string is not portable")
			return '\\', i + 1
		}
		c := b[i+1]
		switch c {
		case 'a':
			return 7, i + 2
		case 'b':
			return 8, i + 2
		case 'f':
			return 12, i + 2
		case 'n':
			return 10, i + 2
		case 'r':
			return 13, i + 2
		case 't':
			return 9, i + 2
		case 'v':
			return 11, i + 2
		}
		if c >= '0' && c <= '7' {
			v, j := 0, i+1
			for j < len(b) && j < i+4 && b[j] >= '0' && b[j] <= '7' && v*8+int(b[j]-'0') < 256 {
				v = v*8 + int(b[j]-'0')
				j++
			}
			return byte(v), j
		}
		return c, i + 2
	}
	for i := 0; i < len(b); {
		if b[i] == '[' && i+1 < len(b) {
			// [:class:], [=c=]
			if b[i+1] == ':' || b[i+1] == '=' {
				kind := b[i+1]
				end := -1
				for k := i + 2; k+1 < len(b); k++ {
					if b[k] == kind && b[k+1] == ']' {
						end = k
						break
					}
				}
				if end > i+2 {
					name := string(b[i+2 : end])
					if kind == ':' {
						f, ok := trClasses[name]
						if !ok {
							return set, "invalid character class " + quote(name)
						}
						if second && name != "upper" && name != "lower" {
							return set, "when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'"
						}
						set.classes = append(set.classes, name)
						for c := 0; c < 256; c++ {
							if f(byte(c)) {
								set.chars = append(set.chars, byte(c))
							}
						}
					} else {
						if len(name) != 1 {
							return set, name + ": equivalence class operand must be a single character"
						}
						set.chars = append(set.chars, name[0])
					}
					i = end + 2
					continue
				}
			}
			// [c*N] or [c*]
			c, j := esc(i + 1)
			if j < len(b) && b[j] == '*' {
				k := j + 1
				for k < len(b) && b[k] >= '0' && b[k] <= '9' {
					k++
				}
				if k < len(b) && b[k] == ']' {
					numStr := string(b[j+1 : k])
					if numStr == "" {
						if !second {
							return set, "the [c*] repeat construct may not appear in string1"
						}
						if set.fill >= 0 {
							return set, "only one [c*] repeat construct may appear in string2"
						}
						set.fill, set.fillC = len(set.chars), c
					} else {
						base := 10
						if numStr[0] == '0' {
							base = 8
						}
						n, err := strconv.ParseInt(numStr, base, 32)
						if err != nil {
							return set, "invalid repeat count " + quote(numStr) + " in [c*n] construct"
						}
						if n == 0 {
							if !second {
								return set, "the [c*] repeat construct may not appear in string1"
							}
							if set.fill >= 0 {
								return set, "only one [c*] repeat construct may appear in string2"
							}
							set.fill, set.fillC = len(set.chars), c
						}
						for range n {
							set.chars = append(set.chars, c)
						}
					}
					i = k + 1
					continue
				}
			}
		}
		c, j := esc(i)
		// Range c-d.
		if j+1 < len(b) && b[j] == '-' {
			d, k := esc(j + 1)
			if d < c {
				return set, fmt.Sprintf("range-endpoints of %s are in reverse collating sequence order", qfile(string(b[i:k])))
			}
			for x := int(c); x <= int(d); x++ {
				set.chars = append(set.chars, byte(x))
			}
			i = k
			continue
		}
		set.chars = append(set.chars, c)
		i = j
	}
	return set, ""
}

// Tr runs tr.
func Tr(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, args, ok := p.parse(&trSpec)
	if !ok {
		return p.status
	}
	var comp, del, squeeze, trunc bool
	for _, o := range opts {
		switch o.Name {
		case "c", "C":
			comp = true
		case "d":
			del = true
		case "s":
			squeeze = true
		case "t":
			trunc = true
		}
	}
	translating := !del && len(args) == 2
	switch {
	case len(args) == 0:
		return p.usageErr("missing operand")
	case len(args) == 1 && !del && !squeeze:
		p.warn("missing operand after %s", quote(args[0]))
		fmt.Fprintf(p.Stderr, "Two strings must be given when translating.\n")
		return p.usageErr("")
	case len(args) == 2 && del && !squeeze:
		p.warn("extra operand %s", quote(args[1]))
		fmt.Fprintf(p.Stderr, "Only one string may be given when deleting without squeezing repeats.\n")
		return p.usageErr("")
	case len(args) > 2:
		return p.usageErr("extra operand %s", quote(args[2]))
	}
	s1, msg := parseTrSet(p, args[0], false)
	if msg != "" {
		p.warn("%s", msg)
		return p.exit(1)
	}
	var in1 [256]bool
	for _, c := range s1.chars {
		in1[c] = true
	}
	if comp {
		var cs []byte
		for c := 0; c < 256; c++ {
			if !in1[c] {
				cs = append(cs, byte(c))
			}
		}
		s1.chars = cs
		in1 = [256]bool{}
		for _, c := range cs {
			in1[c] = true
		}
	}
	var s2 trSet
	var in2 [256]bool
	if len(args) == 2 {
		s2, msg = parseTrSet(p, args[1], translating)
		if msg != "" {
			p.warn("%s", msg)
			return p.exit(1)
		}
		if s2.fill >= 0 {
			n := len(s1.chars) - len(s2.chars)
			if n > 0 {
				fill := make([]byte, n)
				for i := range fill {
					fill[i] = s2.fillC
				}
				s2.chars = append(s2.chars[:s2.fill], append(fill, s2.chars[s2.fill:]...)...)
			}
		}
		for _, c := range s2.chars {
			in2[c] = true
		}
	}
	var xlat [256]byte
	for i := range xlat {
		xlat[i] = byte(i)
	}
	if translating {
		if len(s2.chars) == 0 && !trunc {
			p.warn("when not truncating set1, string2 must be non-empty")
			return p.exit(1)
		}
		if trunc && len(s1.chars) > len(s2.chars) {
			s1.chars = s1.chars[:len(s2.chars)]
		}
		for i, c := range s1.chars {
			t := s2.chars[len(s2.chars)-1]
			if i < len(s2.chars) {
				t = s2.chars[i]
			}
			xlat[c] = t
		}
	}
	// The squeeze set is the last operand given.
	var sq [256]bool
	if squeeze {
		if len(args) == 2 {
			sq = in2
		} else {
			sq = in1
		}
	}
	buf := make([]byte, 32*1024)
	in := &meter{p, p.Stdin}
	last := -1
	for {
		n, err := in.Read(buf)
		out := buf[:0]
		for _, c := range buf[:n] {
			if del && in1[c] {
				continue
			}
			if translating {
				c = xlat[c]
			}
			if squeeze && sq[c] && int(c) == last {
				continue
			}
			last = int(c)
			out = append(out, c)
		}
		if len(out) > 0 && !p.write(out) {
			return p.exit(1)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if err == errStop {
				return p.exit(1)
			}
			p.warn("read error: %s", command.Message(err))
			return p.exit(1)
		}
	}
	return p.exit(0)
}
