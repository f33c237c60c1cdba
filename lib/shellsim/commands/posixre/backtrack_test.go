package posixre

import (
	"fmt"
	"testing"
)

// Results checked against GNU grep 3.8 -o (C locale).
func TestBackreferences(t *testing.T) {
	cases := []struct {
		ere       bool
		icase     bool
		pat, text string
		want      string // matches joined by "|"
	}{
		{false, false, `\(a\)\1`, "xaay", "aa"},
		{false, false, `\([a-z]*\) \1`, "the the cat", "the the| "},
		{false, false, `\([a-z][a-z]*\) \1`, "hello hello world world", "hello hello|world world"},
		{true, false, `(ab|a)\1`, "abab aa", "abab|aa"},
		{true, false, `([0-9]+)-\1`, "12-12 3-4 7-7", "12-12|7-7"},
		{false, false, `^\(.*\)\1$`, "abcabc", "abcabc"},
		{false, false, `^\(.*\)\1$`, "abcab", ""},
		{true, true, `(a)\1`, "aA", "aA"},
		{true, false, `(a*)b\1`, "aabaa", "aabaa"},
		{true, false, `(x)?y\1`, "y", ""},
		{true, false, `(.)(.)\2\1`, "xabbay", "abba"},
		{false, false, `\(a\|b\)*\1`, "abb", "abb"},
		{false, false, `\<a`, "ba a ab", "a|a"},
		{false, false, `b\>`, "ba b ab", "b|b"},
		{false, false, `\<[^a]`, "b .x", "b|x"},
		{true, false, `\<(\w+)\>`, "hi, there", "hi|there"},
	}
	for _, c := range cases {
		expr, _, err := TranslateBackrefs(c.pat, c.ere)
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		if c.icase {
			expr = "(?i)" + expr
		}
		m, err := CompileMatcher(expr, true, 0)
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		got := ""
		for i, loc := range m.FindAllIndex([]byte(c.text), -1) {
			if i > 0 {
				got += "|"
			}
			got += c.text[loc[0]:loc[1]]
		}
		if got != c.want {
			t.Errorf("%q on %q = %q, want %q", c.pat, c.text, got, c.want)
		}
	}
}

func TestBackrefErrors(t *testing.T) {
	if _, _, err := TranslateBackrefs(`(b\1`, true); err == nil || err.Error() != "Invalid back reference" {
		t.Errorf("got %v", err)
	}
	if _, _, err := TranslateBackrefs(`\(a\)\2`, false); err == nil || err.Error() != "Invalid back reference" {
		t.Errorf("got %v", err)
	}
	if _, err := TranslateBRE(`a\1`); err == nil || err.Error() != "Invalid back reference" {
		t.Errorf("got %v", err)
	}
}

func TestShiftBackrefs(t *testing.T) {
	a, _, _ := TranslateBackrefs(`\(x\)\1`, false)
	b, _, _ := TranslateBackrefs(`\(y\)\1`, false)
	expr := "(?:" + a + ")|(?:" + ShiftBackrefs(b, CountGroups(a)) + ")"
	m, err := CompileMatcher(expr, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(m.FindAllIndex([]byte("xx yy xy"), -1))
	if got != "[[0 2] [3 5]]" {
		t.Errorf("got %s", got)
	}
}

func TestBacktrackBudget(t *testing.T) {
	expr, _, _ := TranslateBackrefs(`\(a*\)*b\1`, false)
	m, _ := CompileMatcher(expr, true, 10000)
	m.Match([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	if m.(*Backtrack).Err() != ErrTooComplex {
		t.Errorf("want ErrTooComplex")
	}
}
