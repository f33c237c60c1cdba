package qemu

import (
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestMemoryBomb runs commands that allocate without bound in a real VM:
// each is OOM-killed inside the commands' cgroup (SIGKILL, exit 137) and
// the machine keeps serving; the agent is exempt from the OOM killer and
// commands are not.
func TestMemoryBomb(t *testing.T) {
	no := false
	f := newTestFactory(t, Options{Restore: &no})
	spec := testSpec()
	mem := 256
	spec.MemoryMB = &mem
	m := newTestMachine(t, f, spec)

	r := run(t, m, sh(`cat /proc/self/oom_score_adj /proc/self/cgroup; a=$(cat /proc/$PPID/oom_score_adj 2>/dev/null);
for p in /proc/[0-9]*; do case "$(cat $p/cmdline 2>/dev/null | tr '\0' ' ')" in "shellbox-guest agent "*) cat $p/oom_score_adj;; esac; done`))
	if got := strings.Fields(string(r.Stdout)); len(got) != 3 || got[0] != "0" || got[1] != "0::/commands" || got[2] != "-1000" {
		t.Fatalf("command score, cgroup, agent score: %q %q", r.Stdout, r.Stderr)
	}
	// Two bombs at once, then a third: a shell doubling a string, and
	// busybox reading the whole of /dev/zero into memory.
	bombs := []string{`x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done`, `head -c 1000000000 /dev/zero | sort`}
	done := make(chan machine.Result, len(bombs))
	named := 0
	for _, b := range bombs {
		go func() { done <- run(t, m, sh(b)) }()
	}
	for range bombs {
		if r := <-done; code(r) != 137 {
			t.Errorf("bomb ended with %d %q (want 137: SIGKILL by the OOM killer)", code(r), r.Stderr)
		} else if !strings.Contains(string(r.Stderr), "out-of-memory killer") {
			t.Logf("a bomb's kill was not named (another kill was reported first): %q", r.Stderr)
		} else {
			named++
		}
	}
	if named == 0 {
		t.Error("no bomb's stderr names the OOM killer")
	}
	r = run(t, m, sh(`x=aaaaaaaaaaaaaaaa; while :; do x=$x$x; done`))
	if code(r) != 137 || !strings.Contains(string(r.Stderr), "shellbox: killed by the guest's out-of-memory killer") {
		t.Errorf("third bomb: %d %q", code(r), r.Stderr)
	}
	// A SIGKILL that is not the OOM killer's gets no note.
	if r := run(t, m, sh(`kill -9 $$`)); code(r) != 137 || len(r.Stderr) != 0 {
		t.Errorf("kill -9: %d %q", code(r), r.Stderr)
	}
	// Right after a kill the cgroup can still be at its limit for a
	// moment (an exec then fails to charge its argument pages: E2BIG);
	// within seconds the machine serves again.
	deadline := time.Now().Add(20 * time.Second)
	for {
		r = run(t, m, sh(`echo alive; grep oom_kill /sys/fs/cgroup/commands/memory.events`))
		if code(r) == 0 || time.Now().After(deadline) {
			break
		}
		t.Logf("right after the bombs: %d %q", code(r), r.Stderr)
		time.Sleep(200 * time.Millisecond)
	}
	// The kills were the cgroup's (its memory.events counts them), not a
	// machine-wide out-of-memory. (The kernel log is no witness: the
	// kernel rate-limits its out-of-memory reports.)
	if code(r) != 0 || !strings.HasPrefix(string(r.Stdout), "alive\n") || !strings.Contains(string(r.Stdout), "oom_kill ") || strings.Contains(string(r.Stdout), "oom_kill 0") {
		t.Fatalf("after the bombs: %d %q %q", code(r), r.Stdout, r.Stderr)
	}
}
