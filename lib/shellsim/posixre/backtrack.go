package posixre

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Backreferences and one-sided word boundaries have no RE2 equivalent, so
// patterns holding them run on a backtracking matcher over the RE2 syntax
// tree, in which each is a private-use placeholder rune. It finds POSIX
// leftmost-longest matches by exploring every way to match from a start
// position, so its work can grow exponentially with the pattern: every
// step is counted, charged to Options.Fuel, and a call stops at
// Options.MaxSteps.

const (
	backrefBase   = 0xF0000 // \N is backrefBase+N
	wordStartRune = 0xF0100 // \<
	wordEndRune   = 0xF0101 // \>
	// The word assertions over Unicode word characters (UTF-8 locale).
	uWordStartRune    = 0xF0110
	uWordEndRune      = 0xF0111
	uWordBoundRune    = 0xF0112
	uNotWordBoundRune = 0xF0113
)

// fuelBatch is how many steps are charged to Options.Fuel at a time.
const fuelBatch = 1024

// maxDepth bounds the matcher's recursion (it grows with the length of
// the text a repetition covers), so a long line cannot grow the host's
// stack without limit; past it the call fails with ErrTooComplex.
const maxDepth = 50_000

func backrefRune(n int) rune { return rune(backrefBase + n) }

func backrefOf(r rune) (int, bool) {
	if r > backrefBase && r <= backrefBase+999 {
		return int(r - backrefBase), true
	}
	return 0, false
}

// needsBacktrack reports whether an expression holds placeholders.
func needsBacktrack(expr string) bool {
	for _, r := range expr {
		if _, ok := backrefOf(r); ok || (r >= wordStartRune && r <= uNotWordBoundRune) {
			return true
		}
	}
	return false
}

// shiftBackrefs renumbers the backreferences of an expression by offset.
func shiftBackrefs(expr string, offset int) string {
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

// IsWordRune reports a word character in a UTF-8 locale: a letter, a
// decimal digit or '_'.
func IsWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isWordRune(r rune) bool {
	return r == '_' || r < utf8.RuneSelf && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
}

type backtrack struct {
	re     *syntax.Regexp
	ncap   int
	max    int64
	fuel   func(int64) error
	giveUp func(error)

	// Per call.
	steps   int64
	charged int64
	err     error
}

// findAll returns up to n (n < 0: all) leftmost-longest non-overlapping
// matches, as Go's FindAll does (an empty match right after a match is
// skipped); with submatch each holds every group's span.
func (b *backtrack) findAll(s []byte, n int, submatch bool) [][]int {
	b.steps, b.charged, b.err = 0, 0, nil
	// Not deferred: a Fuel that panics to stop its process unwinds
	// through here without being called again.
	out := b.find(s, n, submatch)
	b.settle()
	if b.err != nil {
		if b.giveUp != nil {
			b.giveUp(b.err)
		}
		return nil
	}
	return out
}

func (b *backtrack) find(s []byte, n int, submatch bool) [][]int {
	var out [][]int
	prevEnd := -1
	for start := 0; start <= len(s) && (n < 0 || len(out) < n); {
		caps := b.longestAt(s, start)
		if b.err != nil {
			return nil
		}
		if caps == nil || (caps[1] == start && start == prevEnd) {
			if start == len(s) {
				break
			}
			_, size := utf8.DecodeRune(s[start:])
			start += size
			continue
		}
		if !submatch {
			caps = caps[:2]
		}
		out = append(out, caps)
		prevEnd = caps[1]
		if caps[1] > start {
			start = caps[1]
			continue
		}
		if start == len(s) {
			break
		}
		_, size := utf8.DecodeRune(s[start:])
		start += size
	}
	return out
}

// settle charges the steps not yet charged.
func (b *backtrack) settle() {
	if b.fuel != nil && b.steps > b.charged && b.err == nil {
		if err := b.fuel(b.steps - b.charged); err != nil {
			b.err = err
		}
		b.charged = b.steps
	}
}

// longestAt returns the group spans of the longest match starting at
// start (the first way found to reach that end), or nil.
func (b *backtrack) longestAt(s []byte, start int) []int {
	var best []int
	m := &btRun{b: b, s: s, caps: make([]int, 2*(b.ncap+1))}
	for i := range m.caps {
		m.caps[i] = -1
	}
	m.match(b.re, start, func(j int) bool {
		if best == nil || j > best[1] {
			best = append(best[:0], m.caps...)
			best[0], best[1] = start, j
		}
		// POSIX wants the longest: keep exploring unless nothing is
		// longer than the end of the text.
		return j == len(s)
	})
	if b.err != nil {
		return nil
	}
	return best
}

type btRun struct {
	b     *backtrack
	s     []byte
	caps  []int
	depth int
}

// step counts one unit of work; it returns true when the call must stop.
func (m *btRun) step() bool {
	b := m.b
	if b.err != nil {
		return true
	}
	b.steps++
	if b.steps > b.max {
		b.err = ErrTooComplex
		return true
	}
	if b.fuel != nil && b.steps-b.charged >= fuelBatch {
		if err := b.fuel(b.steps - b.charged); err != nil {
			b.err = err
			return true
		}
		b.charged = b.steps
	}
	return false
}

func (m *btRun) wordAt(i int) bool {
	if i < 0 || i >= len(m.s) {
		return false
	}
	return isWordRune(rune(m.s[i]))
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
// reached; it returns true as soon as k does (to stop the search) or the
// call must stop.
func (m *btRun) match(n *syntax.Regexp, i int, k func(int) bool) bool {
	if m.step() {
		return true
	}
	if m.depth++; m.depth > maxDepth {
		m.b.err = ErrTooComplex
		return true
	}
	stop := m.node(n, i, k)
	m.depth--
	return stop
}

func (m *btRun) node(n *syntax.Regexp, i int, k func(int) bool) bool {
	switch n.Op {
	case syntax.OpNoMatch:
		return false
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
		stop := m.match(n.Sub[0], i, func(j int) bool {
			s, e := m.caps[2*n.Cap], m.caps[2*n.Cap+1]
			m.caps[2*n.Cap], m.caps[2*n.Cap+1] = i, j
			if k(j) {
				return true
			}
			m.caps[2*n.Cap], m.caps[2*n.Cap+1] = s, e
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
	m.b.err = fmt.Errorf("posixre: unsupported regexp operation %v", n.Op)
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
		var ok bool
		switch r {
		case uWordStartRune:
			ok = !before && after
		case uWordEndRune:
			ok = before && !after
		case uWordBoundRune:
			ok = before != after
		default:
			ok = before == after
		}
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
	if m.step() {
		return true
	}
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
	// Remaining mandatory iterations may match empty.
	return m.match(sub, i, func(j int) bool {
		if j != i {
			return false
		}
		return m.repeat(sub, min, max, min, j, k)
	})
}
