package syntax

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is a token kind.
type Kind int

const (
	EOF Kind = iota
	Name
	Number
	String
	Op
	Newline
	Indent
	Dedent
)

// Token is one lexical token. For strings, Val is the decoded text (or the
// raw source of an f-string) and Prefix the lowercase prefix letters.
type Token struct {
	Kind   Kind
	Val    string
	Prefix string
	Line   int
}

// Error is a syntax error with its line.
type Error struct {
	Msg  string
	Line int
	Kind string // "SyntaxError" or "IndentationError"
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// MaxSource bounds the source the lexer accepts.
const MaxSource = 8 << 20

var ops3 = []string{"**=", "//=", ">>=", "<<=", "...", "!="}
var ops2 = []string{"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="}

// Lex splits src into tokens, producing INDENT/DEDENT from leading
// whitespace and NEWLINE at the end of each logical line.
func Lex(src string) ([]Token, error) {
	if len(src) > MaxSource {
		return nil, &Error{Msg: "source too large", Line: 1, Kind: "SyntaxError"}
	}
	l := &lexer{src: src, line: 1, indents: []int{0}}
	if err := l.run(); err != nil {
		return nil, err
	}
	return l.toks, nil
}

type lexer struct {
	src     string
	pos     int
	line    int
	toks    []Token
	indents []int
	depth   int // bracket depth
	opens   []Token
}

func (l *lexer) errf(format string, a ...any) error {
	return &Error{Msg: fmt.Sprintf(format, a...), Line: l.line, Kind: "SyntaxError"}
}

func (l *lexer) emit(k Kind, v string) { l.toks = append(l.toks, Token{Kind: k, Val: v, Line: l.line}) }

func (l *lexer) run() error {
	atLineStart := true
	for {
		if atLineStart && l.depth == 0 {
			// measure indentation
			col := 0
			p := l.pos
			for p < len(l.src) && (l.src[p] == ' ' || l.src[p] == '\t' || l.src[p] == '\f') {
				if l.src[p] == '\t' {
					col = (col/8 + 1) * 8
				} else if l.src[p] == ' ' {
					col++
				}
				p++
			}
			if p >= len(l.src) {
				l.pos = p
				break
			}
			c := l.src[p]
			if c == '\n' || c == '#' || c == '\r' || (c == '\\' && p+1 < len(l.src) && l.src[p+1] == '\n') {
				// blank or comment line: no indentation change
				l.pos = p
				if c == '#' {
					for l.pos < len(l.src) && l.src[l.pos] != '\n' {
						l.pos++
					}
				}
				if l.pos < len(l.src) && l.src[l.pos] == '\r' {
					l.pos++
				}
				if l.pos < len(l.src) && l.src[l.pos] == '\n' {
					l.pos++
					l.line++
				} else if c == '\\' {
					l.pos += 2
					l.line++
				}
				continue
			}
			l.pos = p
			top := l.indents[len(l.indents)-1]
			if col > top {
				l.indents = append(l.indents, col)
				l.emit(Indent, "")
			} else {
				for col < l.indents[len(l.indents)-1] {
					l.indents = l.indents[:len(l.indents)-1]
					l.emit(Dedent, "")
				}
				if col != l.indents[len(l.indents)-1] {
					return &Error{Msg: "unindent does not match any outer indentation level", Line: l.line, Kind: "IndentationError"}
				}
			}
			atLineStart = false
		}
		if l.pos >= len(l.src) {
			break
		}
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\r':
			l.pos++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case c == '\n':
			l.pos++
			if l.depth == 0 {
				if len(l.toks) > 0 && l.toks[len(l.toks)-1].Kind != Newline {
					l.emit(Newline, "")
				}
				atLineStart = true
			}
			l.line++
		case c == '\\':
			if l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n' {
				l.pos += 2
				l.line++
			} else if l.pos+2 < len(l.src) && l.src[l.pos+1] == '\r' && l.src[l.pos+2] == '\n' {
				l.pos += 3
				l.line++
			} else {
				return l.errf("unexpected character after line continuation character")
			}
		case c >= '0' && c <= '9' || (c == '.' && l.pos+1 < len(l.src) && l.src[l.pos+1] >= '0' && l.src[l.pos+1] <= '9'):
			if err := l.number(); err != nil {
				return err
			}
		case c == '"' || c == '\'':
			if err := l.str(""); err != nil {
				return err
			}
		case isIdentStart(c) || c >= 0x80:
			start := l.pos
			for l.pos < len(l.src) {
				r, n := utf8.DecodeRuneInString(l.src[l.pos:])
				if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
					l.pos += n
				} else {
					break
				}
			}
			if l.pos == start {
				r, _ := utf8.DecodeRuneInString(l.src[l.pos:])
				return l.errf("invalid character '%c' (U+%04X)", r, r)
			}
			word := l.src[start:l.pos]
			if l.pos < len(l.src) && (l.src[l.pos] == '"' || l.src[l.pos] == '\'') && isStrPrefix(word) {
				if err := l.str(strings.ToLower(word)); err != nil {
					return err
				}
				continue
			}
			l.emit(Name, word)
		default:
			op := ""
			for _, o := range ops3 {
				if strings.HasPrefix(l.src[l.pos:], o) {
					op = o
					break
				}
			}
			if op == "" {
				for _, o := range ops2 {
					if strings.HasPrefix(l.src[l.pos:], o) {
						op = o
						break
					}
				}
			}
			if op == "" {
				if strings.IndexByte("+-*/%@&|^~<>()[]{},:;.=!", c) < 0 {
					return l.errf("invalid character '%c' (U+%04X)", c, c)
				}
				op = string(c)
			}
			switch op {
			case "(", "[", "{":
				l.depth++
				l.opens = append(l.opens, Token{Val: op, Line: l.line})
			case ")", "]", "}":
				if l.depth == 0 {
					return l.errf("unmatched '%s'", op)
				}
				l.depth--
				l.opens = l.opens[:len(l.opens)-1]
			}
			l.pos += len(op)
			l.emit(Op, op)
		}
	}
	if l.depth > 0 {
		o := l.opens[len(l.opens)-1]
		return &Error{Msg: fmt.Sprintf("'%s' was never closed", o.Val), Line: o.Line, Kind: "SyntaxError"}
	}
	if len(l.toks) > 0 && l.toks[len(l.toks)-1].Kind != Newline {
		l.emit(Newline, "")
	}
	for len(l.indents) > 1 {
		l.indents = l.indents[:len(l.indents)-1]
		l.emit(Dedent, "")
	}
	l.emit(EOF, "")
	return nil
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isStrPrefix(w string) bool {
	switch strings.ToLower(w) {
	case "r", "b", "f", "u", "rb", "br", "fr", "rf":
		return true
	}
	return false
}

func (l *lexer) number() error {
	start := l.pos
	s := l.src
	if s[l.pos] == '0' && l.pos+1 < len(s) && strings.IndexByte("xXoObB", s[l.pos+1]) >= 0 {
		l.pos += 2
		for l.pos < len(s) && (isHex(s[l.pos]) || s[l.pos] == '_') {
			l.pos++
		}
	} else {
		digits := func() {
			for l.pos < len(s) && (s[l.pos] >= '0' && s[l.pos] <= '9' || s[l.pos] == '_') {
				l.pos++
			}
		}
		digits()
		if l.pos < len(s) && s[l.pos] == '.' {
			l.pos++
			digits()
		}
		if l.pos < len(s) && (s[l.pos] == 'e' || s[l.pos] == 'E') {
			p := l.pos + 1
			if p < len(s) && (s[p] == '+' || s[p] == '-') {
				p++
			}
			if p < len(s) && s[p] >= '0' && s[p] <= '9' {
				l.pos = p
				digits()
			}
		}
		if l.pos < len(s) && (s[l.pos] == 'j' || s[l.pos] == 'J') {
			return l.errf("complex numbers are not supported")
		}
	}
	if l.pos < len(s) && isIdentStart(s[l.pos]) {
		return l.errf("invalid decimal literal")
	}
	l.emit(Number, strings.ReplaceAll(s[start:l.pos], "_", ""))
	return nil
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (l *lexer) str(prefix string) error {
	q := l.src[l.pos]
	triple := strings.HasPrefix(l.src[l.pos:], strings.Repeat(string(q), 3))
	startLine := l.line
	if triple {
		l.pos += 3
	} else {
		l.pos++
	}
	raw := strings.ContainsRune(prefix, 'r')
	var b strings.Builder
	for {
		if l.pos >= len(l.src) {
			if triple {
				return &Error{Msg: "unterminated triple-quoted string literal", Line: startLine, Kind: "SyntaxError"}
			}
			return l.errf("unterminated string literal")
		}
		c := l.src[l.pos]
		if c == q {
			if !triple {
				l.pos++
				break
			}
			if strings.HasPrefix(l.src[l.pos:], strings.Repeat(string(q), 3)) {
				l.pos += 3
				break
			}
		}
		if c == '\n' {
			if !triple {
				return l.errf("unterminated string literal")
			}
			l.line++
		}
		if c == '\\' && l.pos+1 < len(l.src) {
			b.WriteByte(c)
			b.WriteByte(l.src[l.pos+1])
			if l.src[l.pos+1] == '\n' {
				l.line++
			}
			l.pos += 2
			continue
		}
		b.WriteByte(c)
		l.pos++
	}
	body := b.String()
	tok := Token{Kind: String, Prefix: prefix, Line: startLine}
	if strings.ContainsRune(prefix, 'f') {
		tok.Val = body // the parser splits it into parts
	} else if raw {
		tok.Val = body
	} else {
		v, err := Unescape(body, strings.ContainsRune(prefix, 'b'))
		if err != nil {
			return &Error{Msg: err.Error(), Line: startLine, Kind: "SyntaxError"}
		}
		tok.Val = v
	}
	l.toks = append(l.toks, tok)
	return nil
}

// Unescape decodes backslash escapes of a non-raw literal. For bytes, \x
// escapes give raw bytes; for str, \x, \u, \U and \N give code points.
func Unescape(s string, bytesLit bool) (string, error) {
	if !strings.Contains(s, "\\") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := 0
			j := i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				v = v*8 + int(s[j]-'0')
			}
			i = j - 1
			if bytesLit {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if (e == 'u' || e == 'U') && bytesLit {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			if i+n >= len(s)+0 && i+n > len(s)-1+1 {
				return "", fmt.Errorf("(unicode error) truncated \\%cXX escape", e)
			}
			v := 0
			for j := 1; j <= n; j++ {
				if i+j >= len(s) || !isHex(s[i+j]) {
					return "", fmt.Errorf("(unicode error) truncated \\%cXX escape", e)
				}
				v = v*16 + hexVal(s[i+j])
			}
			i += n
			if bytesLit {
				b.WriteByte(byte(v))
			} else {
				if v > unicode.MaxRune {
					return "", fmt.Errorf("(unicode error) illegal Unicode character")
				}
				b.WriteRune(rune(v))
			}
		case 'N':
			if bytesLit {
				b.WriteString("\\N")
				continue
			}
			end := strings.IndexByte(s[i:], '}')
			if i+1 >= len(s) || s[i+1] != '{' || end < 0 {
				return "", fmt.Errorf("(unicode error) 'unicodeescape' codec can't decode bytes in position %d-%d: malformed \\N character escape", i-1, i)
			}
			r, ok := lookupRuneName(s[i+2 : i+end])
			if !ok {
				return "", fmt.Errorf("(unicode error) 'unicodeescape' codec can't decode bytes in position %d-%d: unknown Unicode character name", i-1, i+end)
			}
			b.WriteRune(r)
			i += end
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}
