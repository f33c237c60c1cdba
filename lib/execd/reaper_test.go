package execd

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The reaper collects children nobody waits for and leaves those a
// starter waits for to their starter, which gets their real status, even
// when they exit in any order around each other.
func TestReaperLeavesOwnedChildrenToTheirStarter(t *testing.T) {
	r := newReaper()
	defer r.stop()
	sh := "/bin/sh"
	attr := &syscall.ProcAttr{Files: []uintptr{0, 1, 2}}
	var orphans []int
	for i := 0; i < 5; i++ {
		pid, err := syscall.ForkExec(sh, []string{sh, "-c", "exit 3"}, attr)
		if err != nil {
			t.Fatal(err)
		}
		orphans = append(orphans, pid)
	}
	type owned struct {
		code int
		ch   <-chan syscall.WaitStatus
	}
	var starts []owned
	for i := 0; i < 5; i++ {
		code := 10 + i
		script := fmt.Sprintf("sleep 0.0%d; exit %d", i+1, code)
		fork := func() (int, error) { return syscall.ForkExec(sh, []string{sh, "-c", script}, attr) }
		var ch <-chan syscall.WaitStatus
		var err error
		if i%2 == 0 {
			_, ch, err = r.start(fork)
		} else {
			// fork and wait, as a buffered exec uses them.
			var pid int
			pid, err = r.fork(fork)
			waited := make(chan syscall.WaitStatus, 1)
			if err == nil {
				go func() { waited <- r.wait(pid) }()
			}
			ch = waited
		}
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, owned{code, ch})
	}
	for i, s := range starts {
		select {
		case ws := <-s.ch:
			if !ws.Exited() || ws.ExitStatus() != s.code {
				t.Fatalf("owned child %d: status %v, want exit %d", i, ws, s.code)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("owned child %d: no status", i)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range orphans {
		for {
			r.reap()
			// Reaped: its /proc entry is gone (a zombie keeps one).
			if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); os.IsNotExist(err) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("unowned child %d was not reaped", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
