package shell

import (
	"context"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// OneShot is a non-interactive Session: each Execute runs the command as
// one complete shell process on a machine (nothing but files persists
// between commands), and Write and Interrupt are refused.
type OneShot struct {
	m machine.Machine
	// Shell is the program prefix the command is appended to; nil means
	// sh -c.
	Shell []string
	Env   map[string]string
	Cwd   string

	mu     sync.Mutex
	closed bool
}

// NewOneShot is a non-interactive session over m.
func NewOneShot(m machine.Machine, opts Options) *OneShot {
	return &OneShot{m: m, Env: opts.Env, Cwd: opts.Cwd}
}

// Interactive is false.
func (s *OneShot) Interactive() bool { return false }

// Execute runs command to completion; a positive wait bounds it, and a
// command still running then is killed and reported Completed with no
// exit code. Output is stdout followed by stderr, cut at outputLimit.
func (s *OneShot) Execute(ctx context.Context, command string, wait time.Duration, outputLimit int) (Update, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return Update{}, machine.ErrClosed
	}
	argv := append([]string(nil), s.Shell...)
	if len(argv) == 0 {
		argv = []string{"sh", "-c"}
	}
	argv = append(argv, command)
	res, err := s.m.Run(ctx, machine.Command{Argv: argv, Env: s.Env, Cwd: s.Cwd, OutputLimit: max(outputLimit, 0), Timeout: max(wait, 0)})
	if err != nil {
		return Update{}, err
	}
	out, trunc := appendLimited(nil, res.Stdout, outputLimit, res.StdoutTruncated)
	out, trunc = appendLimited(out, res.Stderr, outputLimit, trunc || res.StderrTruncated)
	return Update{Output: out, Status: Completed, ExitCode: res.ExitCode, Truncated: trunc}, nil
}

// Read has nothing to read: every command already completed.
func (s *OneShot) Read(ctx context.Context, wait time.Duration, outputLimit int) (Update, error) {
	return Update{Output: []byte{}, Status: Completed}, nil
}

// Write is refused.
func (s *OneShot) Write(ctx context.Context, data []byte) error { return ErrUnsupported }

// Interrupt is refused.
func (s *OneShot) Interrupt(ctx context.Context) error { return ErrUnsupported }

// Close marks the session closed; the machine stays the owner's.
func (s *OneShot) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return nil
}
