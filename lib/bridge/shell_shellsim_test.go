package bridge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	_ "github.com/shellbox/shellbox/lib/backends/shellsim"
	"github.com/shellbox/shellbox/lib/bridge/wire"
)

func TestOpenShellAutoOnShellSimKeepsState(t *testing.T) {
	b := New()
	f := handleOf(t, call(t, b, 1, Root, "open_factory", `{"backend":"shellsim","options":{}}`, nil))
	m := handleOf(t, call(t, b, 2, f, "create", `{"source":{"type":"ShellSimBuiltins"}}`, nil))
	defer call(t, b, 99, m, "release", `{}`, nil)
	o := call(t, b, 3, Root, "open_shell", fmt.Sprintf(`{"machine":%d,"mode":"auto","env":{"G":"g"}}`, m), nil)
	h := handleOf(t, o)
	var head map[string]any
	_ = json.Unmarshal(o.header, &head)
	if head["mode"] != "shellsim" || head["interactive"] != false {
		t.Fatalf("open_shell: %v", head)
	}
	if o := call(t, b, 4, h, "execute", `{"command":"cd /tmp && X=kept"}`, nil); o.err != nil {
		t.Fatal(o.err)
	}
	o = call(t, b, 5, h, "execute", `{"command":"echo $X$G; pwd"}`, nil)
	if o.err != nil || string(o.body[0]) != "keptg\n/tmp\n" {
		t.Fatalf("execute: %s %q %v", o.header, o.body, o.err)
	}
	if o := call(t, b, 6, h, "write", `{}`, []byte("x")); o.err == nil {
		t.Fatal("write accepted by a non-interactive shell")
	}
	call(t, b, 7, h, "release", `{}`, nil)
	// An explicit generic mode is left to open_shell.
	o = call(t, b, 8, Root, "open_shell", fmt.Sprintf(`{"machine":%d,"mode":"oneshot"}`, m), nil)
	_ = json.Unmarshal(o.header, &head)
	if o.err != nil || head["mode"] != "oneshot" {
		t.Fatalf("oneshot: %v %v", head, o.err)
	}
}

// TestShellSimStopReasonIsAField: the budget that ends a ShellSim machine
// comes back typed, in the run reply and then in MachineTerminated's error
// header, not as text to parse.
func TestShellSimStopReasonIsAField(t *testing.T) {
	b := New()
	f := handleOf(t, call(t, b, 1, Root, "open_factory", `{"backend":"shellsim","options":{"cpu":200000}}`, nil))
	m := handleOf(t, call(t, b, 2, f, "create", `{"source":{"type":"ShellSimBuiltins"}}`, nil))
	defer call(t, b, 99, m, "release", `{}`, nil)
	o := call(t, b, 3, m, "run", `{"argv":["sh","-c","while :; do :; done"]}`, nil)
	var run wire.RunReply
	if err := json.Unmarshal(o.header, &run); o.err != nil || err != nil {
		t.Fatal(o.err, err)
	}
	if run.StopReason != wire.CPUExhausted || run.ExitCode == nil || *run.ExitCode != 137 {
		t.Fatalf("run: %s", o.header)
	}
	o = call(t, b, 4, m, "run", `{"argv":["true"]}`, nil)
	var head wire.Error
	if err := json.Unmarshal(EncodeError(o.err), &head); err != nil || head.Kind != wire.KindMachineTerminated || head.StopReason != wire.CPUExhausted {
		t.Fatalf("after exhaustion: %+v %v", head, o.err)
	}
	// A healthy machine's reply has no stop reason at all.
	m2 := handleOf(t, call(t, b, 5, f, "create", `{"source":{"type":"ShellSimBuiltins"}}`, nil))
	defer call(t, b, 98, m2, "release", `{}`, nil)
	if o := call(t, b, 6, m2, "run", `{"argv":["true"]}`, nil); o.err != nil || strings.Contains(string(o.header), "stop_reason") {
		t.Fatalf("healthy run: %s %v", o.header, o.err)
	}
}
