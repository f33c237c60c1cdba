package awk

import (
	"fmt"
	"strings"
)

type tok int

const (
	tEOF tok = iota
	tNewline
	tNumber
	tString
	tRegex
	tName
	tFuncName // a name directly followed by '('
	tBuiltin
	// keywords
	tBegin
	tEnd
	tFunction
	tIf
	tElse
	tWhile
	tFor
	tDo
	tBreak
	tContinue
	tNext
	tNextfile
	tExit
	tReturn
	tDelete
	tIn
	tGetline
	tPrint
	tPrintf
	// punctuation and operators
	tLbrace
	tRbrace
	tLparen
	tRparen
	tLbracket
	tRbracket
	tSemi
	tComma
	tPlus
	tMinus
	tMul
	tDiv
	tMod
	tPow
	tNot
	tGT
	tLT
	tPipe
	tQuestion
	tColon
	tMatch
	tNoMatch
	tDollar
	tAssign
	tAddAssign
	tSubAssign
	tMulAssign
	tDivAssign
	tModAssign
	tPowAssign
	tEQ
	tLE
	tGE
	tNE
	tIncr
	tDecr
	tAnd
	tOr
	tAppend
)

var keywords = map[string]tok{
	"BEGIN": tBegin, "END": tEnd, "function": tFunction, "func": tFunction,
	"if": tIf, "else": tElse, "while": tWhile, "for": tFor, "do": tDo,
	"break": tBreak, "continue": tContinue, "next": tNext, "nextfile": tNextfile,
	"exit": tExit, "return": tReturn, "delete": tDelete, "in": tIn,
	"getline": tGetline, "print": tPrint, "printf": tPrintf,
}

var builtins = map[string]bool{
	"length": true, "substr": true, "index": true, "split": true, "sub": true,
	"gsub": true, "match": true, "sprintf": true, "sin": true, "cos": true,
	"atan2": true, "exp": true, "log": true, "sqrt": true, "int": true,
	"rand": true, "srand": true, "tolower": true, "toupper": true,
	"system": true, "close": true, "fflush": true,
	// gawk extensions
	"gensub": true, "systime": true, "strftime": true, "mktime": true,
	"asort": true, "asorti": true, "patsplit": true, "and": true, "or": true,
	"xor": true, "lshift": true, "rshift": true, "compl": true, "strtonum": true,
	"isarray": true, "typeof": true,
}

// gawkOnly names gawk features this interpreter does not model; a
// program using them fails as partial instead of silently differing.
var gawkOnly = map[string]bool{
	"BEGINFILE": true, "ENDFILE": true, "switch": true,
	"FIELDWIDTHS": true, "BINMODE": true, "LINT": true,
	"TEXTDOMAIN": true,
}

// unsupportedError is a valid program that uses a feature ShellSim lacks.
type unsupportedError struct{ feature string }

func (e *unsupportedError) Error() string { return e.feature }

type token struct {
	kind tok
	text string // name, string value, regex source
	num  float64
	pos  int // byte offset in the source
}

type lexer struct {
	src  string
	pos  int
	last tok
	toks []token
}

type syntaxError struct {
	pos   int
	msg   string
	plain bool // reported as "error: msg" without the source line
	nl    bool // at a newline token: gawk counts the line as already ended
}

func (e *syntaxError) Error() string { return e.msg }

// regexAllowed reports whether a '/' after the previous token starts a
// regex rather than a division.
func regexAllowed(prev tok) bool {
	switch prev {
	case tNumber, tString, tName, tBuiltin, tRparen, tRbracket, tDollar, tIncr, tDecr, tRegex:
		return false
	}
	return true
}

func lex(src string) ([]token, error) {
	l := &lexer{src: src, last: tNewline}
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		l.toks = append(l.toks, t)
		l.last = t.kind
		if t.kind == tEOF {
			return l.toks, nil
		}
	}
}

func (l *lexer) next() (token, error) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == ' ' || c == '\t' || c == '\r' {
			l.pos++
		} else if c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n' {
			l.pos += 2
		} else if c == '\\' && strings.HasPrefix(l.src[l.pos+1:], "\r\n") {
			l.pos += 3
		} else if c == '#' {
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		} else {
			break
		}
	}
	start := l.pos
	tk := func(k tok, n int) (token, error) {
		l.pos += n
		return token{kind: k, pos: start, text: l.src[start:l.pos]}, nil
	}
	if l.pos >= len(l.src) {
		return token{kind: tEOF, pos: start}, nil
	}
	c := l.src[l.pos]
	two := ""
	if l.pos+1 < len(l.src) {
		two = l.src[l.pos : l.pos+2]
	}
	switch {
	case c == '\n':
		return tk(tNewline, 1)
	case isDigit(c) || (c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1])):
		return l.number()
	case isAlpha(c):
		j := l.pos
		for j < len(l.src) && (isAlpha(l.src[j]) || isDigit(l.src[j])) {
			j++
		}
		word := l.src[l.pos:j]
		l.pos = j
		if k, ok := keywords[word]; ok {
			return token{kind: k, text: word, pos: start}, nil
		}
		if gawkOnly[word] {
			return token{}, &unsupportedError{"awk " + word}
		}
		if builtins[word] {
			return token{kind: tBuiltin, text: word, pos: start}, nil
		}
		if j < len(l.src) && l.src[j] == '(' {
			return token{kind: tFuncName, text: word, pos: start}, nil
		}
		return token{kind: tName, text: word, pos: start}, nil
	case c == '"':
		return l.str()
	case c == '/' && regexAllowed(l.last):
		return l.regex()
	}
	switch two {
	case "+=":
		return tk(tAddAssign, 2)
	case "-=":
		return tk(tSubAssign, 2)
	case "*=":
		return tk(tMulAssign, 2)
	case "/=":
		return tk(tDivAssign, 2)
	case "%=":
		return tk(tModAssign, 2)
	case "^=":
		return tk(tPowAssign, 2)
	case "==":
		return tk(tEQ, 2)
	case "<=":
		return tk(tLE, 2)
	case ">=":
		return tk(tGE, 2)
	case "!=":
		return tk(tNE, 2)
	case "++":
		return tk(tIncr, 2)
	case "--":
		return tk(tDecr, 2)
	case "&&":
		return tk(tAnd, 2)
	case "||":
		return tk(tOr, 2)
	case ">>":
		return tk(tAppend, 2)
	case "!~":
		return tk(tNoMatch, 2)
	case "**":
		if strings.HasPrefix(l.src[l.pos:], "**=") {
			return tk(tPowAssign, 3)
		}
		return tk(tPow, 2)
	}
	switch c {
	case '{':
		return tk(tLbrace, 1)
	case '}':
		return tk(tRbrace, 1)
	case '(':
		return tk(tLparen, 1)
	case ')':
		return tk(tRparen, 1)
	case '[':
		return tk(tLbracket, 1)
	case ']':
		return tk(tRbracket, 1)
	case ';':
		return tk(tSemi, 1)
	case ',':
		return tk(tComma, 1)
	case '+':
		return tk(tPlus, 1)
	case '-':
		return tk(tMinus, 1)
	case '*':
		return tk(tMul, 1)
	case '/':
		return tk(tDiv, 1)
	case '%':
		return tk(tMod, 1)
	case '^':
		return tk(tPow, 1)
	case '!':
		return tk(tNot, 1)
	case '>':
		return tk(tGT, 1)
	case '<':
		return tk(tLT, 1)
	case '|':
		if two == "|&" {
			return token{}, &unsupportedError{"awk |& (coprocess)"}
		}
		return tk(tPipe, 1)
	case '?':
		return tk(tQuestion, 1)
	case ':':
		return tk(tColon, 1)
	case '~':
		return tk(tMatch, 1)
	case '$':
		return tk(tDollar, 1)
	case '=':
		return tk(tAssign, 1)
	}
	if c == '@' {
		return token{}, &unsupportedError{"awk @-directives"}
	}
	return token{}, &syntaxError{pos: start, msg: fmt.Sprintf("invalid char '%c' in expression", c)}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }

func (l *lexer) number() (token, error) {
	start := l.pos
	s := l.src
	j := l.pos
	if strings.HasPrefix(s[j:], "0x") || strings.HasPrefix(s[j:], "0X") {
		k := j + 2
		for k < len(s) && isHexDigit(s[k]) {
			k++
		}
		if k > j+2 {
			var v float64
			for _, d := range s[j+2 : k] {
				v = v*16 + float64(hexVal(byte(d)))
			}
			l.pos = k
			return token{kind: tNumber, num: v, pos: start, text: s[start:k]}, nil
		}
	}
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			j = k
		}
	}
	l.pos = j
	text := s[start:j]
	v, _ := strtod(text)
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "01234567") == "" {
		// gawk reads 0NNN in program text as octal
		v = 0
		for _, d := range text {
			v = v*8 + float64(d-'0')
		}
	}
	return token{kind: tNumber, num: v, pos: start, text: text}, nil
}

func isHexDigit(c byte) bool {
	return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f')
}

func hexVal(c byte) int {
	if isDigit(c) {
		return int(c - '0')
	}
	return int(c|0x20-'a') + 10
}

// str reads a string literal, processing escape sequences.
func (l *lexer) str() (token, error) {
	start := l.pos
	l.pos++
	var b strings.Builder
	for {
		if l.pos >= len(l.src) || l.src[l.pos] == '\n' {
			return token{}, &syntaxError{pos: start, msg: "unterminated string"}
		}
		c := l.src[l.pos]
		if c == '"' {
			l.pos++
			return token{kind: tString, text: b.String(), pos: start}, nil
		}
		if c == '\\' && l.pos+1 < len(l.src) {
			l.pos++
			n := unescape(l.src, &l.pos, &b, '"')
			_ = n
			continue
		}
		b.WriteByte(c)
		l.pos++
	}
}

// unescape decodes the escape whose first character is at s[*i] (just
// after the backslash), advancing *i.
func unescape(s string, i *int, b *strings.Builder, quote byte) bool {
	c := s[*i]
	*i++
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '\\':
		b.WriteByte('\\')
	case '"':
		b.WriteByte('"')
	case '/':
		b.WriteByte('/')
	case 'a':
		b.WriteByte(7)
	case 'b':
		b.WriteByte(8)
	case 'f':
		b.WriteByte(12)
	case 'v':
		b.WriteByte(11)
	case '\n':
		// line continuation inside a string
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(c - '0')
		for k := 0; k < 2 && *i < len(s) && s[*i] >= '0' && s[*i] <= '7'; k++ {
			v = v*8 + int(s[*i]-'0')
			*i++
		}
		b.WriteByte(byte(v))
	case 'x':
		if *i < len(s) && isHexDigit(s[*i]) {
			v := 0
			for k := 0; k < 2 && *i < len(s) && isHexDigit(s[*i]); k++ {
				v = v*16 + hexVal(s[*i])
				*i++
			}
			b.WriteByte(byte(v))
		} else {
			b.WriteString("\\x")
		}
	default:
		// gawk keeps the character and drops the backslash.
		b.WriteByte(c)
		return false
	}
	return true
}

// regex reads a /regex/ literal; the text is kept raw for the regex
// translator except that \/ becomes /.
func (l *lexer) regex() (token, error) {
	start := l.pos
	l.pos++
	var b strings.Builder
	inBracket := false
	for {
		if l.pos >= len(l.src) || l.src[l.pos] == '\n' {
			return token{}, &syntaxError{pos: start + 1, msg: "unterminated regexp"}
		}
		c := l.src[l.pos]
		switch {
		case c == '\\' && l.pos+1 < len(l.src):
			if l.src[l.pos+1] == '/' {
				b.WriteByte('/')
			} else {
				b.WriteString(l.src[l.pos : l.pos+2])
			}
			l.pos += 2
			continue
		case c == '[' && !inBracket:
			inBracket = true
			b.WriteByte(c)
			l.pos++
			// a leading ] (after an optional ^) is literal
			if l.pos < len(l.src) && l.src[l.pos] == '^' {
				b.WriteByte('^')
				l.pos++
			}
			if l.pos < len(l.src) && l.src[l.pos] == ']' {
				b.WriteByte(']')
				l.pos++
			}
			continue
		case c == '[' && inBracket && l.pos+1 < len(l.src) && l.src[l.pos+1] == ':':
			end := strings.Index(l.src[l.pos:], ":]")
			if end > 0 {
				b.WriteString(l.src[l.pos : l.pos+end+2])
				l.pos += end + 2
				continue
			}
		case c == ']' && inBracket:
			inBracket = false
		case c == '/' && !inBracket:
			l.pos++
			return token{kind: tRegex, text: b.String(), pos: start}, nil
		}
		b.WriteByte(c)
		l.pos++
	}
}
