package posixre

import (
	"fmt"
	"math/rand"
	"regexp"
	"regexp/syntax"
	"testing"
)

// The backtracking matcher must agree with RE2 (leftmost-longest) on every
// pattern RE2 can run.
func TestBacktrackAgreesWithRE2(t *testing.T) {
	toks := []string{"a", "b", "ab", ".", "*", "+", "?", "(", ")", "|", "{1,2}", "{2}", "[ab]", "[^a]", "^", "$", "x", `\w`, `\b`}
	texts := []string{"", "a", "ab", "aab", "abab", "ba ab", "xax", "bbb aaa", "a b a"}
	r := rand.New(rand.NewSource(7))
	checked := 0
	for i := 0; i < 20000 && checked < 3000; i++ {
		pat := ""
		for n := 1 + r.Intn(5); n > 0; n-- {
			pat += toks[r.Intn(len(toks))]
		}
		e, err := Parse(pat, Options{Extended: true})
		if err != nil {
			continue
		}
		expr := e.src
		re, err := regexp.Compile(expr)
		if err != nil {
			continue
		}
		re.Longest()
		tree, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			continue
		}
		bt := &backtrack{re: tree, ncap: tree.MaxCap(), max: 1_000_000}
		checked++
		for _, s := range texts {
			want := fmt.Sprint(re.FindAllIndex([]byte(s), -1))
			got := fmt.Sprint(bt.findAll([]byte(s), -1, false))
			if want != got {
				t.Errorf("%q (RE2 %q) on %q: backtrack %s, RE2 %s", pat, expr, s, got, want)
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d patterns checked", checked)
	}
}
