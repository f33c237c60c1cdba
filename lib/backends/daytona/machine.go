package daytona

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/remotemachine"
	"github.com/shellbox/shellbox/lib/remote/shwrap"
	"github.com/shellbox/shellbox/lib/transfer"
)

// stopTimeout bounds the exec that stops a timed-out or cancelled
// command's process group.
const stopTimeout = 10 * time.Second

// execPadding is added to a command's timeout for the toolbox's own limit
// on the wrapper, so that the toolbox only ends a wrapper this client
// forgot.
const execPadding = 10

// Machine is one Daytona sandbox.
type Machine struct {
	f       *Factory
	sandbox *Sandbox
	tb      *Toolbox
	spec    machine.Spec
	life    *remotemachine.Lifetime
	workdir *remotemachine.Workdir

	// procsMu guards procs, the open processes; closing ends them (a
	// process is added only while the machine is open).
	procsMu sync.Mutex
	procs   map[*process]struct{}
}

func newMachine(f *Factory, sb *Sandbox, tb *Toolbox, spec machine.Spec) *Machine {
	m := &Machine{f: f, sandbox: sb, tb: tb, spec: spec, workdir: remotemachine.NewWorkdir(spec.Workdir), procs: map[*process]struct{}{}}
	m.life = remotemachine.NewLifetime(m.explain)
	return m
}

// SandboxID is the sandbox's id at the service.
func (m *Machine) SandboxID() string { return m.sandbox.ID }

// explain reports a failed operation's error (remotemachine.Explain):
// MachineTerminated when the sandbox is gone or stopped.
func (m *Machine) explain(ctx context.Context, what string, err error) error {
	if st := statusOf(err); st == http.StatusNotFound || st == http.StatusConflict {
		// The toolbox no longer serves the sandbox: deleted (its TTL,
		// someone else) or stopped.
		gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		sb, gerr := m.f.client.GetSandbox(gctx, m.sandbox.ID)
		cancel()
		switch {
		case IsNotFound(gerr):
			return fmt.Errorf("%w (%s: %v)", &machine.TerminatedError{Reason: "Daytona sandbox " + m.sandbox.ID + " was deleted"}, what, err)
		case gerr == nil && sb.State != StateStarted:
			return fmt.Errorf("%w (%s: %v)", &machine.TerminatedError{Reason: fmt.Sprintf("Daytona sandbox %s is %s", m.sandbox.ID, sb.State)}, what, err)
		}
	}
	return fmt.Errorf("daytona sandbox %s: %s: %w", m.sandbox.ID, what, err)
}

// exec runs a wrapper script and returns its reply.
func (m *Machine) exec(ctx context.Context, script string, env map[string]string, timeout time.Duration) (ExecuteResponse, error) {
	req := ExecuteRequest{Command: script, Envs: env}
	if timeout > 0 {
		t := int(math.Ceil(timeout.Seconds())) + execPadding
		req.Timeout = &t
	}
	return m.tb.Execute(ctx, req)
}

// Run runs cmd through the wrapper of runScript.
func (m *Machine) Run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	if err := cmd.Validate(); err != nil {
		return machine.Result{}, err
	}
	for k := range cmd.Env {
		if !shwrap.ValidEnvName(k) {
			return machine.Result{}, &machine.InvalidSpec{Field: "env", Reason: fmt.Sprintf("%q is not a variable name a shell can export", k)}
		}
	}
	return remotemachine.Do(ctx, m.life, "run", func(ctx context.Context) (machine.Result, error) { return m.run(ctx, cmd) })
}

func (m *Machine) run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	dir := shwrap.PrivateDir()
	if len(cmd.Stdin) > 0 {
		if err := m.tb.Upload(ctx, dir+"/in", bytes.NewReader(cmd.Stdin)); err != nil {
			return machine.Result{}, fmt.Errorf("uploading stdin: %w", err)
		}
	}
	cwd := cmd.Cwd
	if cwd == "" {
		cwd = m.spec.Workdir
	}
	if cwd == "" {
		cwd = "/"
	}
	rctx := ctx
	if cmd.Timeout > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, cmd.Timeout)
		defer cancel()
	}
	// The command's environment is exported by the script rather than sent
	// as the request's envs, so the toolbox starts a plain shell.
	script := shwrap.RunScript(shwrap.RunOptions{Dir: dir, Cwd: cwd, User: cmd.User, Argv: cmd.Argv, Env: cmd.Env,
		Stdin: len(cmd.Stdin) > 0, Limit: cmd.OutputLimit, Prelude: m.workdir.Prelude()})
	resp, err := m.exec(rctx, script, nil, cmd.Timeout)
	if err != nil {
		if rctx.Err() == nil || m.life.Closed() {
			m.cleanup(dir)
			return machine.Result{}, err
		}
		// The deadline or the caller's cancellation: stop the group.
		p, serr := m.stop(dir, cmd.OutputLimit)
		if serr != nil {
			m.closeAfter(serr)
			return machine.Result{}, &machine.InfrastructureError{Op: "stopping the command's process group", Err: serr}
		}
		if ctx.Err() != nil {
			return machine.Result{}, ctx.Err()
		}
		r, err := m.result(context.WithoutCancel(ctx), dir, p, cmd.OutputLimit)
		r.ExitCode, r.Reason = nil, machine.TimedOut
		return r, err
	}
	p, err := shwrap.ParseReply(resp.Result)
	if err != nil {
		m.cleanup(dir)
		return machine.Result{}, err
	}
	m.workdir.Made()
	if p.Marker != "" {
		return machine.Result{}, m.markerErr(p.Marker, cmd.User)
	}
	return m.result(ctx, dir, p, cmd.OutputLimit)
}

// markerErr is the error of a wrapper's refusal marker.
func (m *Machine) markerErr(marker, user string) error {
	switch marker {
	case shwrap.NoSetsid:
		return m.f.unsupported("source", "the image has no setsid, which stopping a command's process group needs")
	case shwrap.NoUser:
		return m.f.unsupported("user", fmt.Sprintf("no account %q in the sandbox", user))
	case shwrap.NoSu:
		return m.f.unsupported("user", "the sandbox's su has neither --session-command (util-linux) nor BusyBox's -c, which keep the command's process group")
	}
	return fmt.Errorf("daytona: the command wrapper answered %s", marker)
}

// result builds the Result of a reply, downloading the streams when the
// reply did not carry them.
func (m *Machine) result(ctx context.Context, dir string, p shwrap.Reply, limit int) (machine.Result, error) {
	if !p.Inline {
		defer m.cleanup(dir)
		var err error
		if p.Stdout, err = m.head(ctx, dir+"/out", limit); err != nil {
			return machine.Result{}, err
		}
		if p.Stderr, err = m.head(ctx, dir+"/err", limit); err != nil {
			return machine.Result{}, err
		}
	}
	return machine.ExitedWith(p.Code, p.Stdout, p.Stderr, p.OutLen > int64(limit), p.ErrLen > int64(limit)), nil
}

// head downloads the first limit bytes of a file.
func (m *Machine) head(ctx context.Context, file string, limit int) ([]byte, error) {
	if limit == 0 {
		return nil, nil
	}
	rc, err := m.tb.Download(ctx, file)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, int64(limit)))
}

// stop kills the command's process group and returns the output so far.
func (m *Machine) stop(dir string, limit int) (shwrap.Reply, error) {
	ctx, cancel := context.WithTimeout(m.life.Context(), stopTimeout)
	defer cancel()
	resp, err := m.exec(ctx, shwrap.StopScript(dir, limit), nil, 0)
	if err != nil {
		return shwrap.Reply{}, err
	}
	return shwrap.ParseStopReply(resp.Result)
}

// cleanup removes a command's directory, best effort.
func (m *Machine) cleanup(dir string) {
	ctx, cancel := context.WithTimeout(m.life.Context(), stopTimeout)
	defer cancel()
	_, _ = m.exec(ctx, "rm -rf "+shwrap.Quote(dir), nil, 0)
}

// closeAfter closes the machine after a failure that leaves it in an
// unknown state (a process group that could not be stopped).
func (m *Machine) closeAfter(cause error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = m.Close(ctx)
}

// Upload copies a host file or directory to target: a file goes to a
// temporary path by the toolbox's upload and is copied into place with its
// mode; a directory goes as a tar archive extracted into target.
func (m *Machine) Upload(ctx context.Context, source, target string) error {
	target, err := remotemachine.UploadPaths(source, target)
	if err != nil {
		return err
	}
	return m.life.Do(ctx, "upload", func(ctx context.Context) error { return m.upload(ctx, source, target) })
}

func (m *Machine) upload(ctx context.Context, source, target string) error {
	_, script, err := remotemachine.Stage(ctx, source, target, m.tb.Upload)
	if err != nil {
		return err
	}
	r, err := m.exec(ctx, m.workdir.Prelude()+script, nil, 0)
	if err != nil {
		return err
	}
	if r.ExitCode != 0 {
		return &machine.PathError{Op: "write", Path: target, Reason: strings.TrimSpace(shwrap.Truncate(r.Result, 2000))}
	}
	m.workdir.Made()
	return nil
}

// Download copies source out of the sandbox: a file through the toolbox's
// download, a directory as a tar archive made in the sandbox. Both are
// extracted by lib/transfer, which treats the archive as hostile and
// applies opts.
func (m *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	source, err := remotemachine.DownloadPaths(source, target)
	if err != nil {
		return err
	}
	return m.life.Do(ctx, "download", func(ctx context.Context) error { return m.download(ctx, source, target, opts) })
}

func (m *Machine) download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	archive := shwrap.PrivateDir() + ".tar"
	r, err := m.exec(ctx, m.workdir.Prelude()+shwrap.ProbeScript(source, archive), nil, 0)
	if err != nil {
		return err
	}
	probe, err := remotemachine.ParseProbe(source, r.Result)
	if err != nil {
		return err
	}
	if probe.Dir {
		defer m.cleanup(archive)
		rc, err := m.tb.Download(ctx, archive)
		if err != nil {
			return err
		}
		defer rc.Close()
		return transfer.Extract(ctx, rc, target, transfer.ForDownload(opts))
	}
	if max, bounded := transfer.Bound(opts); bounded && probe.Size > max {
		return &machine.DownloadLimitExceeded{Path: source, Limit: max}
	}
	rc, err := m.tb.Download(ctx, source)
	if err != nil {
		return err
	}
	defer rc.Close()
	return remotemachine.ExtractFile(ctx, rc, source, probe.Mode, probe.Size, target, opts)
}

// Close deletes the sandbox (the snapshot stays for reuse) and ends the
// machine's open processes and requests.
func (m *Machine) Close(ctx context.Context) error {
	return m.life.Close(ctx, func(ctx context.Context) error {
		m.procsMu.Lock()
		procs := m.procs
		m.procs = nil
		m.procsMu.Unlock()
		for p := range procs {
			p.abort(machine.ErrClosed)
		}
		dctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := m.f.client.DeleteSandbox(dctx, m.sandbox.ID); err != nil && !IsNotFound(err) {
			return &machine.InfrastructureError{Op: "deleting sandbox " + m.sandbox.ID, Err: err}
		}
		return nil
	})
}
