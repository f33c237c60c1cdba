package posixre

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
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
		{true, false, `(a|b)\1+`, "aabbba", "aa|bbb"},
		{false, false, `\(x\)\1*y`, "xxxy xy", "xxxy|xy"},
	}
	for _, c := range cases {
		m, err := Compile(c.pat, Options{Extended: c.ere, ICase: c.icase})
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
	for _, c := range []struct {
		ere bool
		pat string
	}{{true, `(b\1`}, {false, `\(a\)\2`}, {false, `a\1`}, {true, `(\.(a|b)\1`}, {false, `\(\(a*\)\1\.`}} {
		if _, err := Parse(c.pat, Options{Extended: c.ere}); err == nil || err.Error() != "Invalid back reference" {
			t.Errorf("%q: got %v", c.pat, err)
		}
	}
}

func TestAlternateRenumbers(t *testing.T) {
	a, _ := Parse(`\(x\)\1`, Options{})
	b, _ := Parse(`\(y\)\1`, Options{})
	m, err := Alternate(a, b).Compile(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(m.FindAllIndex([]byte("xx yy xy"), -1)); got != "[[0 2] [3 5]]" {
		t.Errorf("got %s", got)
	}
	if m.NumSubexp() != 2 {
		t.Errorf("groups %d", m.NumSubexp())
	}
}

// Submatches are those of the leftmost-longest match (sed's \1 in s///).
func TestSubmatches(t *testing.T) {
	for _, c := range []struct {
		pat, text, want string
	}{
		{`\(a*\)\(b*\)\1`, "aabbaa", "[0 6 0 2 2 4]"},
		{`\(x\)*y\1`, "xxyx", "[0 4 1 2]"},
		{`\(a\|ab\)\(c\|bcd\)\2`, "abcdbcd", "[0 7 0 1 1 4]"},
	} {
		m, err := Compile(c.pat, Options{Flavor: Sed})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(m.FindSubmatchIndex([]byte(c.text))); got != c.want {
			t.Errorf("%q on %q: %s, want %s", c.pat, c.text, got, c.want)
		}
	}
}

// Hostile patterns: exponential backtracking stops at the step bound
// with ErrTooComplex, each step is charged to the fuel, and a fuel error
// stops the match at once.
func TestBacktrackBounded(t *testing.T) {
	text := []byte(strings.Repeat("a", 40) + "c")
	m, _ := Compile(`\(a*\)*b\1`, Options{MaxSteps: 100_000})
	if m.Match(text) || m.Err() != ErrTooComplex {
		t.Errorf("want ErrTooComplex, got %v", m.Err())
	}
	var charged int64
	stop := errors.New("out of fuel")
	m, _ = Compile(`\(a*\)*b\1`, Options{Fuel: func(n int64) error {
		charged += n
		if charged > 50_000 {
			return stop
		}
		return nil
	}})
	if m.Match(text) || m.Err() != stop || charged < 50_000 || charged > 50_000+fuelBatch {
		t.Errorf("err %v after %d steps charged", m.Err(), charged)
	}
	// The bound covers a whole FindAll, not each start position.
	m, _ = Compile(`\(a*\)*b\1`, Options{MaxSteps: 1_000_000})
	start := time.Now()
	m.FindAllIndex([]byte(strings.Repeat(strings.Repeat("a", 30)+"c", 1000)), -1)
	if m.Err() != ErrTooComplex {
		t.Errorf("FindAll: %v", m.Err())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("FindAll took %v", d)
	}
	// A long line cannot recurse without limit.
	m, _ = Compile(`\(.\)\1.*x`, Options{})
	if m.Match(append([]byte("aa"), make([]byte, 1<<20)...)) || m.Err() != ErrTooComplex {
		t.Errorf("long line: %v", m.Err())
	}
	// A successful match leaves no error behind.
	if !m.Match([]byte("aabx")) || m.Err() != nil {
		t.Errorf("aabx: %v", m.Err())
	}
}

// A pattern's own private-use characters are literals, not the
// placeholders the backtracking matcher reads.
func TestPrivateUseLiteral(t *testing.T) {
	m, err := Compile("a\U000F0001", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !m.MatchString("a\U000F0001") || m.MatchString("a") || m.Backtracks() {
		t.Error("private-use literal misread")
	}
}
