package bridge

import (
	"encoding/json"
	"fmt"
	"testing"

	_ "github.com/shellbox/shellbox/lib/backends/shellsim"
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
