package iris

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/job"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/remotemachine"
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
	// inlineStdin is the most stdin a command's own script carries (in
	// base64); more is uploaded first.
	inlineStdin = 48 << 10
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

	life    *remotemachine.Lifetime
	workdir *remotemachine.Workdir
}

func newMachine(f *Factory, jobID, taskID string, spec machine.Spec) *Machine {
	m := &Machine{f: f, jobID: jobID, taskID: taskID, spec: spec, workdir: remotemachine.NewWorkdir(spec.Workdir)}
	m.life = remotemachine.NewLifetime(m.explain)
	return m
}

// JobID and TaskID are the job's and its task's ids at the controller.
func (m *Machine) JobID() string  { return m.jobID }
func (m *Machine) TaskID() string { return m.taskID }

// explain reports a failed operation's error (remotemachine.Explain):
// MachineTerminated unchanged, anything else with the task's id.
func (m *Machine) explain(ctx context.Context, what string, err error) error {
	if errors.Is(err, machine.ErrTerminated) {
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
		if m.life.Closed() {
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
	return remotemachine.Do(ctx, m.life, "run", func(ctx context.Context) (machine.Result, error) {
		if cmd.User != "" {
			if err := m.checkUser(ctx, cmd.User); err != nil {
				return machine.Result{}, err
			}
		}
		return m.run(ctx, cmd)
	})
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

func (m *Machine) run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	dir := shwrap.PrivateDir()
	var input []byte
	if n := len(cmd.Stdin); n > 0 && n <= inlineStdin {
		input = cmd.Stdin
	} else if n > 0 {
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
	// One exec: the workdir (on the first command) and the input come
	// with the command.
	script := shwrap.RunScript(shwrap.RunOptions{Dir: dir, Cwd: cwd, Argv: cmd.Argv, Env: env, Stdin: len(cmd.Stdin) > 0, Input: input,
		Limit: cmd.OutputLimit, Workdir: m.workdir.Pending()})
	resp, err := m.shell(rctx, script, wtimeout)
	if err != nil {
		if rctx.Err() == nil || m.life.Closed() || errors.Is(err, machine.ErrTerminated) {
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
	m.workdir.Made()
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
	ctx, cancel := context.WithTimeout(m.life.Context(), stopTimeout)
	defer cancel()
	resp, err := m.exec(ctx, []string{"sh", "-c", shwrap.StopScript(dir, limit)}, stopTimeout)
	if err != nil {
		return shwrap.Reply{}, err
	}
	return shwrap.ParseStopReply(resp.GetStdout())
}

func (m *Machine) cleanup(file string) {
	ctx, cancel := context.WithTimeout(m.life.Context(), stopTimeout)
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
	target, err := remotemachine.UploadPaths(source, target)
	if err != nil {
		return err
	}
	return m.life.Do(ctx, "upload", func(ctx context.Context) error { return m.upload(ctx, source, target) })
}

func (m *Machine) upload(ctx context.Context, source, target string) error {
	tmp, script, err := remotemachine.Stage(ctx, source, target, m.put)
	if err != nil {
		if tmp != "" {
			m.cleanup(tmp)
		}
		return err
	}
	if err := m.check(ctx, m.workdir.Prelude()+script); err != nil {
		return &machine.PathError{Op: "write", Path: target, Reason: err.Error()}
	}
	m.workdir.Made()
	return nil
}

// Download copies a file or directory out of the task; lib/transfer
// extracts it as hostile input and applies opts.
func (m *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	source, err := remotemachine.DownloadPaths(source, target)
	if err != nil {
		return err
	}
	return m.life.Do(ctx, "download", func(ctx context.Context) error { return m.download(ctx, source, target, opts) })
}

func (m *Machine) download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	archive := shwrap.PrivateDir() + ".tar"
	out, err := m.execText(ctx, m.workdir.Prelude()+shwrap.ProbeScript(source, archive), 0)
	if err != nil {
		return err
	}
	probe, err := remotemachine.ParseProbe(source, out)
	if err != nil {
		return err
	}
	if probe.Dir {
		defer m.cleanup(archive)
		return transfer.Extract(ctx, &reader{m: m, ctx: ctx, file: archive, size: probe.Size}, target, transfer.ForDownload(opts))
	}
	if max, bounded := transfer.Bound(opts); bounded && probe.Size > max {
		return &machine.DownloadLimitExceeded{Path: source, Limit: max}
	}
	return remotemachine.ExtractFile(ctx, &reader{m: m, ctx: ctx, file: source, size: probe.Size}, source, probe.Mode, probe.Size, target, opts)
}

// Close terminates the job.
func (m *Machine) Close(ctx context.Context) error {
	return m.life.Close(ctx, func(ctx context.Context) error {
		tctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		_, err := m.f.rpc.TerminateJob(tctx, connect.NewRequest(&cluster.Controller_TerminateJobRequest{JobId: proto.String(m.jobID)}))
		if err != nil && connect.CodeOf(err) != connect.CodeNotFound {
			return &machine.InfrastructureError{Op: "terminating job " + m.jobID, Err: err}
		}
		return nil
	})
}
