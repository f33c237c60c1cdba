package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/backends/local/cgroup"
	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/execd"
	"github.com/shellbox/shellbox/lib/machine"
)

// Machine is one local sandbox.
type Machine struct {
	f      *Factory
	dir    string
	lock   *os.File           // dir's lock (see newMachineDir)
	group  *cgroup.Group      // nil without cgroups
	limits *cgroup.LimitGroup // cgroup_parent's CPU and memory cgroups; nil without
	cmd    *exec.Cmd
	exited chan struct{}
	stderr *boundedBuffer
	// lifeline's closing makes the helper exit.
	lifeline *os.File
	client   *execd.Client
	plan     *layoutPlan
	spec     machine.Spec

	procs execd.ProcessSet // open processes, aborted by Close

	egress    *egress.Guard     // nil unless the network is filtered (egress_linux.go)
	egressEnv map[string]string // the proxy variables of a filtered network

	mu        sync.Mutex
	closed    bool
	expired   bool        // closed by its TTL
	ttl       *time.Timer // nil without a TTL
	closeDone chan struct{}
	closeErr  error
}

var (
	_ machine.Machine         = (*Machine)(nil)
	_ machine.ProcessMachine  = (*Machine)(nil)
	_ machine.NetworkSwitcher = (*Machine)(nil)
)

// Root is the host directory that holds the machine's writable root.
func (m *Machine) Root() string { return filepath.Join(m.dir, "root") }

func (m *Machine) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// request builds the exec request of a command.
func (m *Machine) request(cmd machine.Command) (execd.Request, error) {
	if err := cmd.Validate(); err != nil {
		return execd.Request{}, err
	}
	req := execd.Request{Argv: cmd.Argv, Dir: cmd.Cwd, OutputLimit: cmd.OutputLimit,
		TimeoutMS: cmd.Timeout.Milliseconds(), OffHeapOutput: cmd.OffHeapOutput}
	if cmd.Timeout > 0 && req.TimeoutMS == 0 {
		req.TimeoutMS = 1
	}
	if req.Dir == "" {
		req.Dir = m.plan.workdir
	}
	user := m.plan.defUser
	if cmd.User != "" {
		id, err := m.plan.users.lookup(cmd.User)
		if err != nil {
			return req, &machine.UnsupportedSpec{Backend: Name, Field: "user", Reason: err.Error()}
		}
		user = &id
	}
	home := map[string]string{}
	if user != nil && user.uid != m.plan.sandboxUID {
		if !m.f.root {
			return req, &machine.UnsupportedSpec{Backend: Name, Field: "user",
				Reason: fmt.Sprintf("running as uid %d needs a host process running as root (without root a machine has only uid %d)", user.uid, m.plan.sandboxUID)}
		}
		req.SwitchUser, req.UID, req.GID = true, user.uid, user.gid
		if _, isImage := m.spec.Source.(machine.PreparedImage); isImage && user.home != "" {
			home["HOME"] = user.home
		}
	}
	m.mu.Lock()
	proxyEnv := m.egressEnv
	m.mu.Unlock()
	req.Env = envList(m.plan.baseEnv, home, proxyEnv, m.spec.Env, cmd.Env)
	return req, nil
}

// Run executes a command in the sandbox.
func (m *Machine) Run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	wait, err := m.StartRun(ctx, cmd)
	if err != nil {
		return machine.Result{}, err
	}
	return wait()
}

// StartRun starts cmd as Run does and returns at once; wait, which must be
// called once, waits for its end and returns what Run returns (see
// execd.Client.ExecStart).
func (m *Machine) StartRun(ctx context.Context, cmd machine.Command) (wait func() (machine.Result, error), err error) {
	if m.isClosed() {
		return nil, m.closedErr()
	}
	req, err := m.request(cmd)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // never start what is already cancelled
	}
	var cpu0 uint64
	if m.limits != nil {
		m.limits.ResetPeak()
		cpu0, _ = m.limits.Usage()
	}
	execWait, startErr := m.client.ExecStart(ctx, req, cmd.Stdin)
	return func() (machine.Result, error) {
		if startErr != nil {
			// Mapped here: opError may wait for the helper's exit.
			return machine.Result{}, m.opError(ctx, startErr)
		}
		res, err := execWait()
		if err != nil {
			return machine.Result{}, m.opError(ctx, err)
		}
		var out machine.Result
		if res.TimedOut {
			out = machine.Result{Stdout: res.Stdout, Stderr: res.Stderr, StdoutTruncated: res.StdoutTruncated,
				StderrTruncated: res.StderrTruncated, Reason: machine.TimedOut}
		} else {
			out = machine.ExitedWith(res.Code, res.Stdout, res.Stderr, res.StdoutTruncated, res.StderrTruncated)
		}
		out.Free = res.Free
		if m.limits != nil {
			cpu1, peak := m.limits.Usage()
			d := time.Duration(cpu1 - min(cpu0, cpu1))
			out.Usage = &machine.ResourceUsage{CPUTime: d, CPUSeconds: d.Seconds(), PeakMemoryBytes: peak}
		}
		return out, nil
	}, nil
}

// helperExitWait bounds how long a broken connection waits for the
// sandbox's exit before it is reported as it is.
const helperExitWait = 10 * time.Second

// opError maps a client error onto the machine contract.
func (m *Machine) opError(ctx context.Context, err error) error {
	var stop *execd.StopError
	var conn *execd.ConnError
	var fail *execd.Failure
	switch {
	case errors.As(err, &stop):
		m.Close(context.Background())
		return &machine.InfrastructureError{Op: "stopping a command", Err: err}
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &conn):
		if m.isClosed() {
			return m.closedErr()
		}
		// A helper that died breaks its connections at once; the
		// launcher's exit, which says so, follows (late on a busy host).
		t := time.NewTimer(helperExitWait)
		defer t.Stop()
		select {
		case <-m.exited:
			return &machine.TerminatedError{Reason: "the sandbox exited: " + m.stderr.String()}
		case <-t.C:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	case errors.As(err, &fail):
		return fail.Err(Name)
	}
	return err
}

// checkTarget refuses a guest path that is not absolute or that lies in a
// read-only directory.
func (m *Machine) checkGuest(field, p string, write bool) error {
	if !path.IsAbs(p) {
		return &machine.InvalidSpec{Field: field, Reason: fmt.Sprintf("must be an absolute path, got %q", p)}
	}
	for _, part := range splitPath(p) {
		if part == ".." {
			return &machine.InvalidSpec{Field: field, Reason: fmt.Sprintf("must not contain \"..\" components, got %q", p)}
		}
	}
	if write && underAny(path.Clean(p), m.plan.readOnly) {
		return &machine.UnsupportedSpec{Backend: Name, Field: field, Reason: fmt.Sprintf("%s is inside a read-only directory", p)}
	}
	return nil
}

func splitPath(p string) []string {
	var parts []string
	cur := ""
	for _, c := range p {
		if c == '/' {
			if cur != "" {
				parts = append(parts, cur)
			}
			cur = ""
			continue
		}
		cur += string(c)
	}
	if cur != "" {
		parts = append(parts, cur)
	}
	return parts
}

// Upload copies a host file or directory into the machine.
func (m *Machine) Upload(ctx context.Context, source, target string) error {
	if m.isClosed() {
		return m.closedErr()
	}
	if err := m.checkGuest("target", target, true); err != nil {
		return err
	}
	if err := m.uploadDirect(source, target); !errors.Is(err, errNotDirect) {
		return err
	}
	if err := m.client.Upload(ctx, source, path.Clean(target), m.plan.links); err != nil {
		return m.opError(ctx, err)
	}
	return nil
}

// Download copies a file or directory out of the machine.
func (m *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	if m.isClosed() {
		return m.closedErr()
	}
	if err := m.checkGuest("source", source, false); err != nil {
		return err
	}
	if err := m.downloadDirect(ctx, source, target, opts); !errors.Is(err, errNotDirect) {
		return err
	}
	if err := m.client.Download(ctx, path.Clean(source), target, m.plan.links, opts.MaxBytes); err != nil {
		return m.opError(ctx, err)
	}
	return nil
}

// OpenProcess starts a command with raw pipes in the same sandbox.
func (m *Machine) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	return m.start(ctx, cmd, false)
}

// OpenTerminal starts a command on a fresh pseudo-terminal inside the
// sandbox (allocated by the helper with creack/pty): the Process's stdin is
// the terminal's input and its stdout the terminal's output. The command
// leads a new session, so Ctrl-C written to the terminal interrupts its
// foreground job. It makes Machine a shell.Terminal.
func (m *Machine) OpenTerminal(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	return m.start(ctx, cmd, true)
}

func (m *Machine) start(ctx context.Context, cmd machine.Command, tty bool) (machine.Process, error) {
	if m.isClosed() {
		return nil, m.closedErr()
	}
	req, err := m.request(cmd)
	if err != nil {
		return nil, err
	}
	req.TTY = tty
	p, err := m.client.Start(ctx, req)
	if err != nil {
		return nil, m.opError(ctx, err)
	}
	return m.procs.Add(p)
}

// closeTimeout bounds how long Close waits for the sandbox to exit by
// itself before killing bubblewrap.
const closeTimeout = 2 * time.Second

// closedErr is what an operation after Close returns: a machine its TTL
// closed has been terminated, not closed by its caller.
func (m *Machine) closedErr() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.expired {
		return &machine.TerminatedError{Reason: "its ttl ran out"}
	}
	return machine.ErrClosed
}

// expire closes the machine when its TTL runs out.
func (m *Machine) expire() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.expired = true
	m.mu.Unlock()
	m.Close(context.Background())
}

// Close stops the sandbox and removes the machine's directory.
func (m *Machine) Close(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		done := m.closeDone
		m.mu.Unlock()
		<-done
		return nil
	}
	m.closed = true
	m.closeDone = make(chan struct{})
	if m.ttl != nil {
		m.ttl.Stop()
	}
	guard := m.egress
	m.mu.Unlock()
	m.procs.Close()
	defer close(m.closeDone)
	if guard != nil {
		guard.Close()
	}
	if err := m.stop(); err != nil {
		m.closeErr = err
		return err
	}
	return nil
}

// stop waits for bubblewrap to exit (killing it if it does not), which
// also ends every process of the sandbox, and removes the directory.
func (m *Machine) stop() error {
	m.client.Close()
	m.lifeline.Close()
	select {
	case <-m.exited:
	case <-time.After(closeTimeout):
		m.cmd.Process.Kill()
		select {
		case <-m.exited:
		case <-time.After(closeTimeout):
			return &machine.InfrastructureError{Op: "stopping the sandbox", Err: errors.New("bubblewrap did not exit after SIGKILL")}
		}
	}
	// The launcher removes the cgroup once it is empty; this covers a
	// launcher that was killed.
	if m.group != nil {
		m.group.Kill()
		m.group.Remove()
	}
	if m.limits != nil {
		m.limits.Kill()
		m.limits.Remove()
	}
	err := removeTree(m.dir)
	m.lock.Close()
	if err != nil {
		return &machine.InfrastructureError{Op: "removing the machine directory", Err: err}
	}
	return nil
}

// removeTree removes a directory, making read-only directories writable
// first when plain removal fails (a non-root host).
func removeTree(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
