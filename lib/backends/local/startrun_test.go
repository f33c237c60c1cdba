package local

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// waitStarted calls a StartRun wait and fails the test when it does not
// return in time.
func waitStarted(t *testing.T, wait func() (machine.Result, error), step string) (machine.Result, error) {
	t.Helper()
	type outcome struct {
		r   machine.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := wait()
		done <- outcome{r, err}
	}()
	select {
	case o := <-done:
		return o.r, o.err
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: wait did not return within 60 s", step)
		return machine.Result{}, nil
	}
}

// TestStartRunStartsBeforeWait: the command runs once StartRun has
// returned, before anything waits for it; wait then reports it as Run
// does.
func TestStartRunStartsBeforeWait(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	ctx := context.Background()
	wait, err := m.StartRun(ctx, machine.Command{Argv: []string{"sh", "-c", "touch /workspace/started; echo out; echo err >&2; exit 7"},
		OutputLimit: machine.DefaultOutputLimit})
	if err != nil {
		t.Fatalf("StartRun: %v", err)
	}
	eventually(t, "the started command created its file", func() bool {
		return code(run(t, m, machine.Command{Argv: []string{"test", "-e", "/workspace/started"}})) == 0
	})
	r, err := waitStarted(t, wait, "a started command")
	if err != nil || code(r) != 7 || string(r.Stdout) != "out\n" || string(r.Stderr) != "err\n" {
		t.Fatalf("wait: %+v, %v; want exit 7 with out/err", r, err)
	}
}

// TestStartRunErrors: bad input is refused by StartRun itself; a closed
// machine's refusal and a cancellation reach the caller as Run's would.
func TestStartRunErrors(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	if _, err := m.StartRun(context.Background(), machine.Command{}); err == nil {
		t.Fatal("StartRun accepted an empty argv")
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := m.StartRun(ctx, machine.Command{Argv: []string{"sleep", "30"}, OutputLimit: machine.DefaultOutputLimit})
	if err != nil {
		t.Fatalf("StartRun: %v", err)
	}
	cancel()
	if _, err := waitStarted(t, wait, "a cancelled command"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled command: %v, want context.Canceled", err)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := m.StartRun(context.Background(), machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("StartRun on a closed machine: %v, want ErrClosed", err)
	}
}

// TestOutputAroundExit: a command that closes its output early and runs
// on is still waited for, a job that keeps the pipes open does not hold
// the command, and commands leave no descriptor of the helper behind.
func TestOutputAroundExit(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	helper := helperPID(t, m)
	r, _ := runBounded(t, m, sh("exec >&- 2>&-; sleep 0.3; exit 4"), "a command that closed its output")
	if code(r) != 4 || len(r.Stdout) != 0 || len(r.Stderr) != 0 {
		t.Fatalf("closed output: %+v, want exit 4 and no output", r)
	}
	fds := func() int {
		entries, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", helper))
		return len(entries)
	}
	before := fds()
	const runs = 40
	for range runs {
		r, _ := runBounded(t, m, sh("echo out; echo err >&2"), "a short command")
		if code(r) != 0 || string(r.Stdout) != "out\n" || string(r.Stderr) != "err\n" {
			t.Fatalf("short command: %+v", r)
		}
	}
	// Two descriptors a command would be a leak of 80; a few may be in use.
	eventually(t, "the helper's descriptors are back near their count before the commands", func() bool {
		return fds() < before+runs/4
	})
	r, _ = runBounded(t, m, sh("sleep 30 & echo early"), "a command whose job keeps its pipes")
	if code(r) != 0 || string(r.Stdout) != "early\n" {
		t.Fatalf("job holding the pipes: %+v, want exit 0 and early", r)
	}
}
