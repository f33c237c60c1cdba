package sed

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// Go's regexp package has no POSIX BRE front end, so the script's BRE/ERE
// text is rewritten into Go (RE2) syntax here. Back-references, which RE2
// cannot express, become placeholder runes for the backtracking matcher.

// translate rewrites a POSIX regex (BRE unless ere) with GNU extensions into Go
// syntax. Escapes \n and \t are already literal characters in pat.
func translate(pat string, ere bool) (string, bool, error) {
	backref := false
	var b strings.Builder
	// atomStart is the output offset of the last atom, for wrapping a
	// repeated repetition ("a**") that RE2 rejects.
	atomStart, lastQuant := -1, false
	atBegin := true // at the start of the RE or of a group/alternative
	quant := func(q string) {
		if atomStart < 0 {
			b.WriteString(regexp.QuoteMeta(q))
			atomStart, lastQuant, atBegin = b.Len()-len(regexp.QuoteMeta(q)), false, false
			return
		}
		if lastQuant {
			s := b.String()
			b.Reset()
			b.WriteString(s[:atomStart] + "(?:" + s[atomStart:] + ")")
		}
		b.WriteString(q)
		lastQuant, atBegin = true, false
	}
	atom := func(s string) {
		atomStart = b.Len()
		b.WriteString(s)
		lastQuant, atBegin = false, false
	}
	var groupStarts []int
	n := len(pat)
	for i := 0; i < n; i++ {
		c := pat[i]
		switch {
		case c == '\\' && i+1 < n:
			i++
			d := pat[i]
			switch {
			case !ere && d == '(':
				groupStarts = append(groupStarts, b.Len())
				b.WriteString("(")
				atomStart, lastQuant, atBegin = -1, false, true
			case !ere && d == ')':
				if len(groupStarts) == 0 {
					return "", false, fmt.Errorf("Unmatched ) or \\)")
				}
				st := groupStarts[len(groupStarts)-1]
				groupStarts = groupStarts[:len(groupStarts)-1]
				b.WriteString(")")
				atomStart, lastQuant, atBegin = st, false, false
			case !ere && d == '|':
				b.WriteString("|")
				atomStart, lastQuant, atBegin = -1, false, true
			case !ere && (d == '+' || d == '?'):
				if atBegin {
					atom(regexp.QuoteMeta(string(d)))
				} else {
					quant(string(d))
				}
			case !ere && d == '{':
				if atBegin || atomStart < 0 {
					return "", false, fmt.Errorf("Invalid preceding regular expression")
				}
				end := strings.Index(pat[i:], "\\}")
				if end < 0 {
					return "", false, fmt.Errorf("Unmatched \\{")
				}
				body := pat[i+1 : i+end]
				if !validInterval(body) {
					return "", false, fmt.Errorf("Invalid content of \\{\\}")
				}
				if strings.HasPrefix(body, ",") {
					body = "0" + body // GNU: {,n} means {0,n}
				}
				quant("{" + body + "}")
				i += end + 1
			case d >= '1' && d <= '9':
				backref = true
				atom(string(rune(backrefBase + rune(d-'0'))))
			case d == 'x' || d == 'o' || d == 'd':
				// GNU numeric escapes: \xHH, \oNNN, \dNNN
				base, width := 16, 2
				if d == 'o' {
					base, width = 8, 3
				} else if d == 'd' {
					base, width = 10, 3
				}
				j := i + 1
				v := 0
				for j < n && j <= i+width {
					dv := digitVal(pat[j])
					if dv < 0 || dv >= base {
						break
					}
					v = v*base + dv
					j++
				}
				if j == i+1 {
					atom(regexp.QuoteMeta(string(d)))
					break
				}
				atom(regexp.QuoteMeta(string([]byte{byte(v)})))
				i = j - 1
			case d == 'c' && i+1 < n:
				i++
				atom(regexp.QuoteMeta(string([]byte{pat[i]&^0x20 ^ 0x40})))
			case d == 'w' || d == 'W' || d == 's' || d == 'S':
				atom("\\" + string(d))
			case d == 'b' || d == 'B':
				b.WriteString("\\" + string(d))
				lastQuant = false
			case d == '<' || d == '>':
				b.WriteString(`\b`)
				lastQuant = false
			case d == '`':
				b.WriteString(`\A`)
			case d == '\'':
				b.WriteString(`\z`)
			case d == 'n':
				atom(`\n`)
			case d == 't':
				atom(`\t`)
			default:
				atom(regexp.QuoteMeta(string(d)))
			}
		case c == '[':
			cls, next, err := bracket(pat, i)
			if err != nil {
				return "", false, err
			}
			atom(cls)
			i = next - 1
		case c == '.':
			atom(".")
		case c == '*':
			if atBegin {
				atom(`\*`)
			} else {
				quant("*")
			}
		case c == '^':
			if ere || atBegin {
				b.WriteString("^")
				atomStart, lastQuant = -1, false
			} else {
				atom(`\^`)
			}
		case c == '$':
			if ere || i == n-1 || strings.HasPrefix(pat[i+1:], `\)`) || strings.HasPrefix(pat[i+1:], `\|`) {
				b.WriteString("$")
				atomStart, lastQuant = -1, false
			} else {
				atom(`\$`)
			}
		case ere && c == '(':
			groupStarts = append(groupStarts, b.Len())
			b.WriteString("(")
			atomStart, lastQuant, atBegin = -1, false, true
		case ere && c == ')':
			if len(groupStarts) == 0 {
				return "", false, fmt.Errorf("Unmatched ) or \\)")
			}
			st := groupStarts[len(groupStarts)-1]
			groupStarts = groupStarts[:len(groupStarts)-1]
			b.WriteString(")")
			atomStart, lastQuant, atBegin = st, false, false
		case ere && c == '|':
			b.WriteString("|")
			atomStart, lastQuant, atBegin = -1, false, true
		case ere && (c == '+' || c == '?'):
			if atBegin {
				atom(regexp.QuoteMeta(string(c)))
			} else {
				quant(string(c))
			}
		case ere && c == '{':
			end := strings.IndexByte(pat[i:], '}')
			if end < 0 || atBegin || !validInterval(pat[i+1:i+end]) {
				atom(`\{`)
				continue
			}
			body := pat[i+1 : i+end]
			if strings.HasPrefix(body, ",") {
				body = "0" + body
			}
			quant("{" + body + "}")
			i += end
		default:
			atom(regexp.QuoteMeta(string(c)))
		}
	}
	if len(groupStarts) > 0 {
		return "", false, fmt.Errorf("Unmatched ( or \\(")
	}
	return b.String(), backref, nil
}

func validInterval(s string) bool {
	if s == "" {
		return false
	}
	lo, hi, comma := s, "", false
	if k := strings.IndexByte(s, ','); k >= 0 {
		lo, hi, comma = s[:k], s[k+1:], true
	}
	digits := func(t string) bool {
		for _, r := range t {
			if r < '0' || r > '9' {
				return false
			}
		}
		return true
	}
	return digits(lo) && digits(hi) && (lo != "" || comma) && !(lo == "" && hi == "" && !comma)
}

// bracket translates the bracket expression starting at pat[i] == '['. It
// returns the Go class and the index just past the closing ']'.
func bracket(pat string, i int) (string, int, error) {
	var b strings.Builder
	b.WriteString("[")
	j := i + 1
	if j < len(pat) && pat[j] == '^' {
		b.WriteString("^")
		j++
	}
	first := true
	for ; j < len(pat); j++ {
		c := pat[j]
		if c == ']' && !first {
			b.WriteString("]")
			return b.String(), j + 1, nil
		}
		first = false
		if c == '[' && j+1 < len(pat) && (pat[j+1] == ':' || pat[j+1] == '.' || pat[j+1] == '=') {
			kind := pat[j+1]
			end := strings.Index(pat[j+2:], string(kind)+"]")
			if end < 0 {
				return "", 0, fmt.Errorf("unterminated address regex")
			}
			name := pat[j+2 : j+2+end]
			switch kind {
			case ':':
				switch name {
				case "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit":
					b.WriteString("[:" + name + ":]")
				default:
					return "", 0, fmt.Errorf("Invalid character class name")
				}
			default:
				b.WriteString(regexp.QuoteMeta(name))
			}
			j += 2 + end + 1
			continue
		}
		if c == '\\' && j+1 < len(pat) && (pat[j+1] == 'n' || pat[j+1] == 't' || pat[j+1] == '\\') {
			// GNU sed converts these escapes before the regex sees them.
			j++
			switch pat[j] {
			case 'n':
				b.WriteString(`\n`)
			case 't':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\\`)
			}
			continue
		}
		switch {
		case c == '-':
			b.WriteString("-")
		case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80:
			b.WriteByte(c)
		default:
			b.WriteString(`\`)
			b.WriteByte(c)
		}
	}
	return "", 0, fmt.Errorf("unterminated address regex")
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}

// goErrors maps RE2 parse errors to glibc's wording.
var goErrors = []struct {
	code syntax.ErrorCode
	msg  string
}{
	{syntax.ErrInvalidCharRange, "Invalid range end"},
	{syntax.ErrMissingBracket, "Unmatched [, [^, [:, [., or [="},
	{syntax.ErrMissingParen, "Unmatched ( or \\("},
	{syntax.ErrUnexpectedParen, "Unmatched ) or \\)"},
	{syntax.ErrInvalidRepeatSize, "Invalid content of \\{\\}"},
	{syntax.ErrMissingRepeatArgument, "Invalid preceding regular expression"},
	{syntax.ErrInvalidRepeatOp, "Invalid preceding regular expression"},
	{syntax.ErrInvalidCharClass, "Invalid character class name"},
}

func regexError(err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		for _, g := range goErrors {
			if se.Code == g.code {
				return fmt.Errorf("%s", g.msg)
			}
		}
	}
	return fmt.Errorf("Invalid regular expression")
}

// compile builds the matcher for a sed regex with its I and M flags.
func compile(pat string, ere, icase, multi bool) (matcher, error) {
	g, backref, err := translate(pat, ere)
	if err != nil {
		return nil, err
	}
	flags := "s"
	if icase {
		flags += "i"
	}
	if multi {
		flags = "m"
		if icase {
			flags += "i"
		}
	}
	if backref {
		bt, err := newBacktracker("(?" + flags + ")" + g)
		if err != nil {
			return nil, regexError(err)
		}
		return bt, nil
	}
	re, err := regexp.Compile("(?" + flags + ")" + g)
	if err != nil {
		return nil, regexError(err)
	}
	re.Longest()
	return re, nil
}
