package sed

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// RE2 has no back-references, so a pattern that uses \1..\9 is matched
// by this small backtracking matcher over the regexp/syntax tree that
// Go's own parser builds. Each back-reference is parsed as a private-use
// placeholder rune and interpreted here. Every step is charged as fuel,
// so a pathological pattern stops deterministically.

// matcher is what the sed machine needs from a compiled regex.
type matcher interface {
	MatchString(s string) bool
	FindAllStringSubmatchIndex(s string, n int) [][]int
	NumSubexp() int
}

// backrefBase is the placeholder for \0; \N is backrefBase+N.
const backrefBase = '\U000F0000'

type backtracker struct {
	re     *syntax.Regexp
	ncap   int
	charge func(n int) // set by the machine; panics to stop
	steps  int
	s      string
	caps   []int
}

func newBacktracker(expr string) (*backtracker, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	return &backtracker{re: re, ncap: re.MaxCap()}, nil
}

func (b *backtracker) NumSubexp() int { return b.ncap }

func (b *backtracker) MatchString(s string) bool {
	return b.find(s, 0) != nil
}

func (b *backtracker) FindAllStringSubmatchIndex(s string, n int) [][]int {
	var out [][]int
	pos, prevEnd := 0, -1
	for pos <= len(s) && (n < 0 || len(out) < n) {
		m := b.find(s, pos)
		if m == nil {
			break
		}
		if m[1] == m[0] && m[0] == prevEnd {
			// an empty match right after the previous match is skipped
			if m[0] >= len(s) {
				break
			}
			_, w := utf8.DecodeRuneInString(s[m[0]:])
			pos = m[0] + w
			continue
		}
		out = append(out, m)
		prevEnd = m[1]
		if m[1] > m[0] {
			pos = m[1]
		} else if m[1] < len(s) {
			_, w := utf8.DecodeRuneInString(s[m[1]:])
			pos = m[1] + w
		} else {
			break
		}
	}
	return out
}

// find returns the leftmost match at or after start.
func (b *backtracker) find(s string, start int) []int {
	b.s = s
	for i := start; i <= len(s); {
		b.caps = make([]int, 2*(b.ncap+1))
		for j := range b.caps {
			b.caps[j] = -1
		}
		end := -1
		if b.m(b.re, i, func(j int) bool { end = j; return true }) {
			b.caps[0], b.caps[1] = i, end
			return b.caps
		}
		if i >= len(s) {
			break
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return nil
}

func (b *backtracker) tick() {
	b.steps++
	if b.steps >= 1024 {
		if b.charge != nil {
			b.charge(b.steps)
		}
		b.steps = 0
	}
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func (b *backtracker) m(re *syntax.Regexp, i int, k func(int) bool) bool {
	b.tick()
	s := b.s
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpEmptyMatch:
		return k(i)
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		for _, r := range re.Rune {
			if r >= backrefBase && r <= backrefBase+9 {
				g := int(r - backrefBase)
				if 2*g+1 >= len(b.caps) || b.caps[2*g] < 0 || b.caps[2*g+1] < 0 {
					return false
				}
				sub := s[b.caps[2*g]:b.caps[2*g+1]]
				if len(s)-i < len(sub) || (s[i:i+len(sub)] != sub && !(fold && equalFold(s[i:i+len(sub)], sub))) {
					return false
				}
				i += len(sub)
				continue
			}
			if i >= len(s) {
				return false
			}
			c, w := utf8.DecodeRuneInString(s[i:])
			if c != r && !(fold && foldEq(c, r)) {
				return false
			}
			i += w
		}
		return k(i)
	case syntax.OpCharClass:
		if i >= len(s) {
			return false
		}
		c, w := utf8.DecodeRuneInString(s[i:])
		for j := 0; j+1 < len(re.Rune); j += 2 {
			if c >= re.Rune[j] && c <= re.Rune[j+1] {
				return k(i + w)
			}
		}
		return false
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		if i >= len(s) || (re.Op == syntax.OpAnyCharNotNL && s[i] == '\n') {
			return false
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		return k(i + w)
	case syntax.OpBeginLine:
		return (i == 0 || s[i-1] == '\n') && k(i)
	case syntax.OpEndLine:
		return (i == len(s) || s[i] == '\n') && k(i)
	case syntax.OpBeginText:
		return i == 0 && k(i)
	case syntax.OpEndText:
		return i == len(s) && k(i)
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		a := i > 0 && isWordByte(s[i-1])
		z := i < len(s) && isWordByte(s[i])
		if (a != z) == (re.Op == syntax.OpWordBoundary) {
			return k(i)
		}
		return false
	case syntax.OpCapture:
		c := re.Cap
		oldS, oldE := b.caps[2*c], b.caps[2*c+1]
		ok := b.m(re.Sub[0], i, func(j int) bool {
			ps, pe := b.caps[2*c], b.caps[2*c+1]
			b.caps[2*c], b.caps[2*c+1] = i, j
			if k(j) {
				return true
			}
			b.caps[2*c], b.caps[2*c+1] = ps, pe
			return false
		})
		if !ok {
			b.caps[2*c], b.caps[2*c+1] = oldS, oldE
		}
		return ok
	case syntax.OpStar:
		return b.repeat(re.Sub[0], 0, -1, re.Flags&syntax.NonGreedy != 0, i, 0, k)
	case syntax.OpPlus:
		return b.repeat(re.Sub[0], 1, -1, re.Flags&syntax.NonGreedy != 0, i, 0, k)
	case syntax.OpQuest:
		return b.repeat(re.Sub[0], 0, 1, re.Flags&syntax.NonGreedy != 0, i, 0, k)
	case syntax.OpRepeat:
		return b.repeat(re.Sub[0], re.Min, re.Max, re.Flags&syntax.NonGreedy != 0, i, 0, k)
	case syntax.OpConcat:
		return b.concat(re.Sub, i, k)
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if b.m(sub, i, k) {
				return true
			}
		}
		return false
	}
	return false
}

func (b *backtracker) concat(subs []*syntax.Regexp, i int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	return b.m(subs[0], i, func(j int) bool { return b.concat(subs[1:], j, k) })
}

func (b *backtracker) repeat(sub *syntax.Regexp, lo, hi int, lazy bool, i, n int, k func(int) bool) bool {
	more := func() bool {
		if hi >= 0 && n >= hi {
			return false
		}
		return b.m(sub, i, func(j int) bool {
			if j == i && n >= lo {
				return false // an empty iteration cannot make progress
			}
			return b.repeat(sub, lo, hi, lazy, j, n+1, k)
		})
	}
	if n < lo {
		return more()
	}
	if lazy {
		return k(i) || more()
	}
	return more() || k(i)
}

func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

func equalFold(a, b string) bool {
	for a != "" && b != "" {
		ra, wa := utf8.DecodeRuneInString(a)
		rb, wb := utf8.DecodeRuneInString(b)
		if !foldEq(ra, rb) {
			return false
		}
		a, b = a[wa:], b[wb:]
	}
	return a == b
}
