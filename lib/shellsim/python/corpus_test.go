package python_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// The differential corpus: testdata/corpus/NAME.py run by ShellSim's python3
// must produce the stdout, exit status and final stderr line recorded in
// NAME.golden, which CPython 3.13 produced (regenerate with
// PYTHON_HOST=/path/to/python3.13 go test -run TestCorpusRegenerate).
// test_*.py scripts run under python3 -m pytest -q. Scripts listed in
// testdata/corpus/UNSUPPORTED (name: reason) are known differences.

const corpusArgs = "alpha beta"
const corpusStdin = "first line\nsecond line\n"

var durationRE = regexp.MustCompile(`in [0-9]+\.[0-9]+s`)

func corpusCommand(name string) []string {
	if strings.HasPrefix(name, "test_") {
		return []string{"python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", name + ".py"}
	}
	return append([]string{"python3", name + ".py"}, strings.Fields(corpusArgs)...)
}

// normalize keeps what is stable across implementations: stdout with
// durations masked, the exit status, and the last stderr line.
func normalize(stdout, stderr string, status int) string {
	stdout = durationRE.ReplaceAllString(stdout, "in X.XXs")
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
	r := env.Run(context.Background(), strings.Join(corpusCommand(name), " "), []byte(corpusStdin))
	return normalize(string(r.Stdout), string(r.Stderr), r.Outcome.ExitStatus)
}

func TestCorpus(t *testing.T) {
	unsupported := unsupportedCorpus(t)
	names := corpusNames(t)
	pass := 0
	for _, name := range names {
		want, err := os.ReadFile("testdata/corpus/" + name + ".golden")
		if err != nil {
			t.Errorf("%s: no golden file", name)
			continue
		}
		got := runCorpus(t, name)
		if got == string(want) {
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
		t.Errorf("%s differs from CPython 3.13:\n--- got ---\n%s--- want ---\n%s", name, got, want)
	}
	t.Logf("corpus: %d/%d scripts identical to CPython 3.13 (%.1f%%)", pass, len(names), 100*float64(pass)/float64(len(names)))
}

// TestCorpusRegenerate writes the golden files from a host CPython. It runs
// only when PYTHON_HOST names the interpreter (with pytest installed).
func TestCorpusRegenerate(t *testing.T) {
	host := os.Getenv("PYTHON_HOST")
	if host == "" {
		t.Skip("set PYTHON_HOST to regenerate goldens from CPython")
	}
	for _, name := range corpusNames(t) {
		dir := t.TempDir()
		src, _ := os.ReadFile("testdata/corpus/" + name + ".py")
		os.WriteFile(filepath.Join(dir, name+".py"), src, 0o644)
		args := corpusCommand(name)
		cmd := exec.Command(host, args[1:]...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=/root", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1"}
		cmd.Stdin = strings.NewReader(corpusStdin)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		status := 0
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				status = ee.ExitCode()
			} else {
				t.Fatal(err)
			}
		}
		stdout := strings.ReplaceAll(out.String(), dir+"/", "")
		stdout = strings.ReplaceAll(stdout, dir, "/work")
		if err := os.WriteFile("testdata/corpus/"+name+".golden", []byte(normalize(stdout, errb.String(), status)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
