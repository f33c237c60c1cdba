package harness

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

func newServer(t *testing.T, opts Options) *Server {
	t.Helper()
	if opts.Limits == (shellsim.Limits{}) {
		opts.Limits = shellsim.DefaultLimits()
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// call sends one request line and decodes the response.
func call(t *testing.T, s *Server, line string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(s.HandleLine([]byte(line)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func ok(t *testing.T, s *Server, line string) map[string]any {
	t.Helper()
	m := call(t, s, line)
	if m["ok"] != true {
		t.Fatalf("%s: %v", line, m)
	}
	return m["result"].(map[string]any)
}

func fails(t *testing.T, s *Server, line, want string) {
	t.Helper()
	m := call(t, s, line)
	if m["ok"] != false || !strings.Contains(m["error"].(string), want) {
		t.Fatalf("%s: want error %q, got %v", line, want, m)
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func unb64(t *testing.T, v any) string {
	b, err := base64.StdEncoding.DecodeString(v.(string))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestExecuteAndIDs(t *testing.T) {
	s := newServer(t, Options{})
	m := call(t, s, `{"id":{"x":[1]},"op":"execute","source":"cat; echo err >&2; sh -c 'exit 3'","stdin_base64":"`+b64("in")+`"}`)
	if string(mustJSON(m["id"])) != `{"x":[1]}` || m["ok"] != true {
		t.Fatalf("%v", m)
	}
	r := m["result"].(map[string]any)
	if r["kind"] != "execute" || unb64(t, r["stdout_base64"]) != "in" || unb64(t, r["stderr_base64"]) != "err\n" {
		t.Fatalf("%v", r)
	}
	if r["outcome"].(map[string]any)["exit_status"] != 3.0 {
		t.Fatalf("%v", r["outcome"])
	}
	// State persists in a session.
	ok(t, s, `{"op":"execute","source":"cd /tmp; X=7"}`)
	r = ok(t, s, `{"op":"execute","source":"echo $X $PWD"}`)
	if unb64(t, r["stdout_base64"]) != "7 /tmp\n" {
		t.Fatal(r)
	}
	fails(t, s, `{"op":"execute"}`, "missing field `source`")
	fails(t, s, `{"op":"execute","source":"x","stdin_base64":"!!"}`, "invalid base64")
	fails(t, s, `{"op":"nope"}`, "unknown op")
	fails(t, s, `{"source":"x"}`, "missing field `op`")
	fails(t, s, `{"op":"execute","source":1}`, "invalid request")
	fails(t, s, `[1]`, "invalid request")
	fails(t, s, `{"op":"inspect"} {"op":"inspect"}`, "trailing data")
	fails(t, s, `{"op":"inspect","session_id":5}`, "session 5 does not exist")
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func TestServeStreamKeepsGoing(t *testing.T) {
	s := newServer(t, Options{MaxLineBytes: 100})
	in := `{"id":1,"op":"execute","source":"echo a"}` + "\n" +
		`{"id":2,"op":"execute","source":"` + strings.Repeat("x", 200) + `"}` + "\n" +
		"not json\r\n" + "\n" +
		`{"id":3,"op":"execute","source":"echo b"}`
	var out bytes.Buffer
	if err := s.Serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines: %s", len(lines), out.String())
	}
	for i, want := range []string{`"id":1,"ok":true`, `request exceeds the 100-byte limit`, `invalid request`, `"id":3,"ok":true`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d: %s (want %s)", i, lines[i], want)
		}
	}
}

func TestRetainedActions(t *testing.T) {
	s := newServer(t, Options{})
	v := ok(t, s, `{"op":"start_execute","source":"echo one; read line; echo got:$line; echo e >&2","stdin_closed":false}`)
	if v["kind"] != "action" || v["action_id"] != 0.0 {
		t.Fatal(v)
	}
	fails(t, s, `{"op":"start_execute","source":"true"}`, "already has an active foreground action")
	fails(t, s, `{"op":"execute","source":"true"}`, "already has an active foreground action")
	// Nothing has run yet, but the workspace is the session's to change.
	ok(t, s, `{"op":"checkpoint"}`)
	v = ok(t, s, `{"op":"poll_action","action_id":0,"work_quanta":10}`)
	st := v["state"].(map[string]any)
	if st["state"] != "blocked" || st["reason"].(map[string]any)["kind"] != "input_readable" {
		t.Fatalf("%v", v)
	}
	out := ok(t, s, `{"op":"read_action_output","action_id":0}`)
	if unb64(t, out["stdout_base64"]) != "one\n" || out["stdout_closed"] != false {
		t.Fatal(out)
	}
	ok(t, s, `{"op":"write_stdin","action_id":0,"data_base64":"`+b64("hello\n")+`"}`)
	ok(t, s, `{"op":"close_stdin","action_id":0}`)
	v = ok(t, s, `{"op":"poll_action","action_id":0}`)
	if st := v["state"].(map[string]any); st["state"] != "complete" || st["status"] != 0.0 {
		t.Fatal(v)
	}
	out = ok(t, s, `{"op":"read_action_output","action_id":0}`)
	if unb64(t, out["stdout_base64"]) != "got:hello\n" || unb64(t, out["stderr_base64"]) != "e\n" || out["stdout_closed"] != true {
		t.Fatal(out)
	}
	out = ok(t, s, `{"op":"read_action_output","action_id":0}`)
	if unb64(t, out["stdout_base64"]) != "" {
		t.Fatal("bytes read twice")
	}
	fails(t, s, `{"op":"write_stdin","action_id":0,"data_base64":""}`, "action 0 is complete")
	fails(t, s, `{"op":"close_stdin","action_id":0}`, "action 0 is complete")
	fails(t, s, `{"op":"poll_action","action_id":0,"work_quanta":0}`, "work_quanta")
	fails(t, s, `{"op":"poll_action","action_id":9}`, "action 9 does not exist")
	fails(t, s, `{"op":"poll_action"}`, "missing field `action_id`")
	ok(t, s, `{"op":"drop_action","action_id":0}`)
	fails(t, s, `{"op":"drop_action","action_id":0}`, "does not exist")

	// Cancel kills the action; the session stays usable.
	v = ok(t, s, `{"op":"start_execute","source":"echo start; while :; do :; done"}`)
	id := int(v["action_id"].(float64))
	fails(t, s, `{"op":"drop_action","action_id":1}`, "still active")
	v = ok(t, s, `{"op":"cancel_action","action_id":1}`)
	if st := v["state"].(map[string]any); st["state"] != "complete" || st["status"] != 137.0 || id != 1 {
		t.Fatal(v)
	}
	r := ok(t, s, `{"op":"execute","source":"echo fine"}`)
	if unb64(t, r["stdout_base64"]) != "fine\n" {
		t.Fatal(r)
	}
	// Streaming stdin default is closed: read sees EOF.
	ok(t, s, `{"op":"start_execute","source":"cat; echo done","stdin_base64":"`+b64("x")+`"}`)
	v = ok(t, s, `{"op":"poll_action","action_id":2,"advance_time":true}`)
	if v["state"].(map[string]any)["state"] != "complete" {
		t.Fatal(v)
	}
	insp := ok(t, s, `{"op":"inspect"}`)
	if n := len(insp["actions"].([]any)); n != 2 {
		t.Fatalf("retained: %d", n)
	}
}

func TestRetainedActionLimit(t *testing.T) {
	s := newServer(t, Options{})
	for i := 0; i < MaxRetainedActions; i++ {
		ok(t, s, `{"op":"start_execute","source":"true"}`)
		ok(t, s, `{"op":"poll_action","action_id":`+itoa(i)+`}`)
	}
	fails(t, s, `{"op":"start_execute","source":"true"}`, "retained-action limit exceeded (64)")
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestSessions(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"execute","source":"X=1; echo base > f"}`)
	r := ok(t, s, `{"op":"fork_session","source":0}`)
	if r["kind"] != "session" || r["session_id"] != 1.0 {
		t.Fatal(r)
	}
	ok(t, s, `{"session_id":1,"op":"execute","source":"echo fork > f; Y=2"}`)
	r = ok(t, s, `{"op":"execute","source":"cat f; echo $X${Y}"}`)
	if unb64(t, r["stdout_base64"]) != "base\n1\n" {
		t.Fatal(r)
	}
	r = ok(t, s, `{"session_id":1,"op":"read_file","path":"f"}`)
	if unb64(t, r["data_base64"]) != "fork\n" {
		t.Fatal(r)
	}
	fails(t, s, `{"op":"fork_session","source":7}`, "session 7 does not exist")
	for i := 2; i < MaxSessions; i++ {
		ok(t, s, `{"op":"fork_session","source":1}`)
	}
	fails(t, s, `{"op":"fork_session"}`, "harness session limit exceeded (8)")
	ok(t, s, `{"op":"drop_session","target":3}`)
	r = ok(t, s, `{"op":"fork_session"}`)
	if r["session_id"] != 8.0 {
		t.Fatalf("ids are reused: %v", r)
	}
	fails(t, s, `{"op":"drop_session","target":3}`, "session 3 does not exist")
	fails(t, s, `{"session_id":3,"op":"execute","source":"true"}`, "session 3 does not exist")
	// A session with a background job forks: the job and its timer are
	// copied, and each copy finishes it on its own.
	ok(t, s, `{"op":"execute","source":"(sleep 10; echo late >> jobs.log) & echo started"}`)
	ok(t, s, `{"op":"drop_session","target":1}`)
	r = ok(t, s, `{"op":"fork_session"}`)
	fork := fmt.Sprint(r["session_id"])
	r = ok(t, s, `{"session_id":`+fork+`,"op":"execute","source":"jobs > j; wc -l < j; wait; cat jobs.log; echo $EPOCHREALTIME | cut -d. -f1"}`)
	got := unb64(t, r["stdout_base64"])
	r = ok(t, s, `{"op":"execute","source":"jobs > j; wc -l < j; wait; cat jobs.log; echo $EPOCHREALTIME | cut -d. -f1"}`)
	if want := unb64(t, r["stdout_base64"]); got != want || !strings.HasPrefix(got, "1\nlate\n") {
		t.Fatalf("fork %q, original %q", got, want)
	}
}

func TestFileOperationsConfinedToWork(t *testing.T) {
	s := newServer(t, Options{})
	fails(t, s, `{"op":"write_file","path":"a/b.txt","data_base64":"`+b64("x")+`"}`, "No such file")
	fails(t, s, `{"op":"write_file","path":"/etc/x","data_base64":""}`, "confined to /work")
	fails(t, s, `{"op":"read_file","path":"/work/../etc/passwd"}`, "confined to /work")
	fails(t, s, `{"op":"write_file","path":"x","data_base64":"","mode":4096}`, "invalid file mode 0o10000")
	fails(t, s, `{"op":"read_file","path":"a\u0000b"}`, "NUL")
	ok(t, s, `{"op":"make_directory","path":"a","mode":493}`)
	fails(t, s, `{"op":"make_directory","path":"p/q"}`, "No such file")
	ok(t, s, `{"op":"make_directory","path":"p/q","parents":true}`)
	ok(t, s, `{"op":"write_file","path":"a/b.txt","data_base64":"`+b64("data")+`","mode":384}`)
	r := ok(t, s, `{"op":"read_file","path":"/work/a/b.txt"}`)
	if r["kind"] != "file" || unb64(t, r["data_base64"]) != "data" || r["mode"] != 384.0 || r["path"] != "/work/a/b.txt" {
		t.Fatal(r)
	}
	fails(t, s, `{"op":"read_file","path":"a"}`, "not a regular file")
	fails(t, s, `{"op":"read_file","path":"zz"}`, "No such file")
	ok(t, s, `{"op":"execute","source":"ln -s a/b.txt link"}`)
	r = ok(t, s, `{"op":"stat_path","path":"link","follow_symlinks":false}`)
	if r["node_type"] != "symlink" || r["symlink_target"] != "a/b.txt" || r["size"] != 7.0 {
		t.Fatal(r)
	}
	r = ok(t, s, `{"op":"stat_path","path":"link"}`)
	if r["node_type"] != "file" || r["size"] != 4.0 {
		t.Fatal(r)
	}
	r = ok(t, s, `{"op":"list_paths"}`)
	want := []any{"/work/a", "/work/a/b.txt", "/work/link", "/work/p", "/work/p/q"}
	if string(mustJSON(r["paths"])) != string(mustJSON(want)) {
		t.Fatal(r["paths"])
	}
	ok(t, s, `{"op":"remove_path","path":"p"}`)
	fails(t, s, `{"op":"remove_path","path":"p"}`, "No such file")
	fails(t, s, `{"op":"remove_path","path":"/work"}`, "cannot remove /work")
	fails(t, s, `{"op":"list_paths","root":"/"}`, "confined to /work")
}

func TestCheckpointDiffResetInspect(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "keep"), []byte("k"), 0o644)
	os.WriteFile(filepath.Join(root, "mod"), []byte("old"), 0o644)
	s := newServer(t, Options{Root: root})
	r := ok(t, s, `{"op":"workspace_diff"}`)
	if len(r["changes"].([]any)) != 0 {
		t.Fatalf("baseline after --root: %v", r)
	}
	ok(t, s, `{"op":"execute","source":"echo new > mod; echo a > added; rm keep; mkdir d; cd d"}`)
	r = ok(t, s, `{"op":"workspace_diff"}`)
	got := string(mustJSON(r["changes"]))
	want := `[{"after":{"data_base64":"` + b64("a\n") + `","mode":420,"type":"file"},"change":"added","path":"/work/added"},` +
		`{"after":{"mode":493,"type":"directory"},"change":"added","path":"/work/d"},` +
		`{"before":{"data_base64":"` + b64("k") + `","mode":420,"type":"file"},"change":"deleted","path":"/work/keep"},` +
		`{"after":{"data_base64":"` + b64("new\n") + `","mode":420,"type":"file"},"before":{"data_base64":"` + b64("old") + `","mode":420,"type":"file"},"change":"modified","path":"/work/mod"}]`
	if got != want {
		t.Fatalf("diff:\n%s\nwant\n%s", got, want)
	}
	ok(t, s, `{"op":"reset_workspace"}`)
	r = ok(t, s, `{"op":"workspace_diff"}`)
	if len(r["changes"].([]any)) != 0 {
		t.Fatal(r)
	}
	r = ok(t, s, `{"op":"inspect"}`)
	if r["cwd"] != "/work" || r["kind"] != "inspect" {
		t.Fatalf("cwd not reset: %v", r["cwd"])
	}
	ok(t, s, `{"op":"execute","source":"echo c > c"}`)
	ok(t, s, `{"op":"checkpoint"}`)
	r = ok(t, s, `{"op":"workspace_diff"}`)
	if len(r["changes"].([]any)) != 0 {
		t.Fatal(r)
	}
	ok(t, s, `{"op":"execute","source":"head -c 7000000 /dev/zero > big"}`)
	fails(t, s, `{"op":"checkpoint"}`, "checkpoint limit")
	fails(t, s, `{"op":"workspace_diff"}`, "transfer limit")
	if _, err := New(Options{Limits: shellsim.DefaultLimits(), Root: filepath.Join(root, "missing")}); err == nil {
		t.Fatal("missing root accepted")
	}
}

func TestSignalProcess(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"execute","source":"sleep 100 & echo $! > pid"}`)
	r := ok(t, s, `{"op":"read_file","path":"pid"}`)
	pid := strings.TrimSpace(unb64(t, r["data_base64"]))
	ok(t, s, `{"op":"signal_process","pid":`+pid+`,"signal":"TERM"}`)
	r = ok(t, s, `{"op":"execute","source":"wait %1; echo $?"}`)
	if unb64(t, r["stdout_base64"]) != "143\n" {
		t.Fatalf("%q %q", unb64(t, r["stdout_base64"]), unb64(t, r["stderr_base64"]))
	}
	fails(t, s, `{"op":"signal_process","pid":99999,"signal":"TERM"}`, "signal_process")
	fails(t, s, `{"op":"signal_process","pid":1,"signal":"T;rm"}`, "invalid signal")
}

func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := New(Options{Limits: shellsim.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	ok(t, s, `{"op":"fork_session"}`)
	ok(t, s, `{"session_id":1,"op":"execute","source":"sleep 100 & sleep 200 &"}`)
	ok(t, s, `{"op":"start_execute","source":"read x","stdin_closed":false}`)
	ok(t, s, `{"op":"poll_action","action_id":0}`)
	ok(t, s, `{"op":"start_execute","source":"true","session_id":1}`)
	// Forks of a paused action and of background jobs hold goroutines too.
	ok(t, s, `{"op":"fork_session"}`)
	ok(t, s, `{"op":"fork_session","source":1}`)
	ok(t, s, `{"session_id":1,"op":"poll_action","action_id":0}`)
	ok(t, s, `{"op":"fork_session","source":1}`)
	s.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("goroutines: %d before, %d after", before, n)
	}
}

func TestPollSteppingTimeAndQuanta(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"start_execute","source":"printf one; sleep 2; printf two"}`)
	for i := 0; i < 2; i++ {
		v := ok(t, s, `{"op":"poll_action","action_id":0}`)
		st := v["state"].(map[string]any)
		if st["state"] != "blocked" || string(mustJSON(st["reason"])) != `{"deadline_ns":2000000000,"kind":"timer"}` {
			t.Fatalf("poll %d: %v", i, v)
		}
	}
	out := ok(t, s, `{"op":"read_action_output","action_id":0}`)
	if unb64(t, out["stdout_base64"]) != "one" {
		t.Fatal(out)
	}
	v := ok(t, s, `{"op":"poll_action","action_id":0,"advance_time":true}`)
	if v["state"].(map[string]any)["state"] != "complete" {
		t.Fatal(v)
	}
	out = ok(t, s, `{"op":"read_action_output","action_id":0}`)
	if unb64(t, out["stdout_base64"]) != "two" {
		t.Fatal(out)
	}
	r := ok(t, s, `{"op":"execute","source":"date +%s"}`)
	if unb64(t, r["stdout_base64"]) != "1735689602\n" {
		t.Fatalf("virtual time: %q", unb64(t, r["stdout_base64"]))
	}

	// One quantum at a time: the loop reports running until it is done.
	ok(t, s, `{"op":"start_execute","source":"i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; echo end"}`)
	polls := 0
	for {
		polls++
		v := ok(t, s, `{"op":"poll_action","action_id":1,"work_quanta":1}`)
		if st := v["state"].(map[string]any)["state"]; st == "complete" {
			break
		} else if st != "running" {
			t.Fatal(v)
		}
		if polls > 10000 {
			t.Fatal("never completes")
		}
	}
	if polls < 3 {
		t.Fatalf("only %d polls: quanta do not bound the work", polls)
	}
	// Cancelling a paused action works and the session goes on.
	ok(t, s, `{"op":"start_execute","source":"sleep 5; echo late"}`)
	ok(t, s, `{"op":"poll_action","action_id":2}`)
	v = ok(t, s, `{"op":"cancel_action","action_id":2}`)
	if st := v["state"].(map[string]any); st["status"] != 137.0 {
		t.Fatal(v)
	}
	r = ok(t, s, `{"op":"execute","source":"echo ok"}`)
	if unb64(t, r["stdout_base64"]) != "ok\n" {
		t.Fatal(r)
	}
}
