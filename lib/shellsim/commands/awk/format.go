package awk

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fatalError stops the program with gawk's "fatal:" message (exit 2).
type fatalError struct {
	msg   string
	noLoc bool // gawk prints no "cmd. line" for input-file errors
}

func (e *fatalError) Error() string { return e.msg }

// maxWidth bounds printf widths and precisions so that one format cannot
// allocate unbounded memory outside the fuel and memory accounting.
const maxWidth = 1 << 20

// formatG formats like C's %.*g.
func formatG(n float64, prec int, alt, upper bool) string {
	verb := "g"
	if upper {
		verb = "G"
	}
	f := "%."
	if alt {
		f = "%#."
	}
	return fmt.Sprintf(f+strconv.Itoa(prec)+verb, n)
}

// nonFinite spells Inf and NaN the way gawk's printf does.
func nonFinite(n float64, upper bool) string {
	s := "-nan"
	if math.IsInf(n, 1) {
		s = "+inf"
	} else if math.IsInf(n, -1) {
		s = "-inf"
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// sprintf implements awk's printf formatting. str converts a value to a
// string with CONVFMT; it may be nil (numbers then use %.6g).
func sprintf(format string, args []value, toStr func(value) string) string {
	if toStr == nil {
		toStr = func(v value) string {
			if v.k == kNum {
				return numToStr(v.n, "%.6g")
			}
			return v.s
		}
	}
	var b strings.Builder
	ai := 0
	next := func(at int) value {
		if ai >= len(args) {
			panic(&fatalError{msg: fmt.Sprintf("not enough arguments to satisfy format string\n\t`%s'\n\t%s^ ran out for this one", format, strings.Repeat(" ", at+1))})
		}
		ai++
		return args[ai-1]
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		if i >= len(format) {
			b.WriteByte('%')
			break
		}
		var flags strings.Builder
		for i < len(format) && strings.IndexByte("-+ #0'", format[i]) >= 0 {
			// ' (thousands grouping) has no effect in the C.UTF-8 locale
			if format[i] != '\'' {
				flags.WriteByte(format[i])
			}
			i++
		}
		width, prec := -1, -1
		if i < len(format) && format[i] == '*' {
			width = int(max(min(next(start).num(), maxWidth+1), -maxWidth-1))
			if width < 0 {
				flags.WriteByte('-')
				width = -width
			}
			i++
		} else {
			for i < len(format) && isDigit(format[i]) {
				width = min(max(width, 0)*10+int(format[i]-'0'), maxWidth+1)
				i++
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			prec = 0
			if i < len(format) && format[i] == '*' {
				prec = int(max(min(next(start).num(), maxWidth+1), -1))
				i++
			} else {
				for i < len(format) && isDigit(format[i]) {
					prec = min(prec*10+int(format[i]-'0'), maxWidth+1)
					i++
				}
			}
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		if width > maxWidth || prec > maxWidth {
			panic(&fatalError{msg: "format width or precision too large"})
		}
		verb := format[i]
		spec := "%" + flags.String()
		if width >= 0 {
			spec += strconv.Itoa(width)
		}
		precSpec := ""
		if prec >= 0 {
			precSpec = "." + strconv.Itoa(prec)
		}
		pad := func(s string) string {
			// width applies to Inf/NaN and other pre-formatted text
			fl := strings.ReplaceAll(flags.String(), "0", "")
			f := "%" + fl
			if width >= 0 {
				f += strconv.Itoa(width)
			}
			return fmt.Sprintf(f+"s", s)
		}
		switch verb {
		case '%':
			b.WriteByte('%')
		case 'd', 'i':
			n := next(start).num()
			switch {
			case math.IsNaN(n) || math.IsInf(n, 0):
				b.WriteString(pad(nonFinite(n, false)))
			case math.Abs(n) < 9.2e18:
				b.WriteString(fmt.Sprintf(spec+precSpec+"d", int64(n)))
			default:
				b.WriteString(fmt.Sprintf(spec+".0f", math.Trunc(n)))
			}
		case 'o', 'x', 'X', 'u':
			n := next(start).num()
			v := verb
			if v == 'u' {
				v = 'd'
			}
			switch {
			case math.IsNaN(n) || math.IsInf(n, 0):
				b.WriteString(pad(nonFinite(n, verb == 'X')))
			case n < 0 && n >= -9.2e18:
				b.WriteString(fmt.Sprintf(spec+precSpec+string(v), uint64(int64(n))))
			case n >= 0 && n < 1.8e19:
				b.WriteString(fmt.Sprintf(spec+precSpec+string(v), uint64(n)))
			default:
				b.WriteString(fmt.Sprintf(spec+".0f", math.Trunc(n)))
			}
		case 'e', 'E', 'f', 'F', 'g', 'G':
			n := next(start).num()
			if math.IsNaN(n) || math.IsInf(n, 0) {
				b.WriteString(pad(nonFinite(n, verb == 'E' || verb == 'F' || verb == 'G')))
				break
			}
			if prec < 0 {
				precSpec = ".6"
			}
			b.WriteString(fmt.Sprintf(spec+precSpec+string(verb), n))
		case 'c':
			v := next(start)
			var s string
			if v.k == kNum || v.k == kStrNum {
				s = string(rune(int64(v.n)))
				if int64(v.n) < 128 && int64(v.n) >= 0 {
					s = string([]byte{byte(int64(v.n))})
				}
			} else {
				t := toStr(v)
				s = "\x00" // gawk prints NUL for an empty string
				if t != "" {
					_, size := utf8.DecodeRuneInString(t)
					s = t[:size]
				}
			}
			b.WriteString(pad(s))
		case 's':
			s := toStr(next(start))
			if prec >= 0 && prec < utf8.RuneCountInString(s) {
				s = string([]rune(s)[:prec])
			}
			b.WriteString(pad(s))
		default:
			b.WriteString(format[start : i+1])
		}
	}
	return b.String()
}
