package posixre

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
)

// Flavor is the tool whose reading of a pattern is wanted: the commands
// agree on POSIX but differ in their GNU extensions and escapes.
type Flavor int

const (
	// GNU is glibc's regcomp as GNU grep calls it (also expr, tac -r,
	// nl -bp): \w \s \b \< \> \` \' and backreferences; a leading ERE
	// repetition is dropped with a warning.
	GNU Flavor = iota
	// Sed is GNU sed: also \a \f \n \r \t \v \cX \dNNN \oNNN \xHH, and
	// \n \t \\ inside brackets; a repetition of nothing is an error.
	Sed
	// Awk is gawk's dynamic and literal regexps (always ERE): string
	// escapes (\/ \" \n \ddd ...) in and out of brackets, \y for a word
	// boundary, no backreferences, a leading repetition is literal.
	Awk
	// Emacs is GNU find's default -regex syntax: a BRE whose + and ? are
	// operators unescaped (\+ and \? are the characters), without
	// intervals or character classes.
	Emacs
)

// Options select the dialect and the matching mode.
type Options struct {
	Extended bool // ERE rather than BRE (Awk is always ERE)
	Flavor   Flavor
	// Unicode gives character classes, \w, \s and word boundaries their
	// meaning in a UTF-8 locale (glibc's C.UTF-8): é is alphabetic and a
	// word character.
	Unicode bool
	ICase   bool // fold case
	// DotNL lets '.' and negated brackets match a newline (sed's pattern
	// space, grep -z, awk).
	DotNL bool
	// Multiline makes ^ and $ also match after and before a newline
	// (sed's M flag).
	Multiline bool
	// MaxSteps bounds the backtracking work of one call (a match, or
	// every match of a FindAll); past it the call fails with
	// ErrTooComplex. 0 means DefaultMaxSteps.
	MaxSteps int64
	// Fuel, when set, is charged with the backtracking matcher's steps as
	// it works; an error from it stops the call and becomes Err.
	Fuel func(steps int64) error
	// GiveUp, when set, is called when a call stops without an answer
	// (ErrTooComplex, or the Fuel's error); an interpreter that unwinds
	// with panics can stop there instead of checking Err after each call.
	GiveUp func(err error)
}

// DefaultMaxSteps bounds one call of the backtracking matcher: far more
// than any sensible pattern needs on a line, and a fraction of a second.
const DefaultMaxSteps = 10_000_000

// Error is a malformed-pattern error; Msg is glibc's wording
// ("Unmatched ( or \\(").
type Error struct {
	Msg string
	err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.err }

// ErrTooComplex is returned (through Regexp.Err) when a backtracking match
// exceeds Options.MaxSteps.
var ErrTooComplex = errors.New("regular expression too complex to match")

// Expr is a parsed pattern (RE2 syntax, with placeholders for what only
// the backtracking matcher runs), ready to compile or to combine.
type Expr struct {
	src      string
	groups   int
	warnings []string
}

// Parse reads a pattern in the dialect o describes.
func Parse(pattern string, o Options) (*Expr, error) {
	if o.Flavor == Awk {
		o.Extended = true
	}
	p := newParser(pattern, o)
	src, err := p.run()
	if err != nil {
		return nil, err
	}
	return &Expr{src: src, groups: p.groups, warnings: p.warnings}, nil
}

// Literal is an expression matching s exactly (grep -F).
func Literal(s string) *Expr { return &Expr{src: regexp.QuoteMeta(s)} }

// Warnings are the diagnostics GNU grep prints for a pattern that
// compiles, such as "* at start of expression".
func (e *Expr) Warnings() []string { return e.warnings }

// NumSubexp is the number of groups.
func (e *Expr) NumSubexp() int { return e.groups }

// Alternate matches any of exprs; their groups are numbered one after
// the other, and their backreferences follow.
func Alternate(exprs ...*Expr) *Expr {
	if len(exprs) == 1 {
		return exprs[0]
	}
	alts := make([]string, len(exprs))
	out := &Expr{}
	for i, e := range exprs {
		alts[i] = "(?:" + shiftBackrefs(e.src, out.groups) + ")"
		out.groups += e.groups
		out.warnings = append(out.warnings, e.warnings...)
	}
	out.src = strings.Join(alts, "|")
	return out
}

// Whole matches e only as the whole text (grep -x).
func (e *Expr) Whole() *Expr { return e.wrap(`\A(?:`, `)\z`) }

// Prefix matches e only at the start of the text (expr's ':', grep -w
// retries).
func (e *Expr) Prefix() *Expr { return e.wrap(`\A(?:`, `)`) }

func (e *Expr) wrap(before, after string) *Expr {
	return &Expr{src: before + e.src + after, groups: e.groups, warnings: e.warnings}
}

// LiteralBytes reports whether e matches one fixed string, and which:
// callers can then search with bytes.Index.
func (e *Expr) LiteralBytes() ([]byte, bool) {
	if needsBacktrack(e.src) {
		return nil, false
	}
	re, err := syntax.Parse(e.src, syntax.Perl)
	if err != nil {
		return nil, false
	}
	re = re.Simplify()
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
		return nil, false
	}
	return []byte(string(re.Rune)), true
}

// Compile parses and compiles a pattern.
func Compile(pattern string, o Options) (*Regexp, error) {
	e, err := Parse(pattern, o)
	if err != nil {
		return nil, err
	}
	return e.Compile(o)
}

// Compile builds the matcher with o's matching mode (ICase, DotNL,
// Multiline, MaxSteps, Fuel). Patterns RE2 can run compile to Go's regexp
// in leftmost-longest mode (linear time); the rest run on the bounded
// backtracking matcher.
func (e *Expr) Compile(o Options) (*Regexp, error) {
	flags := ""
	if o.ICase {
		flags += "i"
	}
	if o.DotNL {
		flags += "s"
	}
	if o.Multiline {
		flags += "m"
	}
	src := e.src
	if flags != "" {
		src = "(?" + flags + ")" + src
	}
	if !needsBacktrack(src) {
		re, err := regexp.Compile(src)
		if err != nil {
			// Should not happen for a parsed pattern; report it plainly.
			return nil, &Error{Msg: "Invalid regular expression", err: err}
		}
		re.Longest()
		return &Regexp{re2: re}, nil
	}
	tree, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil, &Error{Msg: "Invalid regular expression", err: err}
	}
	max := o.MaxSteps
	if max <= 0 {
		max = DefaultMaxSteps
	}
	return &Regexp{bt: &backtrack{re: tree, ncap: tree.MaxCap(), max: max, fuel: o.Fuel, giveUp: o.GiveUp}}, nil
}

// Regexp is a compiled pattern. It is not safe for concurrent use (the
// backtracking matcher keeps its step count and error).
type Regexp struct {
	re2 *regexp.Regexp
	bt  *backtrack
}

// FromRE2 wraps a Go regexp (grep -P's leftmost-first Perl syntax) so
// that callers hold one matcher type.
func FromRE2(re *regexp.Regexp) *Regexp { return &Regexp{re2: re} }

// Err reports why the last call found nothing when it gave up: the Fuel
// error or ErrTooComplex; nil otherwise.
func (r *Regexp) Err() error {
	if r.bt == nil {
		return nil
	}
	return r.bt.err
}

// SetFuel replaces Options.Fuel, for a pattern compiled before the
// process that runs it exists (sed compiles its script first).
func (r *Regexp) SetFuel(fuel func(steps int64) error) {
	if r.bt != nil {
		r.bt.fuel = fuel
	}
}

// Backtracks reports whether r runs on the backtracking matcher (its
// work is metered through Options.Fuel).
func (r *Regexp) Backtracks() bool { return r.bt != nil }

// NumSubexp is the number of groups.
func (r *Regexp) NumSubexp() int {
	if r.re2 != nil {
		return r.re2.NumSubexp()
	}
	return r.bt.ncap
}

func (r *Regexp) Match(b []byte) bool {
	if r.re2 != nil {
		return r.re2.Match(b)
	}
	return r.bt.findAll(b, 1, false) != nil
}

func (r *Regexp) MatchString(s string) bool {
	if r.re2 != nil {
		return r.re2.MatchString(s)
	}
	return r.Match([]byte(s))
}

func (r *Regexp) FindIndex(b []byte) []int {
	if r.re2 != nil {
		return r.re2.FindIndex(b)
	}
	return first(r.bt.findAll(b, 1, false))
}

func (r *Regexp) FindStringIndex(s string) []int {
	if r.re2 != nil {
		return r.re2.FindStringIndex(s)
	}
	return r.FindIndex([]byte(s))
}

func (r *Regexp) FindSubmatchIndex(b []byte) []int {
	if r.re2 != nil {
		return r.re2.FindSubmatchIndex(b)
	}
	return first(r.bt.findAll(b, 1, true))
}

func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	if r.re2 != nil {
		return r.re2.FindStringSubmatchIndex(s)
	}
	return r.FindSubmatchIndex([]byte(s))
}

func (r *Regexp) FindAllIndex(b []byte, n int) [][]int {
	if r.re2 != nil {
		return r.re2.FindAllIndex(b, n)
	}
	return r.bt.findAll(b, n, false)
}

func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if r.re2 != nil {
		return r.re2.FindAllStringIndex(s, n)
	}
	return r.FindAllIndex([]byte(s), n)
}

func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	if r.re2 != nil {
		return r.re2.FindAllSubmatchIndex(b, n)
	}
	return r.bt.findAll(b, n, true)
}

func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if r.re2 != nil {
		return r.re2.FindAllStringSubmatchIndex(s, n)
	}
	return r.FindAllSubmatchIndex([]byte(s), n)
}

func first(all [][]int) []int {
	if len(all) == 0 {
		return nil
	}
	return all[0]
}
