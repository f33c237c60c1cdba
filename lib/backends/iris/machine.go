package iris

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/job"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/shwrap"
	"github.com/shellbox/shellbox/lib/transfer"
)

const (
	// ChunkBytes is the most file bytes one exec carries into the task: in
	// base64 they fit one argument under Linux's MAX_ARG_STRLEN (128 KiB).
	ChunkBytes = 64 << 10
	// readChunk is the most file bytes one exec reads back (a reply is not
	// bounded by the argument limit).
	readChunk = 1 << 20
	// maxScriptArg is the longest script passed as sh -c's argument; a
	// longer one is uploaded first.
	maxScriptArg = 120 << 10
	// rpcPadding is added to an exec's own timeout for its RPC deadline.
	rpcPadding = 60 * time.Second
	// execPadding is added to a command's timeout for the exec's, so that
	// the worker only ends a wrapper this client forgot.
	execPadding = 10
	// stopTimeout bounds the exec that stops a command's process group.
	stopTimeout = 30 * time.Second
)

// Backoff of a call the controller shed (RESOURCE_EXHAUSTED).
var (
	shedInitial = 500 * time.Millisecond
	shedMax     = 10 * time.Second
	shedBudget  = 30 * time.Minute
)

// Machine is one Iris job with one task.
type Machine struct {
	f      *Factory
	jobID  string
	taskID string
	spec   machine.Spec

	userMu        sync.Mutex
	uid, userName string // the container's user, asked when a command names one

	// prepared is set once a script made the workdir.
	prepared atomic.Bool

	ctx    context.Context // ends when the machine closes
	cancel context.CancelFunc

	mu        sync.Mutex
	closed    bool
	closeDone chan struct{}
}

func newMachine(f *Factory, jobID, taskID string, spec machine.Spec) *Machine {
	ctx, cancel := context.WithCancel(context.Background())
	return &Machine{f: f, jobID: jobID, taskID: taskID, spec: spec, ctx: ctx, cancel: cancel}
}

// JobID and TaskID are the job's and its task's ids at the controller.
func (m *Machine) JobID() string  { return m.jobID }
func (m *Machine) TaskID() string { return m.taskID }

func (m *Machine) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

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
	if errors.Is(err, machine.ErrTerminated) || errors.As(err, &us) || errors.As(err, &iv) || errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) {
		return err
	}
	return fmt.Errorf("iris task %s: %s: %w", m.taskID, what, err)
}

// exec runs argv in the task. timeout bounds the command at the worker
// (0: none). A shed call is retried; a failed one is checked against the
// task's state, so a task that ended gives machine.ErrTerminated.
func (m *Machine) exec(ctx context.Context, argv []string, timeout time.Duration) (*cluster.Controller_ExecInContainerResponse, error) {
	secs := int32(-1) // no limit of the caller's
	deadline := m.f.jobTTL
	if timeout > 0 {
		secs = int32(math.Ceil(timeout.Seconds()))
		deadline = time.Duration(secs)*time.Second + rpcPadding
	}
	req := &cluster.Controller_ExecInContainerRequest{TaskId: proto.String(m.taskID), Command: argv, TimeoutSeconds: proto.Int32(secs)}
	delay, start := shedInitial, time.Now()
	for {
		if m.isClosed() {
			return nil, machine.ErrClosed
		}
		cctx, cancel := context.WithTimeout(ctx, deadline)
		resp, err := m.f.rpc.ExecInContainer(cctx, connect.NewRequest(req))
		cancel()
		if connect.CodeOf(err) == connect.CodeResourceExhausted && ctx.Err() == nil && time.Since(start) < shedBudget {
			if err := sleep(ctx, delay); err != nil {
				return nil, err
			}
			delay = min(2*delay, shedMax)
			continue
		}
		if err == nil && resp.Msg.GetError() == "" {
			return resp.Msg, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		cause := err
		if cause == nil {
			cause = errors.New(resp.Msg.GetError())
		}
		return nil, m.failure(ctx, cause)
	}
}

// failure explains a failed exec: the task ended, or the exec failed.
func (m *Machine) failure(ctx context.Context, cause error) error {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	st, err := m.f.rpc.GetTaskStatus(sctx, connect.NewRequest(&cluster.Controller_GetTaskStatusRequest{TaskId: proto.String(m.taskID)}))
	if err == nil && st.Msg.GetTask().GetState() != job.TaskState_TASK_STATE_RUNNING {
		t := st.Msg.GetTask()
		return fmt.Errorf("%w (exec: %v)", &machine.TerminatedError{Reason: fmt.Sprintf("Iris sandbox task %s is %s: %s", m.taskID, t.GetState(), t.GetError())}, cause)
	}
	if connect.CodeOf(err) == connect.CodeNotFound {
		return fmt.Errorf("%w (exec: %v)", &machine.TerminatedError{Reason: fmt.Sprintf("Iris sandbox task %s is gone", m.taskID)}, cause)
	}
	return fmt.Errorf("Iris exec failed: %w", cause)
}

// shell runs a script with sh; one longer than an argument may be is
// uploaded first.
func (m *Machine) shell(ctx context.Context, script string, timeout time.Duration) (*cluster.Controller_ExecInContainerResponse, error) {
	if len(script) <= maxScriptArg {
		return m.exec(ctx, []string{"sh", "-c", script}, timeout)
	}
	file := shwrap.PrivateDir() + ".sh"
	if err := m.put(ctx, file, strings.NewReader(`rm -f "$0"`+"\n"+script)); err != nil {
		return nil, err
	}
	return m.exec(ctx, []string{"sh", file}, timeout)
}

// execText runs a script and returns its stdout and stderr.
func (m *Machine) execText(ctx context.Context, script string, timeout time.Duration) (string, error) {
	r, err := m.shell(ctx, script, timeout)
	if err != nil {
		return "", err
	}
	return r.GetStdout() + r.GetStderr(), nil
}

// check runs a script that must exit 0.
func (m *Machine) check(ctx context.Context, script string) error {
	r, err := m.shell(ctx, script, 0)
	if err != nil {
		return err
	}
	if r.GetExitCode() != 0 {
		msg := strings.TrimSpace(r.GetStderr())
		if msg == "" {
			msg = strings.TrimSpace(r.GetStdout())
		}
		return fmt.Errorf("exit %d: %s", r.GetExitCode(), shwrap.Truncate(msg, 2000))
	}
	return nil
}

// put writes r to file in the task in chunks (the file's directory is
// created).
func (m *Machine) put(ctx context.Context, file string, r io.Reader) error {
	buf := make([]byte, ChunkBytes)
	first := true
	for {
		n, err := io.ReadFull(r, buf)
		if n > 0 || first {
			op := ">>"
			prefix := ""
			if first {
				op = ">"
				prefix = fmt.Sprintf("mkdir -p %s && ", shwrap.Quote(path.Dir(file)))
			}
			script := fmt.Sprintf("%sprintf '%%s' %s | base64 -d %s %s", prefix, base64.StdEncoding.EncodeToString(buf[:n]), op, shwrap.Quote(file))
			if cerr := m.check(ctx, script); cerr != nil {
				return fmt.Errorf("writing %s: %w", file, cerr)
			}
			first = false
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// reader reads size bytes of a task file in chunks.
type reader struct {
	m    *Machine
	ctx  context.Context
	file string
	off  int64
	size int64
	buf  []byte
}

func (r *reader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.off >= r.size {
			return 0, io.EOF
		}
		n := min(r.size-r.off, readChunk)
		resp, err := r.m.exec(r.ctx, []string{"sh", "-c", fmt.Sprintf("tail -c +%d %s | head -c %d | base64", r.off+1, shwrap.Quote(r.file), n)}, 0)
		if err != nil {
			return 0, err
		}
		if resp.GetExitCode() != 0 {
			return 0, fmt.Errorf("reading %s: %s", r.file, resp.GetStderr())
		}
		b, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(resp.GetStdout(), "\n", ""))
		if err != nil {
			return 0, fmt.Errorf("reading %s: %w", r.file, err)
		}
		if len(b) == 0 {
			return 0, fmt.Errorf("%s shrank while it was read", r.file)
		}
		r.buf, r.off = b, r.off+int64(len(b))
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// Run runs cmd through the wrapper of shwrap.RunScript.
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
	if cmd.User != "" {
		if err := m.checkUser(octx, cmd.User); err != nil {
			return machine.Result{}, m.opErr(ctx, "run", err)
		}
	}
	res, err := m.run(octx, cmd)
	return res, m.opErr(ctx, "run", err)
}

// checkUser accepts only the container's own user, by name or uid (asked
// once).
func (m *Machine) checkUser(ctx context.Context, user string) error {
	m.userMu.Lock()
	defer m.userMu.Unlock()
	if m.uid == "" {
		out, err := m.execText(ctx, "id -u; id -un", 0)
		if err != nil {
			return err
		}
		f := strings.Fields(out)
		if len(f) < 2 {
			return fmt.Errorf("asking the container's user: %q", out)
		}
		m.uid, m.userName = f[0], f[1]
	}
	if user != m.uid && user != m.userName {
		return m.f.unsupported("user", fmt.Sprintf("Iris runs commands as the container's user (%s, uid %s), not %q", m.userName, m.uid, user))
	}
	return nil
}

// prelude makes the workdir until a script did.
func (m *Machine) prelude() string {
	if m.spec.Workdir == "" || m.prepared.Load() {
		return ""
	}
	return "mkdir -p " + shwrap.Quote(m.spec.Workdir) + " || exit 1\n"
}

func (m *Machine) run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	dir := shwrap.PrivateDir()
	if len(cmd.Stdin) > 0 {
		if err := m.put(ctx, dir+"/in", bytes.NewReader(cmd.Stdin)); err != nil {
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
	env := map[string]string{}
	for k, v := range m.spec.Env {
		env[k] = v
	}
	for k, v := range cmd.Env {
		env[k] = v
	}
	rctx := ctx
	var wtimeout time.Duration
	if cmd.Timeout > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeout(ctx, cmd.Timeout)
		defer cancel()
		wtimeout = cmd.Timeout + execPadding*time.Second
	}
	script := shwrap.RunScript(shwrap.RunOptions{Dir: dir, Cwd: cwd, Argv: cmd.Argv, Env: env, Stdin: len(cmd.Stdin) > 0, Limit: cmd.OutputLimit, Prelude: m.prelude()})
	resp, err := m.shell(rctx, script, wtimeout)
	if err != nil {
		if rctx.Err() == nil || m.isClosed() || errors.Is(err, machine.ErrTerminated) {
			m.cleanup(dir)
			return machine.Result{}, err
		}
		p, serr := m.stop(dir, cmd.OutputLimit)
		if serr != nil {
			m.closeAfter()
			return machine.Result{}, &machine.InfrastructureError{Op: "stopping the command's process group", Err: serr}
		}
		if ctx.Err() != nil {
			return machine.Result{}, ctx.Err()
		}
		r, err := m.result(context.WithoutCancel(ctx), dir, p, cmd.OutputLimit)
		r.ExitCode, r.Reason = nil, machine.TimedOut
		return r, err
	}
	p, err := shwrap.ParseReply(resp.GetStdout())
	if err != nil {
		m.cleanup(dir)
		return machine.Result{}, fmt.Errorf("%w (stderr: %s)", err, shwrap.Truncate(resp.GetStderr(), 2000))
	}
	m.prepared.Store(true)
	if p.Marker == shwrap.NoSetsid {
		return machine.Result{}, m.f.unsupported("source", "the image has no setsid, which stopping a command's process group needs")
	}
	return m.result(ctx, dir, p, cmd.OutputLimit)
}

func (m *Machine) result(ctx context.Context, dir string, p shwrap.Reply, limit int) (machine.Result, error) {
	if !p.Inline {
		defer m.cleanup(dir)
		var err error
		if p.Stdout, err = io.ReadAll(&reader{m: m, ctx: ctx, file: dir + "/out", size: min(p.OutLen, int64(limit))}); err != nil {
			return machine.Result{}, err
		}
		if p.Stderr, err = io.ReadAll(&reader{m: m, ctx: ctx, file: dir + "/err", size: min(p.ErrLen, int64(limit))}); err != nil {
			return machine.Result{}, err
		}
	}
	return machine.ExitedWith(p.Code, p.Stdout, p.Stderr, p.OutLen > int64(limit), p.ErrLen > int64(limit)), nil
}

func (m *Machine) stop(dir string, limit int) (shwrap.Reply, error) {
	ctx, cancel := context.WithTimeout(m.ctx, stopTimeout)
	defer cancel()
	resp, err := m.exec(ctx, []string{"sh", "-c", shwrap.StopScript(dir, limit)}, stopTimeout)
	if err != nil {
		return shwrap.Reply{}, err
	}
	p, err := shwrap.ParseReply(resp.GetStdout())
	if err != nil {
		return shwrap.Reply{}, err
	}
	switch p.Marker {
	case shwrap.StopFail:
		return p, errors.New("the process group still has members after SIGKILL")
	case shwrap.NoPid:
		return shwrap.Reply{Code: -1, Inline: true}, nil
	}
	return p, nil
}

func (m *Machine) cleanup(file string) {
	ctx, cancel := context.WithTimeout(m.ctx, stopTimeout)
	defer cancel()
	_, _ = m.exec(ctx, []string{"rm", "-rf", file}, 0)
}

func (m *Machine) closeAfter() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = m.Close(ctx)
}

// Upload copies a host file or directory to target in chunks.
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
		err = m.put(ctx, tmp, pr)
		pr.CloseWithError(errors.New("upload ended"))
		script = fmt.Sprintf("T=%s; S=%s; mkdir -p \"$T\" && tar -xf \"$S\" -C \"$T\"; r=$?; rm -f \"$S\"; exit $r", shwrap.Quote(target), shwrap.Quote(tmp))
	} else {
		f, oerr := os.Open(source)
		if oerr != nil {
			return &machine.PathError{Op: "read", Path: source, Reason: oerr.Error(), NotFound: errors.Is(oerr, os.ErrNotExist)}
		}
		err = m.put(ctx, tmp, f)
		f.Close()
		mode := strconv.FormatInt(transfer.TarMode(st.Mode()), 8)
		script = fmt.Sprintf("T=%s; S=%s; mkdir -p %s && cat \"$S\" > \"$T\" && chmod %s \"$T\"; r=$?; rm -f \"$S\"; exit $r", shwrap.Quote(target), shwrap.Quote(tmp), shwrap.Quote(path.Dir(target)), mode)
	}
	if err != nil {
		m.cleanup(tmp)
		return err
	}
	if err := m.check(ctx, m.prelude()+script); err != nil {
		return &machine.PathError{Op: "write", Path: target, Reason: err.Error()}
	}
	m.prepared.Store(true)
	return nil
}

// Download copies a file or directory out of the task; lib/transfer
// extracts it as hostile input and applies opts.
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
	out, err := m.execText(ctx, m.prelude()+shwrap.ProbeScript(source, archive), 0)
	if err != nil {
		return err
	}
	out = strings.TrimSpace(out)
	f := strings.Fields(out[strings.LastIndex(out, "\n")+1:])
	switch {
	case len(f) == 0:
		return fmt.Errorf("probing %s: %s", source, out)
	case f[0] == shwrap.Missing:
		return &machine.PathError{Op: "read", Path: source, Reason: "no such file or directory", NotFound: true}
	case f[0] == shwrap.Special:
		return &machine.PathError{Op: "read", Path: source, Reason: "not a regular file or directory"}
	case f[0] == shwrap.Dir && len(f) == 2:
		defer m.cleanup(archive)
		size, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return fmt.Errorf("probing %s: %s", source, out)
		}
		return transfer.Extract(ctx, &reader{m: m, ctx: ctx, file: archive, size: size}, target, transfer.ForDownload(opts))
	case f[0] == shwrap.File && len(f) == 3:
		mode, err1 := strconv.ParseInt(f[1], 8, 64)
		size, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("probing %s: %s", source, out)
		}
		if max, bounded := transfer.Bound(opts); bounded && size > max {
			return &machine.DownloadLimitExceeded{Path: source, Limit: max}
		}
		pr, pw := io.Pipe()
		go func() {
			tw := tar.NewWriter(pw)
			err := tw.WriteHeader(&tar.Header{Name: transfer.RootName, Typeflag: tar.TypeReg, Mode: mode, Size: size})
			if err == nil {
				_, err = io.Copy(tw, &reader{m: m, ctx: ctx, file: source, size: size})
			}
			if err == nil {
				err = tw.Close()
			}
			pw.CloseWithError(err)
		}()
		err := transfer.Extract(ctx, pr, target, transfer.ForDownload(opts))
		pr.CloseWithError(errors.New("download ended"))
		return err
	}
	return fmt.Errorf("probing %s: %s", source, out)
}

// Close terminates the job.
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
	m.mu.Unlock()
	defer close(m.closeDone)
	m.cancel()
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	_, err := m.f.rpc.TerminateJob(tctx, connect.NewRequest(&cluster.Controller_TerminateJobRequest{JobId: proto.String(m.jobID)}))
	if err != nil && connect.CodeOf(err) != connect.CodeNotFound {
		return &machine.InfrastructureError{Op: "terminating job " + m.jobID, Err: err}
	}
	return nil
}
