package shell

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
)

func biPrintf(sh *Shell, args []string) int {
	a := args[1:]
	varName := ""
	if len(a) >= 2 && a[0] == "-v" {
		varName, a = a[1], a[2:]
	} else if len(a) >= 1 && strings.HasPrefix(a[0], "-v") && len(a[0]) > 2 {
		varName, a = a[0][2:], a[1:]
	}
	if base, _, _ := strings.Cut(varName, "["); varName != "" && !syntax.ValidName(base) {
		sh.bierr("printf", "`%s': not a valid identifier", varName)
		return 2
	}
	if len(a) > 0 && a[0] == "--" {
		a = a[1:]
	}
	if len(a) == 0 {
		io.WriteString(sh.stderr(), "printf: usage: printf [-v var] format [arguments]\n") // bash: no line prefix
		return 2
	}
	out, st, err := sh.formatPrintf(a[0], a[1:])
	if err != nil {
		sh.bierr("printf", "%v", err)
		return 1
	}
	if sh.charge(int64(len(out))) != nil {
		return 1
	}
	if varName != "" {
		var e error
		if i := strings.IndexByte(varName, '['); i > 0 && strings.HasSuffix(varName, "]") {
			e = sh.setIndex(varName[:i], varName[i+1:len(varName)-1], out, false)
		} else {
			e = sh.SetVar(varName, out)
		}
		if e != nil {
			sh.builtinAssignError(e)
			return 1
		}
		return st
	}
	if r := sh.write(out); r != 0 {
		return r
	}
	return st
}

// formatPrintf implements bash's printf: the format is reused while
// arguments remain.
func (sh *Shell) formatPrintf(format string, args []string) (string, int, error) {
	var b strings.Builder
	status := 0
	argi := 0
	next := func() (string, bool) {
		if argi < len(args) {
			argi++
			return args[argi-1], true
		}
		return "", false
	}
	for {
		consumed := argi
		stop := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c == '\\' {
				s, n, st := printfEscape(format[i:], sh.utf8())
				b.WriteString(s)
				i += n - 1
				if st {
					return b.String(), status, nil
				}
				continue
			}
			if c != '%' {
				b.WriteByte(c)
				continue
			}
			if i+1 < len(format) && format[i+1] == '%' {
				b.WriteByte('%')
				i++
				continue
			}
			// parse %[flags][width][.prec]verb
			j := i + 1
			flags := ""
			for j < len(format) && strings.IndexByte("-+ #0'", format[j]) >= 0 {
				// ' groups thousands, which the C and C.UTF-8 locales do not
				if format[j] != '\'' {
					flags += string(format[j])
				}
				j++
			}
			width := ""
			if j < len(format) && format[j] == '*' {
				s, _ := next()
				n, _ := strconv.Atoi(strings.TrimSpace(s))
				if n < 0 {
					flags += "-"
					n = -n
				}
				width = strconv.Itoa(n)
				j++
			} else {
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					width += string(format[j])
					j++
				}
			}
			prec := ""
			hasPrec := false
			if j < len(format) && format[j] == '.' {
				hasPrec = true
				j++
				if j < len(format) && format[j] == '*' {
					s, _ := next()
					n, _ := strconv.Atoi(strings.TrimSpace(s))
					prec = strconv.Itoa(n)
					j++
				} else {
					for j < len(format) && format[j] >= '0' && format[j] <= '9' {
						prec += string(format[j])
						j++
					}
				}
				if prec == "" {
					prec = "0"
				}
			}
			for j < len(format) && strings.IndexByte("hlLqjzt", format[j]) >= 0 && !(format[j] == 'q' && (j+1 >= len(format) || strings.IndexByte("diouxXeEfFgGcsbq", format[j+1]) < 0)) {
				j++
			}
			if j < len(format) && format[j] == '(' {
				end := strings.Index(format[j:], ")T")
				if end < 0 {
					return b.String(), 1, fmt.Errorf("`(': invalid format character")
				}
				tf := format[j+1 : j+end]
				arg, _ := next()
				t := sh.rt.Now()
				if arg != "" && arg != "-1" {
					if n, err := strconv.ParseInt(arg, 10, 64); err == nil && n != -2 {
						t = time.Unix(n, 0).UTC()
					}
				}
				spec := "%" + flags + width
				if hasPrec {
					spec += "." + prec
				}
				writeWide(&b, flags, width, prec, hasPrec, 's', strftime(tf, t))
				i = j + end + 1
				continue
			}
			if j >= len(format) {
				b.WriteString(format[i:])
				return b.String(), 1, fmt.Errorf("`%s': missing format character", format[i:])
			}
			verb := format[j]
			// Huge widths would be built on the host before any charge:
			// they must fit the memory limit twice (the result and the copy
			// its reader makes) or die of it.
			for _, n := range []string{width, prec} {
				v, err := strconv.ParseInt(n, 10, 64)
				if err != nil && n != "" {
					v = math.MaxInt64 / 4 // out of range: more than any limit
				}
				if v > 1<<16 {
					if err := sh.checkSize(2 * v); err != nil {
						return b.String(), 1, err
					}
				}
			}
			if b.Len() > 1<<16 {
				if err := sh.charge(int64(b.Len()) / 64); err != nil {
					return b.String(), 1, err
				}
			}
			spec := "%" + flags + width
			if hasPrec {
				spec += "." + prec
			}
			arg, have := next()
			switch verb {
			case 's':
				writeWide(&b, flags, width, prec, hasPrec, 's', arg)
			case 'b':
				s, st := expandEscapes(arg, false, sh.utf8())
				writeWide(&b, flags, width, prec, hasPrec, 's', s)
				if st {
					return b.String(), status, nil
				}
			case 'q':
				s := bashQuote(arg, sh.utf8())
				if !have {
					s = "''"
				}
				writeWide(&b, flags, width, prec, hasPrec, 's', s)
			case 'c':
				s := ""
				if arg != "" {
					_, n := utf8.DecodeRuneInString(arg)
					s = arg[:n]
				}
				writeWide(&b, flags, width, "", false, 's', s)
			case 'd', 'i':
				n, err := parseInt(arg)
				if err != nil {
					sh.bierr("printf", "%s: %v", arg, err)
					status = 1
				}
				writeWide(&b, flags, width, prec, hasPrec, 'd', n)
			case 'u', 'o', 'x', 'X':
				n, err := parseInt(arg)
				if err != nil {
					sh.bierr("printf", "%s: %v", arg, err)
					status = 1
				}
				v := verb
				if v == 'u' {
					v = 'd'
				}
				writeWide(&b, flags, width, prec, hasPrec, v, uint64(n))
			case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
				f, err := parseFloat(arg)
				if err != nil {
					sh.bierr("printf", "%s: invalid number", arg)
					status = 1
				}
				v := verb
				if v == 'F' {
					v = 'f'
				}
				if (v == 'g' || v == 'G') && !hasPrec {
					prec, hasPrec = "6", true
				}
				if v == 'a' || v == 'A' {
					v = v - 'a' + 'x'
				}
				s := sprintfWide(flags, width, prec, hasPrec, v, f)
				if math.IsInf(f, 0) || math.IsNaN(f) {
					s = strings.ToLower(strings.TrimPrefix(s, "+"))
					if verb >= 'A' && verb <= 'Z' {
						s = strings.ToUpper(s)
					}
					if f > 0 && strings.Contains(flags, "+") {
						s = "+" + s
					}
				}
				b.WriteString(s)
			default:
				return b.String(), 1, fmt.Errorf("`%c': invalid format character", verb)
			}
			i = j
		}
		if stop || argi == consumed || argi >= len(args) {
			break
		}
	}
	return b.String(), status, nil
}

// printfEscape interprets one backslash escape of a printf format.
func printfEscape(s string, utf bool) (string, int, bool) {
	if len(s) < 2 {
		return s, len(s), false
	}
	switch c := s[1]; c {
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n, j := 0, 1
		for j < len(s) && j < 4 && s[j] >= '0' && s[j] <= '7' {
			n = n*8 + int(s[j]-'0')
			j++
		}
		return string([]byte{byte(n)}), j, false
	case 'x':
		n, j := 0, 2
		for j < len(s) && j < 4 && isHex(s[j]) {
			n = n*16 + hexVal(s[j])
			j++
		}
		if j == 2 {
			return `\x`, 2, false
		}
		return string([]byte{byte(n)}), j, false
	case 'u', 'U':
		l := 4
		if c == 'U' {
			l = 8
		}
		n, j := 0, 2
		for j < len(s) && j < 2+l && isHex(s[j]) {
			n = n*16 + hexVal(s[j])
			j++
		}
		if j == 2 {
			return s[:2], 2, false
		}
		return expand.UnicodeEscape(c, rune(n), utf), j, false
	case 'c':
		return "", 2, true
	case '"':
		return `"`, 2, false
	case '\'':
		return `'`, 2, false
	case '?':
		return `?`, 2, false
	}
	r, _ := expandEscapes(s[:2], true, utf)
	return r, 2, false
}

func parseInt(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if s[0] == '\'' || s[0] == '"' {
		if len(s) < 2 {
			return 0, nil
		}
		r, _ := utf8.DecodeRuneInString(s[1:])
		return int64(r), nil
	}
	neg := false
	t := s
	if t[0] == '-' || t[0] == '+' {
		neg = t[0] == '-'
		t = t[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X"):
		base, t = 16, t[2:]
	case len(t) > 1 && t[0] == '0':
		base, t = 8, t[1:]
	}
	// accept the longest valid prefix like strtol, but report junk
	end := 0
	for end < len(t) && digitVal(t[end]) < base {
		end++
	}
	u, err := strconv.ParseUint(t[:end], base, 64)
	if end == 0 {
		u, err = 0, nil
	}
	n := int64(u)
	if err != nil {
		n = math.MaxInt64
	}
	if neg {
		n = -n
	}
	if end != len(t) || (end == 0 && base == 10) {
		if end == 0 {
			return n, fmt.Errorf("invalid number")
		}
		return n, fmt.Errorf("invalid number")
	}
	return n, nil
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

func parseFloat(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if s[0] == '\'' || s[0] == '"' {
		if len(s) < 2 {
			return 0, nil
		}
		r, _ := utf8.DecodeRuneInString(s[1:])
		return float64(r), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if n, ierr := parseInt(s); ierr == nil {
			return float64(n), nil
		}
		return 0, err
	}
	return f, nil
}

// bashQuote quotes like printf %q.
func bashQuote(s string, utf bool) string {
	if s == "" {
		return "''"
	}
	if expand.AnsicShouldQuote(s, utf) {
		return expand.AnsicQuote(s, utf)
	}
	var b strings.Builder
	for i, r := range s {
		if strings.ContainsRune(" \t!\"#$&'()*,;<=>?[\\]^`{|}~", r) && !(r == '~' && i > 0) && !(r == '#' && i > 0) && !(r == '=') && !(r == ',') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// strftime formats t for printf %(fmt)T.
func strftime(f string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			fmt.Fprintf(&b, "%04d", t.Year())
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 's':
			fmt.Fprintf(&b, "%d", t.Unix())
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'z':
			b.WriteString("+0000")
		case 'Z':
			b.WriteString("UTC")
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

// fmtMax is the largest width or precision Go's fmt accepts (beyond it,
// fmt prints "%!(NOVERB)").
const fmtMax = 1_000_000

// sprintfWide formats arg like fmt.Sprintf("%"+flags+width+"."+prec+verb)
// with bash's results for widths and precisions fmt refuses: the value is
// formatted without them and padded here (the caller has reserved the
// memory).
func sprintfWide(flags, width, prec string, hasPrec bool, verb byte, arg any) string {
	var b strings.Builder
	writeWide(&b, flags, width, prec, hasPrec, verb, arg)
	return b.String()
}

// writeWide is sprintfWide writing into b, with one allocation for a huge
// padding.
func writeWide(b *strings.Builder, flags, width, prec string, hasPrec bool, verb byte, arg any) {
	w, _ := strconv.Atoi(width)
	p, _ := strconv.Atoi(prec)
	if w <= fmtMax && p <= fmtMax {
		spec := "%" + flags + width
		if hasPrec {
			spec += "." + prec
		}
		fmt.Fprintf(b, spec+string(verb), arg)
		return
	}
	numeric := verb != 's'
	spec := "%" + strings.NewReplacer("-", "", "0", "").Replace(flags)
	zeros := 0
	switch {
	case !hasPrec:
	case p <= fmtMax:
		spec += "." + prec
	case numeric && strings.IndexByte("duoxX", verb) >= 0:
		zeros = p // integer digits padded to the precision below
	case numeric:
		spec += "." + strconv.Itoa(fmtMax) // floats: bash's extra digits are zeros too
		zeros = -(p - fmtMax)
	}
	s := fmt.Sprintf(spec+string(verb), arg)
	sign := ""
	if numeric && s != "" && strings.IndexByte("+- ", s[0]) >= 0 {
		sign, s = s[:1], s[1:]
	}
	lead, trail := 0, 0 // zeros before and after the digits
	if zeros > len(s) {
		lead = zeros - len(s)
	} else if zeros < 0 {
		trail = -zeros
	}
	n := len(sign) + lead + len(s) + trail
	pad := max(w-n, 0)
	b.Grow(n + pad)
	left := strings.Contains(flags, "-")
	zeroPad := numeric && strings.Contains(flags, "0") && !hasPrec && !left
	if !left && !zeroPad {
		repeatByte(b, ' ', pad)
	}
	b.WriteString(sign)
	if zeroPad {
		repeatByte(b, '0', pad)
	}
	repeatByte(b, '0', lead)
	b.WriteString(s)
	repeatByte(b, '0', trail)
	if left {
		repeatByte(b, ' ', pad)
	}
}

func repeatByte(b *strings.Builder, c byte, n int) {
	chunk := strings.Repeat(string(c), min(n, 4096))
	for n > 0 {
		k := min(n, len(chunk))
		b.WriteString(chunk[:k])
		n -= k
	}
}
