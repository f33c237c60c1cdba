package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

// echoMachine is a minimal in-memory backend that exercises the dispatch;
// real backends are tested in their own packages.
type echoFactory struct{}

func (echoFactory) Backend() string { return "bridge-test" }
func (echoFactory) CheckEnvironment(machine.Requirements, machine.Spec) error {
	return &machine.UnsupportedSpec{Backend: "bridge-test", Field: "gpus", Reason: "no GPUs here"}
}
func (echoFactory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	return &echoMachine{}, nil
}

type echoMachine struct{ closed int }

func (m *echoMachine) Run(ctx context.Context, c machine.Command) (machine.Result, error) {
	if c.Argv[0] == "block" {
		<-ctx.Done()
		return machine.Result{}, ctx.Err()
	}
	return machine.ExitedWith(7, c.Stdin, []byte(strings.Join(c.Argv, " ")), false, true), nil
}
func (m *echoMachine) Upload(context.Context, string, string) error { return nil }
func (m *echoMachine) Download(_ context.Context, src, _ string, _ machine.DownloadOptions) error {
	return &machine.PathError{Op: "download", Path: src, Reason: "no such file", NotFound: true}
}
func (m *echoMachine) Close(context.Context) error { m.closed++; return nil }

func init() {
	machine.Register("bridge-test", func(json.RawMessage) (machine.Factory, error) { return echoFactory{}, nil })
}

type outcome struct {
	header []byte
	body   [][]byte
	err    error
}

func call(t *testing.T, b *Bridge, id, handle uint64, method, req string, payload []byte) outcome {
	t.Helper()
	ch := make(chan outcome, 1)
	b.Start(id, handle, method, []byte(req), payload, func(h []byte, body [][]byte, err error) {
		ch <- outcome{h, body, err}
	})
	select {
	case o := <-ch:
		return o
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not complete", method)
	}
	return outcome{}
}

func handleOf(t *testing.T, o outcome) uint64 {
	t.Helper()
	if o.err != nil {
		t.Fatal(o.err)
	}
	var h handleReply
	if err := json.Unmarshal(o.header, &h); err != nil || h.Handle == 0 {
		t.Fatalf("no handle in %s: %v", o.header, err)
	}
	return h.Handle
}

func TestRunCrossesHeaderAndSegments(t *testing.T) {
	b := New()
	f := handleOf(t, call(t, b, 1, Root, "open_factory", `{"backend":"bridge-test"}`, nil))
	m := handleOf(t, call(t, b, 2, f, "create", `{"source":{"type":"HostImage"}}`, nil))
	o := call(t, b, 3, m, "run", `{"argv":["a","b"],"output_limit_bytes":10,"timeout":1.5}`, []byte("in\x00put"))
	if o.err != nil {
		t.Fatal(o.err)
	}
	var head wire.RunReply
	if err := json.Unmarshal(o.header, &head); err != nil {
		t.Fatal(err)
	}
	if head.ExitCode == nil || *head.ExitCode != 7 || !head.StderrTruncated || head.Reason != wire.Exited {
		t.Fatalf("header %s", o.header)
	}
	if string(o.body[0]) != "in\x00put" || string(o.body[1]) != "a b" {
		t.Fatalf("segments %q", o.body)
	}
}

func TestErrorsCarryKindAndField(t *testing.T) {
	b := New()
	o := call(t, b, 1, Root, "open_factory", `{"backend":"nope"}`, nil)
	if ErrorKind(o.err) != "ValueError" || !strings.Contains(o.err.Error(), "nope") {
		t.Fatalf("unknown backend: %v", o.err)
	}
	f := handleOf(t, call(t, b, 2, Root, "open_factory", `{"backend":"bridge-test"}`, nil))
	o = call(t, b, 3, f, "check_environment", `{"spec":{"source":{"type":"HostImage"}}}`, nil)
	var head wire.Error
	if err := json.Unmarshal(EncodeError(o.err), &head); err != nil {
		t.Fatal(err)
	}
	if head.Kind != "UnsupportedMachineSpec" || head.Field != "gpus" {
		t.Fatalf("header %+v", head)
	}
	o = call(t, b, 4, f, "create", `{"source":{"type":"HostImage"},"cpus":0}`, nil)
	if ErrorKind(o.err) != "ValueError" || !strings.Contains(o.err.Error(), "cpus must be positive") {
		t.Fatalf("cpus=0: %v", o.err)
	}
	m := handleOf(t, call(t, b, 5, f, "create", `{"source":{"type":"HostImage"}}`, nil))
	o = call(t, b, 6, m, "download", `{"source":"/x","target":"/tmp/x"}`, nil)
	if ErrorKind(o.err) != "FileNotFoundError" {
		t.Fatalf("download: %v", o.err)
	}
	o = call(t, b, 7, m, "run", `{"argv":[]}`, nil)
	if ErrorKind(o.err) != "ValueError" {
		t.Fatalf("empty argv: %v", o.err)
	}
}

func TestCancelStopsTheCall(t *testing.T) {
	b := New()
	f := handleOf(t, call(t, b, 1, Root, "open_factory", `{"backend":"bridge-test"}`, nil))
	m := handleOf(t, call(t, b, 2, f, "create", `{"source":{"type":"HostImage"}}`, nil))
	ch := make(chan error, 1)
	b.Start(9, m, "run", []byte(`{"argv":["block"]}`), nil, func(_ []byte, _ [][]byte, err error) { ch <- err })
	time.Sleep(20 * time.Millisecond)
	b.Cancel(9)
	select {
	case err := <-ch:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled run returned %v", err)
		}
		var head wire.Error
		_ = json.Unmarshal(EncodeError(err), &head)
		if head.Kind != "Cancelled" {
			t.Fatalf("kind %q", head.Kind)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancel did not stop the call")
	}
}

func TestReleaseClosesAndForgets(t *testing.T) {
	b := New()
	f := handleOf(t, call(t, b, 1, Root, "open_factory", `{"backend":"bridge-test"}`, nil))
	m := handleOf(t, call(t, b, 2, f, "create", `{"source":{"type":"HostImage"}}`, nil))
	em := b.objects[m].(*machineObject).machine.(*echoMachine)
	if o := call(t, b, 3, m, "release", `{}`, nil); o.err != nil {
		t.Fatal(o.err)
	}
	if em.closed != 1 {
		t.Fatalf("release closed the machine %d times", em.closed)
	}
	o := call(t, b, 4, m, "run", `{"argv":["x"]}`, nil)
	if !errors.Is(o.err, machine.ErrClosed) {
		t.Fatalf("run after release: %v", o.err)
	}
}
