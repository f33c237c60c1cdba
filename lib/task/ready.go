package task

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// probeOutputLimit bounds what a probe attempt's output keeps.
const probeOutputLimit = 4096

// Prober is a member machine that supervises a probe attempt with a
// helper of its own (a Docker member: a static program copied in) rather
// than through the backend's command timeout. The result is Run's: Reason
// TimedOut when the attempt overran timeout and its process group was
// killed.
type Prober interface {
	RunProbe(ctx context.Context, argv []string, timeout time.Duration, outputLimit int) (machine.Result, error)
}

// WaitReady runs every member's readiness probe until each passed once.
// Each attempt runs inside its member with the probe's own timeout (the
// backend kills the attempt's process group, not the service). Exhausted
// attempts, the deadline of ctx (or timeout, when positive), a member's end
// or cancellation close the whole group and return an error naming the
// member and its last probe output.
func (t *Task) WaitReady(ctx context.Context, timeout time.Duration) error {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if err := t.Err(); err != nil {
		return err
	}
	select {
	case <-t.closed:
		return machine.ErrClosed
	default:
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type outcome struct {
		member string
		err    error
	}
	results := make(chan outcome)
	pending := 0
	for _, c := range t.spec.Containers {
		t.mu.Lock()
		done := t.ready[c.Name]
		t.mu.Unlock()
		if c.Readiness == nil || done {
			continue
		}
		pending++
		go func(c Container) {
			results <- outcome{c.Name, t.probe(ctx, c.Name, t.members[c.Name], *c.Readiness)}
		}(c)
	}
	var first error
	ended := t.endedCh
	for pending > 0 {
		select {
		case r := <-results:
			pending--
			if r.err == nil {
				t.mu.Lock()
				t.ready[r.member] = true
				t.mu.Unlock()
			} else if first == nil {
				first = r.err
				cancel()
			}
		case <-ended:
			if first == nil {
				first = t.Err()
				cancel()
			}
			ended = nil // read once; the rest come from results
		}
	}
	if first != nil {
		if ended := t.Err(); ended != nil {
			first = ended
		}
		t.Close(context.Background())
		return first
	}
	return nil
}

// probe runs c's probe until it passes or gives up.
func (t *Task) probe(ctx context.Context, name string, m machine.Machine, p Probe) error {
	last := ""
	fail := func(reason string) error {
		return &MemberError{Member: name, Reason: reason, Output: last, Err: ctx.Err()}
	}
	wait := func(d time.Duration) error {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := wait(p.StartPeriod); err != nil {
		return fail(waitReason(err))
	}
	for attempt := 1; ; attempt++ {
		var res machine.Result
		var err error
		if pr, ok := m.(Prober); ok {
			res, err = pr.RunProbe(ctx, p.Command, p.Timeout, probeOutputLimit)
		} else {
			res, err = m.Run(ctx, machine.Command{Argv: p.Command, Timeout: p.Timeout, OutputLimit: probeOutputLimit})
		}
		if err != nil {
			if ctx.Err() != nil {
				return fail(waitReason(ctx.Err()))
			}
			return fail("could not be probed: " + err.Error())
		}
		out := strings.TrimSpace(string(res.Stdout) + string(res.Stderr))
		switch {
		case res.Reason == machine.TimedOut:
			last = fmt.Sprintf("attempt %d timed out after %v", attempt, p.Timeout)
			if out != "" {
				last += ": " + out
			}
		case *res.ExitCode == 0:
			return nil
		default:
			last = fmt.Sprintf("attempt %d exited with status %d", attempt, *res.ExitCode)
			if out != "" {
				last += ": " + out
			}
		}
		if p.Attempts > 0 && attempt >= p.Attempts {
			return fail(fmt.Sprintf("is not ready after %d readiness attempts", attempt))
		}
		if err := wait(p.Interval); err != nil {
			return fail(waitReason(err))
		}
	}
}

func waitReason(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "was not ready before the readiness deadline"
	}
	return "readiness wait cancelled"
}
