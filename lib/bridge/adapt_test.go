package bridge

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/task"
)

func TestDecodeSpecDefaultsAndSources(t *testing.T) {
	s, err := DecodeSpec([]byte(`{"source":{"type":"HostImage","read_only":["/opt"],"bin_dirs":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Workdir != "/workspace" || s.Network != machine.NetworkDeny {
		t.Fatalf("defaults: %+v", s)
	}
	if h, ok := s.Source.(machine.HostImage); !ok || len(h.ReadOnly) != 1 || h.ReadOnly[0] != "/opt" {
		t.Fatalf("source: %#v", s.Source)
	}
	raw := `{"source":{"type":"PreparedImage","layout":"/l","manifest_digest":"sha256:abababababababababababababababababababababababababababababababab","source":{"type":"RegistryImage","reference":"busybox"}},"workdir":"","startup_timeout":1.5}`
	if s, err = DecodeSpec([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	p := s.Source.(machine.PreparedImage)
	if p.Origin.(machine.RegistryImage).Reference != "busybox" || s.Workdir != "" || s.StartupTimeout.Seconds() != 1.5 {
		t.Fatalf("prepared: %#v %+v", p, s)
	}
}

func TestDecodeSpecRefusesNamingTheField(t *testing.T) {
	for raw, want := range map[string][2]string{
		`{"source":{"type":"HostImage"},"cpus":0}`:                {"cpus", "cpus must be positive"},
		`{"source":{"type":"HostImage"},"cpus":"2"}`:              {"cpus", "cannot unmarshal"},
		`{"source":{"type":"HostImage"},"storage_mb":-1}`:         {"storage_mb", "storage_mb must be positive"},
		`{"source":{"type":"HostImage"},"workdir":"rel"}`:         {"workdir", "absolute"},
		`{"source":{"type":"HostImage"},"network":"maybe"}`:       {"network", "network policy"},
		`{"source":{"type":"HostImage"},"startup_timeout":0}`:     {"startup_timeout", "positive"},
		`{"source":{"type":"HostImage"},"startup_timeout":"NaN"}`: {"startup_timeout", "finite"},
		`{"source":{"type":"HostImage"},"startup_timeout":1e300}`: {"startup_timeout", "limit"},
		`{"source":{"type":"Nope"}}`:                              {"source", "unknown image source"},
		`{"source":{"type":"HostImage","read_only":"/x"}}`:        {"source", "cannot unmarshal"},
		`{}`: {"source", "needs an image source"},
		`{"source":{"type":"RegistryImage","reference":"http://x"}}`:                  {"source", "without a URL scheme"},
		`{"source":{"type":"PreparedImage","layout":"/l","manifest_digest":"md5:1"}}`: {"source", "sha256"},
	} {
		_, err := DecodeSpec([]byte(raw))
		var inv *machine.InvalidSpec
		if !errors.As(err, &inv) || inv.Field != want[0] || !strings.Contains(err.Error(), want[1]) || ErrorKind(err) != wire.KindValueError {
			t.Errorf("%s: got %v, want an invalid %s containing %q", raw, err, want[0], want[1])
		}
	}
}

func TestErrorHeaderCarriesTypedFacts(t *testing.T) {
	h := errorOf(&stoppedError{&machine.TerminatedError{Reason: "cpu_exhausted"}, "cpu_exhausted"})
	if h.Kind != wire.KindMachineTerminated || h.StopReason != wire.CPUExhausted {
		t.Fatalf("stopped: %+v", h)
	}
	h = errorOf(&machine.SandboxUnavailable{Backend: "local", Candidates: []machine.CandidateError{{Candidate: "bwrap", Error: "no"}}})
	if h.Kind != wire.KindSandboxUnavailable || len(h.Candidates) != 1 || h.Candidates[0] != (wire.Candidate{Candidate: "bwrap", Error: "no"}) {
		t.Fatalf("sandbox: %+v", h)
	}
	if h := errorOf(&machine.UnsupportedSpec{Field: "gpus"}); h.Kind != wire.KindUnsupportedMachineSpec || h.Field != "gpus" {
		t.Fatalf("unsupported: %+v", h)
	}
}

// TestReasonsMatchTheirSources: the wire's enums are the values the
// contract and ShellSim produce, cast as they cross.
func TestReasonsMatchTheirSources(t *testing.T) {
	for got, want := range map[wire.StopReason]wire.StopReason{
		wire.StopReason(resources.CPUExhausted):        wire.CPUExhausted,
		wire.StopReason(resources.MemoryExhausted):     wire.MemoryExhausted,
		wire.StopReason(resources.OutputLimitExceeded): wire.OutputLimitExceeded,
	} {
		if got != want {
			t.Errorf("stop reason %q is %q on the wire", got, want)
		}
	}
	if wire.ExitReason(machine.Exited) != wire.Exited || wire.ExitReason(machine.TimedOut) != wire.TimedOut {
		t.Error("exit reasons differ")
	}
	if wire.ShellStatus(shell.Running) != wire.ShellRunning || wire.ShellStatus(shell.Completed) != wire.ShellCompleted ||
		wire.ShellStatus(shell.Reset) != wire.ShellReset {
		t.Error("shell statuses differ")
	}
	for k := machine.KindOther; k <= machine.KindClosed; k++ {
		if kinds[k] == "" {
			t.Errorf("contract kind %d has no wire kind", k)
		}
	}
}

// decodeTask reads a task spec as create_task does.
func decodeTask(doc []byte) (task.Spec, error) {
	var w wire.TaskSpec
	if err := decode(doc, &w); err != nil {
		return task.Spec{}, err
	}
	return taskSpecOf(w)
}

func TestTaskSpecFromJSON(t *testing.T) {
	s, err := decodeTask([]byte(`{"primary":"agent","containers":[
		{"name":"agent","machine":{"source":{"type":"HostImage","read_only":[],"bin_dirs":[]}}},
		{"name":"web","machine":{"source":{"type":"HostImage","read_only":[],"bin_dirs":[]}},"command":["httpd"],
		 "endpoints":[{"name":"http","port":8080}],
		 "readiness":{"command":["true"],"timeout":1.5,"interval":0.25,"start_period":0,"attempts":3}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	web := s.Containers[1]
	if web.Endpoints[0].Protocol != "tcp" || web.Readiness.Timeout != 1500*time.Millisecond || web.Readiness.Interval != 250*time.Millisecond || web.Readiness.Attempts != 3 {
		t.Fatalf("decoded %+v %+v", web, web.Readiness)
	}
	for _, bad := range []struct{ doc, field string }{
		{`{"primary":"a","containers":[{"name":"a","machine":{"source":{"type":"HostImage"}},"readiness":{"command":["true"],"timeout":"NaN","interval":1}}]}`, "containers[0].readiness.timeout"},
		{`{"primary":"a","containers":[{"name":"a","machine":{"source":{"type":"HostImage"}},"readiness":{"command":["true"],"timeout":1,"interval":1,"attempts":0}}]}`, "containers[0].readiness.attempts"},
		{`{"primary":"a","containers":[{"name":"a","machine":{"source":{"type":"HostImage"}},"readiness":{"command":["true"],"timeout":-1,"interval":1}}]}`, "containers[0].readiness.timeout"},
	} {
		_, err := decodeTask([]byte(bad.doc))
		var inv *machine.InvalidSpec
		if !errors.As(err, &inv) || inv.Field != bad.field {
			t.Errorf("%s: %v, want field %s", bad.doc, err, bad.field)
		}
	}
}
