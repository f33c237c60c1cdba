package docker

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStopWatchSeesInitDeathTheDaemonMisses: a container whose init
// process ended while the daemon still reports it running (a wedged shim)
// is reported stopped by the host-side poll, with a reason naming the
// process; a live init is not.
func TestStopWatchSeesInitDeathTheDaemonMisses(t *testing.T) {
	ctx := context.Background()
	f, err := New(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	live := exec.Command("sleep", "1000")
	dying := exec.Command("sleep", "1000")
	for _, c := range []*exec.Cmd{live, dying} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		live.Process.Kill()
		live.Wait()
	}()
	w := &f.stops
	liveCh, dyingCh := w.add("test-live-"+newID()), w.add("test-dying-"+newID())
	w.mu.Lock()
	for id, e := range w.machines {
		switch {
		case strings.HasPrefix(id, "test-live-"):
			e.pid = live.Process.Pid
		case strings.HasPrefix(id, "test-dying-"):
			e.pid = dying.Process.Pid
			defer w.remove(id)
			defer func() {
				if r := w.reason(id); !strings.Contains(r, "init process") {
					t.Errorf("reason %q", r)
				}
			}()
		}
	}
	w.mu.Unlock()
	// Killed and not waited for: a zombie, as under a wedged shim.
	if err := dying.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-dyingCh:
	case <-time.After(3 * initPoll):
		t.Fatal("the dead init was not noticed")
	}
	dying.Wait()
	select {
	case <-liveCh:
		t.Fatal("a live init was reported dead")
	default:
	}
	var ids []string
	w.mu.Lock()
	for id := range w.machines {
		if strings.HasPrefix(id, "test-live-") {
			ids = append(ids, id)
		}
	}
	w.mu.Unlock()
	for _, id := range ids {
		w.remove(id)
	}
}
