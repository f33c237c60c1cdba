package shellsimbackend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// Machine is one ShellSim environment behind the machine contract. Every
// Run gets a fresh shell (no functions, options or unexported variables of
// earlier commands) over the machine's persistent files; the agent session
// (OpenSession) has one persistent shell.
type Machine struct {
	engine  *Engine
	spec    machine.Spec
	workdir string
	env     *shellsim.Environment
	egress  *egressLog // nil unless the spec is an allowlist (egress.go)

	mu     sync.Mutex
	closed bool
	gone   chan struct{} // closed by Close
}

var (
	_ machine.Machine        = (*Machine)(nil)
	_ machine.ProcessMachine = (*Machine)(nil)
)

func newMachine(e *Engine, spec machine.Spec, l shellsim.Limits) (*Machine, error) {
	m := &Machine{engine: e, spec: spec, workdir: spec.Workdir, env: shellsim.NewEnvironment(l), gone: make(chan struct{})}
	if m.workdir == "" {
		m.workdir = "/work"
	}
	if spec.Network == machine.NetworkAllowlist {
		var err error
		if m.egress, err = newEgressLog(spec, fmt.Sprintf("shellsim-%p", m)); err != nil {
			return nil, &machine.StartupError{Backend: Backend, Err: err}
		}
	}
	for _, r := range e.routes {
		if m.egress != nil && !m.egress.allowsRoute(r) {
			continue
		}
		if err := m.env.AddRoute(r); err != nil {
			return nil, &machine.StartupError{Backend: Backend, Err: err}
		}
	}
	if err := m.env.Mkdir(m.workdir, 0o755); err != nil {
		return nil, &machine.StartupError{Backend: Backend, Err: fmt.Errorf("creating the workdir: %w", err)}
	}
	return m, nil
}

// Environment is the machine's ShellSim environment (for embedders and
// tests).
func (m *Machine) Environment() *shellsim.Environment { return m.env }

// Workdir is the machine's working directory.
func (m *Machine) Workdir() string { return m.workdir }

// StopReason is the resource whose exhaustion ended the machine, or "".
func (m *Machine) StopReason() string { return m.env.StopReason() }

func (m *Machine) check() error {
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return machine.ErrClosed
	}
	if r := m.env.StopReason(); r != "" {
		return &machine.TerminatedError{Reason: r}
	}
	return nil
}

func checkUser(u string) error {
	switch u {
	case "", "0", "root":
		return nil
	}
	return unsupported("user", fmt.Sprintf("ShellSim runs every command as root, not %q", u))
}

// Source is the shell text that runs argv: each word quoted, so a plain
// argv runs the named command and ["sh", "-c", script] a child shell.
func Source(argv []string) (string, error) {
	words := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			return "", &machine.InvalidSpec{Field: "argv", Reason: fmt.Sprintf("argument %d cannot be passed to ShellSim: %v", i, err)}
		}
		words[i] = q
	}
	return strings.Join(words, " "), nil
}

func (m *Machine) resolve(p string) string {
	if p == "" {
		return m.workdir
	}
	return command.Join(m.workdir, p)
}

// limitedBuffer keeps the first limit bytes and counts the rest.
type limitedBuffer struct {
	limit     int
	buf       []byte
	truncated bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	room := b.limit - len(b.buf)
	if room >= len(p) {
		b.buf = append(b.buf, p...)
	} else {
		if room > 0 {
			b.buf = append(b.buf, p[:room]...)
		}
		b.truncated = true
	}
	return len(p), nil
}

// Run executes cmd.Argv with fresh shell state in the machine's files.
func (m *Machine) Run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	if err := cmd.Validate(); err != nil {
		return machine.Result{}, err
	}
	if err := checkUser(cmd.User); err != nil {
		return machine.Result{}, err
	}
	for k := range cmd.Env {
		if !validName(k) {
			return machine.Result{}, &machine.InvalidSpec{Field: "env", Reason: fmt.Sprintf("invalid variable name %q", k)}
		}
	}
	if err := m.check(); err != nil {
		return machine.Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return machine.Result{}, err // never start what is already cancelled
	}
	defer m.recordEgress()
	src, err := Source(cmd.Argv)
	if err != nil {
		return machine.Result{}, err
	}
	stdout := &limitedBuffer{limit: cmd.OutputLimit}
	stderr := &limitedBuffer{limit: cmd.OutputLimit}
	dir := m.resolve(cmd.Cwd)
	var dirErr error
	_ = m.env.WithFS(func(fsys *vfs.FS) error {
		fi, err := fsys.Stat(dir)
		if err == nil && !fi.IsDir() {
			err = command.ErrNotDir
		}
		dirErr = err
		return nil
	})
	if dirErr != nil {
		fmt.Fprintf(stderr, "shellsim: cannot change directory to %s: %s\n", dir, command.Message(dirErr))
		return machine.ExitedWith(1, stdout.buf, stderr.buf, stdout.truncated, stderr.truncated), nil
	}
	env := maps.Clone(m.spec.Env)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, cmd.Env)
	runCtx := ctx
	var cancel context.CancelFunc = func() {}
	if cmd.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, cmd.Timeout)
	}
	defer cancel()
	res := m.env.Execute(runCtx, shellsim.Action{Source: src, Stdin: cmd.Stdin, Stdout: stdout, Stderr: stderr,
		Fresh: true, Dir: dir, Env: env}, true)
	if res.Cancelled {
		if err := ctx.Err(); err != nil {
			return machine.Result{}, err
		}
		if m.isClosed() {
			return machine.Result{}, machine.ErrClosed
		}
		if errors.Is(runCtx.Err(), context.DeadlineExceeded) {
			return machine.Result{Stdout: stdout.buf, Stderr: stderr.buf, StdoutTruncated: stdout.truncated,
				StderrTruncated: stderr.truncated, Reason: machine.TimedOut}, nil
		}
	}
	if r := res.Outcome.StopReason; r != nil {
		fmt.Fprintf(stderr, "shellsim: %s: the machine is stopped\n", *r)
	}
	return machine.ExitedWith(res.Outcome.ExitStatus, stdout.buf, stderr.buf, stdout.truncated, stderr.truncated), nil
}

func (m *Machine) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// Close ends the machine: background jobs are killed and the files dropped.
func (m *Machine) Close(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()
	close(m.gone)
	m.env.Interrupt() // a running command stops instead of delaying Close
	m.recordEgress()  // the agent session's requests too
	m.egress.close()
	m.env.Close()
	return nil
}

// OpenProcess starts cmd as a process whose stdin is collected until it is
// closed; the command then runs to completion (ShellSim commands are not
// interactive: a command sees its whole input at once).
func (m *Machine) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	if err := cmd.Validate(); err != nil {
		return nil, err
	}
	if err := checkUser(cmd.User); err != nil {
		return nil, err
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	p := &process{m: m, cmd: cmd, done: make(chan struct{})}
	p.stdin = &stdinCollector{p: p}
	return p, nil
}

type process struct {
	m      *Machine
	cmd    machine.Command
	stdin  *stdinCollector
	stdout []byte

	once sync.Once
	done chan struct{}
	exit machine.ProcessExit
	err  error
}

type stdinCollector struct {
	p      *process
	mu     sync.Mutex
	data   []byte
	closed bool
}

func (s *stdinCollector) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, io.ErrClosedPipe
	}
	s.data = append(s.data, b...)
	return len(b), nil
}

func (s *stdinCollector) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	data := s.data
	s.mu.Unlock()
	s.p.start(data)
	return nil
}

func (p *process) start(stdin []byte) {
	p.once.Do(func() {
		go func() {
			defer close(p.done)
			c := p.cmd
			c.Stdin = stdin
			c.OutputLimit = max(c.OutputLimit, 0)
			res, err := p.m.Run(context.Background(), c)
			p.err = err
			if err == nil {
				if res.ExitCode != nil {
					p.exit.ExitCode = *res.ExitCode
				} else {
					p.exit.ExitCode = 137
				}
				p.exit.Stderr, p.exit.StderrTruncated = res.Stderr, res.StderrTruncated
				p.stdout = res.Stdout
			}
		}()
	})
}

func (p *process) Stdin() io.WriteCloser { return p.stdin }
func (p *process) Stdout() io.Reader     { return processOutput{p} }

// processOutput is the process's stdout: available once it has run.
type processOutput struct{ p *process }

func (o processOutput) Read(b []byte) (int, error) {
	<-o.p.done
	if len(o.p.stdout) == 0 {
		return 0, io.EOF
	}
	n := copy(b, o.p.stdout)
	o.p.stdout = o.p.stdout[n:]
	return n, nil
}

func (p *process) Wait(ctx context.Context) (machine.ProcessExit, error) {
	select {
	case <-p.done:
		return p.exit, p.err
	case <-ctx.Done():
		return machine.ProcessExit{}, ctx.Err()
	}
}

func (p *process) Close(ctx context.Context) error {
	p.stdin.mu.Lock()
	started := p.stdin.closed
	p.stdin.closed = true
	p.stdin.mu.Unlock()
	if !started {
		// It will never run: it is done, and closed for whoever waits.
		p.once.Do(func() {
			p.err = machine.ErrClosed
			close(p.done)
		})
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}
