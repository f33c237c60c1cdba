package execd

import (
	"context"
	"io"
	"sync"
	"syscall"

	"github.com/shellbox/shellbox/lib/machine"
)

// ProcessSet holds the processes a machine served by execd has open, as
// machine.Process values, so that closing the machine aborts them.
type ProcessSet struct {
	// OpError turns an error of a process's call into the machine's error.
	OpError func(context.Context, error) error

	mu     sync.Mutex
	procs  map[*setProcess]struct{}
	closed bool
}

// Add wraps p as a machine.Process; after Close it aborts p and returns
// machine.ErrClosed.
func (s *ProcessSet) Add(p *Process) (machine.Process, error) {
	proc := &setProcess{set: s, p: p}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		p.Abort()
		return nil, machine.ErrClosed
	}
	if s.procs == nil {
		s.procs = map[*setProcess]struct{}{}
	}
	s.procs[proc] = struct{}{}
	return proc, nil
}

// Close aborts every process and refuses later ones.
func (s *ProcessSet) Close() {
	s.mu.Lock()
	procs := s.procs
	s.procs, s.closed = nil, true
	s.mu.Unlock()
	for p := range procs {
		p.p.Abort()
	}
}

type setProcess struct {
	set *ProcessSet
	p   *Process
}

func (p *setProcess) Stdin() io.WriteCloser { return p.p.Stdin() }
func (p *setProcess) Stdout() io.Reader     { return p.p.Stdout() }

// Wait reports a timed-out process as killed by SIGKILL, as a shell would.
func (p *setProcess) Wait(ctx context.Context) (machine.ProcessExit, error) {
	exit, stderr, err := p.p.Wait(ctx)
	if err != nil {
		return machine.ProcessExit{}, p.set.OpError(ctx, err)
	}
	code := exit.Code
	if exit.TimedOut {
		code = 128 + int(syscall.SIGKILL)
	}
	return machine.ProcessExit{ExitCode: code, Stderr: stderr, StderrTruncated: exit.StderrTruncated}, nil
}

func (p *setProcess) Close(ctx context.Context) error {
	p.set.mu.Lock()
	delete(p.set.procs, p)
	p.set.mu.Unlock()
	if err := p.p.Close(ctx); err != nil {
		return p.set.OpError(ctx, err)
	}
	return nil
}
