package sed

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

type addrKind int

const (
	addrLine  addrKind = iota + 1 // N
	addrLast                      // $
	addrRegex                     // /re/ (re nil: the last regex used)
	addrStep                      // first~step
	addrZero                      // 0 (only as 0,/re/)
	addrPlus                      // ,+N (second address only)
	addrMult                      // ,~N (second address only)
)

type address struct {
	kind  addrKind
	n     int // line, first, N
	step  int
	re    *posixre.Regexp
	empty bool // the empty regex: reuse the last one
}

// replPart is one piece of an s replacement: literal text, a group
// reference (group >= 0, & is 0) or a case conversion (\U \L \u \l \E).
type replPart struct {
	lit   string
	group int
	conv  byte
}

type cmd struct {
	a1, a2 *address
	neg    bool
	name   byte

	// range state
	active  bool
	endLine int

	text   string // a i c text; label for : b t T; file for r R w W
	target int    // jump target for b t T {; index of the matching } for {
	num    int    // exit code for q Q; width for l (-1 default)

	// s
	re     *posixre.Regexp
	reNil  bool // empty regex
	repl   []replPart
	global bool
	eval   bool // s///e: run the result as a command
	nth    int
	print  int
	wfile  string
	// y
	ymap map[rune]rune
}

type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

// parser reads one -e expression or -f file at a time into a shared program.
type parser struct {
	src     string
	pos     int
	chunks  []chunk
	ere     bool
	prog    []*cmd
	blocks  []int
	quiet   bool // set by #n
	sandbox bool
	// haveRegex: a regex was compiled, so an empty one has a referent
	haveRegex bool
}

// chunk is one -e expression or -f file inside the joined script.
type chunk struct {
	start int
	expr  int    // -e number
	file  string // -f name
}

func (p *parser) errf(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	ch := chunk{expr: 1}
	for _, c := range p.chunks {
		if c.start <= max(p.pos-1, 0) {
			ch = c
		}
	}
	if ch.file != "" {
		line := strings.Count(p.src[ch.start:min(p.pos, len(p.src))], "\n") + 1
		return &parseError{fmt.Sprintf("file %s line %d: %s", ch.file, line, msg)}
	}
	return &parseError{fmt.Sprintf("-e expression #%d, char %d: %s", ch.expr, p.pos-ch.start, msg)}
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *parser) next() byte {
	if p.eof() {
		return 0
	}
	c := p.src[p.pos]
	p.pos++
	return c
}

func (p *parser) skipSpace() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.pos++
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) number() int {
	n := 0
	for !p.eof() && isDigit(p.peek()) {
		n = n*10 + int(p.next()-'0')
		if n > 1<<40 {
			n = 1 << 40
		}
	}
	return n
}

// parse adds the commands of src to the program.
func (p *parser) parse() error {
	if strings.HasPrefix(p.src, "#n") && (len(p.src) == 2 || p.src[2] == '\n') {
		p.quiet = true
	}
	for {
		for !p.eof() && (p.peek() == ' ' || p.peek() == '\t' || p.peek() == '\n' || p.peek() == ';') {
			p.pos++
		}
		if p.eof() {
			return nil
		}
		c := &cmd{num: -1}
		var err error
		if c.a1, err = p.address(); err != nil {
			return err
		}
		if c.a1 != nil {
			p.skipSpace()
			if p.peek() == ',' {
				p.pos++
				p.skipSpace()
				if c.a2, err = p.address2(); err != nil {
					return err
				}
				if c.a2 == nil {
					p.pos++
					return p.errf("unexpected `,'")
				}
			}
		}
		p.skipSpace()
		for p.peek() == '!' {
			p.pos++
			c.neg = true
			p.skipSpace()
		}
		if p.eof() {
			return p.errf("missing command")
		}
		c.name = p.next()
		if c.a1 != nil && c.a1.kind == addrZero && (c.a2 == nil || c.a2.kind != addrRegex) {
			return p.errf("invalid usage of line address 0")
		}
		if err := p.command(c); err != nil {
			return err
		}
	}
}

func (p *parser) address() (*address, error) {
	c := p.peek()
	switch {
	case isDigit(c):
		n := p.number()
		if p.peek() == '~' {
			p.pos++
			return &address{kind: addrStep, n: n, step: p.number()}, nil
		}
		if n == 0 {
			return &address{kind: addrZero}, nil
		}
		return &address{kind: addrLine, n: n}, nil
	case c == '$':
		p.pos++
		return &address{kind: addrLast}, nil
	case c == '/' || c == '\\':
		p.pos++
		delim := byte('/')
		if c == '\\' {
			delim = p.next()
			if delim == 0 || delim == '\n' || delim == '\\' {
				return nil, p.errf("unexpected `,'")
			}
		}
		pat, ok := p.delimited(delim, true)
		if !ok {
			return nil, p.errf("unterminated address regex")
		}
		icase, multi := false, false
		for {
			if p.peek() == 'I' {
				icase = true
			} else if p.peek() == 'M' {
				multi = true
			} else {
				break
			}
			p.pos++
		}
		a := &address{kind: addrRegex}
		if pat == "" {
			if !p.haveRegex {
				return nil, p.noPrevious()
			}
			a.empty = true
			return a, nil
		}
		re, err := p.compile(pat, icase, multi)
		if err != nil {
			return nil, err
		}
		a.re = re
		return a, nil
	}
	return nil, nil
}

func (p *parser) address2() (*address, error) {
	switch p.peek() {
	case '+', '~':
		k := addrPlus
		if p.next() == '~' {
			k = addrMult
		}
		if !isDigit(p.peek()) {
			return nil, p.errf("expected newer version of sed")
		}
		return &address{kind: k, n: p.number()}, nil
	}
	a, err := p.address()
	if a != nil && a.kind == addrZero {
		return nil, p.errf("invalid usage of line address 0")
	}
	if a != nil && a.kind == addrStep {
		// GNU treats addr1,first~step as addr1,first.
		if a.step <= 0 {
			a = &address{kind: addrLine, n: a.n}
		}
	}
	return a, err
}

func (p *parser) compile(pat string, icase, multi bool) (*posixre.Regexp, error) {
	re, err := posixre.Compile(pat, posixre.Options{Extended: p.ere, Flavor: posixre.Sed,
		ICase: icase, DotNL: !multi, Multiline: multi})
	p.haveRegex = true
	if err != nil {
		return nil, p.errf("%s", err.Error())
	}
	return re, nil
}

func (p *parser) noPrevious() error {
	p.pos = p.chunks[0].start
	return p.errf("no previous regular expression")
}

// unsupportedError is a valid script using a feature ShellSim lacks.
type unsupportedError struct{ feature string }

func (e *unsupportedError) Error() string { return e.feature }

// delimited reads up to the unescaped delimiter and consumes it. In a regex
// (isRE) "\delim" becomes a literal delimiter and "\n" stays an escape;
// otherwise escapes are kept for the caller.
func (p *parser) delimited(delim byte, isRE bool) (string, bool) {
	var b strings.Builder
	for !p.eof() {
		c := p.next()
		switch {
		case c == delim:
			return b.String(), true
		case c == '\\':
			if p.eof() {
				b.WriteByte('\\')
				continue
			}
			d := p.next()
			switch {
			case d == delim && isRE:
				b.WriteString(literalRE(d, p.ere))
			case d == delim:
				b.WriteByte(d)
			case d == '\n' && isRE:
				b.WriteString(`\n`)
			default:
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		case c == '\n' && isRE:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// literalRE spells character c so that it is literal in a BRE or ERE.
func literalRE(c byte, ere bool) string {
	switch c {
	case '^':
		return `\^`
	case ']':
		return `[]]`
	case '.', '*', '[', '$', '\\':
		return `[` + string(c) + `]`
	case '+', '?', '(', ')', '{', '}', '|':
		if ere {
			return `[` + string(c) + `]`
		}
	}
	return string(c)
}

// endCommand checks that nothing but a separator follows a command.
func (p *parser) endCommand() error {
	p.skipSpace()
	switch p.peek() {
	case 0, ';', '\n':
		if !p.eof() {
			p.pos++
		}
		return nil
	case '}', '#':
		return nil
	}
	p.pos++
	return p.errf("extra characters after command")
}

// toEOL reads the rest of the line (for labels and file names).
func (p *parser) toEOL(semicolon bool) string {
	start := p.pos
	for !p.eof() && p.peek() != '\n' && !(semicolon && p.peek() == ';') {
		p.pos++
	}
	s := p.src[start:p.pos]
	if !p.eof() {
		p.pos++
	}
	return s
}

func (p *parser) command(c *cmd) error {
	oneAddr := func() error {
		if c.a2 != nil {
			return p.errf("command only uses one address")
		}
		return nil
	}
	if p.sandbox && strings.IndexByte("erRwW", c.name) >= 0 {
		return p.errf("e/r/w commands disabled in sandbox mode")
	}
	switch c.name {
	case '#':
		if c.a1 != nil {
			return p.errf("comments don't accept any addresses")
		}
		p.toEOL(false)
		return nil
	case ':':
		if c.a1 != nil {
			return p.errf(": doesn't want any addresses")
		}
		p.skipSpace()
		label := strings.TrimRight(p.toEOL(true), " \t")
		if label == "" {
			return p.errf("\":\" lacks a label")
		}
		c.text = label
	case '{':
		p.blocks = append(p.blocks, len(p.prog))
		p.prog = append(p.prog, c)
		return nil
	case '}':
		if c.a1 != nil {
			return p.errf("} doesn't want any addresses")
		}
		if len(p.blocks) == 0 {
			return p.errf("unexpected `}'")
		}
		open := p.blocks[len(p.blocks)-1]
		p.blocks = p.blocks[:len(p.blocks)-1]
		p.prog[open].target = len(p.prog) + 1
		p.prog = append(p.prog, c)
		return p.endCommand()
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		p.prog = append(p.prog, c)
		return p.endCommand()
	case 'a', 'i', 'c':
		if c.name != 'c' {
			// GNU accepts two addresses for a and i as an extension.
		}
		text, err := p.text()
		if err != nil {
			return err
		}
		c.text = text
	case 'b', 't', 'T':
		p.skipSpace()
		start := p.pos
		for !p.eof() && strings.IndexByte("; \t\n}", p.peek()) < 0 {
			p.pos++
		}
		c.text = p.src[start:p.pos]
		p.prog = append(p.prog, c)
		return p.endCommand()
	case 'r', 'R', 'w', 'W':
		p.skipSpace()
		c.text = p.toEOL(false)
		if c.text == "" {
			return p.errf("missing filename in r/R/w/W commands")
		}
	case 'q', 'Q':
		if err := oneAddr(); err != nil {
			return err
		}
		p.skipSpace()
		c.num = 0
		if isDigit(p.peek()) {
			c.num = p.number()
		}
		p.prog = append(p.prog, c)
		return p.endCommand()
	case 'l', 'L':
		if c.name == 'L' {
			return &unsupportedError{"sed L"}
		}
		p.skipSpace()
		if isDigit(p.peek()) {
			c.num = p.number()
		}
		p.prog = append(p.prog, c)
		return p.endCommand()
	case 's':
		if err := p.subst(c); err != nil {
			return err
		}
		p.prog = append(p.prog, c)
		if c.wfile != "" {
			return nil
		}
		return p.endCommand()
	case 'y':
		if err := p.translit(c); err != nil {
			return err
		}
		p.prog = append(p.prog, c)
		return p.endCommand()
	case 'e':
		p.skipSpace()
		c.text = p.toEOL(false)
	case 'v':
		p.toEOL(true)
		return nil
	default:
		return p.errf("unknown command: `%c'", c.name)
	}
	p.prog = append(p.prog, c)
	return nil
}

// text reads the text argument of a, i or c in both the classic form
// ("a\" newline text) and the GNU one-liner form ("a text").
func (p *parser) text() (string, error) {
	p.skipSpace()
	if p.eof() {
		return "", p.errf("expected \\ after `a', `c' or `i'")
	}
	if p.peek() == '\\' {
		p.pos++
		if p.peek() == '\n' {
			p.pos++
		} else if p.eof() {
			return "", p.errf("expected \\ after `a', `c' or `i'")
		}
	}
	var b strings.Builder
	for !p.eof() {
		c := p.next()
		if c == '\\' {
			if p.eof() {
				break
			}
			switch d := p.next(); d {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(d)
			}
			continue
		}
		if c == '\n' {
			break
		}
		b.WriteByte(c)
	}
	return b.String() + "\n", nil
}

func (p *parser) subst(c *cmd) error {
	delim := p.next()
	if delim == 0 || delim == '\n' || delim == '\\' {
		return p.errf("unterminated `s' command")
	}
	pat, ok := p.delimited(delim, true)
	if !ok {
		return p.errf("unterminated `s' command")
	}
	rawRepl, ok := p.replacement(delim)
	if !ok {
		return p.errf("unterminated `s' command")
	}
	icase, multi := false, false
flags:
	for !p.eof() {
		f := p.peek()
		switch {
		case f == 'g':
			if c.global {
				p.pos++
				return p.errf("multiple `g' options to `s' command")
			}
			c.global = true
		case f == 'p':
			if c.print > 0 {
				p.pos++
				return p.errf("multiple `p' options to `s' command")
			}
			c.print++
		case f == 'i' || f == 'I':
			icase = true
		case f == 'm' || f == 'M':
			multi = true
		case f == 'e' || (f == 'w' && p.sandbox):
			if p.sandbox {
				p.pos++
				return p.errf("e/r/w commands disabled in sandbox mode")
			}
			c.eval = true
		case isDigit(f):
			if c.nth > 0 {
				p.pos++
				return p.errf("multiple number options to `s' command")
			}
			c.nth = p.number()
			if c.nth == 0 {
				return p.errf("number option to `s' command may not be zero")
			}
			continue
		case f == 'w':
			p.pos++
			p.skipSpace()
			c.wfile = p.toEOL(false)
			if c.wfile == "" {
				return p.errf("missing filename in r/R/w/W commands")
			}
			break flags
		default:
			break flags
		}
		p.pos++
	}
	if !p.eof() {
		switch p.peek() {
		case ';', '\n', '}', '#', ' ', '\t':
		default:
			p.pos++
			return p.errf("unknown option to `s'")
		}
	}
	if pat == "" {
		if !p.haveRegex {
			return p.noPrevious()
		}
		c.reNil = true
	} else {
		re, err := p.compile(pat, icase, multi)
		if err != nil {
			return err
		}
		c.re = re
	}
	repl, maxRef := parseReplacement(rawRepl)
	if c.re != nil && maxRef > c.re.NumSubexp() {
		return p.errf("invalid reference \\%d on `s' command's RHS", maxRef)
	}
	c.repl = repl
	return nil
}

// replacement reads the raw replacement up to the delimiter, keeping
// escapes except \delim.
func (p *parser) replacement(delim byte) (string, bool) {
	var b strings.Builder
	for !p.eof() {
		c := p.next()
		switch {
		case c == delim:
			return b.String(), true
		case c == '\\':
			if p.eof() {
				return "", false
			}
			d := p.next()
			if d == delim && d != '&' && d != '\n' {
				b.WriteByte(d)
			} else {
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

func parseReplacement(s string) ([]replPart, int) {
	var parts []replPart
	var lit strings.Builder
	maxRef := 0
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, replPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '&' {
			flush()
			parts = append(parts, replPart{group: 0})
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			lit.WriteByte(c)
			continue
		}
		i++
		d := s[i]
		switch {
		case d >= '0' && d <= '9':
			flush()
			parts = append(parts, replPart{group: int(d - '0')})
			maxRef = max(maxRef, int(d-'0'))
		case d == 'U' || d == 'L' || d == 'u' || d == 'l' || d == 'E':
			flush()
			parts = append(parts, replPart{group: -1, conv: d})
		case d == 'n':
			lit.WriteByte('\n')
		case d == 't':
			lit.WriteByte('\t')
		case d == 'r':
			lit.WriteByte('\r')
		case d == 'a':
			lit.WriteByte('\a')
		case d == 'f':
			lit.WriteByte('\f')
		case d == 'v':
			lit.WriteByte('\v')
		case d == 'x' && i+1 < len(s) && isHex(s[i+1]):
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			lit.WriteByte(byte(v))
			i = j - 1
		default:
			lit.WriteByte(d)
		}
	}
	flush()
	return parts, maxRef
}

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (p *parser) translit(c *cmd) error {
	delim := p.next()
	if delim == 0 || delim == '\n' || delim == '\\' {
		return p.errf("unterminated `y' command")
	}
	read := func() ([]rune, bool) {
		var out []rune
		for !p.eof() {
			ch := p.next()
			if ch == delim {
				return []rune(string(runesBytes(out))), true
			}
			if ch == '\\' && !p.eof() {
				d := p.next()
				switch d {
				case 'n':
					out = append(out, '\n')
				case 't':
					out = append(out, '\t')
				case 'r':
					out = append(out, '\r')
				case 'a':
					out = append(out, '\a')
				case 'f':
					out = append(out, '\f')
				case 'v':
					out = append(out, '\v')
				default:
					out = append(out, rune(d))
				}
				continue
			}
			out = append(out, rune(ch))
		}
		return nil, false
	}
	src, ok := read()
	if !ok {
		return p.errf("unterminated `y' command")
	}
	dst, ok := read()
	if !ok {
		return p.errf("unterminated `y' command")
	}
	if len(src) != len(dst) {
		return p.errf("strings for `y' command are different lengths")
	}
	c.ymap = map[rune]rune{}
	for i, r := range src {
		if _, dup := c.ymap[r]; !dup {
			c.ymap[r] = dst[i]
		}
	}
	return nil
}

// runesBytes turns the byte-per-rune slice back into bytes so that UTF-8
// sequences in y strings decode as characters.
func runesBytes(rs []rune) []byte {
	b := make([]byte, len(rs))
	for i, r := range rs {
		b[i] = byte(r)
	}
	return b
}

// resolve checks blocks and binds labels once the whole script is read.
func (p *parser) resolve() error {
	if len(p.blocks) > 0 {
		p.pos = p.chunks[len(p.chunks)-1].start
		return p.errf("unmatched `{'")
	}
	labels := map[string]int{}
	for i, c := range p.prog {
		if c.name == ':' {
			if _, dup := labels[c.text]; !dup {
				labels[c.text] = i
			}
		}
	}
	for _, c := range p.prog {
		if c.name == 'b' || c.name == 't' || c.name == 'T' {
			if c.text == "" {
				c.target = len(p.prog)
				continue
			}
			t, ok := labels[c.text]
			if !ok {
				return &labelError{c.text}
			}
			c.target = t
		}
	}
	return nil
}

// labelError is a jump to an undefined label (GNU exits 4 for it).
type labelError struct{ label string }

func (e *labelError) Error() string { return "can't find label for jump to `" + e.label + "'" }
