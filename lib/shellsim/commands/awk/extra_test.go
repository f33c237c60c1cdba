package awk

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// A stand-in shell for the tests: it reports its command and its input.
var shStub = []command.Entry{
	{Name: "sh", Trust: command.Real, Run: func(inv *command.Invocation) int {
		in, _ := io.ReadAll(inv.Stdin)
		fmt.Fprintf(inv.Stdout, "[%s] %q\n", strings.Join(inv.Args[1:], " "), in)
		if strings.Contains(inv.Args[len(inv.Args)-1], "fail") {
			return 3
		}
		return 0
	}},
}

func TestAwkFuel(t *testing.T) {
	for _, prog := range []string{"BEGIN{while(1);}", "BEGIN{for(;;) x++}", "function f(n) { return f(n) } BEGIN{f(1)}", "BEGIN{while(1) a[i++]=i}"} {
		e := commandtest.New(t, Commands(), shStub)
		e.Sys.Fuel = 100000
		_, _, st := e.Run([]string{"awk", prog}, "")
		if prog == "function f(n) { return f(n) } BEGIN{f(1)}" {
			if st != 1 && st != 2 {
				t.Errorf("%s: status %d", prog, st)
			}
			continue
		}
		if st != 1 || e.Sys.Fuel != 0 {
			t.Errorf("%s: status %d fuel %d, want a fuel stop", prog, st, e.Sys.Fuel)
		}
	}
}

func TestAwkDeterministicFuel(t *testing.T) {
	var used []int64
	for range 2 {
		e := commandtest.New(t, Commands(), shStub)
		e.Run([]string{"awk", `{ s += $1; a[$2] = $0 } END { for (k in a) n++; print s, n }`}, "1 a\n2 b\n3 c\n")
		used = append(used, e.Sys.Used)
	}
	if used[0] != used[1] || used[0] < 150 {
		t.Errorf("fuel used %v, want equal and >= 150", used)
	}
}

func TestAwkPipes(t *testing.T) {
	commandtest.Goldens{Commands: [][]command.Entry{Commands(), shStub}}.Run(t, []commandtest.Golden{
		{Args: []string{"awk", `BEGIN { print "b" | "sort"; print "a" | "sort"; print "direct" }`}, Stdout: "direct\n[-c sort] \"b\\na\\n\"\n"},
		{Args: []string{"awk", `BEGIN { print "x" | "cat"; r = close("cat"); print "closed", r }`}, Stdout: "[-c cat] \"x\\n\"\nclosed 0\n"},
		{Args: []string{"awk", `BEGIN { "date" | getline d; print "got", d; close("date") }`}, Stdout: "got [-c date] \"\"\n"},
		{Args: []string{"awk", `BEGIN { while (("ls" | getline l) > 0) n++; print n }`}, Stdout: "1\n"},
		{Args: []string{"awk", `BEGIN { print "before"; s = system("fail now"); print "status", s }`}, Stdout: "before\n[-c fail now] \"\"\nstatus 3\n"},
	})
}

func TestAwkFileOutput(t *testing.T) {
	e := commandtest.New(t, Commands(), shStub)
	_, errs, st := e.Run([]string{"awk", `{ print $2 > ($1 ".txt") } END { print "n=" NR >> "log" }`}, "a 1\nb 2\na 3\n")
	if errs != "" || st != 0 {
		t.Fatalf("stderr %q status %d", errs, st)
	}
	for name, want := range map[string]string{"a.txt": "1\n3\n", "b.txt": "2\n", "log": "n=3\n"} {
		if got := e.ReadFile(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	_, errs, st = e.Run([]string{"awk", `BEGIN { print "x" > "/nonexistent/dir/f" }`}, "")
	if st != 2 || !strings.Contains(errs, "can't redirect to `/nonexistent/dir/f'") {
		t.Errorf("bad redirect: %q %d", errs, st)
	}
}

func TestAwkPartial(t *testing.T) {
	e := commandtest.New(t, Commands(), shStub)
	_, errs, st := e.Run([]string{"awk", `BEGIN { a[1]; a[2]; n = asort(a, b, "cmp") }`}, "")
	if st != 2 || len(e.Sys.Partials) != 1 || !strings.Contains(errs, "not supported") {
		t.Errorf("asort with a user order: %q %d %v", errs, st, e.Sys.Partials)
	}
	for _, prog := range []string{`BEGINFILE { print }`, `BEGIN { FIELDWIDTHS = "2 3" }`, `BEGIN { print "x" |& "cat" }`,
		`{ switch ($1) { case 1: print } }`, `@include "x.awk"`, `BEGIN { PROCINFO["sorted_in"] = "cmp_fn"; a[1]; for (k in a) print k }`} {
		e = commandtest.New(t, Commands(), shStub)
		_, errs, st = e.Run([]string{"awk", prog}, "")
		if st != 2 || len(e.Sys.Partials) != 1 || !strings.Contains(errs, "not supported") {
			t.Errorf("%s: %q %d %v", prog, errs, st, e.Sys.Partials)
		}
	}
	e = commandtest.New(t, Commands(), shStub)
	_, _, st = e.Run([]string{"awk", "--lint", "1"}, "")
	if st != 2 || len(e.Sys.Partials) != 1 {
		t.Errorf("--lint: %d %v", st, e.Sys.Partials)
	}
}

func TestAwkAliases(t *testing.T) {
	for _, name := range []string{"gawk", "mawk", "nawk"} {
		e := commandtest.New(t, Commands(), shStub)
		out, _, st := e.Run([]string{name, "{ print $2 }"}, "a b\n")
		if out != "b\n" || st != 0 {
			t.Errorf("%s: %q %d", name, out, st)
		}
	}
}

func TestAwkMemory(t *testing.T) {
	e := commandtest.New(t, Commands(), shStub)
	out, _, st := e.Run([]string{"awk", `{ a[NR] = $0 } END { print length(a) }`}, strings.Repeat("some line of text\n", 5000))
	if out != "5000\n" || st != 0 {
		t.Fatalf("got %q %d", out, st)
	}
	if e.Sys.Mem != 0 || e.Sys.MemPeak < 5000*48 {
		t.Errorf("memory now %d peak %d", e.Sys.Mem, e.Sys.MemPeak)
	}
	e = commandtest.New(t, Commands(), shStub)
	e.Sys.MemLimit = 64 << 10
	_, _, st = e.Run([]string{"awk", `BEGIN { while (1) a[i++] = i }`}, "")
	if st != 1 {
		t.Errorf("memory exhaustion: status %d, want 1", st)
	}
}

// \< before a group runs on posixre's backtracking matcher: an
// exponential pattern costs fuel, and without a fuel limit it ends in a
// fatal error at the matcher's step bound instead of running on.
func TestHostileRegex(t *testing.T) {
	line := strings.Repeat("a", 60) + "c\n"
	e := commandtest.New(t, Commands(), shStub)
	e.Sys.Fuel = 2_000_000
	out, _, st := e.Run([]string{"awk", `/\<(a|aa)*b/`}, strings.Repeat(line, 50))
	if out != "" || st == 0 || e.Sys.Fuel > 1000 {
		t.Errorf("with fuel: out %q status %d fuel left %d", out, st, e.Sys.Fuel)
	}
	e = commandtest.New(t, Commands(), shStub)
	_, errs, st := e.Run([]string{"awk", `/\<(a|aa)*b/`}, line)
	if st != 2 || !strings.Contains(errs, "too complex") {
		t.Errorf("unmetered: status %d stderr %q", st, errs)
	}
	// The same matcher agrees with the plain one where both apply.
	if out, _, _ := e.Run([]string{"awk", `/\<(ab|a)+$/ {print "y"}`}, "x aab\nab\nxab\n"); out != "y\ny\n" {
		t.Errorf("match: %q", out)
	}
}
