package syntax

import (
	"strings"
	"testing"
)

// FuzzParse: any input either parses or returns a *Error; the parser never
// panics, and deep nesting is refused instead of exhausting the stack.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x = 1\n", "def f(a, *b, c=1, **d):\n    return [i for i in b if i]\n",
		"class A(B, metaclass=M):\n    x: int = 3\n", "f'{a!r:>{w}} {b=}'\n", "try:\n  pass\nexcept (A, B) as e:\n  raise\nfinally:\n  pass\n",
		"with a as b, c as d:\n  yield from x\n", "lambda *a, **k: (a, k)\n", "x[1:2, ::3] = y, *z\n",
		strings.Repeat("(", 500) + strings.Repeat(")", 500), "if x:\n\tif y:\n  z\n", "'''unterminated", "@d\nclass C: pass\n",
		"match x:\n  case 1: pass\n", "async def f(): pass\n", "x = 0x_1\n", "print(*a, sep='', **k)\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if m != nil {
				t.Fatal("module and error both returned")
			}
		}
		_, _ = ParseExpr(src)
	})
}

func TestNestingRefused(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 100000) + strings.Repeat(")", 100000),
		"x = " + strings.Repeat("-", 100000) + "1\n",
		"x = " + strings.Repeat("[", 50000) + strings.Repeat("]", 50000) + "\n",
		"x = " + strings.Repeat("not ", 50000) + "1\n",
		"x = " + strings.Repeat("a if b else ", 50000) + "c\n",
		"x = " + strings.Repeat("lambda: ", 50000) + "1\n",
		"x = " + strings.Repeat("2**", 50000) + "1\n",
	} {
		if _, err := Parse(src); err == nil || !strings.Contains(err.Error(), "too many nested") {
			t.Errorf("%.20q...: err = %v", src, err)
		}
	}
	var b strings.Builder
	for i := 0; i < 300; i++ {
		b.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	b.WriteString(strings.Repeat(" ", 300) + "pass\n")
	if _, err := Parse(b.String()); err == nil {
		t.Error("300 nested blocks parsed")
	}
}

func TestParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		"x = (1,\n":                       "'(' was never closed",
		"def f(:\n  pass\n":               "'(' was never closed",
		"def f(x:\n  pass\n":              "'(' was never closed",
		"def f(1):\n  pass\n":             "invalid syntax",
		"if x\n  pass\n":                  "expected ':'",
		"  x = 1\n":                       "unexpected indent",
		"if x:\npass\n":                   "expected an indented block",
		"f(x for x in y, 1)\n":            "",
		"1 = x\n":                         "cannot assign to literal",
		"f() = 3\n":                       "cannot assign to function call",
		"x = 'abc\n":                      "unterminated string literal",
		"match x:\n  case 1:\n    pass\n": "match statement is not supported",
		"async def f(): pass\n":           "async functions",
		"x = 1 +\n":                       "invalid syntax",
		"def f(a, a): pass\n":             "duplicate argument",
	} {
		_, err := Parse(src)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: unexpected error %v", src, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: err = %v, want %q", src, err, want)
		}
	}
}
