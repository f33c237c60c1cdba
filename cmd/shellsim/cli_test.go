package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	code := run(args, devnull, &out, &errb)
	return out.String(), errb.String(), code
}

func TestCLI(t *testing.T) {
	tests := []struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		{[]string{"-c", "echo hi; exit 3"}, "hi\n", "", 3},
		{[]string{"-c", `echo "$0 $1 $#"`, "name", "a", "b"}, "name a 2\n", "", 0},
		{[]string{"--cpu", "1k", "-c", "while :; do :; done"}, "", "", 137},
		{[]string{"--output=4", "-c", "echo hello"}, "hell", "", 137},
		{[]string{"--cpu", "junk", "-c", "true"}, "", "", 2},
		{[]string{"-c"}, "", "", 2},
		{[]string{"frobnicate"}, "", "", 2},
	}
	for _, tc := range tests {
		out, errs, code := runCLI(t, tc.args...)
		if out != tc.stdout || code != tc.code || (tc.code != 2 && errs != tc.stderr) {
			t.Errorf("%v: got %q %q %d", tc.args, out, errs, code)
		}
		if tc.code == 2 && !strings.Contains(errs, "usage:") {
			t.Errorf("%v: usage error without usage: %q", tc.args, errs)
		}
	}
}

func TestEvalReport(t *testing.T) {
	out, _, code := runCLI(t, "eval", "--memory", "64m", "-c", "ls /nope; echo done; nosuch")
	if code != 127 {
		t.Fatalf("code %d", code)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err, out)
	}
	for _, k := range []string{"outcome", "stdout", "stderr", "commands", "invocations", "unsupported", "unsupported_commands", "partial_commands"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
	o := rep["outcome"].(map[string]any)
	for _, k := range []string{"exit_status", "stop_reason", "limits", "usage", "command_usage", "cost_model_version"} {
		if _, ok := o[k]; !ok {
			t.Errorf("outcome lacks %q", k)
		}
	}
	u := o["usage"].(map[string]any)
	for _, k := range []string{"cpu_used", "memory_current", "memory_peak", "disk_current", "disk_peak", "output_bytes"} {
		if _, ok := u[k]; !ok {
			t.Errorf("usage lacks %q", k)
		}
	}
	inv := rep["invocations"].([]any)[0].(map[string]any)
	if inv["trust"] == nil || inv["argv"] == nil {
		t.Errorf("invocation %v", inv)
	}
	if o["limits"].(map[string]any)["memory"].(float64) != 64<<20 {
		t.Errorf("limits %v", o["limits"])
	}
}

// TestEvalReportPythonGitMake: python3, git and make work shows in the
// eval report like any command's (issue 15 §6).
func TestEvalReportPythonGitMake(t *testing.T) {
	src := "python3 -c 'print(1)'; python3 -c 'import numpy'; git init -q r; git -C r bisect start\n" +
		"printf 'all:\\n\\ttrue\\n' > Makefile; make -s; echo done"
	out, _, code := runCLI(t, "eval", "-c", src)
	if code != 0 {
		t.Fatalf("code %d: %s", code, out)
	}
	var rep struct {
		Outcome struct {
			Usage struct {
				MemoryPeak int64 `json:"memory_peak"`
			}
			CommandUsage []struct {
				Command string
				CPU     int64
			} `json:"command_usage"`
		}
		Invocations []struct {
			Argv              []string
			Trust             string
			CPU               int64
			UnsupportedReason string `json:"unsupported_reason"`
		}
		Unsupported     []string
		PartialCommands []string `json:"partial_commands"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err, out)
	}
	seen := map[string]int{}
	for _, inv := range rep.Invocations {
		if p := inv.Argv[0]; p == "python3" || p == "git" || p == "make" {
			seen[p]++
			if inv.Trust != "partial" {
				t.Errorf("invocation %+v: want trust partial", inv)
			}
		}
	}
	if seen["python3"] != 2 || seen["git"] != 2 || seen["make"] != 1 {
		t.Errorf("invocations %+v", rep.Invocations)
	}
	cpu := map[string]int64{}
	for _, u := range rep.Outcome.CommandUsage {
		cpu[u.Command] = u.CPU
	}
	if cpu["python3"] <= 0 || cpu["make"] <= 0 || rep.Outcome.Usage.MemoryPeak <= 0 {
		t.Errorf("usage %+v", rep.Outcome)
	}
	if strings.Join(rep.Unsupported, ",") != "python3 import numpy,git bisect" {
		t.Errorf("unsupported %v", rep.Unsupported)
	}
	if strings.Join(rep.PartialCommands, ",") != "git,make,python3" {
		t.Errorf("partial commands %v", rep.PartialCommands)
	}
}

func TestParseCount(t *testing.T) {
	for in, want := range map[string]int64{"10": 10, "1k": 1024, "2M": 2 << 20, "1g": 1 << 30} {
		if got, ok := parseCount(in); !ok || got != want {
			t.Errorf("%s: %d %v", in, got, ok)
		}
	}
	if _, ok := parseCount("1x"); ok {
		t.Error("1x accepted")
	}
}

func TestPythonProject(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/app.py", []byte("import sys\nfrom util import twice\nprint(twice(int(sys.argv[1])))\n"), 0o644)
	os.WriteFile(dir+"/util.py", []byte("def twice(x):\n    return 2 * x\n"), 0o644)
	os.WriteFile(dir+"/test_util.py", []byte("from util import twice\n\ndef test_twice():\n    assert twice(2) == 4\n\ndef test_bad():\n    assert twice(2) == 5\n"), 0o644)
	var out, errb strings.Builder
	if code := run([]string{"python", dir, "--entry", "app.py", "--", "21"}, nil, &out, &errb); code != 0 || out.String() != "42\n" {
		t.Fatalf("entry: code %d out %q err %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"python", dir, "--pytest", "--", "-q"}, nil, &out, &errb); code != 1 || !strings.Contains(out.String(), "1 failed, 1 passed") {
		t.Fatalf("pytest: code %d out %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"python", dir + "/app.py", "5"}, nil, &out, &errb); code != 0 || out.String() != "10\n" {
		t.Fatalf("file: code %d out %q err %q", code, out.String(), errb.String())
	}
}
