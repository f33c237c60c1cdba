package posixre

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The parser reads a POSIX pattern and writes RE2 syntax. What RE2 cannot
// say (backreferences, one-sided word boundaries, Unicode word
// boundaries) becomes a private-use placeholder rune that only the
// backtracking matcher understands (see backtrack.go).

// maxRepeat is RE2's repetition limit. glibc allows up to 32767, so a
// count between the two is reported as too big rather than mistranslated.
const maxRepeat = 1000

// unicodeClasses are glibc's C.UTF-8 character classes in RE2 syntax (for
// use inside brackets).
var unicodeClasses = map[string]string{
	"alpha":  `\p{L}`,
	"upper":  `\p{Lu}`,
	"lower":  `\p{Ll}`,
	"digit":  `0-9`,
	"xdigit": `0-9A-Fa-f`,
	"alnum":  `\p{L}\p{Nd}`,
	"space":  `\t\n\v\f\r \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{2028}\x{2029}\x{205F}\x{3000}`,
	"blank":  `\t \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{205F}\x{3000}`,
	"punct":  `!-/:-@\[-` + "`" + `{-~\p{P}\p{S}`,
	"cntrl":  `\p{Cc}`,
	"print":  `\P{C}`,
	"graph":  `\p{L}\p{M}\p{N}\p{P}\p{S}`,
}

var classes = map[string]bool{
	"alpha": true, "upper": true, "lower": true, "digit": true, "xdigit": true, "space": true,
	"print": true, "punct": true, "graph": true, "cntrl": true, "blank": true, "alnum": true,
}

type parser struct {
	src      []rune
	i        int
	ere      bool
	flavor   Flavor
	unicode  bool
	depth    int
	warnings []string
	groups   int          // groups opened so far (a group's number is its rank)
	closed   map[int]bool // the groups closed so far, which \N may name
}

func newParser(pattern string, o Options) *parser {
	if !utf8.ValidString(pattern) {
		// Keep invalid bytes as they are; RE2 matches them as U+FFFD.
		pattern = strings.ToValidUTF8(pattern, "\uFFFD")
	}
	return &parser{src: []rune(pattern), ere: o.Extended, flavor: o.Flavor, unicode: o.Unicode}
}

func (p *parser) run() (string, error) {
	out, err := p.alternation()
	if err != nil {
		return "", err
	}
	if p.i < len(p.src) {
		// Only a closing group can stop alternation early.
		return "", &Error{Msg: "Unmatched ) or \\)"}
	}
	return out, nil
}

func (p *parser) peek(k int) (rune, bool) {
	if p.i+k < len(p.src) {
		return p.src[p.i+k], true
	}
	return 0, false
}

// atAltBar reports whether the parser is at an alternation operator.
func (p *parser) atAltBar() bool {
	c, ok := p.peek(0)
	if p.ere {
		return ok && c == '|'
	}
	d, _ := p.peek(1)
	return c == '\\' && d == '|'
}

// atClose reports whether the parser is at the end of a group.
func (p *parser) atClose() bool {
	c, ok := p.peek(0)
	if !ok {
		return false
	}
	if p.ere {
		return c == ')'
	}
	d, _ := p.peek(1)
	return c == '\\' && d == ')'
}

func (p *parser) alternation() (string, error) {
	var alts []string
	for {
		b, err := p.branch()
		if err != nil {
			return "", err
		}
		alts = append(alts, b)
		if p.atAltBar() {
			if p.ere {
				p.i++
			} else {
				p.i += 2
			}
			continue
		}
		return strings.Join(alts, "|"), nil
	}
}

// piece is one atom with its repetitions.
type piece struct {
	atom       string
	quantified bool
	anchor     bool // ^ at the start of a branch
	wordLit    bool // an ASCII word character, unrepeated
	// wordStart, wordEnd: \< or \>, settled once the neighbours are known.
	wordStart, wordEnd bool
}

func (p *parser) branch() (string, error) {
	var pieces []piece
	start := true // at the start of the branch (for literal * and BRE ^)
	for p.i < len(p.src) && !p.atAltBar() && !(p.depth > 0 && p.atClose()) {
		c := p.src[p.i]
		if q, n, isQ, err := p.quantifier(start); err != nil {
			return "", err
		} else if isQ {
			onlyAnchor := len(pieces) == 1 && pieces[0].anchor
			afterAnchor := len(pieces) > 0 && pieces[len(pieces)-1].anchor
			if start || onlyAnchor || (p.ere && afterAnchor) {
				switch {
				case p.flavor == Sed && (p.ere || p.src[p.i] == '\\' && p.src[p.i+1] == '{'):
					// GNU sed's regcomp syntax refuses a repetition of
					// nothing.
					return "", &Error{Msg: "Invalid preceding regular expression"}
				case p.flavor == GNU && p.ere:
					// GNU grep applies a leading repetition to an empty
					// expression: it matches nothing more and is dropped.
					op := string(p.src[p.i])
					if op == "{" {
						op = "{...}"
					}
					p.warnings = append(p.warnings, op+" at start of expression")
					p.i += n
					continue
				}
				// Otherwise a leading repetition operator is literal.
				lit := string(p.src[p.i : p.i+n])
				if p.flavor == Awk {
					lit = string(p.src[p.i]) // "{2}": only the brace is special
					n = 1
				} else if !p.ere {
					lit = strings.ReplaceAll(lit, "\\", "")
				}
				p.i += n
				pieces = append(pieces, piece{atom: regexp.QuoteMeta(lit)})
				start = false
				continue
			}
			p.i += n
			last := &pieces[len(pieces)-1]
			// RE2 refuses a repetition of a repetition (a** or a
			// placeholder's {1}) unless the first is grouped.
			if last.quantified || strings.HasSuffix(last.atom, "){1}") {
				last.atom = "(?:" + last.atom + ")"
			}
			last.atom += q
			last.quantified, last.wordLit = true, false
			continue
		}
		start = false
		switch {
		case c == '^' && (p.ere || len(pieces) == 0):
			p.i++
			pieces = append(pieces, piece{atom: "^", anchor: true})
			if !p.ere {
				start = true
			}
			continue
		case c == '$' && (p.ere || p.breDollarIsAnchor()):
			p.i++
			pieces = append(pieces, piece{atom: "$", anchor: p.ere})
			continue
		}
		pc, err := p.atom()
		if err != nil {
			return "", err
		}
		pieces = append(pieces, pc)
	}
	var b strings.Builder
	for k, pc := range pieces {
		switch {
		case pc.wordStart && !pc.quantified:
			// \< before a word character is \b, which RE2 runs.
			if k+1 < len(pieces) && pieces[k+1].wordLit {
				pc.atom = `\b`
			}
		case pc.wordEnd && !pc.quantified:
			if k > 0 && pieces[k-1].wordLit {
				pc.atom = `\b`
			}
		}
		b.WriteString(pc.atom)
	}
	return b.String(), nil
}

// breDollarIsAnchor: in a BRE, '$' is an anchor only at the end of the
// pattern or of a group or alternative.
func (p *parser) breDollarIsAnchor() bool {
	if p.i+1 >= len(p.src) {
		return true
	}
	c, d := p.src[p.i+1], rune(0)
	if p.i+2 < len(p.src) {
		d = p.src[p.i+2]
	}
	return c == '\\' && (d == ')' || d == '|')
}

// quantifier recognizes a repetition operator at the cursor without
// consuming it; n is its length in runes.
func (p *parser) quantifier(start bool) (q string, n int, ok bool, err error) {
	c, _ := p.peek(0)
	d, _ := p.peek(1)
	switch {
	case c == '*':
		return "*", 1, true, nil
	case p.ere && (c == '+' || c == '?'):
		return string(c), 1, true, nil
	case !p.ere && p.flavor != Emacs && c == '\\' && (d == '+' || d == '?'):
		return string(d), 2, true, nil
	case p.flavor == Emacs && (c == '+' || c == '?'):
		return string(c), 1, true, nil
	case p.ere && c == '{':
		if start && p.flavor == Awk {
			return "", 1, true, nil // a literal brace (see branch)
		}
		return p.interval(1)
	case !p.ere && p.flavor != Emacs && c == '\\' && d == '{':
		if start && p.flavor == Sed {
			return "", 2, true, nil // refused by branch
		}
		return p.interval(2)
	}
	return "", 0, false, nil
}

// interval parses {m,n} starting after an opening of length open.
func (p *parser) interval(open int) (string, int, bool, error) {
	j := p.i + open
	readNum := func() (int, bool) {
		k := j
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			j++
		}
		if k == j {
			return -1, false
		}
		v, err := strconv.Atoi(string(p.src[k:j]))
		if err != nil {
			v = 1 << 30
		}
		return v, true
	}
	lo, hasLo := readNum()
	hi, comma := lo, false
	if j < len(p.src) && p.src[j] == ',' {
		comma = true
		j++
		var hasHi bool
		hi, hasHi = readNum()
		if !hasHi {
			hi = -1
		}
	}
	closed := false
	if p.ere {
		closed = j < len(p.src) && p.src[j] == '}'
		j++
	} else {
		closed = j+1 < len(p.src) && p.src[j] == '\\' && p.src[j+1] == '}'
		j += 2
	}
	if !closed || (!hasLo && !comma) {
		if p.ere {
			// Not an interval: '{' is an ordinary character.
			return "", 0, false, nil
		}
		if !closed && !p.hasBREClose() {
			return "", 0, false, &Error{Msg: "Unmatched \\{"}
		}
		return "", 0, false, &Error{Msg: "Invalid content of \\{\\}"}
	}
	if !hasLo {
		lo = 0
	}
	if hi >= 0 && hi < lo {
		return "", 0, false, &Error{Msg: "Invalid content of \\{\\}"}
	}
	if lo > maxRepeat || hi > maxRepeat {
		return "", 0, false, &Error{Msg: "Regular expression too big"}
	}
	var q string
	switch {
	case !comma:
		q = "{" + strconv.Itoa(lo) + "}"
	case hi < 0:
		q = "{" + strconv.Itoa(lo) + ",}"
	default:
		q = "{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
	}
	return q, j - p.i, true, nil
}

func (p *parser) hasBREClose() bool {
	for j := p.i + 2; j+1 < len(p.src); j++ {
		if p.src[j] == '\\' && p.src[j+1] == '}' {
			return true
		}
	}
	return false
}

func literal(r rune) piece {
	if r >= backrefBase && r <= uNotWordBoundRune {
		// Written as an escape so that a pattern's own private-use
		// character is never taken for a placeholder (needsBacktrack
		// looks for the raw runes).
		return piece{atom: `\x{` + strconv.FormatInt(int64(r), 16) + `}`}
	}
	return piece{atom: regexp.QuoteMeta(string(r)), wordLit: r < utf8.RuneSelf && isWordRune(r)}
}

func (p *parser) atom() (piece, error) {
	c := p.src[p.i]
	switch c {
	case '.':
		p.i++
		return piece{atom: "."}, nil
	case '[':
		s, err := p.bracket()
		return piece{atom: s}, err
	case '(':
		if p.ere {
			p.i++
			s, err := p.group(1)
			return piece{atom: s}, err
		}
	case ')':
		if p.ere {
			if p.flavor != GNU {
				return piece{}, &Error{Msg: "Unmatched ) or \\)"}
			}
			// An unmatched ')' is ordinary in GNU grep's EREs.
			p.i++
			return piece{atom: `\)`}, nil
		}
	case '\\':
		return p.escape()
	}
	p.i++
	return literal(c), nil
}

func (p *parser) group(closeLen int) (string, error) {
	p.groups++
	n := p.groups
	p.depth++
	inner, err := p.alternation()
	p.depth--
	if err != nil {
		return "", err
	}
	if !p.atClose() {
		return "", &Error{Msg: "Unmatched ( or \\("}
	}
	p.i += closeLen
	if p.closed == nil {
		p.closed = map[int]bool{}
	}
	p.closed[n] = true
	return "(" + inner + ")", nil
}

// placeholder is an atom RE2 cannot run; {1} keeps RE2's parser from
// merging it into a neighbouring literal.
func placeholder(r rune) string { return "(?:" + string(r) + "){1}" }

func (p *parser) escape() (piece, error) {
	if p.i+1 >= len(p.src) {
		if p.flavor == Awk {
			p.i++
			return literal('\\'), nil
		}
		return piece{}, &Error{Msg: "Trailing backslash"}
	}
	d := p.src[p.i+1]
	p.i += 2
	switch p.flavor {
	case Sed:
		if r, ok := p.sedEscape(d); ok {
			return literal(r), nil
		}
	case Awk:
		if pc, ok := p.awkEscape(d); ok {
			return pc, nil
		}
	}
	switch d {
	case '(':
		if !p.ere {
			s, err := p.group(2)
			return piece{atom: s}, err
		}
	case ')':
		if !p.ere {
			return piece{}, &Error{Msg: "Unmatched ) or \\)"}
		}
	case '{':
		if !p.ere {
			// Only reached at the start of an expression, where GNU
			// grep treats \{ as a literal brace.
			return piece{atom: `\{`}, nil
		}
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// glibc: only a group already closed may be named.
		if !p.closed[int(d-'0')] {
			return piece{}, &Error{Msg: "Invalid back reference"}
		}
		return piece{atom: placeholder(backrefRune(int(d - '0')))}, nil
	case 'w', 'W', 's', 'S', 'b', 'B':
		if p.unicode {
			switch d {
			case 'w':
				return piece{atom: `[\p{L}\p{Nd}_]`}, nil
			case 'W':
				return piece{atom: `[^\p{L}\p{Nd}_]`}, nil
			case 's':
				return piece{atom: "[" + unicodeClasses["space"] + "]"}, nil
			case 'S':
				return piece{atom: "[^" + unicodeClasses["space"] + "]"}, nil
			case 'b':
				return piece{atom: placeholder(uWordBoundRune)}, nil
			case 'B':
				return piece{atom: placeholder(uNotWordBoundRune)}, nil
			}
		}
		return piece{atom: `\` + string(d)}, nil
	case '<', '>':
		switch {
		case p.unicode && d == '<':
			return piece{atom: placeholder(uWordStartRune)}, nil
		case p.unicode:
			return piece{atom: placeholder(uWordEndRune)}, nil
		case d == '<':
			return piece{atom: placeholder(wordStartRune), wordStart: true}, nil
		default:
			return piece{atom: placeholder(wordEndRune), wordEnd: true}, nil
		}
	case '`':
		return piece{atom: `\A`}, nil
	case '\'':
		return piece{atom: `\z`}, nil
	case 'n':
		// GNU sed and grep read \n as a newline.
		return literal('\n'), nil
	}
	return literal(d), nil
}

// sedEscape: GNU sed turns these escapes into characters before its
// regcomp sees the pattern.
func (p *parser) sedEscape(d rune) (rune, bool) {
	switch d {
	case 'a':
		return '\a', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case 'c':
		if p.i < len(p.src) {
			c := p.src[p.i]
			p.i++
			return rune(byte(c)&^0x20 ^ 0x40), true
		}
	case 'x', 'o', 'd':
		base, width := 16, 2
		if d == 'o' {
			base, width = 8, 3
		} else if d == 'd' {
			base, width = 10, 3
		}
		v, n := 0, 0
		for ; n < width && p.i+n < len(p.src); n++ {
			dv := digitVal(p.src[p.i+n])
			if dv < 0 || dv >= base {
				break
			}
			v = v*base + dv
		}
		if n > 0 {
			p.i += n
			return rune(byte(v)), true
		}
	}
	return 0, false
}

// awkEscape reads gawk's escapes: its regexp operators, then the string
// escapes (\/ \" \n \ddd ...); any other escaped character is itself.
func (p *parser) awkEscape(d rune) (piece, bool) {
	switch d {
	case 'y':
		if p.unicode {
			return piece{atom: placeholder(uWordBoundRune)}, true
		}
		return piece{atom: `\b`}, true
	case 'B', 'w', 'W', 's', 'S', '<', '>', '`', '\'', '(', ')', '{', '}', '|', '*', '+', '?', '.', '[', ']', '^', '$':
		return piece{}, false // the common readings (an operator, or the character)
	}
	p.i--
	r := awkStringEscape(p.src, &p.i)
	return literal(r), true
}

// awkStringEscape reads the escape whose letter is at src[*i] as gawk's
// string escapes do, advancing *i past it.
func awkStringEscape(src []rune, i *int) rune {
	c := src[*i]
	*i++
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'a':
		return 7
	case 'b':
		return 8
	case 'f':
		return 12
	case 'v':
		return 11
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(c - '0')
		for k := 0; k < 2 && *i < len(src) && src[*i] >= '0' && src[*i] <= '7'; k++ {
			v = v*8 + int(src[*i]-'0')
			*i++
		}
		return rune(byte(v))
	case 'x':
		v, n := 0, 0
		for ; n < 2 && *i < len(src) && digitVal(src[*i]) >= 0 && digitVal(src[*i]) < 16; n++ {
			v = v*16 + digitVal(src[*i])
			*i++
		}
		if n > 0 {
			return rune(byte(v))
		}
	}
	return c
}

func digitVal(c rune) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}

// bracket translates a bracket expression starting at '['.
func (p *parser) bracket() (string, error) {
	unmatched := &Error{Msg: "Unmatched [, [^, [:, [., or [="}
	j := p.i + 1
	var b strings.Builder
	b.WriteString("[")
	if j < len(p.src) && p.src[j] == '^' {
		b.WriteString("^")
		j++
	}
	first := true
	// elem is one bracket element: a character or a class.
	type elem struct {
		r     rune
		class string
	}
	readElem := func() (elem, error) {
		if j >= len(p.src) {
			return elem{}, unmatched
		}
		c := p.src[j]
		// Emacs syntax has no classes: "[:" is two characters.
		if c == '[' && p.flavor != Emacs && j+1 < len(p.src) && strings.ContainsRune(":=.", p.src[j+1]) {
			kind := p.src[j+1]
			end := -1
			for k := j + 2; k+1 < len(p.src); k++ {
				if p.src[k] == kind && p.src[k+1] == ']' {
					end = k
					break
				}
			}
			if end >= 0 {
				name := string(p.src[j+2 : end])
				j = end + 2
				if kind == ':' {
					if !classes[name] {
						return elem{}, &Error{Msg: "Invalid character class name"}
					}
					return elem{class: name}, nil
				}
				rs := []rune(name)
				if len(rs) != 1 {
					return elem{}, &Error{Msg: "Invalid collation character"}
				}
				return elem{r: rs[0]}, nil
			}
			if p.flavor != Awk {
				return elem{}, unmatched
			}
		}
		if c == '\\' && j+1 < len(p.src) {
			switch {
			case p.flavor == Awk:
				j++
				return elem{r: awkStringEscape(p.src, &j)}, nil
			case p.flavor == Sed && strings.ContainsRune("nt\\", p.src[j+1]):
				// GNU sed converts these before regcomp sees them.
				j += 2
				return elem{r: map[rune]rune{'n': '\n', 't': '\t', '\\': '\\'}[p.src[j-1]]}, nil
			}
		}
		j++
		return elem{r: c}, nil
	}
	lit := func(r rune) string {
		if r < 0x80 && !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			if r < 0x20 || r == 0x7f {
				return `\x{` + strconv.FormatInt(int64(r), 16) + `}`
			}
			return `\` + string(r)
		}
		return string(r)
	}
	for {
		if j >= len(p.src) {
			return "", unmatched
		}
		if p.src[j] == ']' && !first {
			j++
			break
		}
		first = false
		e, err := readElem()
		if err != nil {
			return "", err
		}
		// A range: the '-' is not last.
		if j+1 < len(p.src) && p.src[j] == '-' && p.src[j+1] != ']' {
			j++
			hi, err := readElem()
			if err != nil {
				return "", err
			}
			if e.class != "" || hi.class != "" || hi.r < e.r {
				return "", &Error{Msg: "Invalid range end"}
			}
			b.WriteString(lit(e.r) + "-" + lit(hi.r))
			continue
		}
		if e.class != "" {
			if p.unicode {
				b.WriteString(unicodeClasses[e.class])
				continue
			}
			b.WriteString("[:" + e.class + ":]")
			continue
		}
		b.WriteString(lit(e.r))
	}
	b.WriteString("]")
	p.i = j
	return b.String(), nil
}
