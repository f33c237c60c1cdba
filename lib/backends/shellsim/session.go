package shellsimbackend

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
	"github.com/shellbox/shellbox/lib/shellsim"
)

// Session is the machine's persistent shell for an agent: cd, exports,
// functions and options carry over between commands. It is not
// interactive: each Execute runs a complete command (Write and Interrupt
// are refused). When the shell exits, the next command gets a fresh shell
// in the session's directory with its environment (Status Reset).
type Session struct {
	m    *Machine
	opts shell.Options

	mu      sync.Mutex
	started bool
	closed  bool
}

var _ shell.Session = (*Session)(nil)

// OpenSession opens the persistent shell. It runs in the main shell of the
// machine's environment, so only one session per machine keeps state.
func (m *Machine) OpenSession(opts shell.Options) (shell.Session, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	for k := range opts.Env {
		if !validName(k) {
			return nil, &machine.InvalidSpec{Field: "env", Reason: fmt.Sprintf("invalid variable name %q", k)}
		}
	}
	return &Session{m: m, opts: opts}, nil
}

// Interactive is false.
func (s *Session) Interactive() bool { return false }

func (s *Session) prelude() (string, error) {
	env := maps.Clone(s.m.spec.Env)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, s.opts.Env)
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	dir, err := Source([]string{s.m.resolve(s.opts.Cwd)})
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "cd -- %s || exit 1\n", dir)
	for _, k := range keys {
		v, err := Source([]string{env[k]})
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "export %s=%s\n", k, v)
	}
	return b.String(), nil
}

// Execute runs command in the persistent shell. A positive wait bounds it
// in host time; a command still running then is stopped (status 137) and
// reported Completed without an exit code. Output is stdout and stderr in
// the order written, cut at outputLimit.
func (s *Session) Execute(ctx context.Context, command string, wait time.Duration, outputLimit int) (shell.Update, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return shell.Update{}, machine.ErrClosed
	}
	if err := s.m.check(); err != nil {
		return shell.Update{}, err
	}
	if !s.started {
		src, err := s.prelude()
		if err != nil {
			return shell.Update{}, err
		}
		res := s.m.env.Execute(ctx, shellsim.Action{Source: src}, true)
		if res.Outcome.ExitStatus != 0 {
			return shell.Update{}, fmt.Errorf("starting the ShellSim shell failed (status %d): %s", res.Outcome.ExitStatus, res.Stderr)
		}
		s.started = true
	}
	out := &limitedBuffer{limit: max(outputLimit, 0)}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if wait > 0 {
		runCtx, cancel = context.WithTimeout(ctx, wait)
	}
	defer cancel()
	res := s.m.env.Execute(runCtx, shellsim.Action{Source: command, Stdout: out, Stderr: out}, true)
	if res.Cancelled {
		if err := ctx.Err(); err != nil {
			return shell.Update{}, err
		}
		return shell.Update{Output: out.buf, Status: shell.Completed, Truncated: out.truncated}, nil
	}
	if r := res.Outcome.StopReason; r != nil {
		fmt.Fprintf(out, "shellsim: %s: the machine is stopped\n", *r)
	}
	code := res.Outcome.ExitStatus
	up := shell.Update{Output: out.buf, Status: shell.Completed, ExitCode: &code, Truncated: out.truncated}
	if res.ShellExited {
		up.Status = shell.Reset
		s.started = false
	}
	return up, nil
}

// Read has nothing to read: every command already completed.
func (s *Session) Read(ctx context.Context, wait time.Duration, outputLimit int) (shell.Update, error) {
	return shell.Update{Output: []byte{}, Status: shell.Completed}, nil
}

// Write is refused.
func (s *Session) Write(ctx context.Context, data []byte) error { return shell.ErrUnsupported }

// Interrupt is refused.
func (s *Session) Interrupt(ctx context.Context) error { return shell.ErrUnsupported }

// Close ends the session; the machine stays the owner's.
func (s *Session) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return nil
}
