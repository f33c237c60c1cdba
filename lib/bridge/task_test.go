package bridge

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

// A task spec from the wire: member machine specs get MachineSpec's
// defaults, durations are checked naming their field, and a task on a
// backend without groups runs its one member.
func TestCreateTaskFromTheWire(t *testing.T) {
	b := New()
	defer b.Shutdown()
	open := call(t, b, 1, 0, "open_factory", `{"backend": "bridge-test"}`, nil)
	if open.err != nil {
		t.Fatal(open.err)
	}
	var fh wire.HandleReply
	json.Unmarshal(open.header, &fh)
	factory := string(mustJSON(fh.Handle))
	member := `{"name": "main", "machine": {"source": {"type": "HostImage"}}`
	for _, bad := range []struct{ probe, field string }{
		{`{"command": ["true"], "timeout": "NaN", "interval": 1, "start_period": 0}`, "containers[0].readiness.timeout"},
		{`{"command": ["true"], "timeout": 1, "interval": 0, "start_period": 0}`, "containers[0].readiness.interval"},
		{`{"command": ["true"], "timeout": 1, "interval": 1, "start_period": -1}`, "containers[0].readiness.start_period"},
		{`{"command": ["true"], "timeout": 1, "interval": 1, "start_period": 0, "attempts": 0}`, "containers[0].readiness.attempts"},
	} {
		o := call(t, b, 2, 0, "create_task", `{"factory": `+factory+`, "spec": {"primary": "main", "containers": [`+member+`, "readiness": `+bad.probe+`}]}}`, nil)
		var inv *machine.InvalidSpec
		if !errors.As(o.err, &inv) || inv.Field != bad.field {
			t.Errorf("%s: %v, want field %s", bad.probe, o.err, bad.field)
		}
	}
	o := call(t, b, 3, 0, "create_task", `{"factory": `+factory+`, "spec": {"primary": "main", "containers": [`+member+`}]}}`, nil)
	if o.err != nil {
		t.Fatal(o.err)
	}
	var reply wire.CreateTaskReply
	if err := json.Unmarshal(o.header, &reply); err != nil || reply.Primary != "main" || reply.Members["main"].Handle == 0 {
		t.Fatalf("%s %v", o.header, err)
	}
	// Closing the member closes the task; the task's close is idempotent.
	if o := call(t, b, 4, reply.Members["main"].Handle, "close", `{}`, nil); o.err != nil {
		t.Fatal(o.err)
	}
	if o := call(t, b, 5, reply.Handle, "close", `{}`, nil); o.err != nil {
		t.Fatal(o.err)
	}
	if o := call(t, b, 6, 0, "create_task", `{"factory": 999, "spec": {"primary": "main", "containers": [`+member+`}]}}`, nil); o.err == nil {
		t.Fatal("a task on a handle that is no factory")
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
