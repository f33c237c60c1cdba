package posixre

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Backreferences have no RE2 equivalent, so patterns holding them run on a
// small backtracking matcher over the parsed RE2 syntax tree, in which each
// \N is a private-use placeholder rune. It finds POSIX leftmost-longest
// matches by exploring every way to match from a start position; a step
// budget bounds pathological patterns.

const (
	backrefBase   = 0xF0000
	wordStartRune = 0xF0100 // \<
	wordEndRune   = 0xF0101 // \>
	// The same assertions over Unicode word characters (UTF-8 locale).
	uWordStartRune    = 0xF0110
	uWordEndRune      = 0xF0111
	uWordBoundRune    = 0xF0112
	uNotWordBoundRune = 0xF0113
)

func backrefRune(n int) rune { return rune(backrefBase + n) }

func backrefOf(r rune) (int, bool) {
	if r > backrefBase && r <= backrefBase+99 {
		return int(r - backrefBase), true
	}
	return 0, false
}

// ErrTooComplex is returned (through Matcher.Err) when a backtracking match
// exceeds its step budget.
var ErrTooComplex = errors.New("regular expression too complex to match with backreferences")

// Matcher is the matching interface grep needs; *regexp.Regexp has it.
type Matcher interface {
	Match(b []byte) bool
	FindIndex(b []byte) []int
	FindAllIndex(b []byte, n int) [][]int
}

// HasBackrefs reports whether a translated expression needs the
// backtracking matcher (backreferences or one-sided word boundaries).
func HasBackrefs(expr string) bool {
	for _, r := range expr {
		if _, ok := backrefOf(r); ok || (r >= wordStartRune && r <= uNotWordBoundRune) {
			return true
		}
	}
	return false
}

// ShiftBackrefs renumbers the placeholders of a translated expression by
// offset, for joining several patterns into one alternation whose groups
// are numbered consecutively.
func ShiftBackrefs(expr string, offset int) string {
	if offset == 0 {
		return expr
	}
	return strings.Map(func(r rune) rune {
		if n, ok := backrefOf(r); ok {
			return backrefRune(n + offset)
		}
		return r
	}, expr)
}

// CountGroups returns the number of capturing groups of an expression.
func CountGroups(expr string) int {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return 0
	}
	return re.MaxCap()
}

// CompileMatcher compiles a translated expression (flags such as (?i) may
// lead it). Without placeholders it is plain RE2, leftmost-longest if
// longest is set; with them it is the backtracking matcher, whose budget
// is steps per match attempt (0 for a default of one million).
func CompileMatcher(expr string, longest bool, steps int) (Matcher, error) {
	if !HasBackrefs(expr) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, err
		}
		if longest {
			re.Longest()
		}
		return re, nil
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	if steps <= 0 {
		steps = 1_000_000
	}
	return &Backtrack{re: tree, ncap: tree.MaxCap(), budget: steps}, nil
}

// Backtrack is the backreference-capable matcher.
type Backtrack struct {
	re     *syntax.Regexp
	ncap   int
	budget int
	steps  int
	err    error
	// Steps counts the work done so far, for fuel accounting.
	Steps int64
}

// Err reports whether a match gave up (ErrTooComplex).
func (b *Backtrack) Err() error { return b.err }

func (b *Backtrack) Match(s []byte) bool { return b.FindIndex(s) != nil }

func (b *Backtrack) FindIndex(s []byte) []int {
	all := b.FindAllIndex(s, 1)
	if len(all) == 0 {
		return nil
	}
	return all[0]
}

func (b *Backtrack) FindAllIndex(s []byte, n int) [][]int {
	var out [][]int
	prevEnd := -1
	for start := 0; start <= len(s) && (n < 0 || len(out) < n); {
		end := b.longestAt(s, start)
		if b.err != nil {
			return out
		}
		if end < 0 || (end == start && start == prevEnd) {
			// No match here (or an empty match right after the previous
			// one, which Go's FindAll also skips): try the next rune.
			if start == len(s) {
				break
			}
			_, size := utf8.DecodeRune(s[start:])
			start += size
			continue
		}
		out = append(out, []int{start, end})
		prevEnd = end
		if end > start {
			start = end
		} else {
			if start == len(s) {
				break
			}
			_, size := utf8.DecodeRune(s[start:])
			start += size
		}
	}
	return out
}

// longestAt returns the end of the longest match starting at start, or -1.
func (b *Backtrack) longestAt(s []byte, start int) int {
	best := -1
	caps := make([]int, 2*(b.ncap+1))
	for i := range caps {
		caps[i] = -1
	}
	b.steps = 0
	m := &btRun{b: b, s: s, caps: caps}
	m.match(b.re, start, func(j int) bool {
		if j > best {
			best = j
		}
		return false // keep exploring: POSIX wants the longest
	})
	b.Steps += int64(b.steps)
	return best
}

type btRun struct {
	b    *Backtrack
	s    []byte
	caps []int
}

func isWordRune(r rune) bool {
	return r == '_' || r < utf8.RuneSelf && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
}

func (m *btRun) wordAt(i int) bool {
	if i < 0 || i >= len(m.s) {
		return false
	}
	return isWordRune(rune(m.s[i]))
}

// IsWordRune reports a word character in a UTF-8 locale: a letter, a
// decimal digit or '_'.
func IsWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func (m *btRun) uWordBefore(i int) bool {
	if i <= 0 {
		return false
	}
	r, _ := utf8.DecodeLastRune(m.s[:i])
	return IsWordRune(r)
}

func (m *btRun) uWordAfter(i int) bool {
	if i >= len(m.s) {
		return false
	}
	r, _ := utf8.DecodeRune(m.s[i:])
	return IsWordRune(r)
}

func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// match tries node n at position i and calls k with every end position
// reached; it returns true as soon as k does (to stop the search).
func (m *btRun) match(n *syntax.Regexp, i int, k func(int) bool) bool {
	b := m.b
	b.steps++
	if b.steps > b.budget {
		b.err = ErrTooComplex
		return true
	}
	switch n.Op {
	case syntax.OpEmptyMatch:
		return k(i)
	case syntax.OpLiteral:
		return m.literal(n, 0, i, k)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		if i >= len(m.s) {
			return false
		}
		r, size := utf8.DecodeRune(m.s[i:])
		switch n.Op {
		case syntax.OpAnyCharNotNL:
			if r == '\n' {
				return false
			}
		case syntax.OpCharClass:
			in := false
			for j := 0; j+1 < len(n.Rune); j += 2 {
				if r >= n.Rune[j] && r <= n.Rune[j+1] {
					in = true
					break
				}
			}
			if !in {
				return false
			}
		}
		return k(i + size)
	case syntax.OpBeginLine, syntax.OpBeginText:
		if i != 0 && !(n.Op == syntax.OpBeginLine && m.s[i-1] == '\n') {
			return false
		}
		return k(i)
	case syntax.OpEndLine, syntax.OpEndText:
		if i != len(m.s) && !(n.Op == syntax.OpEndLine && m.s[i] == '\n') {
			return false
		}
		return k(i)
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		at := m.wordAt(i-1) != m.wordAt(i)
		if at != (n.Op == syntax.OpWordBoundary) {
			return false
		}
		return k(i)
	case syntax.OpCapture:
		oldS, oldE := m.caps[2*n.Cap], m.caps[2*n.Cap+1]
		m.caps[2*n.Cap] = i
		stop := m.match(n.Sub[0], i, func(j int) bool {
			e := m.caps[2*n.Cap+1]
			m.caps[2*n.Cap+1] = j
			if k(j) {
				return true
			}
			m.caps[2*n.Cap+1] = e
			return false
		})
		if !stop {
			m.caps[2*n.Cap], m.caps[2*n.Cap+1] = oldS, oldE
		}
		return stop
	case syntax.OpConcat:
		return m.concat(n.Sub, i, k)
	case syntax.OpAlternate:
		for _, sub := range n.Sub {
			if m.match(sub, i, k) {
				return true
			}
		}
		return false
	case syntax.OpStar:
		return m.repeat(n.Sub[0], 0, -1, 0, i, k)
	case syntax.OpPlus:
		return m.repeat(n.Sub[0], 1, -1, 0, i, k)
	case syntax.OpQuest:
		return m.repeat(n.Sub[0], 0, 1, 0, i, k)
	case syntax.OpRepeat:
		return m.repeat(n.Sub[0], n.Min, n.Max, 0, i, k)
	}
	b.err = errors.New("posixre: unsupported regexp operation " + strconv.Itoa(int(n.Op)))
	return true
}

func (m *btRun) literal(n *syntax.Regexp, idx, i int, k func(int) bool) bool {
	if idx == len(n.Rune) {
		return k(i)
	}
	r := n.Rune[idx]
	fold := n.Flags&syntax.FoldCase != 0
	switch r {
	case wordStartRune:
		if m.wordAt(i-1) || !m.wordAt(i) {
			return false
		}
		return m.literal(n, idx+1, i, k)
	case wordEndRune:
		if !m.wordAt(i-1) || m.wordAt(i) {
			return false
		}
		return m.literal(n, idx+1, i, k)
	case uWordStartRune, uWordEndRune, uWordBoundRune, uNotWordBoundRune:
		before, after := m.uWordBefore(i), m.uWordAfter(i)
		ok := map[rune]bool{uWordStartRune: !before && after, uWordEndRune: before && !after,
			uWordBoundRune: before != after, uNotWordBoundRune: before == after}[r]
		if !ok {
			return false
		}
		return m.literal(n, idx+1, i, k)
	}
	if g, ok := backrefOf(r); ok {
		if g > m.b.ncap || m.caps[2*g] < 0 || m.caps[2*g+1] < 0 {
			return false // an unset group matches nothing (as glibc)
		}
		sub := m.s[m.caps[2*g]:m.caps[2*g+1]]
		j := i
		for len(sub) > 0 {
			if j >= len(m.s) {
				return false
			}
			a, sa := utf8.DecodeRune(sub)
			c, sc := utf8.DecodeRune(m.s[j:])
			if a != c && !(fold && foldEq(a, c)) {
				return false
			}
			sub, j = sub[sa:], j+sc
		}
		return m.literal(n, idx+1, j, k)
	}
	if i >= len(m.s) {
		return false
	}
	c, size := utf8.DecodeRune(m.s[i:])
	if c != r && !(fold && foldEq(r, c)) {
		return false
	}
	return m.literal(n, idx+1, i+size, k)
}

func (m *btRun) concat(subs []*syntax.Regexp, i int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	return m.match(subs[0], i, func(j int) bool {
		return m.concat(subs[1:], j, k)
	})
}

// repeat matches sub between min and max (-1: unbounded) more times,
// greedily; an iteration that matches empty ends the repetition.
func (m *btRun) repeat(sub *syntax.Regexp, min, max, count, i int, k func(int) bool) bool {
	if max < 0 || count < max {
		stop := m.match(sub, i, func(j int) bool {
			if j == i {
				return false
			}
			return m.repeat(sub, min, max, count+1, j, k)
		})
		if stop {
			return true
		}
	}
	if count >= min {
		return k(i)
	}
	if count < min {
		// Remaining mandatory iterations may match empty.
		return m.match(sub, i, func(j int) bool {
			if j != i {
				return false
			}
			return m.repeat(sub, min, max, min, j, k)
		})
	}
	return false
}
