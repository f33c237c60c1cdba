package shellsim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

func run(t *testing.T, l shellsim.Limits, src string) shellsim.Result {
	t.Helper()
	env := shellsim.NewEnvironment(l)
	defer env.Close()
	start := time.Now()
	r := env.Run(context.Background(), src, nil)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("%q took %v of host time", src, d)
	}
	return r
}

// A pattern too complex to match on a line ends grep with an error, and
// the endless writer of its input with it, in bounded host time.
func TestRegexTooComplex(t *testing.T) {
	r := run(t, shellsim.DefaultLimits(), `s=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac; while :; do echo $s; done | grep '\(a*\)*b\1'`)
	if r.Outcome.ExitStatus != 2 || string(r.Stderr) != "grep: regular expression too complex to match\n" {
		t.Errorf("status %d stderr %q", r.Outcome.ExitStatus, r.Stderr)
	}
}

func reason(r shellsim.Result) string {
	if r.Outcome.StopReason == nil {
		return ""
	}
	return *r.Outcome.StopReason
}

func TestResourceStops(t *testing.T) {
	def := shellsim.DefaultLimits()
	big := def
	big.CPU = 1 << 40
	// Under the function nesting limit, each level's memory runs out first.
	small := def
	small.Memory = 16 << 20
	tests := []struct {
		name, src string
		limits    shellsim.Limits
		reason    string
	}{
		{"fork-bomb", `:(){ :|:& };:`, def, "memory_exhausted"},
		{"yes", `yes`, def, "output_limit_exceeded"},
		{"busy-loop", `while :; do :; done`, def, "cpu_exhausted"},
		{"recursion", `f(){ f; }; f`, small, "memory_exhausted"},
		{"subshell-recursion", `f(){ ( f ); }; f`, big, "memory_exhausted"},
		{"substitution-recursion", `f(){ echo $(f); }; f`, big, "memory_exhausted"},
		{"brace", `echo {1..10000000}`, def, "memory_exhausted"},
		{"subst-yes", `x=$(yes); echo ${#x}`, def, "cpu_exhausted"},
		{"doubling", `s=x; while :; do s="$s$s"; done`, big, "memory_exhausted"},
		// Exponential backtracking is metered like any other work.
		{"regex-backtracking", `echo aaaaaaaaaaaaaaaaaaaaaaaaaaaaac | sed -n 's/\(a*\)*b\1//p'`, small, "cpu_exhausted"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.limits, tc.src)
			if reason(r) != tc.reason || r.Outcome.ExitStatus != 137 {
				t.Fatalf("reason=%q status=%d stderr=%q", reason(r), r.Outcome.ExitStatus, r.Stderr)
			}
			u := r.Outcome.Usage
			if u.CPUUsed > tc.limits.CPU || u.MemoryPeak > tc.limits.Memory || u.OutputBytes > tc.limits.Output {
				t.Fatalf("over limit: %+v", u)
			}
		})
	}
}

func TestDiskFullIsRecoverable(t *testing.T) {
	l := shellsim.DefaultLimits()
	l.CPU = 1 << 40
	env := shellsim.NewEnvironment(l)
	defer env.Close()
	r := env.Run(context.Background(), `c=$(head -c 1048576 /dev/zero | tr '\0' x); for i in $(seq 100); do echo "$c"; done > big; echo "status $?"`, nil)
	if reason(r) != "" || !bytes.Contains(r.Stdout, []byte("status 1")) || !bytes.Contains(r.Stderr, []byte("No space left on device")) {
		t.Fatalf("stdout=%q stderr=%q reason=%q", r.Stdout, r.Stderr, reason(r))
	}
	if r.Outcome.Usage.DiskPeak > l.Disk {
		t.Fatalf("disk peak %d over quota", r.Outcome.Usage.DiskPeak)
	}
	r = env.Run(context.Background(), `rm big; echo ok > small; cat small`, nil)
	if string(r.Stdout) != "ok\n" || env.Terminated() {
		t.Fatalf("after recovery: %q %q", r.Stdout, r.Stderr)
	}
}

func TestTerminalEnvironment(t *testing.T) {
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	r1 := env.Run(context.Background(), `echo a; exit 3`, nil)
	if r1.Outcome.ExitStatus != 3 || !env.Terminated() {
		t.Fatal(r1.Outcome)
	}
	r2 := env.Run(context.Background(), `echo should-not-run`, nil)
	if len(r2.Stdout) != 0 || r2.Outcome.ExitStatus != 3 || r2.Outcome.Usage.CPUUsed != r1.Outcome.Usage.CPUUsed {
		t.Fatalf("terminal env ran again: %q %+v", r2.Stdout, r2.Outcome)
	}
}

func TestPersistence(t *testing.T) {
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	env.Run(context.Background(), `x=41; f(){ echo $((x+1)); }; cd /tmp; echo data > file`, nil)
	r := env.Run(context.Background(), `f; pwd; cat file`, nil)
	if string(r.Stdout) != "42\n/tmp\ndata\n" {
		t.Fatalf("%q %q", r.Stdout, r.Stderr)
	}
	if b, err := env.ReadFile("/tmp/file"); err != nil || string(b) != "data\n" {
		t.Fatal(string(b), err)
	}
}

func TestVirtualTime(t *testing.T) {
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	start := time.Now()
	r := env.Run(context.Background(), `sleep 5 & sleep 3; wait; echo $SECONDS; date +%s`, nil)
	if string(r.Stdout) != "5\n1735689605\n" {
		t.Fatalf("%q %q", r.Stdout, r.Stderr)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("sleep used host time")
	}
	r = env.Run(context.Background(), `timeout 2 sleep 10; echo $?; echo $SECONDS`, nil)
	if string(r.Stdout) != "124\n7\n" {
		t.Fatalf("%q %q", r.Stdout, r.Stderr)
	}
}

func TestCancel(t *testing.T) {
	l := shellsim.DefaultLimits()
	l.CPU = 1 << 50
	env := shellsim.NewEnvironment(l)
	defer env.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r := env.Run(ctx, `while :; do :; done`, nil)
	if r.Outcome.ExitStatus != 137 {
		t.Fatal(r.Outcome)
	}
	r = env.Run(context.Background(), `echo alive`, nil)
	if string(r.Stdout) != "alive\n" {
		t.Fatalf("%q", r.Stdout)
	}
}

func report(r shellsim.Result) []byte {
	b, _ := json.Marshal(struct {
		O   shellsim.Outcome
		Out string
		Err string
		Inv []shellsim.Invocation
		C   []string
	}{r.Outcome, string(r.Stdout), string(r.Stderr), r.Invocations, r.Commands})
	return b
}

func TestDeterminism(t *testing.T) {
	scripts := []string{
		`for i in $(seq 1 50); do echo $RANDOM $i; done | sort -n | tail -3; ls -la /work /tmp; ps`,
		`sleep 2 & (sleep 1; echo x) & wait; date; echo $$ $! ; cat /proc/self/status`,
		`:(){ :|:& };:`,
		`yes | head -c 100000 | wc -c; printf '%s\n' {1..100} | awk '{s+=$1} END {print s}'`,
	}
	for _, s := range scripts {
		a := run(t, shellsim.DefaultLimits(), s)
		b := run(t, shellsim.DefaultLimits(), s)
		if !bytes.Equal(report(a), report(b)) {
			t.Errorf("non-deterministic: %s\n%s\n%s", s, report(a), report(b))
		}
	}
}

func TestLateCancellationDoesNotLeakIntoTheNextAction(t *testing.T) {
	e := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer e.Close()
	for i := 0; i < 200; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		r := e.Run(ctx, "true", nil)
		cancel() // races with the end of the action's watcher
		if r.Outcome.ExitStatus != 0 {
			t.Fatalf("round %d: status %d", i, r.Outcome.ExitStatus)
		}
		if r := e.Run(context.Background(), "echo ok", nil); string(r.Stdout) != "ok\n" || r.Outcome.ExitStatus != 0 {
			t.Fatalf("round %d: next action got %q status %d", i, r.Stdout, r.Outcome.ExitStatus)
		}
	}
}

// A runaway recursion ends with bash's FUNCNEST error (a status, not a host
// crash); FUNCNEST lowers the limit; other nesting (eval, source, child
// shells) is bounded too.
func TestNestingLimits(t *testing.T) {
	l := shellsim.DefaultLimits()
	l.CPU, l.Memory = 1<<40, 1<<30
	for _, tc := range []struct{ src, stdout, stderr string }{
		{`f(){ f; }; f; echo not reached`, "", "environment: line 1: f: maximum function nesting level exceeded (5000)\n"},
		{`FUNCNEST=3; f(){ echo $FUNCNAME; f; }; f`, "f\nf\nf\n", "environment: line 1: f: maximum function nesting level exceeded (3)\n"},
		{`f(){ if (( $1 < 4000 )); then f $(( $1 + 1 )); else echo deep; fi; }; f 0`, "deep\n", ""},
		{`FUNCNEST=abc; f(){ (( $1 < 100 )) && f $(( $1 + 1 )); }; f 0; echo ok`, "ok\n", ""},
		{`x='eval "$x"'; eval "$x"`, "", "bash: line 1: maximum nesting level exceeded (10000)\n"},
		{`echo '. /work/s' > /work/s; . /work/s`, "", "/work/s: line 1: maximum nesting level exceeded (10000)\n"}, // named as bash names errors in a sourced file
		{`echo 'sh /work/s' > /work/s; sh /work/s; echo status $?`, "status 1\n", "/work/s: line 1: maximum nesting level exceeded (10000)\n"},
	} {
		env := shellsim.NewEnvironment(l)
		r := env.Run(context.Background(), tc.src, nil)
		env.Close()
		if r.Outcome.StopReason != nil || string(r.Stdout) != tc.stdout || string(r.Stderr) != tc.stderr {
			t.Errorf("%s: status %d stop %v stdout %q stderr %q", tc.src, r.Outcome.ExitStatus, r.Outcome.StopReason, r.Stdout, r.Stderr)
		}
	}
}

// Widths and precisions beyond what Go's fmt formats give bash's output
// (not "%!(NOVERB)"), and a huge one is stopped by the limits before it is
// built.
func TestPrintfHugeWidths(t *testing.T) {
	l := shellsim.DefaultLimits()
	l.CPU = 1 << 40
	src := `printf '%01500000d' -5 | head -c 3; echo
printf '%.1500000d' 5 | wc -c
printf '%-1500000s|' a | tail -c 3; echo
printf '%1500000d' 7 | wc -c
printf '%+1500000.3f' 2.5 | tail -c 7; echo
printf '%1500000s' | wc -c`
	want := "-00\n1500000\n  |\n1500000\n +2.500\n1500000\n"
	if r := run(t, l, src); string(r.Stdout) != want || len(r.Stderr) != 0 {
		t.Fatalf("stdout %q stderr %q, want %q", r.Stdout, r.Stderr, want)
	}
	for _, src := range []string{`printf '%2000000000d' 1 | wc -c`, `printf '%.2000000000d' 1`, `printf '%99999999999999999999d' 1`} {
		r := run(t, shellsim.DefaultLimits(), src)
		if reason(r) == "" || bytes.Contains(r.Stdout, []byte("%!")) || r.Outcome.Usage.MemoryPeak > l.Memory {
			t.Errorf("%s: reason %q stdout %q", src, reason(r), r.Stdout[:min(len(r.Stdout), 100)])
		}
	}
}

// A full disk gives bash's and GNU's "No space left on device" messages.
func TestDiskFullMessages(t *testing.T) {
	l := shellsim.DefaultLimits()
	l.Disk = 1 << 20
	src := `echo source > /work/src; touch /work/f /work/p /work/c /work/pw
head -c 2000000 /dev/zero > /work/big; echo $?
for i in $(seq 40); do head -c 1000 /dev/zero >> /work/big 2>/dev/null; done
for i in $(seq 1000); do printf x >> /work/big 2>/dev/null || break; done
echo x > /work/f; echo $?
printf '%s\n' abc > /work/p; echo $?
seq 3 | cat > /work/c; echo $?
cp /work/src /work/pw; echo $?
echo x > /work/new; echo $?
rm /work/big; echo x > /work/f; echo $?`
	want := "1\n1\n1\n1\n1\n1\n0\n"
	wantErr := `head: write error: No space left on device
bash: line 5: echo: write error: No space left on device
bash: line 6: printf: write error: No space left on device
cat: write error: No space left on device
cp: cannot create regular file '/work/pw': No space left on device
bash: line 9: /work/new: No space left on device
`
	if r := run(t, l, src); string(r.Stdout) != want || string(r.Stderr) != wantErr {
		t.Fatalf("stdout %q stderr:\n%s", r.Stdout, r.Stderr)
	}
}

// Deeply nested source would overflow the host stack of a recursive-descent
// parser (a fatal error Go cannot recover from, killing the embedding
// process): the shell, arithmetic on values, eval, sh -c, awk and jq refuse
// it with an error instead.
func TestDeepSyntaxIsRefused(t *testing.T) {
	l := shellsim.DefaultLimits()
	l.CPU = 1 << 40
	deep := strings.Repeat("(", 300000)
	for _, tc := range []struct{ src, stderr string }{
		{deep + "true" + strings.Repeat(")", 300000), "bash: -c: line 1: syntax error: nesting deeper than 2000 levels\n"},
		{"echo $((" + deep + "1" + strings.Repeat(")", 300000) + "))", "bash: -c: line 1: syntax error: nesting deeper than 2000 levels\n"},
		{`x=$(cat /work/p)1; echo $((x))`, "expression recursion level exceeded"},
		{`x=$(cat /work/p); eval "$x"`, "bash: eval: line 1: syntax error: nesting deeper than 2000 levels\n"},
		{`sh -c "$(cat /work/p)"`, "sh: -c: line 1: syntax error: nesting deeper than 2000 levels\n"},
		{`awk "BEGIN{print $(cat /work/p)1}"`, "awk: cmd. line:1: fatal: nesting deeper than 2000 levels\n"},
		{`jq -n "$(cat /work/p)1"`, "jq: error: nesting deeper than 2000 levels"},
		{`f(){ (( $1 < 50 )) && f $(( $1 + 1 )); }; x=$(printf '(%.0s' {1..1500}); y=$(printf ')%.0s' {1..1500}); echo $(( ${x}1$y ))`, ""},
	} {
		env := shellsim.NewEnvironment(l) // an expansion error ends the shell
		if err := env.WriteFile("/work/p", []byte(deep), 0o644); err != nil {
			t.Fatal(err)
		}
		r := env.Run(context.Background(), tc.src, nil)
		env.Close()
		if !strings.Contains(string(r.Stderr), tc.stderr) || (tc.stderr == "") != (len(r.Stderr) == 0) {
			t.Errorf("%.60s: status %d stderr %.200q", tc.src, r.Outcome.ExitStatus, r.Stderr)
		}
	}
}
