package awk

import (
	"fmt"
	"regexp"
	"strings"
)

// Go's regexp has no POSIX ERE front end, and awk's dialect differs from
// grep's (escapes such as \/ and \n, backslashes inside brackets), so the
// translation to RE2 syntax is done here.

// translateERE rewrites an awk ERE into Go syntax.
func translateERE(pat string) (string, error) {
	var b strings.Builder
	atomStart, lastQuant, atBegin := -1, false, true
	atom := func(s string) {
		atomStart = b.Len()
		b.WriteString(s)
		lastQuant, atBegin = false, false
	}
	quant := func(q string) {
		if atomStart < 0 || atBegin {
			atom(regexp.QuoteMeta(q))
			return
		}
		if lastQuant {
			s := b.String()
			b.Reset()
			b.WriteString(s[:atomStart] + "(?:" + s[atomStart:] + ")")
		}
		b.WriteString(q)
		lastQuant = true
	}
	var groups []int
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '\\':
			if i+1 >= len(pat) {
				atom(`\\`)
				continue
			}
			i++
			d := pat[i]
			switch d {
			case 'y', '<', '>':
				b.WriteString(`\b`)
				lastQuant = false
			case 'B':
				b.WriteString(`\B`)
				lastQuant = false
			case 'w', 'W', 's', 'S':
				atom(`\` + string(d))
			case '`':
				b.WriteString(`\A`)
			case '\'':
				b.WriteString(`\z`)
			default:
				var lit strings.Builder
				i--
				j := i + 1
				unescape(pat, &j, &lit, '/')
				i = j - 1
				atom(regexp.QuoteMeta(lit.String()))
			}
		case '[':
			cls, next, err := bracketERE(pat, i)
			if err != nil {
				return "", err
			}
			atom(cls)
			i = next - 1
		case '(':
			groups = append(groups, b.Len())
			b.WriteString("(")
			atomStart, lastQuant, atBegin = -1, false, true
		case ')':
			if len(groups) == 0 {
				return "", fmt.Errorf("Unmatched ) or \\)")
			}
			st := groups[len(groups)-1]
			groups = groups[:len(groups)-1]
			b.WriteString(")")
			atomStart, lastQuant, atBegin = st, false, false
		case '|':
			b.WriteString("|")
			atomStart, lastQuant, atBegin = -1, false, true
		case '*', '+', '?':
			quant(string(c))
		case '{':
			end := strings.IndexByte(pat[i:], '}')
			if end < 0 || atBegin || atomStart < 0 || !validInterval(pat[i+1:i+end]) {
				atom(`\{`)
				continue
			}
			body := pat[i+1 : i+end]
			if strings.HasPrefix(body, ",") {
				body = "0" + body // {,n} means {0,n}
			}
			quant("{" + body + "}")
			i += end
		case '^', '$':
			b.WriteString(string(c))
			atomStart, lastQuant = -1, false
		case '.':
			atom(".")
		default:
			atom(regexp.QuoteMeta(string(c)))
		}
	}
	if len(groups) > 0 {
		return "", fmt.Errorf("Unmatched ( or \\(")
	}
	return b.String(), nil
}

func validInterval(s string) bool {
	if s == "" {
		return false
	}
	lo, hi, comma := strings.Cut(s, ",")
	for _, r := range lo + hi {
		if r < '0' || r > '9' {
			return false
		}
	}
	return lo != "" || comma
}

// bracketERE translates a bracket expression; awk allows backslash
// escapes inside it.
func bracketERE(pat string, i int) (string, int, error) {
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
			if end >= 0 {
				name := pat[j+2 : j+2+end]
				if kind == ':' {
					switch name {
					case "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit":
						b.WriteString("[:" + name + ":]")
					default:
						return "", 0, fmt.Errorf("Invalid character class name")
					}
				} else {
					b.WriteString(regexp.QuoteMeta(name))
				}
				j += 2 + end + 1
				continue
			}
		}
		if c == '\\' && j+1 < len(pat) {
			var lit strings.Builder
			k := j + 1
			unescape(pat, &k, &lit, '/')
			for _, ch := range []byte(lit.String()) {
				b.WriteString(classChar(ch))
			}
			j = k - 1
			continue
		}
		if c == '-' {
			b.WriteByte('-')
			continue
		}
		b.WriteString(classChar(c))
	}
	return "", 0, fmt.Errorf("Unmatched [, [^, [:, [., or [=")
}

func classChar(c byte) string {
	if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80 {
		return string([]byte{c})
	}
	switch c {
	case '\n':
		return `\n`
	case '\t':
		return `\t`
	}
	if c < 32 || c == 127 {
		return fmt.Sprintf(`\x%02x`, c)
	}
	return `\` + string(c)
}

func compileERE(pat string, icase bool) (*regexp.Regexp, error) {
	g, err := translateERE(pat)
	if err != nil {
		return nil, err
	}
	flags := "(?s)"
	if icase {
		flags = "(?si)"
	}
	re, err := regexp.Compile(flags + g)
	if err != nil {
		return nil, fmt.Errorf("invalid regexp: %s", pat)
	}
	re.Longest()
	return re, nil
}
