// Package shellsimharness tests scenario replay on the scenario files in
// tests/shellsim/scenarios, and the serve and replay CLIs end to end.
package shellsimharness

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
	"github.com/shellbox/shellbox/lib/shellsim/harness"
)

const scenarios = "../shellsim/scenarios"

func replay(t *testing.T, file string, opts harness.ReplayOptions) (int, []map[string]any, string) {
	t.Helper()
	f, err := os.Open(filepath.Join(scenarios, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if opts.Server.Limits == (shellsim.Limits{}) {
		opts.Server.Limits = shellsim.DefaultLimits()
	}
	var out, errb bytes.Buffer
	code := harness.Replay(f, opts, &out, &errb)
	var recs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("transcript line %q: %v", l, err)
		}
		recs = append(recs, m)
	}
	return code, recs, errb.String()
}

func TestPassingScenarios(t *testing.T) {
	for _, name := range []string{"basic.ndjson", "fork.ndjson", "fork-active.ndjson", "actions.ndjson", "errors.ndjson", "unsupported.ndjson"} {
		t.Run(name, func(t *testing.T) {
			code, recs, stderr := replay(t, name, harness.ReplayOptions{})
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for i, r := range recs {
				if a, ok := r["assertion"].(map[string]any); ok && a["passed"] != true {
					t.Errorf("record %d: %v", i, a)
				}
			}
		})
	}
}

func TestTranscriptShape(t *testing.T) {
	code, recs, _ := replay(t, "basic.ndjson", harness.ReplayOptions{})
	if code != 0 || len(recs) != 5 {
		t.Fatalf("exit %d, %d records", code, len(recs))
	}
	if recs[0]["kind"] != "scenario" || recs[4]["kind"] != "final" {
		t.Fatalf("%v / %v", recs[0], recs[4])
	}
	for i := 1; i <= 3; i++ {
		r := recs[i]
		if _, has := r["kind"]; has || r["sequence"] != float64(i-1) || r["request"] == nil || r["response"] == nil {
			t.Fatalf("record %d: %v", i, r)
		}
	}
	if resp := recs[1]["response"].(map[string]any); resp["id"] != 1.0 || resp["ok"] != true {
		t.Fatal(resp)
	}
	// Without a header: no scenario or final record, no assertion for bare lines.
	_, recs, _ = replay(t, "errors.ndjson", harness.ReplayOptions{})
	if len(recs) != 3 || recs[2]["assertion"] != nil || recs[0]["assertion"] == nil {
		t.Fatalf("%v", recs)
	}
}

func TestStrictAndFailedAssertions(t *testing.T) {
	code, recs, stderr := replay(t, "failing-strict.ndjson", harness.ReplayOptions{})
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"action 0 assertion failed", "action 1 assertion failed", "final assertion failed", "still active", "has an active action"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if recs[len(recs)-1]["assertion"].(map[string]any)["passed"] != false {
		t.Fatal(recs[len(recs)-1])
	}
}

func TestStrictFailsOnUnsupportedUse(t *testing.T) {
	code, _, stderr := replay(t, "strict-unsupported.ndjson", harness.ReplayOptions{})
	if code != 1 || !strings.Contains(stderr, "strict: unsupported use") || !strings.Contains(stderr, "strict: unsupported invocation") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestBadHeadersExitTwoBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	for name, header := range map[string]string{
		"version": `{"scenario":{"version":2,"strict":false}}`,
		"field":   `{"scenario":{"version":1,"strict":false,"extra":1}}`,
		"outer":   `{"scenario":{"version":1},"more":true}`,
		"final":   `{"scenario":{"version":1,"final_expectation":{"nope":1}}}`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(header+"\n"+`{"op":"execute","source":"echo ran > /work/ran"}`+"\n"), 0o644)
		f, _ := os.Open(p)
		var out, errb bytes.Buffer
		code := harness.Replay(f, harness.ReplayOptions{Server: harness.Options{Limits: shellsim.DefaultLimits()}}, &out, &errb)
		f.Close()
		if code != 2 || out.Len() != 0 {
			t.Errorf("%s: exit %d, out %q", name, code, out.String())
		}
	}
}

func TestRootAndTranscriptFile(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "names.txt"), []byte("x\n"), 0o644)
	out := filepath.Join(t.TempDir(), "t.ndjson")
	code, _, stderr := replay(t, "errors.ndjson", harness.ReplayOptions{Server: harness.Options{Root: root}, Transcript: out})
	if code != 0 {
		t.Fatal(stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil || bytes.Count(data, []byte("\n")) != 3 {
		t.Fatalf("%v %q", err, data)
	}
	ents, _ := os.ReadDir(filepath.Dir(out))
	if len(ents) != 1 {
		t.Fatalf("temporary left behind: %v", ents)
	}
	// Never overwritten.
	code, _, stderr = replay(t, "errors.ndjson", harness.ReplayOptions{Transcript: out})
	if code != 1 || !strings.Contains(stderr, "destination already exists") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, data) {
		t.Fatal("transcript replaced")
	}
	// --root with a symlink fails the import: exit 2.
	os.Symlink("/etc/passwd", filepath.Join(root, "link"))
	code, _, _ = replay(t, "errors.ndjson", harness.ReplayOptions{Server: harness.Options{Root: root}})
	if code != 2 {
		t.Fatalf("bad root: exit %d", code)
	}
}

// TestCLI runs the real binary: serve over a pipe and replay.
func TestCLI(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "shellsim")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/shellbox/shellbox/cmd/shellsim").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello\n"), 0o644)
	cmd := exec.Command(bin, "serve", "--root", root, "--cpu", "1m")
	cmd.Stdin = strings.NewReader(`{"id":1,"op":"execute","source":"cat hello.txt"}` + "\nbad\n" + `{"id":2,"op":"workspace_diff"}` + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"stdout_base64":"aGVsbG8K"`) || !strings.Contains(lines[0], `"cpu":1048576`) ||
		!strings.Contains(lines[1], `"ok":false`) || !strings.Contains(lines[2], `"changes":[]`) {
		t.Fatalf("%s", out)
	}
	tr := filepath.Join(t.TempDir(), "tr.ndjson")
	cmd = exec.Command(bin, "replay", filepath.Join(scenarios, "fork.ndjson"), "--transcript", tr)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(tr); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(bin, "replay", filepath.Join(scenarios, "failing-strict.ndjson"))
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("failing scenario: %v", err)
	}
	cmd = exec.Command(bin, "replay")
	if err := cmd.Run(); cmd.ProcessState.ExitCode() != 2 {
		t.Fatalf("usage: %v", err)
	}
}
