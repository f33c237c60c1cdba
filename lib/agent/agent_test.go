package agent

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shell"
)

const secretKey = "sk-test-secret-4f1d"

// scripted is an OpenAI-compatible endpoint that answers each request with
// the next step of a script and records what it was sent.
type scripted struct {
	t        *testing.T
	mu       sync.Mutex
	steps    []func(req completionRequest) map[string]any
	requests []completionRequest
	auth     []string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, "no such route", http.StatusNotFound)
		return
	}
	var req completionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	i := len(s.requests) - 1
	s.mu.Unlock()
	if i >= len(s.steps) {
		http.Error(w, "script exhausted", http.StatusInternalServerError)
		return
	}
	_ = json.NewEncoder(w).Encode(s.steps[i](req))
}

func toolCall(id, name string, args any) map[string]any {
	raw, ok := args.(string)
	if !ok {
		b, _ := json.Marshal(args)
		raw = string(b)
	}
	return map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{
			"role": "assistant", "content": nil,
			"tool_calls": []any{map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": raw}}},
		}}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
	}
}

func final(text string) map[string]any {
	return map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": text}}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5},
	}
}

// lastTool is the last tool result the model was sent.
func lastTool(t *testing.T, req completionRequest) map[string]any {
	t.Helper()
	m := req.Messages[len(req.Messages)-1]
	if m.Role != "tool" || m.Content == nil {
		t.Fatalf("last message is not a tool result: %+v", m)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(*m.Content), &out); err != nil {
		t.Fatalf("tool result %q: %v", *m.Content, err)
	}
	return out
}

func terminalShell(t *testing.T) (shell.Session, string) {
	dir := t.TempDir()
	s := shell.NewTerminalSession(shell.HostTerminal{Dir: dir, Env: map[string]string{"PATH": "/usr/bin:/bin", "HOME": dir}}, shell.Options{})
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s, dir
}

func TestRunDrivesAnInteractiveShell(t *testing.T) {
	sh, dir := terminalShell(t)
	var results []map[string]any
	record := func(req completionRequest) { results = append(results, lastTool(t, req)) }
	srv := &scripted{t: t}
	srv.steps = []func(completionRequest) map[string]any{
		func(req completionRequest) map[string]any {
			return toolCall("c1", "Bash", map[string]any{"command": "mkdir -p sub && cd sub && export GREETING=hello"})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c2", "Bash", map[string]any{"command": "echo $GREETING; pwd; env"})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c3", "Bash", map[string]any{"command": "echo start; sleep 1; echo slow done", "wait_ms": 100})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c4", "Bash", map[string]any{"wait_ms": 10000})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c5", "Bash", map[string]any{"command": "sleep 30", "wait_ms": 100})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c6", "Bash", map[string]any{"signal": "interrupt", "wait_ms": 10000})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c7", "Bash", map[string]any{"command": "read -r line; echo \"got $line\"", "wait_ms": 100})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c8", "Bash", map[string]any{"input": "typed\n"})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c9", "Bash", map[string]any{"command": "x", "input": "y"})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c10", "Bash", "not json")
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c11", "Python", map[string]any{"code": "1"})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c12", "Bash", map[string]any{"command": "true", "wait_ms": 40000})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return toolCall("c13", "Bash", map[string]any{})
		},
		func(req completionRequest) map[string]any {
			record(req)
			return final("Done.")
		},
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	res, err := Run(context.Background(), Config{BaseURL: hs.URL + "/v1/", APIKey: secretKey, Model: "openai/fake-model", MaxTurns: 20}, "Do the thing.", sh)
	if err != nil {
		t.Fatal(err)
	}
	if res.Turns != 14 || res.ToolCalls != 13 || res.InputTokens != 140 || res.OutputTokens != 70 || res.FinalMessage != "Done." {
		t.Fatalf("result: turns=%d tools=%d in=%d out=%d final=%q", res.Turns, res.ToolCalls, res.InputTokens, res.OutputTokens, res.FinalMessage)
	}
	for i, req := range srv.requests {
		if req.Model != "fake-model" || len(req.Tools) != 1 || req.Tools[0].Function.Name != "Bash" || srv.auth[i] != "Bearer "+secretKey {
			t.Fatalf("request %d: model %q tools %+v auth %q", i, req.Model, req.Tools, srv.auth[i])
		}
	}
	first := srv.requests[0].Messages
	if len(first) != 2 || first[0].Role != "system" || first[1].Role != "user" || *first[1].Content != "Do the thing." {
		t.Fatalf("first messages: %+v", first)
	}
	status := func(i int) string { return results[i]["status"].(string) }
	output := func(i int) string { s, _ := results[i]["output"].(string); return s }
	code := func(i int) any { return results[i]["exit_code"] }
	if status(0) != "completed" || code(0) != 0.0 {
		t.Fatalf("setup: %v", results[0])
	}
	if !strings.HasPrefix(output(1), "hello\n"+dir+"/sub\n") || strings.Contains(output(1), secretKey) {
		t.Fatalf("state: %q", output(1))
	}
	if status(2) != "running" || output(2) != "start\n" || code(2) != nil {
		t.Fatalf("long command: %v", results[2])
	}
	if status(3) != "completed" || output(3) != "slow done\n" {
		t.Fatalf("read: %v", results[3])
	}
	if status(4) != "running" || status(5) != "completed" || code(5) != 130.0 {
		t.Fatalf("interrupt: %v %v", results[4], results[5])
	}
	if status(6) != "running" || output(7) != "got typed\n" || code(7) != 0.0 {
		t.Fatalf("input: %v %v", results[6], results[7])
	}
	for i, want := range map[int]string{8: "at most one", 9: "not a JSON object", 10: "unknown tool", 11: "wait_ms", 12: "no command is running"} {
		if e, _ := results[i]["error"].(string); !strings.Contains(e, want) {
			t.Fatalf("tool error %d: %v, want %q", i, results[i], want)
		}
	}
}

func TestRunStopsAtTheTurnCap(t *testing.T) {
	sh, _ := terminalShell(t)
	srv := &scripted{t: t}
	for range 10 {
		srv.steps = append(srv.steps, func(completionRequest) map[string]any {
			return toolCall("c", "Bash", map[string]any{"command": "echo again"})
		})
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	res, err := Run(context.Background(), Config{BaseURL: hs.URL + "/v1", Model: "m", MaxTurns: 3}, "loop", sh)
	var capErr *TurnCapError
	if !errors.As(err, &capErr) || capErr.Turns != 3 || res.Turns != 3 || res.ToolCalls != 3 || len(srv.requests) != 3 {
		t.Fatalf("err %v, result turns=%d tools=%d, requests %d", err, res.Turns, res.ToolCalls, len(srv.requests))
	}
}

func TestRunReportsEndpointErrors(t *testing.T) {
	sh, _ := terminalShell(t)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "unknown model: served-grug", http.StatusBadRequest)
	}))
	defer hs.Close()
	_, err := Run(context.Background(), Config{BaseURL: hs.URL, Model: "hosted_vllm/served-grug"}, "x", sh)
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != 400 || !strings.Contains(err.Error(), "unknown model: served-grug") {
		t.Fatalf("got %v", err)
	}
}

func TestRunOnANonInteractiveShellOffersOnlyCommand(t *testing.T) {
	srv := &scripted{t: t}
	var seen []map[string]any
	srv.steps = []func(completionRequest) map[string]any{
		func(completionRequest) map[string]any {
			return toolCall("a", "Bash", map[string]any{"signal": "interrupt"})
		},
		func(req completionRequest) map[string]any {
			seen = append(seen, lastTool(t, req))
			return final("ok")
		},
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	sh := shell.NewOneShot(nil, shell.Options{})
	if _, err := Run(context.Background(), Config{BaseURL: hs.URL + "/v1", Model: "m"}, "x", sh); err != nil {
		t.Fatal(err)
	}
	props := srv.requests[0].Tools[0].Function.Parameters["properties"].(map[string]any)
	if len(props) != 1 || props["command"] == nil {
		t.Fatalf("non-interactive tool: %v", props)
	}
	if e, _ := seen[0]["error"].(string); !strings.Contains(e, "command is required") {
		t.Fatalf("tool error: %v", seen[0])
	}
}

func TestRunIsCancelled(t *testing.T) {
	sh, _ := terminalShell(t)
	srv := &scripted{t: t}
	srv.steps = []func(completionRequest) map[string]any{
		func(completionRequest) map[string]any {
			return toolCall("a", "Bash", map[string]any{"command": "sleep 20", "wait_ms": 30000})
		},
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	var last Result
	_, err := Run(ctx, Config{BaseURL: hs.URL + "/v1", Model: "m", Progress: func(r Result) { last = r }}, "x", sh)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("got %v after %v", err, time.Since(start))
	}
	if last.Turns != 1 || last.InputTokens != 10 || last.OutputTokens != 5 || last.Messages != nil {
		t.Fatalf("progress: %+v", last)
	}
}
