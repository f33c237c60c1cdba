package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
)

// terminalMachine is echoMachine plus a real host terminal.
type terminalMachine struct {
	echoMachine
	shell.HostTerminal
}

type terminalFactory struct{ echoFactory }

func (terminalFactory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	dir, err := os.MkdirTemp("", "bridge-shell-")
	if err != nil {
		return nil, err
	}
	return &terminalMachine{HostTerminal: shell.HostTerminal{Dir: dir, Env: map[string]string{"PATH": "/usr/bin:/bin"}}}, nil
}

func init() {
	machine.Register("bridge-shell-test", func(json.RawMessage) (machine.Factory, error) { return terminalFactory{}, nil })
}

func openTestShell(t *testing.T, b *Bridge, mode string) (uint64, map[string]any) {
	f := handleOf(t, call(t, b, 1, Root, "open_factory", `{"backend":"bridge-shell-test"}`, nil))
	m := handleOf(t, call(t, b, 2, f, "create", `{"source":{"type":"HostImage"}}`, nil))
	t.Cleanup(func() { call(t, b, 99, m, "release", `{}`, nil) })
	o := call(t, b, 3, Root, "open_shell", fmt.Sprintf(`{"machine":%d,"mode":%q}`, m, mode), nil)
	h := handleOf(t, o)
	var head map[string]any
	_ = json.Unmarshal(o.header, &head)
	t.Cleanup(func() { call(t, b, 98, h, "release", `{}`, nil) })
	return h, head
}

func TestShellHandleKeepsState(t *testing.T) {
	b := New()
	h, head := openTestShell(t, b, "auto")
	if head["mode"] != "terminal" || head["interactive"] != true {
		t.Fatalf("open_shell: %v", head)
	}
	if o := call(t, b, 4, h, "execute", `{"command":"cd / && X=kept","wait":10}`, nil); o.err != nil {
		t.Fatal(o.err)
	}
	o := call(t, b, 5, h, "execute", `{"command":"echo $X; pwd","wait":10,"output_limit_bytes":100}`, nil)
	if o.err != nil || string(o.body[0]) != "kept\n/\n" || !strings.Contains(string(o.header), `"status":"completed"`) {
		t.Fatalf("execute: %s %q %v", o.header, o.body, o.err)
	}
	o = call(t, b, 6, h, "execute", `{"command":"sleep 30","wait":0.1}`, nil)
	if !strings.Contains(string(o.header), `"status":"running"`) {
		t.Fatalf("sleep: %s", o.header)
	}
	if o := call(t, b, 7, h, "interrupt", `{}`, nil); o.err != nil {
		t.Fatal(o.err)
	}
	o = call(t, b, 8, h, "read", `{"wait":5}`, nil)
	if !strings.Contains(string(o.header), `"exit_code":130`) {
		t.Fatalf("after interrupt: %s %v", o.header, o.err)
	}
	if o := call(t, b, 9, h, "read", `{}`, nil); o.err == nil || !strings.Contains(o.err.Error(), "no command") {
		t.Fatalf("read with nothing running: %v", o.err)
	}
}

func TestOneShotShellRefusesInput(t *testing.T) {
	b := New()
	h, head := openTestShell(t, b, "oneshot")
	if head["interactive"] != false {
		t.Fatalf("open_shell: %v", head)
	}
	o := call(t, b, 4, h, "write", `{}`, []byte("x"))
	if o.err == nil || ErrorKind(o.err) != "UnsupportedMachineSpec" {
		t.Fatalf("write: %v", o.err)
	}
}

func TestRunAgentOnAShellHandle(t *testing.T) {
	b := New()
	h, _ := openTestShell(t, b, "auto")
	turn := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		turn++
		msg := `{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"echo hi\"}"}}]}`
		if turn > 1 {
			msg = `{"role":"assistant","content":"all done"}`
		}
		fmt.Fprintf(w, `{"choices":[{"message":%s}],"usage":{"prompt_tokens":7,"completion_tokens":3}}`, msg)
	}))
	defer srv.Close()
	o := call(t, b, 4, Root, "run_agent", fmt.Sprintf(`{"shell":%d,"base_url":%q,"model":"openai/m","max_turns":5,"instruction":"go"}`, h, srv.URL), nil)
	if o.err != nil {
		t.Fatal(o.err)
	}
	var res struct {
		In, Out, Tools int
		Final          string
		Error          any
	}
	var raw map[string]any
	_ = json.Unmarshal(o.header, &raw)
	res.In, res.Out, res.Tools = int(raw["n_input_tokens"].(float64)), int(raw["n_output_tokens"].(float64)), int(raw["tool_calls"].(float64))
	res.Final, res.Error = raw["final_message"].(string), raw["error"]
	if res.In != 14 || res.Out != 6 || res.Tools != 1 || res.Final != "all done" || res.Error != nil {
		t.Fatalf("run_agent: %s", o.header)
	}
	if o := call(t, b, 6, h, "agent_progress", `{}`, nil); o.err != nil || !strings.Contains(string(o.header), `"n_input_tokens":14`) {
		t.Fatalf("agent_progress: %s %v", o.header, o.err)
	}
	turn = 0
	o = call(t, b, 5, Root, "run_agent", fmt.Sprintf(`{"shell":%d,"base_url":%q,"model":"m","max_turns":1,"instruction":"go"}`, h, srv.URL), nil)
	if o.err != nil || !strings.Contains(string(o.header), `"kind":"TurnCapExhausted"`) || !strings.Contains(string(o.header), `"tool_calls":1`) {
		t.Fatalf("second run: %s %v", o.header, o.err)
	}
}
