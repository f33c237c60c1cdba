package machinetest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// noLeaks runs create/run/close cycles that leave background processes,
// time out and cancel commands and leave open processes, then checks that
// this process's goroutines and the backend's resources are back where
// they were.
func (s *suite) noLeaks(t *testing.T) {
	ctx := context.Background()
	// One cycle first: lazily started pools (HTTP connections, caches)
	// are not leaks.
	s.cycle(t, 0)
	goroutines := settledGoroutines(0)
	before, err := s.resources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := 1; i <= s.caps.cycles(); i++ {
		s.cycle(t, i)
	}
	t.Logf("%d cycles in %v", s.caps.cycles(), time.Since(start))
	// Idle connections of a client pool may grow by a few.
	const slack = 4
	if n := settledGoroutines(goroutines + slack); n > goroutines+slack {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("goroutines: %d before the cycles, %d after\n%s", goroutines, n, buf)
	}
	var after map[string]int
	deadline := time.Now().Add(10 * time.Second)
	for {
		if after, err = s.resources(ctx); err != nil {
			t.Fatal(err)
		}
		if maps.Equal(before, after) || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !maps.Equal(before, after) {
		t.Fatalf("the backend's resources: %v before the cycles, %v after", before, after)
	}
}

func (s *suite) resources(ctx context.Context) (map[string]int, error) {
	if s.caps.Resources == nil {
		return nil, nil
	}
	return s.caps.Resources(ctx)
}

// settledGoroutines waits up to 10s for the number of goroutines to fall
// to at most target and returns it.
func settledGoroutines(target int) int {
	deadline := time.Now().Add(10 * time.Second)
	n := runtime.NumGoroutine()
	for (target == 0 || n > target) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		prev := n
		n = runtime.NumGoroutine()
		if target == 0 && n == prev {
			return n // settled
		}
	}
	return n
}

// cycle creates a machine, uses it in one of several ways and closes it.
func (s *suite) cycle(t *testing.T, i int) {
	ctx := context.Background()
	m, err := s.f.Create(ctx, s.spec(nil))
	if err != nil {
		t.Fatalf("cycle %d: %v", i, err)
	}
	if err := s.use(ctx, m, i%4); err != nil {
		m.Close(ctx)
		t.Fatalf("cycle %d: %v", i, err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatalf("cycle %d: Close: %v", i, err)
	}
	if s.caps.Released != nil {
		if err := s.caps.Released(ctx, m); err != nil {
			t.Fatalf("cycle %d: after Close: %v", i, err)
		}
	}
}

func (s *suite) use(ctx context.Context, m machine.Machine, how int) error {
	switch how {
	case 0:
		r, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "echo hi > f; sleep 1000 & cat f"}, OutputLimit: 100})
		if err != nil || string(r.Stdout) != "hi\n" {
			return fmt.Errorf("run: %+v %v", r, err)
		}
	case 1:
		r, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 & " + s.caps.block()}, OutputLimit: 100, Timeout: 200 * time.Millisecond})
		if err != nil || r.Reason != machine.TimedOut {
			return fmt.Errorf("timeout: %+v %v", r, err)
		}
	case 2:
		cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		_, err := m.Run(cctx, machine.Command{Argv: []string{"sh", "-c", s.caps.block()}, OutputLimit: 10})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("cancel: %v", err)
		}
	case 3:
		// A process left open (and one running a background child) is
		// the machine's to stop.
		if pm, ok := m.(machine.ProcessMachine); ok {
			p, err := pm.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 & cat"}, OutputLimit: 10})
			if err != nil {
				return fmt.Errorf("open process: %v", err)
			}
			if _, err := p.Stdin().Write([]byte("x")); err != nil {
				return fmt.Errorf("process stdin: %v", err)
			}
		}
	}
	return nil
}
