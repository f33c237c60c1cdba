package python_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

func runEnv(t *testing.T, l shellsim.Limits, files map[string]string, src string) shellsim.Result {
	t.Helper()
	env := shellsim.NewEnvironment(l)
	defer env.Close()
	for p, c := range files {
		if err := env.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	r := env.Run(context.Background(), src, nil)
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("%q took %v of host time", src, d)
	}
	return r
}

func stopReason(r shellsim.Result) string {
	if r.Outcome.StopReason == nil {
		return ""
	}
	return *r.Outcome.StopReason
}

const verifier = `import json
import os
import subprocess
from pathlib import Path

import pytest


@pytest.fixture
def workdir(tmp_path):
    (tmp_path / "in.txt").write_text("3\n1\n2\n")
    return tmp_path


def test_output_file_exists():
    assert Path("/work/out.json").exists(), "out.json missing"


def test_output_content():
    data = json.loads(Path("/work/out.json").read_text())
    assert data["total"] == 6
    assert sorted(data["items"]) == [1, 2, 3]


def test_sort_command(workdir):
    r = subprocess.run(["sort", "-n", str(workdir / "in.txt")], capture_output=True, text=True)
    assert r.returncode == 0
    assert r.stdout.split() == ["1", "2", "3"]


@pytest.mark.parametrize("n,expected", [(1, 1), (2, 4), (3, 9)])
def test_square(n, expected):
    assert n * n == expected


def test_wrong_total():
    data = json.loads(Path("/work/out.json").read_text())
    assert data["total"] == 7
`

// TestPytestVerifier runs a Harbor-style verifier through python3 -m pytest
// inside ShellSim: the exit code and summary are pytest's.
func TestPytestVerifier(t *testing.T) {
	files := map[string]string{"tests/test_outputs.py": verifier, "out.json": `{"total": 6, "items": [3, 1, 2]}`}
	r := runEnv(t, shellsim.DefaultLimits(), files, `python3 -m pytest tests/test_outputs.py -rA --ctrf /logs/verifier/ctrf.json; echo "exit=$?"; python3 -c 'import json; s = json.load(open("/logs/verifier/ctrf.json"))["results"]["summary"]; print("ctrf", s["tests"], s["passed"], s["failed"])'`)
	out := string(r.Stdout)
	for _, want := range []string{
		"collected 7 items",
		"tests/test_outputs.py ......F",
		"PASSED tests/test_outputs.py::test_square[2-4]",
		"FAILED tests/test_outputs.py::test_wrong_total - assert 6 == 7",
		"E       assert 6 == 7",
		"1 failed, 6 passed in",
		"exit=1",
		"ctrf 7 6 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s\nstderr:\n%s", want, out, r.Stderr)
		}
	}
	// Passing run: exit 0; deselecting everything: exit 5; bad option: exit 4.
	r = runEnv(t, shellsim.DefaultLimits(), files, `pytest -q tests/test_outputs.py -k 'not wrong'; echo "exit=$?"; pytest -q tests -k nothing_matches; echo "exit=$?"; pytest --no-such-flag tests; echo "exit=$?"`)
	out = string(r.Stdout)
	for _, want := range []string{"6 passed, 1 deselected in", "exit=0", "exit=5", "exit=4"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s\nstderr:\n%s", want, out, r.Stderr)
		}
	}
	if !strings.Contains(string(r.Stderr), "unrecognized arguments: --no-such-flag") {
		t.Errorf("stderr: %s", r.Stderr)
	}
}

// TestPythonResourceStops: runaway scripts end with the typed stop reason,
// deep recursion is a Python RecursionError, and the host stays bounded.
func TestPythonResourceStops(t *testing.T) {
	def := shellsim.DefaultLimits()
	tests := []struct {
		name, src, reason string
		status            int
		stderr            string
	}{
		{"infinite-loop", "python3 -c 'while True: pass'", "cpu_exhausted", 137, ""},
		{"list-bomb", "python3 -c 'x = []\nwhile True: x.append([0] * 1000)'", "memory_exhausted", 137, ""},
		{"string-bomb", "python3 -c 's = \"x\" * (10**10)'", "memory_exhausted", 137, ""},
		{"doubling", "python3 -c 's = \"x\"\nwhile True: s += s'", "memory_exhausted", 137, ""},
		{"recursion", "python3 -c 'def f(n): return f(n+1)\nf(0)'", "", 1, "RecursionError: maximum recursion depth exceeded"},
		{"print-flood", "python3 -c 'while True: print(\"y\" * 100)'", "output_limit_exceeded", 137, ""},
		{"big-int", "python3 -c 'x = 10**(10**9)'", "", 1, "MemoryError"},
		{"deep-nesting", "python3 -c 'a = []\nfor i in range(200000): a = [a]\nprint(len(repr(a)))'", "", 1, "RecursionError: maximum recursion depth exceeded while getting the repr of an object"},
		{"generators", "python3 -c 'gs = [(i for i in range(3)) for _ in range(10)]\ndef g():\n  yield 1\n  yield 2\nhs = [g() for _ in range(100000)]\nfor h in hs: next(h)'", "", 1, "MemoryError"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runEnv(t, def, nil, tc.src)
			if stopReason(r) != tc.reason || r.Outcome.ExitStatus != tc.status || !strings.Contains(string(r.Stderr), tc.stderr) {
				t.Fatalf("reason=%q status=%d stderr=%q", stopReason(r), r.Outcome.ExitStatus, r.Stderr)
			}
			u := r.Outcome.Usage
			if u.CPUUsed > def.CPU || u.MemoryPeak > def.Memory || u.OutputBytes > def.Output {
				t.Fatalf("over limit: %+v", u)
			}
		})
	}
}

// TestPythonTelemetry: python3 appears in the invocation log with its trust
// level, and an unsupported module is reported.
func TestPythonTelemetry(t *testing.T) {
	r := runEnv(t, shellsim.DefaultLimits(), nil, `python3 -c 'import numpy'; python3 -c 'async def f(): pass'`)
	if r.Outcome.ExitStatus != 1 || !strings.Contains(string(r.Stderr), "ModuleNotFoundError: No module named 'numpy'") ||
		!strings.Contains(string(r.Stderr), "SyntaxError: async functions and statements are not supported") {
		t.Fatalf("status %d stderr %q", r.Outcome.ExitStatus, r.Stderr)
	}
	for _, want := range []string{"import numpy", "syntax: async functions"} {
		found := false
		for _, u := range r.Unsupported {
			if strings.Contains(u, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q not in unsupported = %v", want, r.Unsupported)
		}
	}
	if len(r.Invocations) == 0 || r.Invocations[0].Argv[0] != "python3" || r.Invocations[0].Trust != "partial" {
		t.Errorf("invocations = %+v", r.Invocations)
	}
}

// TestPythonShellIntegration: shebang scripts, pipes, stdin and files.
func TestPythonShellIntegration(t *testing.T) {
	files := map[string]string{
		"tool.py":         "#!/usr/bin/env python3\nimport sys\nfor line in sys.stdin:\n    print(line.strip().upper())\nsys.exit(3)\n",
		"pkg/__init__.py": "",
		"pkg/util.py":     "def double(x):\n    return 2 * x\n",
		"main.py":         "from pkg.util import double\nimport sys\nprint(double(int(sys.argv[1])))\n",
	}
	r := runEnv(t, shellsim.DefaultLimits(), files, `chmod +x tool.py; printf 'a\nb\n' | ./tool.py; echo "st=$?"; python3 main.py 21; echo 'print(6*7)' | python3; python3 --version`)
	want := "A\nB\nst=3\n42\n42\nPython 3.13.0\n"
	if string(r.Stdout) != want {
		t.Fatalf("stdout %q want %q; stderr %q", r.Stdout, want, r.Stderr)
	}
}

// TestHarborStyleTestScript runs the shape of a Harbor verifier script:
// a uv virtual environment, pip installing pytest, uv run pytest, and a
// reward file written from the exit status.
func TestHarborStyleTestScript(t *testing.T) {
	files := map[string]string{
		"tests/test_outputs.py": "from pathlib import Path\n\ndef test_hello():\n    assert Path('/work/hello.txt').read_text() == 'hi\\n'\n",
		"hello.txt":             "hi\n",
		"tests/test.sh": `#!/bin/bash
uv venv .tbench-testing
source .tbench-testing/bin/activate
uv pip install pytest==8.4.1
uv run pytest /work/tests/test_outputs.py -rA
if [ $? -eq 0 ]; then echo 1 > reward.txt; else echo 0 > reward.txt; fi
`,
	}
	r := runEnv(t, shellsim.DefaultLimits(), files, `bash tests/test.sh; cat reward.txt; pip install numpy; echo pip=$?; python3 -m pip list | grep -c pytest`)
	out := string(r.Stdout)
	for _, want := range []string{"Requirement already satisfied: pytest", "PASSED tests/test_outputs.py::test_hello", "1 passed in", "\n1\npip=1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in stdout:\n%s\nstderr:\n%s", want, out, r.Stderr)
		}
	}
	found := false
	for _, u := range r.Unsupported {
		if strings.Contains(u, "install numpy") {
			found = true
		}
	}
	if !found {
		t.Errorf("unsupported = %v", r.Unsupported)
	}
}

// TestPythonArchives: tarfile, zipfile and gzip read what ShellSim's tar,
// zip and gzip write, and unzip reads what zipfile writes.
func TestPythonArchives(t *testing.T) {
	r := runEnv(t, shellsim.DefaultLimits(), nil, `mkdir -p src && echo hello > src/a.txt && echo world > src/b.txt
tar czf arch.tgz src && zip -qr arch.zip src && gzip -k src/a.txt
python3 -c '
import tarfile, zipfile, gzip
with tarfile.open("arch.tgz", "r:gz") as t:
    print(sorted(t.getnames()), t.extractfile("src/a.txt").read())
z = zipfile.ZipFile("arch.zip")
print(sorted(z.namelist()), z.read("src/b.txt"))
print(gzip.open("src/a.txt.gz").read(), gzip.decompress(gzip.compress(b"xyz")))
with zipfile.ZipFile("new.zip", "w") as nz:
    nz.writestr("inner/x.txt", "data")
'
unzip -p new.zip inner/x.txt`)
	want := "['src/', 'src/a.txt', 'src/b.txt'] b'hello\\n'\n['src/', 'src/a.txt', 'src/b.txt'] b'world\\n'\nb'hello\\n' b'xyz'\ndata"
	if string(r.Stdout) != want {
		t.Fatalf("stdout %q\nwant %q\nstderr %q", r.Stdout, want, r.Stderr)
	}
}

// TestPytestIni: pytest.ini's addopts and testpaths apply, as in pytest.
func TestPytestIni(t *testing.T) {
	files := map[string]string{
		"proj/pytest.ini":          "[pytest]\naddopts = -q\ntestpaths = tests\n",
		"proj/tests/test_a.py":     "def test_a():\n    assert 1\n",
		"proj/test_outside.py":     "def test_zzz():\n    assert 0\n",
		"proj2/pyproject.toml":     "[project]\nname = \"x\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"t\"]\n",
		"proj2/t/test_b.py":        "def test_b():\n    assert 2 == 2\n",
		"proj2/other/test_skip.py": "def test_never():\n    assert 0\n",
	}
	r := runEnv(t, shellsim.DefaultLimits(), files, `cd proj && pytest; echo "exit=$?"; cd ../proj2 && pytest | head -6; echo "exit=$?"`)
	out := string(r.Stdout)
	for _, want := range []string{"1 passed in", "exit=0", "rootdir: /work/proj2\nconfigfile: pyproject.toml\ntestpaths: t\ncollected 1 item"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s\nstderr %s", want, out, r.Stderr)
		}
	}
}
