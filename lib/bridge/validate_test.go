package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

// recordMachine records what reaches the backend, and panics on request.
type recordMachine struct {
	mu        sync.Mutex
	runs      []machine.Command
	transfers int
}

type recordFactory struct{ m *recordMachine }

func (recordFactory) Backend() string                                           { return "bridge-record" }
func (recordFactory) CheckEnvironment(machine.Requirements, machine.Spec) error { return nil }
func (f recordFactory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	return f.m, nil
}

func (m *recordMachine) Run(ctx context.Context, c machine.Command) (machine.Result, error) {
	m.mu.Lock()
	m.runs = append(m.runs, c)
	m.mu.Unlock()
	if c.Argv[0] == "panic" {
		var nilMap map[string]int
		nilMap["boom"]++ // a real runtime panic, not a panic(string)
	}
	return machine.ExitedWith(0, nil, nil, false, false), nil
}
func (m *recordMachine) Upload(context.Context, string, string) error {
	m.transfers++
	return nil
}
func (m *recordMachine) Download(context.Context, string, string, machine.DownloadOptions) error {
	m.transfers++
	return nil
}
func (m *recordMachine) Close(context.Context) error { return nil }
func (m *recordMachine) OpenProcess(ctx context.Context, c machine.Command) (machine.Process, error) {
	return panicProcess{}, nil
}

// panicProcess panics in the goroutine the bridge starts to read stdout.
type panicProcess struct{}

func (panicProcess) Stdin() io.WriteCloser { return nil }
func (panicProcess) Stdout() io.Reader     { return panicReader{} }
func (panicProcess) Wait(context.Context) (machine.ProcessExit, error) {
	return machine.ProcessExit{}, nil
}
func (panicProcess) Close(context.Context) error { return nil }

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("read exploded") }

var recorded = &recordMachine{}

func init() {
	machine.Register("bridge-record", func(json.RawMessage) (machine.Factory, error) { return recordFactory{recorded}, nil })
}

func recordedMachine(t *testing.T) (*Bridge, uint64) {
	t.Helper()
	b := New()
	f := handleOf(t, call(t, b, 1, Root, "open_factory", `{"backend":"bridge-record"}`, nil))
	return b, handleOf(t, call(t, b, 2, f, "create", `{"source":{"type":"HostImage"}}`, nil))
}

func errorHeader(t *testing.T, err error) wire.Error {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	var h wire.Error
	if e := json.Unmarshal(EncodeError(err), &h); e != nil {
		t.Fatal(e)
	}
	return h
}

func TestBadInputIsRefusedBeforeTheBackend(t *testing.T) {
	b, m := recordedMachine(t)
	recorded.mu.Lock()
	recorded.runs, recorded.transfers = nil, 0 // what earlier tests (or -count runs) recorded
	recorded.mu.Unlock()
	big := `"` + strings.Repeat("x", 100_000) + `"`
	many := "[" + strings.TrimSuffix(strings.Repeat(big+",", 100), ",") + "]"
	for _, c := range []struct{ method, req, field, match string }{
		{"run", `{"argv":["echo","a\u0000b"]}`, "argv", "NUL"},
		{"run", "{\"argv\":[\"echo\",\"a\xffb\"]}", "argv", "UTF-8"},
		{"run", `{"argv":"echo hi"}`, "argv", "cannot unmarshal"},
		{"run", `{"argv":["x"],"env":{"A":"\u0000"}}`, "env", "NUL"},
		{"run", `{"argv":["x"],"env":{"A=B":"1"}}`, "env", "'='"},
		{"run", `{"argv":["x"],"cwd":"/a\u0000"}`, "cwd", "NUL"},
		{"run", `{"argv":["x"],"cwd":"rel"}`, "cwd", "absolute"},
		{"run", `{"argv":["x"],"user":"r\u0000"}`, "user", "NUL"},
		{"run", `{"argv":` + many + `}`, "argv", "limit of 1048576"},
		{"run", `{"argv":["x"],"timeout":"NaN"}`, "timeout", "finite"},
		{"run", `{"argv":["x"],"timeout":"Infinity"}`, "timeout", "finite"},
		{"run", `{"argv":["x"],"timeout":1e300}`, "timeout", "limit"},
		{"run", `{"argv":["x"],"timeout":0}`, "timeout", "positive"},
		{"run", `{"argv":["x"],"timeout":-1}`, "timeout", "positive"},
		{"run", `{"argv":["x"],"output_limit_bytes":-1}`, "output_limit_bytes", "negative"},
		{"run", `{"argv":["x"],"output_limit_bytes":1e300}`, "output_limit_bytes", "cannot unmarshal"},
		{"open_process", `{"argv":["x"],"env":{"A":"\u0000"}}`, "env", "NUL"},
		{"upload", `{"source":"/tmp/x","target":"/tmp/a\u0000b"}`, "target", "NUL"},
		{"upload", `{"source":"/tmp/x","target":"rel/a"}`, "target", "absolute"},
		{"upload", `{"source":"/tmp/x","target":"/w/../../etc/x"}`, "target", ".."},
		{"upload", `{"source":"/tmp/\u0000","target":"/w"}`, "source", "NUL"},
		{"download", `{"source":"/etc/\u0000","target":"/tmp/x"}`, "source", "NUL"},
		{"download", `{"source":"x","target":"/tmp/x"}`, "source", "absolute"},
		{"download", `{"source":"/a/..","target":"/tmp/x"}`, "source", ".."},
		{"download", `{"source":"/x","target":"/tmp/\u0000"}`, "target", "NUL"},
		{"download", `{"source":"/x","target":"/tmp/x","max_bytes":-1}`, "max_bytes", "negative"},
	} {
		o := call(t, b, 3, m, c.method, c.req, nil)
		h := errorHeader(t, o.err)
		if h.Kind != "ValueError" || h.Field != c.field || !strings.Contains(h.Message, c.match) {
			t.Errorf("%s %.80s: got %+v, want ValueError on %s containing %q", c.method, c.req, h, c.field, c.match)
		}
	}
	if len(recorded.runs) != 0 || recorded.transfers != 0 {
		t.Fatalf("the backend saw refused input: %d runs, %d transfers", len(recorded.runs), recorded.transfers)
	}
}

func TestRunDefaultsAndTimeouts(t *testing.T) {
	b, m := recordedMachine(t)
	recorded.runs = nil
	for _, req := range []string{`{"argv":["x"]}`, `{"argv":["x"],"timeout":1e-10}`, `{"argv":["x"],"timeout":9e9,"output_limit_bytes":0}`} {
		if o := call(t, b, 3, m, "run", req, nil); o.err != nil {
			t.Fatalf("%s: %v", req, o.err)
		}
	}
	got := recorded.runs
	if got[0].OutputLimit != machine.DefaultOutputLimit || got[0].Timeout != 0 {
		t.Errorf("defaults: output limit %d, timeout %v", got[0].OutputLimit, got[0].Timeout)
	}
	if got[1].Timeout <= 0 {
		t.Errorf("a 1e-10 s timeout became %v (no timeout)", got[1].Timeout)
	}
	if got[2].Timeout != 9e9*time.Second || got[2].OutputLimit != 0 {
		t.Errorf("large timeout %v, explicit zero limit %d", got[2].Timeout, got[2].OutputLimit)
	}
}

func TestProcessReadLimit(t *testing.T) {
	b, m := recordedMachine(t)
	p := handleOf(t, call(t, b, 3, m, "open_process", `{"argv":["x"]}`, nil))
	for _, req := range []string{`{"max_bytes":0}`, `{"max_bytes":-5}`} {
		h := errorHeader(t, call(t, b, 4, p, "read", req, nil).err)
		if h.Kind != "ValueError" || h.Field != "max_bytes" {
			t.Errorf("read %s: %+v", req, h)
		}
	}
}

func TestPanicsBecomeErrors(t *testing.T) {
	t.Setenv("SHELLBOX_TEST_HOOKS", "1")
	b, m := recordedMachine(t)
	check := func(what string, err error, want string) {
		t.Helper()
		h := errorHeader(t, err)
		var internal *machine.InternalError
		if h.Kind != "MachineInfrastructureError" || !errors.As(err, &internal) || !strings.Contains(h.Message, want) {
			t.Errorf("%s: got %+v", what, h)
		}
	}
	// A call on its own goroutine (sb_call).
	check("run", call(t, b, 3, m, "run", `{"argv":["panic"]}`, nil).err, "assignment to entry in nil map")
	check("root", call(t, b, 4, Root, "test_panic", `{}`, nil).err, "test_panic was called")
	// A call on the caller's goroutine (sb_call_sync).
	var syncErr error
	b.Call(Root, "test_panic", nil, nil, func(_ []byte, _ [][]byte, err error) { syncErr = err })
	check("sync", syncErr, "test_panic was called")
	// A goroutine the bridge starts inside a call.
	p := handleOf(t, call(t, b, 5, m, "open_process", `{"argv":["x"]}`, nil))
	check("read", call(t, b, 6, p, "read", `{}`, nil).err, "read exploded")
	// The bridge still works.
	if o := call(t, b, 7, m, "run", `{"argv":["x"]}`, nil); o.err != nil {
		t.Fatal(o.err)
	}
	t.Setenv("SHELLBOX_TEST_HOOKS", "")
	if h := errorHeader(t, call(t, b, 8, Root, "test_panic", `{}`, nil).err); h.Kind != "ValueError" || h.Field != "method" {
		t.Fatalf("test_panic without the hook: %+v", h)
	}
}

func TestDoneThatPanicsIsReportedOnce(t *testing.T) {
	b := New()
	calls := make(chan error, 2)
	b.Start(1, Root, "backends", nil, nil, func(_ []byte, _ [][]byte, err error) {
		calls <- err
		if err == nil {
			panic("callback failed")
		}
	})
	if err := <-calls; err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-calls:
		t.Fatalf("done ran twice: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestShellInputIsChecked(t *testing.T) {
	b := New()
	f := handleOf(t, call(t, b, 1, Root, "open_factory", `{"backend":"bridge-shell-test"}`, nil))
	m := handleOf(t, call(t, b, 2, f, "create", `{"source":{"type":"HostImage"}}`, nil))
	defer call(t, b, 99, m, "release", `{}`, nil)
	for req, field := range map[string]string{
		`{"machine":%d,"env":{"A":"\u0000"}}`: "env",
		`{"machine":%d,"env":{"A=B":"1"}}`:    "env",
		`{"machine":%d,"cwd":"/a/../b"}`:      "cwd",
	} {
		h := errorHeader(t, call(t, b, 3, Root, "open_shell", fmt.Sprintf(req, m), nil).err)
		if h.Kind != "ValueError" || h.Field != field {
			t.Errorf("open_shell %s: %+v", req, h)
		}
	}
	h, _ := openTestShell(t, b, "auto")
	for req, field := range map[string]string{
		`{"command":"echo a\u0000b"}`:                "command",
		`{"command":"true","wait":"NaN"}`:            "wait",
		`{"command":"true","wait":-1}`:               "wait",
		`{"command":"true","wait":1e300}`:            "wait",
		`{"command":"true","output_limit_bytes":-1}`: "output_limit_bytes",
	} {
		e := errorHeader(t, call(t, b, 4, h, "execute", req, nil).err)
		if e.Kind != "ValueError" || e.Field != field {
			t.Errorf("execute %s: %+v", req, e)
		}
	}
}
