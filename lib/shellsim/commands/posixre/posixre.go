// Package posixre translates POSIX basic and extended regular expressions,
// with the GNU extensions grep and sed accept, into Go regexp (RE2) syntax.
//
// The translation keeps GNU's meaning where RE2 differs: context-dependent
// literals (a leading '*' in a BRE, a BRE '^' or '$' in the middle), GNU's
// no-op leading repetition in an ERE, GNU escapes (\+ \? \| \w \s \` \'),
// bracket expressions (where '\' is literal and ']' may come first),
// stacked repetitions (a**), intervals like {,n}, and glibc's error messages
// for malformed patterns.
//
// Two GNU features have no RE2 equivalent. TranslateBRE, TranslateERE and
// Translate reject backreferences with an error wrapping ErrBackreference
// and approximate \< and \> by \b (exact when the neighbouring pattern
// character is a word character, as in \<word\>). TranslateBackrefs
// instead emits placeholders for both, which CompileMatcher runs on a
// small backtracking matcher (POSIX leftmost-longest, with a step budget);
// patterns without them still compile to RE2.
//
// The result carries no flags: callers add (?i) for case folding and (?s)
// where '.' must match a newline (sed's pattern space).
package posixre

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrBackreference is wrapped by the error returned for \1...\9.
var ErrBackreference = errors.New("backreferences are not supported")

// Error is a malformed-pattern error; Msg is glibc's wording
// ("Unmatched ( or \\(").
type Error struct {
	Msg string
	err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.err }

// maxRepeat is RE2's repetition limit. glibc allows up to 32767, so a
// count between the two is reported as too big rather than mistranslated.
const maxRepeat = 1000

// TranslateBRE translates a POSIX basic regular expression.
func TranslateBRE(pattern string) (string, error) {
	return translate(pattern, false)
}

// TranslateERE translates a POSIX extended regular expression.
func TranslateERE(pattern string) (string, error) {
	return translate(pattern, true)
}

// TranslateBackrefs is Translate for patterns that may hold
// backreferences: each \N (and \<, \>, which RE2 lacks) becomes a
// placeholder character that only CompileMatcher understands (see
// ShiftBackrefs for combining patterns).
func TranslateBackrefs(pattern string, extended bool) (expr string, warnings []string, err error) {
	return TranslateWith(pattern, Options{Extended: extended, Backrefs: true})
}

// Options selects the dialect for TranslateWith.
type Options struct {
	Extended bool // ERE rather than BRE
	// Backrefs emits placeholders for \1-\9, \< and \> that only
	// CompileMatcher runs (see TranslateBackrefs).
	Backrefs bool
	// Unicode gives character classes, \w, \s and word boundaries their
	// meaning in a UTF-8 locale (glibc's C.UTF-8): é is alphabetic and a
	// word character. It implies Backrefs for \b, \B, \< and \>.
	Unicode bool
}

// TranslateWith translates a pattern in the dialect o describes.
func TranslateWith(pattern string, o Options) (expr string, warnings []string, err error) {
	p := newParser(pattern, o.Extended)
	p.backrefs = o.Backrefs || o.Unicode
	p.unicode = o.Unicode
	expr, err = p.run()
	return expr, p.warnings, err
}

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

// Translate translates a BRE or (extended) an ERE and also returns the
// warnings GNU grep prints for it, such as "* at start of expression".
func Translate(pattern string, extended bool) (expr string, warnings []string, err error) {
	p := newParser(pattern, extended)
	expr, err = p.run()
	return expr, p.warnings, err
}

// Compile translates and compiles a pattern; icase folds case.
func Compile(pattern string, extended, icase bool) (*regexp.Regexp, error) {
	expr, err := translate(pattern, extended)
	if err != nil {
		return nil, err
	}
	if icase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		// Should not happen for a translated pattern; report it plainly.
		return nil, &Error{Msg: "Invalid regular expression", err: err}
	}
	return re, nil
}

type parser struct {
	src      []rune
	i        int
	ere      bool
	depth    int
	warnings []string
	backrefs bool // emit placeholders for \1-\9, \< and \> (backtracking)
	unicode  bool // UTF-8 locale classes and word characters
	groups   int  // groups closed so far
}

func newParser(pattern string, ere bool) *parser {
	p := &parser{src: []rune(pattern), ere: ere}
	if !utf8.ValidString(pattern) {
		// Keep invalid bytes as they are; RE2 matches them as U+FFFD.
		p.src = []rune(strings.ToValidUTF8(pattern, "\uFFFD"))
	}
	return p
}

func translate(pattern string, ere bool) (string, error) {
	return newParser(pattern, ere).run()
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
	c, _ := p.peek(0)
	if p.ere {
		return p.i < len(p.src) && c == '|'
	}
	d, _ := p.peek(1)
	return c == '\\' && d == '|'
}

// atClose reports whether the parser is at the end of the current group.
func (p *parser) atClose() bool {
	if p.depth == 0 {
		return false
	}
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
}

func (p *parser) branch() (string, error) {
	var pieces []piece
	start := true // at the start of the branch (for literal * and BRE ^)
	for p.i < len(p.src) && !p.atAltBar() && !p.atClose() {
		c := p.src[p.i]
		// Repetition operators.
		if q, n, isQ, err := p.quantifier(); err != nil {
			return "", err
		} else if isQ {
			onlyAnchor := len(pieces) == 1 && pieces[0].anchor
			afterAnchor := len(pieces) > 0 && pieces[len(pieces)-1].anchor
			if p.ere && (start || afterAnchor) {
				// GNU applies a leading repetition to an empty
				// expression: it matches nothing more and is dropped.
				op := string(p.src[p.i])
				if op == "{" {
					op = "{...}"
				}
				p.warnings = append(p.warnings, op+" at start of expression")
				p.i += n
				continue
			}
			if start || (onlyAnchor && !p.ere) {
				// A leading repetition operator is literal.
				lit := string(p.src[p.i : p.i+n])
				if !p.ere {
					lit = strings.ReplaceAll(lit, "\\", "")
				}
				p.i += n
				pieces = append(pieces, piece{atom: regexp.QuoteMeta(lit)})
				start = false
				continue
			}
			p.i += n
			last := &pieces[len(pieces)-1]
			if last.quantified {
				last.atom = "(?:" + last.atom + ")"
			}
			last.atom += q
			last.quantified = true
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
		atom, err := p.atom()
		if err != nil {
			return "", err
		}
		// A backreference placeholder already carries a {1}.
		pieces = append(pieces, piece{atom: atom, quantified: strings.HasSuffix(atom, "){1}")})
	}
	var b strings.Builder
	for _, pc := range pieces {
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
func (p *parser) quantifier() (q string, n int, ok bool, err error) {
	c, _ := p.peek(0)
	d, _ := p.peek(1)
	switch {
	case c == '*':
		return "*", 1, true, nil
	case p.ere && (c == '+' || c == '?'):
		return string(c), 1, true, nil
	case !p.ere && c == '\\' && (d == '+' || d == '?'):
		return string(d), 2, true, nil
	case p.ere && c == '{':
		return p.interval(1)
	case !p.ere && c == '\\' && d == '{':
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
	if lo > 32767 || hi > 32767 {
		return "", 0, false, &Error{Msg: "Regular expression too big"}
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

func (p *parser) atom() (string, error) {
	c := p.src[p.i]
	switch c {
	case '.':
		p.i++
		return ".", nil
	case '[':
		return p.bracket()
	case '(':
		if p.ere {
			p.i++
			return p.group(1)
		}
	case ')':
		if p.ere {
			// An unmatched ')' is ordinary in GNU EREs.
			p.i++
			return `\)`, nil
		}
	case '\\':
		return p.escape()
	}
	p.i++
	return regexp.QuoteMeta(string(c)), nil
}

func (p *parser) group(closeLen int) (string, error) {
	p.depth++
	inner, err := p.alternation()
	p.depth--
	if err != nil {
		return "", err
	}
	if !p.atCloseAt() {
		return "", &Error{Msg: "Unmatched ( or \\("}
	}
	p.i += closeLen
	p.groups++
	return "(" + inner + ")", nil
}

func (p *parser) atCloseAt() bool {
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

func (p *parser) escape() (string, error) {
	if p.i+1 >= len(p.src) {
		return "", &Error{Msg: "Trailing backslash"}
	}
	d := p.src[p.i+1]
	p.i += 2
	switch d {
	case '(':
		if !p.ere {
			return p.group(2)
		}
	case ')':
		if !p.ere {
			return "", &Error{Msg: "Unmatched ) or \\)"}
		}
	case '{':
		if !p.ere {
			// Only reached at the start of an expression, where GNU
			// treats \{ as a literal brace.
			return `\{`, nil
		}
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if int(d-'0') > p.groups {
			return "", &Error{Msg: "Invalid back reference"}
		}
		if p.backrefs {
			// Wrapped so that the parser never merges it into a class.
			return "(?:" + string(backrefRune(int(d-'0'))) + "){1}", nil
		}
		return "", &Error{Msg: "backreference \\" + string(d) + " is not supported", err: ErrBackreference}
	case 'w', 'W', 's', 'S', 'b', 'B':
		if p.unicode {
			switch d {
			case 'w':
				return `[\p{L}\p{Nd}_]`, nil
			case 'W':
				return `[^\p{L}\p{Nd}_]`, nil
			case 's':
				return "[" + unicodeClasses["space"] + "]", nil
			case 'S':
				return "[^" + unicodeClasses["space"] + "]", nil
			case 'b':
				return "(?:" + string(rune(uWordBoundRune)) + "){1}", nil
			case 'B':
				return "(?:" + string(rune(uNotWordBoundRune)) + "){1}", nil
			}
		}
		return `\` + string(d), nil
	case '<', '>':
		if p.unicode {
			r := rune(uWordStartRune)
			if d == '>' {
				r = uWordEndRune
			}
			return "(?:" + string(r) + "){1}", nil
		}
		if p.backrefs {
			// Exact one-sided word boundaries on the backtracking matcher.
			r := rune(wordStartRune)
			if d == '>' {
				r = wordEndRune
			}
			return "(?:" + string(r) + "){1}", nil
		}
		// RE2 has no one-sided word boundary; \b is exact whenever the
		// neighbouring pattern character is a word character, the way
		// \<word\> is written.
		return `\b`, nil
	case '`':
		return `\A`, nil
	case '\'':
		return `\z`, nil
	case 'n':
		// GNU sed and grep read \n as a newline.
		return `\n`, nil
	}
	return regexp.QuoteMeta(string(d)), nil
}

var classes = map[string]bool{
	"alpha": true, "upper": true, "lower": true, "digit": true, "xdigit": true, "space": true,
	"print": true, "punct": true, "graph": true, "cntrl": true, "blank": true, "alnum": true,
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
	// element reads one bracket element: a character, a class, or an
	// equivalence class or collating symbol.
	type elem struct {
		r     rune
		class string
	}
	readElem := func() (elem, error) {
		if j >= len(p.src) {
			return elem{}, unmatched
		}
		c := p.src[j]
		if c == '[' && j+1 < len(p.src) && strings.ContainsRune(":=.", p.src[j+1]) {
			kind := p.src[j+1]
			end := -1
			for k := j + 2; k+1 < len(p.src); k++ {
				if p.src[k] == kind && p.src[k+1] == ']' {
					end = k
					break
				}
			}
			if end < 0 {
				return elem{}, unmatched
			}
			name := string(p.src[j+2 : end])
			j = end + 2
			switch kind {
			case ':':
				if !classes[name] {
					return elem{}, &Error{Msg: "Invalid character class name"}
				}
				return elem{class: name}, nil
			default:
				rs := []rune(name)
				if len(rs) != 1 {
					return elem{}, &Error{Msg: "Invalid collation character"}
				}
				return elem{r: rs[0]}, nil
			}
		}
		j++
		return elem{r: c}, nil
	}
	lit := func(r rune) string {
		if r < 0x80 && !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
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
