package expand

// ShellSim: bash's ${name@op} transformations (Q, E, U, u, L, a, A, K, k)
// with bash's quoting, applied to each element of an array or list.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// quoteReusable quotes s as bash's ${s@Q}: two single quotes when empty, $'...' when it
// holds a character that does not print in the locale (utf: a UTF-8 one), else single quotes.
func quoteReusable(s string, utf bool) string {
	if s == "" {
		return "''"
	}
	if AnsicShouldQuote(s, utf) {
		return AnsicQuote(s, utf)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// AnsicShouldQuote reports, as bash's ansic_shouldquote, whether s holds
// a character that does not print: in the C locale every byte above 127,
// in a UTF-8 one an invalid sequence or a character that is not printable.
func AnsicShouldQuote(s string, utf bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !utf && s[i] >= utf8.RuneSelf || r == utf8.RuneError && n == 1 || !unicode.IsPrint(r) {
			return true
		}
		i += n
	}
	return false
}

// AnsicQuote is bash's $'...' form: C escapes, other bytes that do not
// print in the locale in octal.
func AnsicQuote(s string, utf bool) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !utf && s[i] >= utf8.RuneSelf {
			r, n = utf8.RuneError, 1
		}
		c := s[i]
		switch {
		case c == 27:
			b.WriteString(`\E`)
		case c == '\a':
			b.WriteString(`\a`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\v':
			b.WriteString(`\v`)
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case r == utf8.RuneError && n == 1 || !unicode.IsPrint(r):
			for j := 0; j < n; j++ {
				fmt.Fprintf(&b, `\%03o`, s[i+j])
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

// UnicodeEscape is what bash makes of \uXXXX (kind 'u') or \UXXXXXXXX:
// the character in a UTF-8 locale or when it is ASCII, else the escape
// again with its digits in upper case.
func UnicodeEscape(kind byte, r rune, utf bool) string {
	switch {
	case utf || r < utf8.RuneSelf:
		return string(r)
	case kind == 'u':
		return fmt.Sprintf("\\u%04X", r)
	}
	return fmt.Sprintf("\\U%08X", r)
}

// UTF8Locale reports whether the locale the variables name (LC_ALL, then
// LC_CTYPE, then LANG; C when none is set) is a UTF-8 one.
func UTF8Locale(get func(string) (string, bool)) bool {
	for _, n := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v, ok := get(n); ok && v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// utf8 reports a UTF-8 locale in the expansion's variables.
func (cfg *Config) utf8() bool {
	if cfg.Env == nil {
		return false
	}
	return UTF8Locale(func(n string) (string, bool) {
		vr := cfg.Env.Get(n)
		return vr.String(), vr.IsSet()
	})
}

// DeclQuote is declare -p's quoting of a value (and of a key that needs it).
func DeclQuote(s string, utf bool) string {
	if AnsicShouldQuote(s, utf) {
		return AnsicQuote(s, utf)
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if c == '"' || c == '\\' || c == '$' || c == '`' {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}

func declKey(k string, utf bool) string {
	if strings.ContainsAny(k, " \t\n\"'$`\\*?[]") || AnsicShouldQuote(k, utf) {
		return DeclQuote(k, utf)
	}
	return k
}

// attrs is the declare flags of a variable, from the shell when it knows
// more of them (integer, case) than the expander's variables hold.
func (cfg *Config) attrs(name string, vr Variable) string {
	if cfg.Attrs != nil {
		return cfg.Attrs(name)
	}
	return vr.Flags()
}

// elemKeys returns the keys of an array's elements, in the order of its
// values (nil for anything else).
func elemKeys(vr Variable) []string {
	switch vr.Kind {
	case Indexed:
		return vr.indexedKeys()
	case Associative:
		return AssocKeys(vr.Map)
	}
	return nil
}

// transformList applies ${name[@]@op} to the elements of a list; quoted
// ("${a[@]@op}") each result is a field. keys are the elements' keys for
// an array (nil for $@ or a slice).
func (cfg *Config) transformList(op, name string, vr Variable, keys, elems []string) []string {
	switch op {
	case "Q":
		out := make([]string, len(elems))
		for i, e := range elems {
			out[i] = quoteReusable(e, cfg.utf8())
		}
		return out
	case "K", "k":
		if keys == nil || len(keys) != len(elems) {
			return cfg.transformList("Q", name, vr, nil, elems)
		}
		if op == "k" {
			out := make([]string, 0, 2*len(elems))
			for i, e := range elems {
				out = append(out, keys[i], e)
			}
			return out
		}
		var b strings.Builder
		for i, e := range elems {
			if vr.Kind == Associative {
				b.WriteString(declKey(keys[i], cfg.utf8()) + " " + DeclQuote(e, cfg.utf8()) + " ")
				continue
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(keys[i] + " " + DeclQuote(e, cfg.utf8()))
		}
		if len(elems) == 0 {
			return nil
		}
		return []string{b.String()}
	case "A":
		if name == "@" || name == "*" {
			if len(elems) == 0 {
				return nil
			}
			return []string{"set -- " + strings.Join(cfg.transformList("Q", name, vr, nil, elems), " ")}
		}
		if keys == nil || len(keys) != len(elems) {
			return nil
		}
		var b strings.Builder
		b.WriteString(name + "=(")
		for i, e := range elems {
			if vr.Kind == Associative {
				b.WriteString("[" + declKey(keys[i], cfg.utf8()) + "]=" + DeclQuote(e, cfg.utf8()) + " ")
				continue
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + keys[i] + "]=" + DeclQuote(e, cfg.utf8()))
		}
		b.WriteByte(')')
		// quoted, bash gives the declare command's words as fields
		return []string{"declare", "-" + cfg.attrs(name, vr), b.String()}
	case "a":
		out := make([]string, len(elems))
		for i := range elems {
			out[i] = cfg.attrs(name, vr)
		}
		return out
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i] = cfg.transformOne(op, name, vr, e, true)
	}
	return out
}

// transformOne applies ${name@op} (or ${name[sub]@op}) to one value; set
// says whether it exists.
func (cfg *Config) transformOne(op, name string, vr Variable, s string, set bool) string {
	switch op {
	case "Q", "K", "k":
		if !set {
			return ""
		}
		return quoteReusable(s, cfg.utf8())
	case "A":
		if !set {
			return ""
		}
		if name == "@" || name == "*" || !syntax.ValidName(name) {
			return quoteReusable(s, cfg.utf8())
		}
		if f := cfg.attrs(name, vr); f != "" {
			return "declare -" + f + " " + name + "=" + quoteReusable(s, cfg.utf8())
		}
		return name + "=" + quoteReusable(s, cfg.utf8())
	case "a":
		if !vr.IsSet() && vr.Kind != Indexed && vr.Kind != Associative {
			return ""
		}
		return cfg.attrs(name, vr)
	case "E":
		tail := s
		var rns []rune
		for tail != "" {
			var rn rune
			rn, _, tail, _ = strconv.UnquoteChar(tail, 0)
			rns = append(rns, rn)
		}
		return string(rns)
	case "U":
		return strings.ToUpper(s)
	case "u":
		rs := []rune(s)
		if len(rs) > 0 {
			rs[0] = unicode.ToUpper(rs[0])
		}
		return string(rs)
	case "L":
		return strings.ToLower(s)
	}
	return s
}
