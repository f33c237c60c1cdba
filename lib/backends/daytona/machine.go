package daytona

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
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

	// ctx ends when the machine closes, aborting every request in flight.
	ctx    context.Context
	cancel context.CancelFunc

	// prepared is set once a script made the workdir.
	prepared atomic.Bool

	mu        sync.Mutex
	closed    bool
	closeErr  error
	closeDone chan struct{}
	procs     map[*process]struct{}
}

func newMachine(f *Factory, sb *Sandbox, tb *Toolbox, spec machine.Spec) *Machine {
	ctx, cancel := context.WithCancel(context.Background())
	return &Machine{f: f, sandbox: sb, tb: tb, spec: spec, ctx: ctx, cancel: cancel, procs: map[*process]struct{}{}}
}

// SandboxID is the sandbox's id at the service.
func (m *Machine) SandboxID() string { return m.sandbox.ID }

func (m *Machine) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// opContext is ctx that also ends when the machine closes.
func (m *Machine) opContext(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if m.isClosed() {
		return nil, nil, machine.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	octx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(m.ctx, cancel)
	return octx, func() { stop(); cancel() }, nil
}

// opErr is err as the caller should see it: ErrClosed once the machine
// closed, the caller's context error when that ended.
func (m *Machine) opErr(ctx context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	if m.isClosed() {
		return machine.ErrClosed
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var (
		us *machine.UnsupportedSpec
		iv *machine.InvalidSpec
		pe *machine.PathError
		le *machine.DownloadLimitExceeded
		se *transfer.SpaceError
	)
	if errors.As(err, &us) || errors.As(err, &iv) || errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) {
		return err
	}
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

// prelude makes the workdir until a script did.
func (m *Machine) prelude() string {
	if m.spec.Workdir == "" || m.prepared.Load() {
		return ""
	}
	return "mkdir -p " + shwrap.Quote(m.spec.Workdir) + " || exit 1\n"
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
	octx, done, err := m.opContext(ctx)
	if err != nil {
		return machine.Result{}, err
	}
	defer done()
	res, err := m.run(octx, cmd)
	return res, m.opErr(ctx, "run", err)
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
		Stdin: len(cmd.Stdin) > 0, Limit: cmd.OutputLimit, Prelude: m.prelude()})
	resp, err := m.exec(rctx, script, nil, cmd.Timeout)
	if err != nil {
		if rctx.Err() == nil || m.isClosed() {
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
	m.prepared.Store(true)
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
	ctx, cancel := context.WithTimeout(m.ctx, stopTimeout)
	defer cancel()
	resp, err := m.exec(ctx, shwrap.StopScript(dir, limit), nil, 0)
	if err != nil {
		return shwrap.Reply{}, err
	}
	p, err := shwrap.ParseReply(resp.Result)
	if err != nil {
		return shwrap.Reply{}, err
	}
	switch p.Marker {
	case shwrap.StopFail:
		return p, errors.New("the process group still has members after SIGKILL")
	case shwrap.NoPid:
		// The wrapper never started the command (the request ended
		// before the toolbox ran it): nothing to stop, nothing printed.
		return shwrap.Reply{Code: -1, Inline: true}, nil
	}
	return p, nil
}

// cleanup removes a command's directory, best effort.
func (m *Machine) cleanup(dir string) {
	ctx, cancel := context.WithTimeout(m.ctx, stopTimeout)
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
	if err := machine.ValidateHostPath("source", source); err != nil {
		return err
	}
	if err := machine.ValidateGuestPath("target", target); err != nil {
		return err
	}
	target = path.Clean(target)
	octx, done, err := m.opContext(ctx)
	if err != nil {
		return err
	}
	defer done()
	return m.opErr(ctx, "upload", m.upload(octx, source, target))
}

func (m *Machine) upload(ctx context.Context, source, target string) error {
	if err := transfer.Check(ctx, source); err != nil {
		return err
	}
	st, err := os.Stat(source)
	if err != nil {
		return &machine.PathError{Op: "read", Path: source, Reason: err.Error(), NotFound: errors.Is(err, os.ErrNotExist)}
	}
	tmp := shwrap.PrivateDir()
	var script string
	if st.IsDir() {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(transfer.WriteTar(ctx, pw, source)) }()
		err = m.tb.Upload(ctx, tmp, pr)
		pr.CloseWithError(errors.New("upload ended"))
		script = fmt.Sprintf("T=%s; S=%s; mkdir -p \"$T\" && tar -xf \"$S\" -C \"$T\"; r=$?; rm -f \"$S\"; exit $r", shwrap.Quote(target), shwrap.Quote(tmp))
	} else {
		var f *os.File
		if f, err = os.Open(source); err != nil {
			return &machine.PathError{Op: "read", Path: source, Reason: err.Error(), NotFound: errors.Is(err, os.ErrNotExist)}
		}
		err = m.tb.Upload(ctx, tmp, f)
		f.Close()
		mode := strconv.FormatInt(transfer.TarMode(st.Mode()), 8)
		script = fmt.Sprintf("T=%s; S=%s; mkdir -p %s && cat \"$S\" > \"$T\" && chmod %s \"$T\"; r=$?; rm -f \"$S\"; exit $r", shwrap.Quote(target), shwrap.Quote(tmp), shwrap.Quote(path.Dir(target)), mode)
	}
	if err != nil {
		return err
	}
	r, err := m.exec(ctx, m.prelude()+script, nil, 0)
	if err != nil {
		return err
	}
	if r.ExitCode != 0 {
		return &machine.PathError{Op: "write", Path: target, Reason: strings.TrimSpace(shwrap.Truncate(r.Result, 2000))}
	}
	m.prepared.Store(true)
	return nil
}

// Download copies source out of the sandbox: a file through the toolbox's
// download, a directory as a tar archive made in the sandbox. Both are
// extracted by lib/transfer, which treats the archive as hostile and
// applies opts.
func (m *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	if err := machine.ValidateGuestPath("source", source); err != nil {
		return err
	}
	if err := machine.ValidateHostPath("target", target); err != nil {
		return err
	}
	source = path.Clean(source)
	octx, done, err := m.opContext(ctx)
	if err != nil {
		return err
	}
	defer done()
	return m.opErr(ctx, "download", m.download(octx, source, target, opts))
}

func (m *Machine) download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	archive := shwrap.PrivateDir() + ".tar"
	probe := m.prelude() + shwrap.ProbeScript(source, archive)
	r, err := m.exec(ctx, probe, nil, 0)
	if err != nil {
		return err
	}
	out := strings.TrimSpace(r.Result)
	last := out[strings.LastIndex(out, "\n")+1:]
	f := strings.Fields(last)
	switch {
	case len(f) == 0:
		return fmt.Errorf("probing %s: %s", source, out)
	case f[0] == shwrap.Missing:
		return &machine.PathError{Op: "read", Path: source, Reason: "no such file or directory", NotFound: true}
	case f[0] == shwrap.Special:
		return &machine.PathError{Op: "read", Path: source, Reason: "not a regular file or directory"}
	case f[0] == shwrap.Dir:
		defer m.cleanup(archive)
		rc, err := m.tb.Download(ctx, archive)
		if err != nil {
			return err
		}
		defer rc.Close()
		return transfer.Extract(ctx, rc, target, transfer.ForDownload(opts))
	case f[0] == shwrap.File && len(f) == 3:
		mode, err1 := strconv.ParseInt(f[1], 8, 64)
		size, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("probing %s: %s", source, out)
		}
		if max, bounded := transfer.Bound(opts); bounded && size > max {
			return &machine.DownloadLimitExceeded{Path: source, Limit: max}
		}
		rc, err := m.tb.Download(ctx, source)
		if err != nil {
			return err
		}
		defer rc.Close()
		// One file as the one-entry archive lib/transfer extracts.
		pr, pw := io.Pipe()
		go func() {
			tw := tar.NewWriter(pw)
			err := tw.WriteHeader(&tar.Header{Name: transfer.RootName, Typeflag: tar.TypeReg, Mode: mode, Size: size})
			if err == nil {
				var n int64
				n, err = io.Copy(tw, io.LimitReader(rc, size))
				if err == nil && n < size {
					err = fmt.Errorf("%s shrank while it was downloaded", source)
				}
			}
			if err == nil {
				err = tw.Close()
			}
			pw.CloseWithError(err)
		}()
		err = transfer.Extract(ctx, pr, target, transfer.ForDownload(opts))
		pr.CloseWithError(errors.New("download ended"))
		return err
	}
	return fmt.Errorf("probing %s: %s", source, out)
}

// Close deletes the sandbox (the snapshot stays for reuse) and ends the
// machine's open processes and requests.
func (m *Machine) Close(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		done := m.closeDone
		m.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	}
	m.closed = true
	m.closeDone = make(chan struct{})
	procs := m.procs
	m.procs = nil
	m.mu.Unlock()
	defer close(m.closeDone)
	m.cancel()
	for p := range procs {
		p.abort(machine.ErrClosed)
	}
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if err := m.f.client.DeleteSandbox(dctx, m.sandbox.ID); err != nil && !IsNotFound(err) {
		m.closeErr = &machine.InfrastructureError{Op: "deleting sandbox " + m.sandbox.ID, Err: err}
		return m.closeErr
	}
	return nil
}
