package machine

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSpecDefaultsAndSources(t *testing.T) {
	var s Spec
	if err := json.Unmarshal([]byte(`{"source":{"type":"HostImage","read_only":["/opt"],"bin_dirs":[]}}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Workdir != "/workspace" || s.Network != NetworkDeny {
		t.Fatalf("defaults: %+v", s)
	}
	if h, ok := s.Source.(HostImage); !ok || len(h.ReadOnly) != 1 || h.ReadOnly[0] != "/opt" {
		t.Fatalf("source: %#v", s.Source)
	}
	raw := `{"source":{"type":"PreparedImage","layout":"/l","manifest_digest":"sha256:abababababababababababababababababababababababababababababababab","source":{"type":"RegistryImage","reference":"busybox"}},"workdir":"","startup_timeout":1.5}`
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	p := s.Source.(PreparedImage)
	if p.Origin.(RegistryImage).Reference != "busybox" || s.Workdir != "" || s.StartupTimeout.Seconds() != 1.5 {
		t.Fatalf("prepared: %#v %+v", p, s)
	}
}

func TestSpecRejectsInvalidValues(t *testing.T) {
	for raw, want := range map[string]string{
		`{"source":{"type":"HostImage"},"cpus":0}`:                   "cpus must be positive",
		`{"source":{"type":"HostImage"},"storage_mb":-1}`:            "storage_mb must be positive",
		`{"source":{"type":"HostImage"},"gpus":-1}`:                  "gpus must not be negative",
		`{"source":{"type":"HostImage"},"workdir":"rel"}`:            "absolute",
		`{"source":{"type":"HostImage"},"network":"maybe"}`:          "network policy",
		`{"source":{"type":"Nope"}}`:                                 "unknown image source",
		`{}`:                                                         "needs an image source",
		`{"source":{"type":"RegistryImage","reference":""}}`:         "without a URL scheme",
		`{"source":{"type":"RegistryImage","reference":"http://x"}}`: "without a URL scheme",
	} {
		var s Spec
		err := json.Unmarshal([]byte(raw), &s)
		if err == nil || !strings.Contains(err.Error(), want) || ErrorKind(err) != "ValueError" {
			t.Errorf("%s: got %v, want ValueError containing %q", raw, err, want)
		}
	}
}

func TestCommandValidate(t *testing.T) {
	if err := (Command{}).Validate(); err == nil || !strings.Contains(err.Error(), "argv") {
		t.Fatalf("empty argv: %v", err)
	}
	if err := (Command{Argv: []string{"x"}, Cwd: "rel"}).Validate(); err == nil {
		t.Fatal("relative cwd accepted")
	}
	if err := (Command{Argv: []string{"x"}}).Validate(); err != nil {
		t.Fatal(err)
	}
}
