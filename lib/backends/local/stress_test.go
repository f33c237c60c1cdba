package local

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Kept connections under every way an operation can end: many goroutines
// mix plain runs, runs that cannot start (missing program, missing
// directory), timeouts, cancellations, output past the limit and stdin,
// and the machine is closed while some still run. Before the close every
// run must give exactly its own result (a connection the helper gave up
// is never written to, and no frame reaches another run); after it, only
// machine.ErrClosed.
func TestConnectionReuseStress(t *testing.T) {
	cycles := 200
	if testing.Short() {
		cycles = 20
	}
	f := newFactory(t, Options{})
	ctx := context.Background()
	for i := range cycles {
		m := newMachine(t, f, hostSpec())
		stressCycle(t, m, i)
		if t.Failed() {
			m.Close(ctx)
			return
		}
	}
}

func stressCycle(t *testing.T, m *Machine, cycle int) {
	ctx := context.Background()
	const workers = 6
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	check := func(step string, r machine.Result, err error, ok func(machine.Result) bool) {
		if err != nil {
			errs <- fmt.Errorf("cycle %d, %s: %w", cycle, step, err)
			return
		}
		if !ok(r) {
			errs <- fmt.Errorf("cycle %d, %s: unexpected result %+v (stdout %q, stderr %q)", cycle, step, r, r.Stdout, r.Stderr)
		}
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 5 {
				token := fmt.Sprintf("c%dw%dk%d", cycle, w, k)
				switch (w + k + cycle) % 7 {
				case 0:
					r, err := runWithin(m, machine.Command{Argv: []string{"echo", token}}, token)
					check(token+" echo", r, err, func(r machine.Result) bool {
						return code(r) == 0 && string(r.Stdout) == token+"\n"
					})
				case 1:
					r, err := runWithin(m, machine.Command{Argv: []string{"/no/such/program"}}, token)
					check(token+" missing program", r, err, func(r machine.Result) bool { return code(r) == 127 })
				case 2:
					r, err := runWithin(m, machine.Command{Argv: []string{"true"}, Cwd: "/no/such/dir"}, token)
					check(token+" missing directory", r, err, func(r machine.Result) bool { return code(r) != 0 })
				case 3:
					cmd := sh("sleep 10")
					cmd.Timeout = 10 * time.Millisecond
					r, err := runWithin(m, cmd, token)
					check(token+" timeout", r, err, func(r machine.Result) bool { return r.Reason == machine.TimedOut })
				case 4:
					cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
					_, err := m.Run(cctx, sh("sleep 10"))
					cancel()
					if !errors.Is(err, context.DeadlineExceeded) {
						errs <- fmt.Errorf("cycle %d, %s cancel: %v", cycle, token, err)
					}
				case 5:
					cmd := sh("head -c 100000 /dev/zero; echo " + token + " >&2")
					cmd.OutputLimit = 1000
					r, err := runWithin(m, cmd, token)
					check(token+" output past limit", r, err, func(r machine.Result) bool {
						return code(r) == 0 && r.StdoutTruncated && len(r.Stdout) == 1000 && string(r.Stderr) == token+"\n"
					})
				case 6:
					cmd := machine.Command{Argv: []string{"cat"}, Stdin: []byte(token)}
					r, err := runWithin(m, cmd, token)
					check(token+" stdin", r, err, func(r machine.Result) bool {
						return code(r) == 0 && bytes.Equal(r.Stdout, []byte(token))
					})
				}
			}
		}()
	}
	waitBounded(t, &wg, fmt.Sprintf("cycle %d: the runs before the close", cycle))
	// Runs racing the close: each either completes as usual or reports
	// the machine closed, whether its connection was idle or busy.
	var late sync.WaitGroup
	for w := range 3 {
		late.Add(1)
		go func() {
			defer late.Done()
			for k := range 3 {
				token := fmt.Sprintf("late-c%dw%dk%d", cycle, w, k)
				r, err := m.Run(ctx, machine.Command{Argv: []string{"echo", token}, OutputLimit: 100})
				if err != nil {
					if !errors.Is(err, machine.ErrClosed) {
						errs <- fmt.Errorf("cycle %d, %s during close: %v", cycle, token, err)
					}
					return
				}
				if code(r) != 0 || string(r.Stdout) != token+"\n" {
					errs <- fmt.Errorf("cycle %d, %s during close: %+v", cycle, token, r)
				}
			}
		}()
	}
	time.Sleep(time.Duration(cycle%4) * time.Millisecond)
	if err := m.Close(ctx); err != nil {
		errs <- fmt.Errorf("cycle %d: close: %v", cycle, err)
	}
	waitBounded(t, &late, fmt.Sprintf("cycle %d: the runs racing the close", cycle))
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// waitBounded waits for wg, failing the test when that takes over 120s.
func waitBounded(t *testing.T, wg *sync.WaitGroup, step string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(120 * time.Second):
		t.Fatalf("%s did not end within 120s", step)
	}
}

// runWithin runs cmd and reports a run that does not return within 60s
// as an error (it may be called off the test's goroutine).
func runWithin(m machine.Machine, cmd machine.Command, step string) (machine.Result, error) {
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
		return machine.Result{}, fmt.Errorf("%s: Run did not return within 60s", step)
	}
}
