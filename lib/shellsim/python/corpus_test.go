package python_test

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// The differential corpus: testdata/corpus/NAME.py run by ShellSim's python3
// must produce what CPython 3.13 produces: stdout, the exit status and the
// last stderr line. TestCorpus runs CPython 3.13 live when
// SHELLBOX_CPYTHON313 names it (.ci/cpython313.sh prints one with pytest
// installed), and checks that NAME.golden, CPython's recorded output, is
// still what CPython prints (rewrite stale goldens with
// go test -run 'TestCorpus$' -update-goldens). Without it the goldens stand
// in for CPython. test_*.py scripts run under python3 -m pytest -q. Scripts
// listed in testdata/corpus/UNSUPPORTED (name: reason) are known differences.

var updateGoldens = flag.Bool("update-goldens", false, "rewrite testdata/corpus/*.golden from the live CPython named by SHELLBOX_CPYTHON313")

const corpusArgs = "alpha beta"
const corpusStdin = "first line\nsecond line\n"

var (
	durationRE = regexp.MustCompile(`in [0-9]+\.[0-9]+s`)
	// Default reprs carry the object's address, which differs between any
	// two CPython runs.
	addressRE = regexp.MustCompile(` object at 0x[0-9a-f]+>`)
)

func corpusCommand(name string) []string {
	if strings.HasPrefix(name, "test_") {
		return []string{"python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", name + ".py"}
	}
	return append([]string{"python3", name + ".py"}, strings.Fields(corpusArgs)...)
}

// normalize keeps what is stable across implementations and runs: stdout
// with durations and object addresses masked, the exit status, and the last stderr line.
func normalize(stdout, stderr string, status int) string {
	stdout = durationRE.ReplaceAllString(stdout, "in X.XXs")
	stdout = addressRE.ReplaceAllString(stdout, " object at 0x...>")
	last := ""
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if len(lines) > 0 {
		last = lines[len(lines)-1]
	}
	return stdout + "--- stderr (last line) ---\n" + last + "\n--- exit " + itoa(status) + " ---\n"
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func corpusNames(t *testing.T) []string {
	files, err := filepath.Glob("testdata/corpus/*.py")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".py"))
	}
	sort.Strings(names)
	return names
}

func unsupportedCorpus(t *testing.T) map[string]string {
	out := map[string]string{}
	f, err := os.Open("testdata/corpus/UNSUPPORTED")
	if err != nil {
		return out
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		name, reason, ok := strings.Cut(s.Text(), ": ")
		if ok && !strings.HasPrefix(name, "#") {
			out[name] = reason
		}
	}
	return out
}

func runCorpus(t *testing.T, name string) string {
	src, err := os.ReadFile("testdata/corpus/" + name + ".py")
	if err != nil {
		t.Fatal(err)
	}
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	if err := env.WriteFile(name+".py", src, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), scriptDeadline)
	defer cancel()
	r := env.Run(ctx, strings.Join(corpusCommand(name), " "), []byte(corpusStdin))
	if ctx.Err() != nil {
		t.Errorf("%s: ShellSim's run did not end within %v", name, scriptDeadline)
	}
	return normalize(string(r.Stdout), string(r.Stderr), r.Outcome.ExitStatus)
}

// scriptDeadline bounds one script's run, ShellSim's or CPython's; the
// scripts take well under a second, the bound is for a loaded machine.
const scriptDeadline = 2 * time.Minute

const cpythonHowTo = "export SHELLBOX_CPYTHON313=$(.ci/cpython313.sh) (it finds CPython 3.13 and makes a venv with pytest)"

// TestCorpus compares ShellSim with CPython 3.13 over the corpus: live when
// SHELLBOX_CPYTHON313 is set (and then the goldens must equal the live
// output), against the goldens otherwise; CI (SHELLBOX_CI=1) must run live.
func TestCorpus(t *testing.T) {
	names := corpusNames(t)
	unsupported := unsupportedCorpus(t)
	for name := range unsupported {
		if _, err := os.Stat("testdata/corpus/" + name + ".py"); err != nil {
			t.Errorf("UNSUPPORTED names %s, which is not in the corpus", name)
		}
	}
	var live map[string]string
	source := "CPython 3.13 (goldens)"
	switch host := os.Getenv("SHELLBOX_CPYTHON313"); {
	case host != "":
		checkCPython313(t, host)
		start := time.Now()
		live = runCPythonCorpus(t, host, names)
		source = "CPython 3.13 (live, " + host + ")"
		t.Logf("CPython 3.13 ran %d scripts live in %.1fs", len(names), time.Since(start).Seconds())
	case os.Getenv("SHELLBOX_CI") == "1":
		t.Fatalf("SHELLBOX_CI=1 but SHELLBOX_CPYTHON313 is unset: CI compares the corpus with a live CPython 3.13; %s", cpythonHowTo)
	default:
		if *updateGoldens {
			t.Fatalf("-update-goldens needs a live CPython: %s", cpythonHowTo)
		}
		t.Logf("SHELLBOX_CPYTHON313 is unset: comparing with the goldens recorded from CPython 3.13, not with a live run; %s", cpythonHowTo)
	}

	pass := 0
	for _, name := range names {
		golden, err := os.ReadFile("testdata/corpus/" + name + ".golden")
		if err != nil && !*updateGoldens {
			t.Errorf("%s: no golden file", name)
			continue
		}
		want := string(golden)
		if live != nil {
			want = live[name]
			if *updateGoldens {
				if err := os.WriteFile("testdata/corpus/"+name+".golden", []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if string(golden) != want {
				t.Errorf("%s: stale golden: live CPython now prints\n%s--- golden ---\n%s(rewrite with -update-goldens)", name, want, golden)
			}
		}
		got := runCorpus(t, name)
		if got == want {
			pass++
			if reason, ok := unsupported[name]; ok {
				t.Errorf("%s now matches CPython; remove it from UNSUPPORTED (%s)", name, reason)
			}
			continue
		}
		if reason, ok := unsupported[name]; ok {
			t.Logf("%s: known difference: %s", name, reason)
			continue
		}
		t.Errorf("%s differs from %s:\n--- got ---\n%s--- want ---\n%s", name, source, got, want)
	}
	t.Logf("corpus: %d/%d scripts identical to %s (%.1f%%)", pass, len(names), source, 100*float64(pass)/float64(len(names)))
	if len(names) < 200 || pass*100 < 95*len(names) {
		t.Errorf("corpus target is >= 200 scripts, >= 95%% identical: %d/%d", pass, len(names))
	}
}

// checkCPython313 fails unless host is CPython 3.13 with the pytest version
// ShellSim's pytest reports, the one the goldens were recorded with.
func checkCPython313(t *testing.T, host string) {
	t.Helper()
	const probe = "import sys, pytest; print(sys.implementation.name, *sys.version_info[:2], pytest.__version__)"
	ctx, cancel := context.WithTimeout(context.Background(), scriptDeadline)
	defer cancel()
	out, err := exec.CommandContext(ctx, host, "-c", probe).Output()
	if err != nil {
		t.Fatalf("SHELLBOX_CPYTHON313=%s: probing it for CPython 3.13 with pytest failed: %v (%s)", host, err, cpythonHowTo)
	}
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	r := env.Run(ctx, "python3 -c 'import pytest; print(pytest.__version__)'", nil)
	want := "cpython 3 13 " + strings.TrimSpace(string(r.Stdout))
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("SHELLBOX_CPYTHON313=%s reports %q, want %q (implementation, version, pytest); %s", host, got, want, cpythonHowTo)
	}
}

// runCPythonCorpus runs every script under the host interpreter, each in its
// own temporary directory, two at a time (CI machines have two cores), and
// returns the normalized outputs by name.
func runCPythonCorpus(t *testing.T, host string, names []string) map[string]string {
	t.Helper()
	results := make([]string, len(names))
	errs := make([]error, len(names))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = runCPython(host, names[i], t.TempDir())
			}
		}()
	}
	for i := range names {
		next <- i
	}
	close(next)
	wg.Wait()
	out := map[string]string{}
	for i, name := range names {
		if errs[i] != nil {
			t.Fatalf("%s under CPython: %v", name, errs[i])
		}
		out[name] = results[i]
	}
	return out
}

func runCPython(host, name, dir string) (string, error) {
	src, err := os.ReadFile("testdata/corpus/" + name + ".py")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".py"), src, 0o644); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), scriptDeadline)
	defer cancel()
	args := corpusCommand(name)
	cmd := exec.CommandContext(ctx, host, args[1:]...)
	cmd.Dir = dir
	// ShellSim's environment as far as the scripts can see it: HOME and
	// the shell's cwd /work (mapped below) are read, never written.
	cmd.Env = []string{"HOME=/root", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1"}
	cmd.Stdin = strings.NewReader(corpusStdin)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	status := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		switch {
		case ctx.Err() != nil:
			return "", errors.New("did not end within " + scriptDeadline.String())
		case errors.As(err, &ee) && ee.ExitCode() >= 0:
			status = ee.ExitCode()
		default:
			return "", err
		}
	}
	out := strings.ReplaceAll(stdout.String(), dir+"/", "")
	out = strings.ReplaceAll(out, dir, "/work")
	return normalize(out, stderr.String(), status), nil
}
