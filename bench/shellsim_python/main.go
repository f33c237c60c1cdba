// Command shellsim_python measures ShellSim's Python, pytest and git against
// the host's CPython and git: a 200k-iteration loop, a 1 MiB JSON round
// trip, a 50-test pytest file (wall time including CPython's start-up) and
// committing 100 files.
//
//	go run ./bench/shellsim_python [-python python3.13] [-pytest-python python-with-pytest]
//
// Both default to $SHELLBOX_CPYTHON313 when it is set (.ci/cpython313.sh
// prints a CPython 3.13 with pytest).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

const loopSrc = `total = 0
for i in range(200000):
    total += i * 2 % 7
print(total)
`

const jsonSrc = `import json
data = [{"id": i, "name": "item%d" % i, "tags": ["a", "b"], "score": i * 0.5} for i in range(9000)]
s = json.dumps(data)
back = json.loads(s)
print(len(s) >= 1 << 20, back == data)
`

func pytestSrc() string {
	var b strings.Builder
	b.WriteString("import pytest\n\n@pytest.fixture\ndef base():\n    return list(range(10))\n\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "def test_case_%d(base):\n    assert sum(base) + %d == %d\n\n", i, i, 45+i)
	}
	b.WriteString("@pytest.mark.parametrize('n', range(10))\ndef test_param(n):\n    assert n * n >= 0\n")
	return b.String()
}

const gitIdent = "export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.com\n"
const gitSetup = gitIdent + `git init -q -b main repo && cd repo
for i in $(seq 100); do printf 'file %s\n' "$i" > "f$i.txt"; done
cd ..
`
const gitCommit = gitIdent + "cd repo && git add . && git commit -q -m 'hundred files' && git log --oneline | wc -l\n"

func main() {
	defPy, defPyt := "/root/.pyenv/versions/3.13.0/bin/python3", "/tmp/py313/bin/python"
	if p := os.Getenv("SHELLBOX_CPYTHON313"); p != "" {
		defPy, defPyt = p, p
	}
	py := flag.String("python", defPy, "host CPython for the ratios")
	pyt := flag.String("pytest-python", defPyt, "host Python with pytest installed")
	flag.Parse()
	limits := shellsim.DefaultLimits()
	limits.CPU = 1 << 40
	limits.Memory = 512 << 20
	limits.Output = 64 << 20

	fmt.Printf("%-28s %12s %12s %8s %14s\n", "benchmark", "shellsim", "host", "ratio", "modeled CPU")
	row := func(name string, sim, host time.Duration, cpu int64) {
		ratio := "-"
		if host > 0 {
			ratio = fmt.Sprintf("%.2fx", float64(sim)/float64(host))
		}
		fmt.Printf("%-28s %12s %12s %8s %14d\n", name, sim.Round(time.Millisecond), host.Round(time.Millisecond), ratio, cpu)
	}
	for _, b := range []struct{ name, file, src, cmd string }{
		{"python loop 200k", "loop.py", loopSrc, "python3 loop.py"},
		{"json round trip 1 MiB", "json_rt.py", jsonSrc, "python3 json_rt.py"},
		{"pytest 50 tests", "test_bench.py", pytestSrc(), "python3 -m pytest -q test_bench.py"},
	} {
		env := shellsim.NewEnvironment(limits)
		env.WriteFile(b.file, []byte(b.src), 0o644)
		start := time.Now()
		r := env.Run(context.Background(), b.cmd, nil)
		sim := time.Since(start)
		env.Close()
		if r.Outcome.ExitStatus != 0 {
			fmt.Fprintf(os.Stderr, "%s failed in shellsim: %s%s\n", b.name, r.Stdout, r.Stderr)
		}
		host := hostRun(*py, *pyt, b.file, b.src, b.cmd)
		row(b.name, sim, host, r.Outcome.Usage.CPUUsed)
	}
	env := shellsim.NewEnvironment(limits)
	env.Run(context.Background(), gitSetup, nil)
	start := time.Now()
	r := env.Run(context.Background(), gitCommit, nil)
	sim := time.Since(start)
	if strings.TrimSpace(string(r.Stdout)) != "1" {
		fmt.Fprintf(os.Stderr, "git commit failed in shellsim: %s%s\n", r.Stdout, r.Stderr)
	}
	cpu := r.Outcome.Usage.CPUUsed
	env.Close()
	row("git add+commit 100 files", sim, hostGit(), cpu)
}

func hostRun(py, pyt, file, src, cmd string) time.Duration {
	dir, _ := os.MkdirTemp("", "pybench")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644)
	bin := py
	args := []string{file}
	if strings.Contains(cmd, "pytest") {
		bin = pyt
		args = []string{"-m", "pytest", "-q", "-p", "no:cacheprovider", file}
	}
	if _, err := os.Stat(bin); err != nil {
		fmt.Fprintf(os.Stderr, "%s: no host interpreter %s (set SHELLBOX_CPYTHON313=$(.ci/cpython313.sh))\n", file, bin)
		return 0
	}
	c := exec.Command(bin, args...)
	c.Dir = dir
	start := time.Now()
	if out, err := c.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "%s under %s: %v\n%s", file, bin, err, out)
		return 0
	}
	return time.Since(start)
}

func hostGit() time.Duration {
	if _, err := exec.LookPath("git"); err != nil {
		return 0
	}
	dir, _ := os.MkdirTemp("", "gitbench")
	defer os.RemoveAll(dir)
	env := append(os.Environ(), "HOME="+dir)
	setup := exec.Command("bash", "-c", gitSetup)
	setup.Dir, setup.Env = dir, env
	if setup.Run() != nil {
		return 0
	}
	c := exec.Command("bash", "-c", gitCommit)
	c.Dir, c.Env = dir, env
	start := time.Now()
	if c.Run() != nil {
		return 0
	}
	return time.Since(start)
}
