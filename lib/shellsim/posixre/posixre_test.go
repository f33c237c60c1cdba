package posixre

import (
	"regexp"
	"strings"
	"testing"
)

// translate is the RE2 text of a GNU-flavour pattern.
func translate(pat string, ere bool) (string, error) {
	e, err := Parse(pat, Options{Extended: ere})
	if err != nil {
		return "", err
	}
	return e.src, nil
}

func TestTranslate(t *testing.T) {
	cases := []struct {
		ere      bool
		pat, out string
	}{
		{false, `a\(b\|c\)*`, `a(b|c)*`},
		{false, `a\{2,3\}`, `a{2,3}`},
		{false, `a\{,3\}`, `a{0,3}`},
		{false, `a\{2,\}`, `a{2,}`},
		{false, `a+?(b){1}|c`, `a\+\?\(b\)\{1\}\|c`},
		{false, `a\+b\?`, `a+b?`},
		{false, `*a`, `\*a`},
		{false, `^*a`, `^\*a`},
		{false, `\(*a\)`, `(\*a)`},
		{false, `x\|*a`, `x|\*a`},
		{false, `a^b$c`, `a\^b\$c`},
		{false, `^a$`, `^a$`},
		{false, `\(^a$\)`, `(^a$)`},
		{false, `a$\|^b`, `a$|^b`},
		{false, `a**`, `(?:a*)*`},
		{false, `\{1\}a`, `\{1\}a`},
		{false, `[]a]`, `[\]a]`},
		{false, `[^]a-]`, `[^\]a\-]`},
		{false, `[\]`, `[\\]`},
		{false, `[[:digit:][:alpha:]_]`, `[[:digit:][:alpha:]\_]`},
		{false, `[[.a.][=b=]]`, `[ab]`},
		{false, `[a-z0-9]`, `[a-z0-9]`},
		{false, `\.\*\[\]`, `\.\*\[\]`},
		{false, `\<the\>`, `\bthe\b`},
		{false, "\\`a\\'", `\Aa\z`},
		{false, `\w\W\s\S\b\B`, `\w\W\s\S\b\B`},
		{false, `\d\/\%`, `d/%`},
		{false, `a.c`, `a.c`},
		{false, `\(\)`, `()`},
		{true, `a(b|c)+`, `a(b|c)+`},
		{true, `a{,2}`, `a{0,2}`},
		{true, `a{`, `a\{`},
		{true, `a{1`, `a\{1`},
		{true, `a{x}`, `a\{x\}`},
		{true, `{1}a`, `a`},
		{true, `*a`, `a`},
		{true, `+a`, `a`},
		{true, `a|*b`, `a|b`},
		{true, `(*a)`, `(a)`},
		{true, `^+a`, `^a`},
		{true, `a$*`, `a$`},
		{true, `a**`, `(?:a*)*`},
		{true, `a+?`, `(?:a+)?`},
		{true, `a{1,2}{3}`, `(?:a{1,2}){3}`},
		{true, `^*`, `^`},
		{true, `)`, `\)`},
		{true, `a\{`, `a\{`},
		{true, `a^b$`, `a^b$`},
		{true, `x|`, `x|`},
		{true, `\.`, `\.`},
		{true, `[[:space:]]+$`, `[[:space:]]+$`},
		{true, `é+`, `é+`},
	}
	for _, c := range cases {
		got, err := translate(c.pat, c.ere)
		if err != nil || got != c.out {
			t.Errorf("translate(%q, ere=%v) = %q, %v; want %q", c.pat, c.ere, got, err, c.out)
			continue
		}
		if _, err := regexp.Compile(got); err != nil && !needsBacktrack(got) {
			t.Errorf("translate(%q): RE2 rejects %q: %v", c.pat, got, err)
		}
	}
}

// Matches checked against GNU grep 3.8 in the C locale.
func TestMatchLikeGNU(t *testing.T) {
	cases := []struct {
		ere       bool
		pat, text string
		match     bool
	}{
		{true, `)`, `a)b`, true},
		{true, `a{`, `a{`, true},
		{true, `a{,2}`, `aa`, true},
		{true, `*a`, `xa`, true},
		{true, `^*a`, `xa`, false},
		{true, `a**`, `aaa`, true},
		{false, `a^b`, `a^b`, true},
		{false, `a$b`, `a$b`, true},
		{false, `^*a`, `*a`, true},
		{false, `^*a`, `a`, false},
		{true, `()`, `x`, true},
		{false, `[\]`, `\`, true},
		{false, `[]a]`, `]`, true},
		{false, `\d`, `d`, true},
		{true, `(a|)`, `b`, true},
		{true, `\<a`, `ba a`, true},
		{true, `\<a`, `ba`, false},
		{true, `^*`, `x`, true},
		{true, `$a`, `a`, false},
		{false, `[a-]`, `-`, true},
		{false, `\(ab\)\{2\}`, `abab`, true},
		{false, `\(ab\)\{2\}`, `ab`, false},
		{true, `^[0-9]+(\.[0-9]+)?$`, `3.14`, true},
		{true, `^[0-9]+(\.[0-9]+)?$`, `3.`, false},
		{false, `[[:upper:]][[:lower:]]*`, `Hello`, true},
		{false, `[^[:space:]]`, `   `, false},
	}
	for _, c := range cases {
		re, err := Compile(c.pat, Options{Extended: c.ere})
		if err != nil {
			t.Errorf("Compile(%q, ere=%v): %v", c.pat, c.ere, err)
			continue
		}
		if got := re.MatchString(c.text); got != c.match {
			t.Errorf("%q (ere=%v) on %q = %v, want %v", c.pat, c.ere, c.text, got, c.match)
		}
	}
}

// Error texts are glibc's, as grep prints them.
func TestErrors(t *testing.T) {
	cases := []struct {
		ere      bool
		pat, msg string
	}{
		{false, `a\{1`, `Unmatched \{`},
		{false, `a\{x\}`, `Invalid content of \{\}`},
		{false, `\(a`, `Unmatched ( or \(`},
		{false, `a\)`, `Unmatched ) or \)`},
		{false, `[a`, `Unmatched [, [^, [:, [., or [=`},
		{false, `a\`, `Trailing backslash`},
		{false, `[[:foo:]]`, `Invalid character class name`},
		{false, `[z-a]`, `Invalid range end`},
		{true, `a{2,1}`, `Invalid content of \{\}`},
		{true, `[[:alpha:]-z]`, `Invalid range end`},
		{true, `a{32768}`, `Regular expression too big`},
		{false, `[[.space.]]`, `Invalid collation character`},
		{true, `[a`, `Unmatched [, [^, [:, [., or [=`},
		{true, `(`, `Unmatched ( or \(`},
		{false, `[[:alpha:]`, `Unmatched [, [^, [:, [., or [=`},
		{false, `[[:alpha`, `Unmatched [, [^, [:, [., or [=`},
	}
	for _, c := range cases {
		_, err := translate(c.pat, c.ere)
		if err == nil || err.Error() != c.msg {
			t.Errorf("translate(%q, ere=%v) error = %v, want %q", c.pat, c.ere, err, c.msg)
		}
	}
}

func FuzzTranslate(f *testing.F) {
	for _, s := range []string{`a\(b\)*`, `[[:alpha:]]`, `a{1,2}`, `^*$`, `[]-]`} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, pat string, ere bool) {
		for _, fl := range []Flavor{GNU, Sed, Awk} {
			e, err := Parse(pat, Options{Extended: ere, Flavor: fl})
			if err != nil {
				continue
			}
			re, err := e.Compile(Options{MaxSteps: 100_000})
			if err != nil {
				t.Fatalf("Parse(%q, %v, %v) = %q which does not compile: %v", pat, ere, fl, e.src, err)
			}
			re.FindAllSubmatchIndex([]byte("aab ab\nba (x) [y] {z}"), -1)
		}
	})
}

func TestWarnings(t *testing.T) {
	e, err := Parse(`*a|?b{2}|{1}c`, Options{Extended: true})
	want := "* at start of expression,? at start of expression,{...} at start of expression"
	if err != nil || strings.Join(e.Warnings(), ",") != want {
		t.Errorf("warnings %v, %v", e, err)
	}
	if e, _ := Parse(`*a`, Options{}); len(e.Warnings()) != 0 {
		t.Errorf("BRE warnings %q", e.Warnings())
	}
}

// LiteralBytes lets grep search with bytes.Index: only for patterns that
// match one fixed string.
func TestLiteralBytes(t *testing.T) {
	for pat, want := range map[string]string{"error": "error", `\(error\)`: "error", "a.b": "", `x\+`: "",
		`\<foo`: "", `\(a\)\1`: "", `^warn`: "", "": ""} {
		e, err := Parse(pat, Options{})
		if err != nil {
			t.Fatal(err)
		}
		lit, ok := e.LiteralBytes()
		if ok != (want != "") || string(lit) != want {
			t.Errorf("LiteralBytes(%q) = %q, %v; want %q", pat, lit, ok, want)
		}
	}
}

// Each flavour reads the tool's own escapes and context rules: GNU sed
// 4.9 and gawk 5.2 behave so.
func TestFlavors(t *testing.T) {
	cases := []struct {
		fl        Flavor
		ere       bool
		pat, text string
		match     bool
		err       string
	}{
		{GNU, false, `\t`, "t", true, ""},
		{Sed, false, `\t`, "\t", true, ""},
		{Sed, false, `\t`, "t", false, ""},
		{Sed, false, `[\n]`, "\n", true, ""},
		{Sed, false, `[\n]`, "n", false, ""},
		{GNU, false, `[\n]`, "n", true, ""},
		{Sed, false, `\x41\o102\d067`, "ABC", true, ""},
		{Sed, false, `\cA`, "\x01", true, ""},
		{Sed, false, `*a`, "*a", true, ""},
		{Sed, false, `\{2\}`, "", false, "Invalid preceding regular expression"},
		{Sed, true, `*a`, "", false, "Invalid preceding regular expression"},
		{Sed, true, `a)`, "", false, `Unmatched ) or \)`},
		{GNU, true, `a)`, "a)", true, ""},
		{Awk, true, `a\/b`, "a/b", true, ""},
		{Awk, true, `[\]]`, "]", true, ""},
		{Awk, true, `[\/]`, "/", true, ""},
		{Awk, true, `\y`, "a b", true, ""},
		{Awk, true, `a\yb`, "ab", false, ""},
		{Awk, true, `\101`, "A", true, ""},
		{Awk, true, `{2}`, "{2}", true, ""},
		{Awk, true, `*a`, "*a", true, ""},
		{Awk, true, `a{2}`, "aa", true, ""},
		{Awk, true, `a{2}`, "a{2}", false, ""},
		{Awk, true, `a)`, "", false, `Unmatched ) or \)`},
		{Awk, true, `a\`, `a\`, true, ""},
		{Awk, true, `\<a`, "ba", false, ""},
		{Awk, true, `\<a`, "b a", true, ""},
		{Emacs, false, `ab+c?`, "abbb", true, ""},
		{Emacs, false, `ab\+`, "ab+", true, ""},
		{Emacs, false, `ab\+`, "abb", false, ""},
		{Emacs, false, `.*\.\(txt\|log\)`, "a.log", true, ""},
		{Emacs, false, `+a`, "+a", true, ""},
		{Emacs, false, `a\{2\}`, "a{2}", true, ""},
		{Emacs, false, `a\{2\}`, "aa", false, ""},
		{Emacs, false, `^[[:alpha:]]+$`, "a", false, ""},
		{Emacs, false, `\(a\)\1`, "aa", true, ""},
	}
	for _, c := range cases {
		re, err := Compile(c.pat, Options{Flavor: c.fl, Extended: c.ere})
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%v %q: error %v, want %q", c.fl, c.pat, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v %q: %v", c.fl, c.pat, err)
			continue
		}
		if got := re.MatchString(c.text); got != c.match {
			t.Errorf("%v %q on %q = %v, want %v", c.fl, c.pat, c.text, got, c.match)
		}
	}
}
