package shellsimbackend

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/machine"
)

// TestAllowlistKeepsOnlyAllowedRoutes: the routes of allowed hosts answer,
// every other host is unreachable, and each request is a decision record.
func TestAllowlistKeepsOnlyAllowedRoutes(t *testing.T) {
	log := filepath.Join(t.TempDir(), "decisions.jsonl")
	options := `{"routes":[
		{"pattern":"http://pkg.example.test/simple","body":"aW5kZXg="},
		{"pattern":"http://evil.example.net/x","body":"c2VjcmV0"},
		{"pattern":"http://a.mirror.example.test/*","body":"bWlycm9y"}]}`
	spec := fmt.Sprintf(`{"source":{"type":"ShellSimBuiltins"},"network":"allowlist",
		"allowed_hosts":["pkg.example.test","*.mirror.example.test"],"egress_log":%q}`, log)
	m := newTestMachine(t, options, spec)
	fetch := func(url string) machine.Result {
		return run(t, m, machine.Command{Argv: []string{"sh", "-c", "curl -s " + url}})
	}
	if r := fetch("http://pkg.example.test/simple"); code(r) != 0 || string(r.Stdout) != "index" {
		t.Fatalf("allowed host: %d %q %q", code(r), r.Stdout, r.Stderr)
	}
	if r := fetch("http://a.mirror.example.test/p"); code(r) != 0 || string(r.Stdout) != "mirror" {
		t.Fatalf("allowed by wildcard: %d %q %q", code(r), r.Stdout, r.Stderr)
	}
	if r := fetch("http://evil.example.net/x"); code(r) == 0 || strings.Contains(string(r.Stdout), "secret") {
		t.Fatalf("unlisted host: %d %q", code(r), r.Stdout)
	}
	m.Close(context.Background())
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r egress.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Machine == "" || r.Reason == "" || r.Event != egress.EventDecision {
			t.Errorf("incomplete record %+v", r)
		}
		got[r.Name] = r.Verdict
	}
	want := map[string]string{"pkg.example.test": egress.Allow, "a.mirror.example.test": egress.Allow, "evil.example.net": egress.Block}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q (records %v)", k, got[k], v, got)
		}
	}
}

func code(r machine.Result) int {
	if r.ExitCode == nil {
		return -1
	}
	return *r.ExitCode
}
