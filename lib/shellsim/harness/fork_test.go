package harness

import (
	"fmt"
	"strings"
	"testing"
)

func state(v map[string]any) map[string]any { return v["state"].(map[string]any) }

// pollToEnd polls an action with time advancing until it completes and
// returns everything it printed that was not read yet.
func pollToEnd(t *testing.T, s *Server, sid, aid int) string {
	t.Helper()
	for i := 0; ; i++ {
		v := ok(t, s, fmt.Sprintf(`{"session_id":%d,"op":"poll_action","action_id":%d,"advance_time":true}`, sid, aid))
		if state(v)["state"] == "complete" {
			break
		}
		if i > 1000 {
			t.Fatalf("never completes: %v", v)
		}
	}
	out := ok(t, s, fmt.Sprintf(`{"session_id":%d,"op":"read_action_output","action_id":%d}`, sid, aid))
	return unb64(t, out["stdout_base64"])
}

func TestForkPausedAction(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"execute","source":"X=before"}`)
	ok(t, s, `{"op":"start_execute","source":"printf one; sleep 2; printf \"two $X\""}`)
	v := ok(t, s, `{"op":"poll_action","action_id":0}`)
	if string(mustJSON(state(v)["reason"])) != `{"deadline_ns":2000000000,"kind":"timer"}` {
		t.Fatal(v)
	}
	if out := ok(t, s, `{"op":"read_action_output","action_id":0}`); unb64(t, out["stdout_base64"]) != "one" {
		t.Fatal(out)
	}
	r := ok(t, s, `{"op":"fork_session"}`)
	if r["session_id"] != 1.0 {
		t.Fatal(r)
	}
	// The copy is paused at the same point: same reason, same clock, and
	// the output cursor where the original's was.
	v = ok(t, s, `{"session_id":1,"op":"poll_action","action_id":0}`)
	if string(mustJSON(state(v)["reason"])) != `{"deadline_ns":2000000000,"kind":"timer"}` {
		t.Fatal(v)
	}
	in := ok(t, s, `{"session_id":1,"op":"inspect"}`)
	if in["monotonic_ns"] != 0.0 || len(in["actions"].([]any)) != 1 {
		t.Fatal(in)
	}
	if out := ok(t, s, `{"session_id":1,"op":"read_action_output","action_id":0}`); unb64(t, out["stdout_base64"]) != "" {
		t.Fatalf("cursor not copied: %v", out)
	}
	fails(t, s, `{"session_id":1,"op":"start_execute","source":"true"}`, "already has an active foreground action")
	// Each finishes on its own.
	if got := pollToEnd(t, s, 1, 0); got != "two before" {
		t.Fatalf("fork: %q", got)
	}
	in = ok(t, s, `{"op":"inspect"}`)
	if in["monotonic_ns"] != 0.0 {
		t.Fatalf("the original's clock moved with the fork's: %v", in["monotonic_ns"])
	}
	if got := pollToEnd(t, s, 0, 0); got != "two before" {
		t.Fatalf("original: %q", got)
	}
}

func TestForkStreamingStdin(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"start_execute","source":"while read l; do echo \"got $l\"; done; echo end","stdin_closed":false}`)
	ok(t, s, `{"op":"write_stdin","action_id":0,"data_base64":"`+b64("a\n")+`"}`)
	v := ok(t, s, `{"op":"poll_action","action_id":0}`)
	if reason := state(v)["reason"].(map[string]any); reason["kind"] != "input_readable" {
		t.Fatal(v)
	}
	ok(t, s, `{"op":"write_stdin","action_id":0,"data_base64":"`+b64("b")+`"}`)
	ok(t, s, `{"op":"fork_session"}`)
	ok(t, s, `{"op":"write_stdin","action_id":0,"data_base64":"`+b64("1\n")+`"}`)
	ok(t, s, `{"session_id":1,"op":"write_stdin","action_id":0,"data_base64":"`+b64("2\n")+`"}`)
	ok(t, s, `{"op":"close_stdin","action_id":0}`)
	ok(t, s, `{"session_id":1,"op":"close_stdin","action_id":0}`)
	if got := pollToEnd(t, s, 0, 0); got != "got a\ngot b1\nend\n" {
		t.Fatalf("original: %q", got)
	}
	if got := pollToEnd(t, s, 1, 0); got != "got a\ngot b2\nend\n" {
		t.Fatalf("fork: %q", got)
	}
}

// A pipeline paused after a few quanta has bytes in its pipes and
// processes half way: the copy carries on from there.
func TestForkPipelineMidFlight(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"start_execute","source":"seq 1 20000 | sort -r | head -c 200000 | md5sum; echo done"}`)
	v := ok(t, s, `{"op":"poll_action","action_id":0,"work_quanta":3}`)
	if state(v)["state"] != "running" {
		t.Fatalf("finished too soon to test anything: %v", v)
	}
	in := ok(t, s, `{"op":"inspect"}`)
	if n := len(in["processes"].([]any)); n < 4 {
		t.Fatalf("pipeline not in flight: %d processes", n)
	}
	ok(t, s, `{"op":"fork_session"}`)
	ok(t, s, `{"session_id":1,"op":"fork_session"}`)
	want := pollToEnd(t, s, 0, 0)
	if !strings.HasSuffix(want, "done\n") {
		t.Fatal(want)
	}
	for _, sid := range []int{1, 2} {
		if got := pollToEnd(t, s, sid, 0); got != want {
			t.Fatalf("session %d: %q, original %q", sid, got, want)
		}
	}
}

// While an action is paused the session can be changed: files, signals,
// inspection, and all of it is carried into forks.
func TestOperationsWhilePaused(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"start_execute","source":"trap 'echo trapped' USR1; sleep 5 & wait; cat note; echo after"}`)
	v := ok(t, s, `{"op":"poll_action","action_id":0}`)
	if string(mustJSON(state(v)["reason"])) != `{"deadline_ns":5000000000,"kind":"timer"}` {
		t.Fatalf("the reason does not follow the child to its timer: %v", v)
	}
	ok(t, s, `{"op":"write_file","path":"note","data_base64":"`+b64("written while paused\n")+`"}`)
	in := ok(t, s, `{"op":"inspect"}`)
	statuses := map[string]string{}
	for _, p := range in["processes"].([]any) {
		p := p.(map[string]any)
		statuses[fmt.Sprint(p["pid"], p["command"])] = string(mustJSON(p["status"]))
	}
	want := map[string]string{
		"1 [bash]":    `{"reason":{"kind":"child","pid":2},"state":"blocked"}`,
		"2 [bash]":    `{"reason":{"deadline_ns":5000000000,"kind":"timer"},"state":"blocked"}`,
		"3 [sleep 5]": `{"reason":{"deadline_ns":5000000000,"kind":"timer"},"state":"blocked"}`,
	}
	if fmt.Sprint(statuses) != fmt.Sprint(want) || in["current_pid"] != 1.0 {
		t.Fatalf("processes: %v (current %v)", statuses, in["current_pid"])
	}
	shellPID := in["current_pid"].(float64)
	ok(t, s, fmt.Sprintf(`{"op":"signal_process","pid":%d,"signal":"USR1"}`, int(shellPID)))
	ok(t, s, `{"op":"fork_session"}`)
	// The trapped signal interrupts wait (as in bash): the action runs
	// its handler and goes on, in the original and in the fork alike.
	for _, sid := range []int{0, 1} {
		if got := pollToEnd(t, s, sid, 0); got != "trapped\nwritten while paused\nafter\n" {
			t.Fatalf("session %d: %q", sid, got)
		}
	}
}

func TestForkThenCancel(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"start_execute","source":"sleep 3; echo three > f"}`)
	ok(t, s, `{"op":"poll_action","action_id":0}`)
	ok(t, s, `{"op":"fork_session"}`)
	v := ok(t, s, `{"op":"cancel_action","action_id":0}`)
	if state(v)["status"] != 137.0 {
		t.Fatal(v)
	}
	fails(t, s, `{"op":"read_file","path":"f"}`, "No such file")
	pollToEnd(t, s, 1, 0)
	if r := ok(t, s, `{"session_id":1,"op":"read_file","path":"f"}`); unb64(t, r["data_base64"]) != "three\n" {
		t.Fatal(r)
	}
	ok(t, s, `{"op":"execute","source":"true"}`)
}

// cancel_action kills the action's process group: a sleeping action ends
// without virtual time moving, while a background job in a group of its
// own lives on.
func TestCancelDoesNotMoveTime(t *testing.T) {
	s := newServer(t, Options{})
	ok(t, s, `{"op":"start_execute","source":"sleep 100 & sleep 5; echo late"}`)
	ok(t, s, `{"op":"poll_action","action_id":0}`)
	v := ok(t, s, `{"op":"cancel_action","action_id":0}`)
	if state(v)["status"] != 137.0 {
		t.Fatal(v)
	}
	in := ok(t, s, `{"op":"inspect"}`)
	if in["monotonic_ns"] != 0.0 {
		t.Fatalf("time moved to %v", in["monotonic_ns"])
	}
	r := ok(t, s, `{"op":"execute","source":"jobs -r > j; wc -l < j; echo $((1+1))"}`)
	if got := unb64(t, r["stdout_base64"]); got != "1\n2\n" {
		t.Fatalf("%q %q", got, unb64(t, r["stderr_base64"]))
	}
}
