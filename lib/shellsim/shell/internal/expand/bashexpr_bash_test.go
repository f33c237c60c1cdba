package expand

import (
	"fmt"
	"math/rand"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The text evaluator is compared with the host's bash on random
// expressions: values of well-formed ones, and the diagnostics of random
// token soup (bash's wording, expression text and error token).

func runBashLines(t *testing.T, script string) []string {
	t.Helper()
	c := exec.Command("bash")
	c.Stdin = strings.NewReader(script)
	out, err := c.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}

func TestArithStringValuesMatchBash(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	ops := []string{"+", "-", "*", "/", "%", "**", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "&&", "||", ","}
	var gen func(d int) string
	gen = func(d int) string {
		if d == 0 || r.Intn(3) == 0 {
			return []string{"x", "y", "0x1f", "010", "64#_", fmt.Sprint(r.Intn(20) - 5), fmt.Sprint(r.Intn(7))}[r.Intn(7)]
		}
		switch r.Intn(6) {
		case 0:
			return "(" + gen(d-1) + ")"
		case 1:
			return []string{"- ", "!", "~", "+ "}[r.Intn(4)] + gen(d-1)
		case 2:
			return gen(d-1) + " ? " + gen(d-1) + " : " + gen(d-1)
		}
		return gen(d-1) + " " + ops[r.Intn(len(ops))] + " " + gen(d-1)
	}
	var exprs []string
	var script strings.Builder
	for i := 0; i < 1500; i++ {
		e := gen(4)
		exprs = append(exprs, e)
		fmt.Fprintf(&script, "( x=3 y=2+1; echo \"$(( %s ))\" ) 2>/dev/null || echo ERR\n", e)
	}
	lines := runBashLines(t, script.String())
	if len(lines) != len(exprs) {
		t.Fatalf("bash printed %d lines for %d expressions", len(lines), len(exprs))
	}
	for i, e := range exprs {
		got, err := ArithString(&Config{Env: ListEnviron("x=3", "y=2+1")}, e, true)
		g := fmt.Sprint(got)
		if err != nil {
			g = "ERR"
		}
		if lines[i] != g {
			t.Errorf("$(( %s )): bash %q, text evaluator %q (%v)", e, lines[i], g, err)
		}
	}
}

func TestArithStringErrorsMatchBash(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	toks := []string{"1", "0", "x", "y", "+", "-", "*", "/", "%", "**", "(", ")", "?", ":", ",", "=", "+=", "/=", "<<",
		"++", "--", "!", "~", "@", "08", "2#3", "z", " ", " ", "&&", "||", "<", "=="}
	var exprs []string
	var script strings.Builder
	for len(exprs) < 1500 {
		var b strings.Builder
		for j := 1 + r.Intn(6); j > 0; j-- {
			b.WriteString(toks[r.Intn(len(toks))])
			if r.Intn(2) == 0 {
				b.WriteByte(' ')
			}
		}
		e := b.String()
		if strings.Count(e, "(") > 0 || strings.Count(e, ")") > 0 {
			if strings.Count(e, "(") != strings.Count(e, ")") || strings.Index(e, ")") < strings.Index(e, "(") {
				continue // a shell syntax error, not an arithmetic one
			}
		}
		exprs = append(exprs, e)
		// one line per expression: its value or bash's diagnostic
		fmt.Fprintf(&script, "( x=3 y=2+1 z=1/0; echo \"$(( %s ))\" ) 2>&1 | tr '\\n' '|'; echo\n", e)
	}
	lines := runBashLines(t, script.String())
	if len(lines) != len(exprs) {
		t.Fatalf("bash printed %d lines for %d expressions", len(lines), len(exprs))
	}
	prefix := regexp.MustCompile(`^bash: line \d+: `)
	for i, e := range exprs {
		want := prefix.ReplaceAllString(strings.TrimSuffix(lines[i], "|"), "")
		got, err := ArithString(&Config{Env: ListEnviron("x=3", "y=2+1", "z=1/0")}, e+" ", true)
		g := fmt.Sprint(got)
		if err != nil {
			g = err.Error()
		}
		if want != g {
			t.Errorf("$(( %s )): bash %q, text evaluator %q", e, want, g)
		}
	}
}
