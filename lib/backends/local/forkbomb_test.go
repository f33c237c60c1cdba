package local

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestForkBombEndsAtTimeout is issue 10 §1.5: a fork bomb as root stays
// within the machine's pids limit and ends at its timeout, timed out, with
// nothing left; Close leaves no process, cgroup or directory.
func TestForkBombEndsAtTimeout(t *testing.T) {
	f := newFactory(t, Options{})
	if !f.cgroups.Available() {
		t.Fatalf("no pids cgroup on this host: %s", f.cgroups.Reason)
	}
	if err := f.CheckEnvironment(machine.Requirements{Capabilities: []string{"process_limit"}}, hostSpec()); err != nil {
		t.Fatalf("CheckEnvironment(process_limit): %v", err)
	}
	m := newMachine(t, f, hostSpec())
	// Other tests on this host start and end processes too: count the
	// machine's own, which its cgroup holds.
	current := filepath.Join(m.group.Dir(), "pids.current")
	tasks := func() int {
		data, _ := os.ReadFile(current)
		n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		return n
	}
	before := tasks()
	peak := 0
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				peak = max(peak, tasks())
			}
		}
	}()
	// bash retries a fork that fails (dash gives up, and the bomb may die
	// out by itself).
	cmd := machine.Command{Argv: []string{"bash", "-c", `f(){ f|f& };f`}}
	cmd.Timeout = 5 * time.Second
	cmd.OutputLimit = 1 << 10
	start := time.Now()
	res, err := m.Run(context.Background(), cmd)
	elapsed := time.Since(start)
	close(stop)
	<-sampled
	t.Logf("fork bomb: %v after %v, machine tasks %d -> peak %d", res.Reason, elapsed, before, peak)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Reason != machine.TimedOut {
		t.Fatalf("reason %v, want timed out", res.Reason)
	}
	if elapsed < cmd.Timeout || elapsed > cmd.Timeout+3*time.Second {
		t.Fatalf("the fork bomb ended %v after its %v timeout", elapsed-cmd.Timeout, cmd.Timeout)
	}
	if peak > pidsLimit || peak < pidsLimit/2 {
		t.Fatalf("the machine's tasks peaked at %d (limit %d)", peak, pidsLimit)
	}
	// The bomb is gone with its command and the machine works.
	r := run(t, m, sh("ls /proc | grep -c '^[0-9]'"))
	if n, _ := strconv.Atoi(strings.TrimSpace(string(r.Stdout))); code(r) != 0 || n > 5 {
		t.Fatalf("after the bomb: %d processes in the machine (%+v)", n, r)
	}
	dir, group := m.dir, m.group.Dir()
	start = time.Now()
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("the machine directory remains")
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("Close took %v", el)
	}
	if _, err := os.Stat(group); err == nil {
		t.Fatal("the machine's cgroup remains")
	}
	if n := processesMentioning(dir); n > 0 {
		t.Fatalf("%d processes of the machine remain after Close", n)
	}
}

// TestSmallPidsLimitRightAfterCreate fills a machine with a small task
// limit the moment it is up: the helper made its spare threads before it
// answered (a helper still making them when the limit ran out could not
// create a thread, which is fatal to a Go program, and the machine
// terminated), so the command ends at its timeout and the machine works.
func TestSmallPidsLimitRightAfterCreate(t *testing.T) {
	const limit = 64
	f := newFactory(t, Options{PidsLimit: limit})
	if !f.cgroups.Available() {
		t.Fatalf("no pids cgroup on this host: %s", f.cgroups.Reason)
	}
	for round := range 5 {
		m := newMachine(t, f, hostSpec())
		cmd := sh(`i=0; while [ $i -lt 100 ]; do sleep 30 & i=$((i+1)); done; echo spawned`)
		cmd.Timeout = 3 * time.Second
		res, err := m.Run(context.Background(), cmd)
		if err != nil {
			t.Fatalf("round %d: Run: %v", round, err)
		}
		if res.Reason != machine.TimedOut {
			t.Fatalf("round %d: %v, stdout %q stderr %q: want a timeout (the jobs hold the machine's tasks)", round, res.Reason, res.Stdout, res.Stderr)
		}
		if r := run(t, m, machine.Command{Argv: []string{"true"}}); code(r) != 0 {
			t.Fatalf("round %d: after the limit was reached: %+v", round, r)
		}
		if err := m.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
