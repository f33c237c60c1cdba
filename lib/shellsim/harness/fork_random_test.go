package harness

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomScripts are actions with background jobs, pipes, timers, traps and
// stdin, the things a fork has to carry along while they are in flight.
var randomScripts = []string{
	`(for i in 1 2 3; do sleep 0.5; echo bg$i >> log; done) & echo started`,
	`while read l; do echo "in:$l"; done; echo eof`,
	`seq 1 3000 | sort -r | head -c 5000 | wc -c`,
	`trap 'echo usr1' USR1; sleep 2 & wait; echo waited $?`,
	`yes ab | head -c 20000 > y & sleep 0.1; wc -c < y`,
	`cat log 2>/dev/null | wc -l; jobs > j; wc -l < j`,
	`read a; sleep 1; read b; echo "$a/$b"`,
	`i=0; while [ $i -lt 300 ]; do i=$((i+1)); done; echo $i`,
	`kill %1 2>/dev/null; wait; echo reaped`,
}

// randomOp is one request line for a session (no session_id yet).
func randomOp(r *rand.Rand) string {
	switch n := r.Intn(20); {
	case n < 3:
		closed := r.Intn(2) == 0
		return fmt.Sprintf(`{"op":"start_execute","source":%q,"stdin_closed":%v}`, randomScripts[r.Intn(len(randomScripts))], closed)
	case n < 9:
		return fmt.Sprintf(`{"op":"poll_action","action_id":%d,"work_quanta":%d,"advance_time":%v}`, r.Intn(4), 1+r.Intn(8), r.Intn(3) == 0)
	case n < 11:
		return fmt.Sprintf(`{"op":"write_stdin","action_id":%d,"data_base64":"%s"}`, r.Intn(4), b64(fmt.Sprintf("line%d\n", r.Intn(100))))
	case n < 12:
		return fmt.Sprintf(`{"op":"close_stdin","action_id":%d}`, r.Intn(4))
	case n < 13:
		return fmt.Sprintf(`{"op":"write_file","path":"f%d","data_base64":"%s"}`, r.Intn(3), b64(fmt.Sprint(r.Intn(1000))))
	case n < 14:
		return fmt.Sprintf(`{"op":"signal_process","pid":%d,"signal":%q}`, 1+r.Intn(10), []string{"USR1", "TERM", "KILL"}[r.Intn(3)])
	case n < 15:
		return fmt.Sprintf(`{"op":"cancel_action","action_id":%d}`, r.Intn(4))
	case n < 16:
		return `{"op":"reset_workspace"}`
	case n < 17:
		return fmt.Sprintf(`{"op":"execute","source":%q}`, randomScripts[r.Intn(len(randomScripts))])
	case n < 18:
		return `{"op":"inspect"}`
	default:
		return fmt.Sprintf(`{"op":"read_action_output","action_id":%d}`, r.Intn(4))
	}
}

func inSession(line string, sid int) string {
	return fmt.Sprintf(`{"session_id":%d,`, sid) + strings.TrimPrefix(line, "{")
}

// TestForkRandomSchedules runs random request sequences, forks the session
// at a random point, then sends the same remaining requests to the
// original and to the fork: every response must be identical. A fork that
// missed any state (a queued task, a timer, pipe bytes, a stdin cursor, a
// trap, an output cursor) answers differently somewhere.
func TestForkRandomSchedules(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 15
	}
	for seed := 0; seed < seeds; seed++ {
		checkForkSchedule(t, int64(seed))
	}
}

// FuzzForkSchedules explores more schedules than the test's seeds:
// go test ./lib/shellsim/harness -fuzz FuzzForkSchedules
func FuzzForkSchedules(f *testing.F) {
	for seed := int64(0); seed < 8; seed++ {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) { checkForkSchedule(t, seed) })
}

func checkForkSchedule(t *testing.T, seed int64) {
	r := rand.New(rand.NewSource(seed))
	ops := make([]string, 40)
	for i := range ops {
		ops[i] = randomOp(r)
	}
	forkAt := 5 + r.Intn(30)
	s := newServer(t, Options{})
	defer s.Close()
	for _, op := range ops[:forkAt] {
		s.HandleLine([]byte(op))
	}
	if res := call(t, s, `{"op":"fork_session"}`); res["ok"] != true {
		t.Fatalf("seed %d: fork after %d ops: %v", seed, forkAt, res)
	}
	for i, op := range ops[forkAt:] {
		a := string(s.HandleLine([]byte(inSession(op, 0))))
		b := string(s.HandleLine([]byte(inSession(op, 1))))
		if a != b {
			t.Fatalf("seed %d, fork after %d, op %d %s:\noriginal %s\nfork     %s\nops: %s", seed, forkAt, forkAt+i, op, a, b, strings.Join(ops, "\n"))
		}
	}
}
