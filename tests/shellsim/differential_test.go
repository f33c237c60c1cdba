// Package shellsim_test is the differential suite: every script in
// corpus/ runs in the host's real bash and in ShellSim, and the two must
// print the same stdout and exit with the same status.
package shellsim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

// minPassRate is the share of corpus scripts that must match bash.
const minPassRate = 0.95

// hostEnv is the fixed, minimal environment the scripts get in bash.
var hostEnv = []string{
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"HOME=/root",
	"LC_ALL=C",
	"LANG=C",
	"TZ=UTC",
}

type outcome struct {
	stdout string
	status int
}

func runBash(t *testing.T, script string) outcome {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "env", "--default-signal", "bash", script) // as compareWithBash
	cmd.Dir = dir
	cmd.Env = hostEnv
	cmd.Stdin = strings.NewReader("")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = nil
	err := cmd.Run()
	status := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("bash %s: %v", script, err)
		}
		status = ee.ExitCode()
	}
	return outcome{out.String(), status}
}

// simResult is what the child process reports for one script.
type simResult struct {
	Stdout, Stderr string
	Status         int
}

// runSim runs one script in ShellSim in a child copy of this test binary,
// so that a crash in the simulator fails that script instead of the suite.
func runSim(t *testing.T, script string) (o outcome, stderr string) {
	t.Helper()
	resFile := filepath.Join(t.TempDir(), "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestSimChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SHELLSIM_DIFF_SCRIPT="+script, "SHELLSIM_DIFF_RESULT="+resFile)
	var childOut bytes.Buffer
	cmd.Stdout = &childOut
	cmd.Stderr = &childOut
	err := cmd.Run()
	data, rerr := os.ReadFile(resFile)
	if rerr != nil {
		msg := childOut.String()
		if len(msg) > 2000 {
			msg = msg[:2000] + "..."
		}
		return outcome{status: -1}, fmt.Sprintf("shellsim crashed (%v):\n%s", err, msg)
	}
	var r simResult
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("child result: %v", err)
	}
	return outcome{r.Stdout, r.Status}, r.Stderr
}

// TestSimChild is the child half of runSim; it does nothing in a normal run.
func TestSimChild(t *testing.T) {
	script := os.Getenv("SHELLSIM_DIFF_SCRIPT")
	if script == "" {
		t.Skip("only runs as the differential suite's child process")
	}
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := env.Run(ctx, string(src), nil)
	data, _ := json.Marshal(simResult{string(res.Stdout), string(res.Stderr), res.Outcome.ExitStatus})
	if err := os.WriteFile(os.Getenv("SHELLSIM_DIFF_RESULT"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDifferential(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is not installed on this host: the differential suite compares against it")
	}
	dir := "corpus"
	if d := os.Getenv("SHELLSIM_CORPUS"); d != "" {
		dir = d // ad-hoc probes: SHELLSIM_CORPUS=/path/to/scripts go test -run TestDifferential
	}
	scripts, err := filepath.Glob(filepath.Join(dir, "*.sh"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no corpus scripts: %v", err)
	}
	sort.Strings(scripts)
	var failures []string
	for _, script := range scripts {
		abs, err := filepath.Abs(script)
		if err != nil {
			t.Fatal(err)
		}
		want := runBash(t, abs)
		got, stderr := runSim(t, abs)
		if got == want {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "--- %s\n", filepath.Base(script))
		if got.status != want.status {
			fmt.Fprintf(&b, "exit status: bash %d, shellsim %d\n", want.status, got.status)
		}
		if got.stdout != want.stdout {
			b.WriteString(lineDiff(want.stdout, got.stdout))
		}
		if stderr != "" {
			fmt.Fprintf(&b, "shellsim stderr:\n%s", indent(stderr))
		}
		failures = append(failures, b.String())
	}
	passed := len(scripts) - len(failures)
	rate := float64(passed) / float64(len(scripts))
	for _, f := range failures {
		t.Log("\n" + f)
	}
	t.Logf("differential pass rate: %d/%d = %.1f%%", passed, len(scripts), 100*rate)
	if rate < minPassRate {
		t.Errorf("pass rate %.1f%% is below %.0f%%", 100*rate, 100*minPassRate)
	}
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for i, l := range lines {
		if l == "" || i >= 20 {
			break
		}
		b.WriteString("    " + l)
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

// lineDiff renders a minimal line diff (longest common subsequence):
// "-" lines are bash's, "+" lines ShellSim's.
func lineDiff(want, got string) string {
	a := strings.SplitAfter(want, "\n")
	b := strings.SplitAfter(got, "\n")
	if len(a) > 0 && a[len(a)-1] == "" {
		a = a[:len(a)-1]
	}
	if len(b) > 0 && b[len(b)-1] == "" {
		b = b[:len(b)-1]
	}
	const maxLines = 400
	if len(a) > maxLines || len(b) > maxLines {
		return fmt.Sprintf("stdout differs (%d vs %d lines; too long to diff)\n", len(a), len(b))
	}
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	show := func(prefix, line string) {
		if !strings.HasSuffix(line, "\n") {
			line = fmt.Sprintf("%q (no newline)\n", line)
		}
		out.WriteString(prefix + line)
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			show("  ", a[i])
			i++
			j++
		case j < len(b) && (i >= len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			show("+ ", b[j])
			j++
		default:
			show("- ", a[i])
			i++
		}
	}
	return out.String()
}
