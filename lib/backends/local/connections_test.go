package local

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// childrenOf lists the children of every thread of pid.
func childrenOf(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, task := range tasks {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, task.Name()))
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// helperPID finds the machine's helper: the launcher's bubblewrap's child.
func helperPID(t *testing.T, m *Machine) int {
	t.Helper()
	for _, b := range childrenOf(m.cmd.Process.Pid) {
		for _, h := range childrenOf(b) {
			comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", h))
			if strings.HasPrefix(string(comm), "shellbox-sandbo") {
				return h
			}
		}
	}
	t.Fatal("the machine's helper process was not found")
	return 0
}

func openFDs() int {
	fds, _ := os.ReadDir("/proc/self/fd")
	return len(fds)
}

// eventually polls cond until it holds or a generous deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// runBounded runs cmd and fails the test when it does not return in time
// (a hang is the failure this guards against).
func runBounded(t *testing.T, m machine.Machine, cmd machine.Command, step string) (machine.Result, error) {
	t.Helper()
	if cmd.OutputLimit == 0 {
		cmd.OutputLimit = machine.DefaultOutputLimit
	}
	type outcome struct {
		r   machine.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := m.Run(context.Background(), cmd)
		done <- outcome{r, err}
	}()
	select {
	case o := <-done:
		return o.r, o.err
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: Run did not return within 60s", step)
		return machine.Result{}, nil
	}
}

// Commands reuse the helper's connections: many at once all get their own
// output, and closing the machine leaves no descriptor behind.
func TestRunsShareConnectionsWithoutLeaks(t *testing.T) {
	f := newFactory(t, Options{})
	before := openFDs()
	ctx := context.Background()
	m, err := f.Create(ctx, hostSpec())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		r := run(t, m, sh(fmt.Sprintf("echo %d", i)))
		if string(r.Stdout) != fmt.Sprintf("%d\n", i) {
			t.Fatalf("run %d: %q", i, r.Stdout)
		}
	}
	sequential := openFDs()
	var wg sync.WaitGroup
	errs := make(chan error, 16*5)
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 5 {
				want := fmt.Sprintf("%d.%d", w, r)
				cmd := sh("cat")
				cmd.Stdin = []byte(want)
				res, err := runBounded(t, m, cmd, "concurrent run")
				if err != nil || string(res.Stdout) != want {
					errs <- fmt.Errorf("worker %d run %d: %q %v", w, r, res.Stdout, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// At most a few connections stay open between commands.
	if n := openFDs(); n > sequential+8 {
		t.Errorf("descriptors after 80 concurrent runs: %d, after sequential ones %d", n, sequential)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "closing the machine closed its connections", func() bool { return openFDs() <= before })
}

// A helper that dies while a command runs and while other connections
// wait for their next command: the running command and every later one
// report the machine terminated, none hangs.
func TestHelperDeathTerminatesRunningAndLaterRuns(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runBounded(t, m, sh("sleep 0.1"), "filling the pool")
		}()
	}
	wg.Wait()
	running := make(chan error, 1)
	go func() {
		_, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "touch /workspace/started; exec sleep 60"},
			OutputLimit: 100})
		running <- err
	}()
	eventually(t, "the long command started", func() bool {
		_, err := os.Stat(filepath.Join(m.Root(), "workspace", "started"))
		return err == nil
	})
	if err := syscall.Kill(helperPID(t, m), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-running:
		if !errors.Is(err, machine.ErrTerminated) {
			t.Fatalf("the running command: %v, want terminated", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the running command hangs after its helper died")
	}
	for i := range 5 {
		if _, err := runBounded(t, m, sh("true"), fmt.Sprintf("run %d after the helper died", i)); !errors.Is(err, machine.ErrTerminated) {
			t.Fatalf("run %d after the helper died: %v, want terminated", i, err)
		}
	}
}
