package local

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestForkBombIsBounded is issue 10 §1.5: a fork bomb as root stays within
// the machine's pids limit, its command returns in time, and Close ends it
// all.
func TestForkBombIsBounded(t *testing.T) {
	f := newFactory(t, Options{})
	if !f.cgroups.Available() {
		t.Fatalf("no pids cgroup on this host: %s", f.cgroups.Reason)
	}
	m := newMachine(t, f, hostSpec())
	before := countProcesses()
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
				peak = max(peak, countProcesses())
			}
		}
	}()
	cmd := sh(`f(){ f|f& };f`)
	cmd.Timeout = 5 * time.Second
	cmd.OutputLimit = 1 << 10
	start := time.Now()
	res, err := m.Run(context.Background(), cmd)
	elapsed := time.Since(start)
	close(stop)
	<-sampled
	t.Logf("fork bomb: %v after %v, host processes %d -> peak %d", res.Reason, elapsed, before, peak)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	// The command's own process exits at once and the bomb runs on in the
	// background (a command returns although its background jobs hold its
	// output): what must hold is the bound, and that Close ends it all.
	if elapsed > cmd.Timeout+3*time.Second {
		t.Fatalf("the fork bomb ended %v after its %v timeout", elapsed-cmd.Timeout, cmd.Timeout)
	}
	time.Sleep(time.Second)
	peak = max(peak, countProcesses())
	if peak > before+pidsLimit+200 {
		t.Fatalf("host processes reached %d (from %d)", peak, before)
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
	if n := countProcesses(); n > before+20 {
		t.Fatalf("%d host processes after Close (from %d)", n, before)
	}
}

func countProcesses() int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			n++
		}
	}
	return n
}
