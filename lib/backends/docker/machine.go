package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"

	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/machine"
)

// removeTimeout bounds removing a machine's container.
const removeTimeout = 60 * time.Second

// gvisorRemoveTimeout bounds it under runsc: a sandbox that a fork bomb
// held at its task limit can take the daemon minutes to tear down on a
// loaded host, after its tasks are gone (measured: 70 s to 7 min on two
// cores). Close waits for that rather than leaving the container behind.
const gvisorRemoveTimeout = 10 * time.Minute

// removeGrace is how long a forced removal may wait on the runtime before
// the container's host tasks are killed directly (see remove).
const removeGrace = 10 * time.Second

// Machine is one container. It is safe for concurrent use.
type Machine struct {
	f    *Factory
	cli  *client.Client
	id   string // container id
	name string
	spec machine.Spec

	mu      sync.Mutex
	closed  bool
	removed bool
	egress  *egress.Guard // the filter of an allowlisted container (egress.go)
	gate    *egressGate   // the network gate of an allowlisted gVisor container
	// groupAddr is its address on a gVisor task group's hub (task.go).
	groupAddr string
	// removeMu serializes removal attempts.
	removeMu sync.Mutex

	// life is the container's main stdin (see primaryScript).
	life *lifeline
	// stopped is closed when the container dies (stopwatch.go).
	stopped <-chan struct{}
	// primary is the main process waiting for the machine's first
	// command, until a Run takes it.
	primaryMu sync.Mutex
	primary   *execution

	// spares are wrapper execs started ahead of time that wait for their
	// command on stdin, so a Run does not wait for the runtime to spawn a
	// process in the container (the bulk of an exec's latency). Up to
	// f.spareExecs wait; a Run that takes one starts its replacement at
	// once, so back-to-back Runs find one ready.
	standbyMu      sync.Mutex
	spares         []*execution
	starting       int           // spares being started
	standbyChanged chan struct{} // closed (and replaced) when a start ends
	// spareCtx bounds the starts; Close cancels it.
	spareCtx    context.Context
	spareCancel context.CancelFunc

	// probeBin is where the readiness helper was copied (probe.go).
	probeMu  sync.Mutex
	probeBin string
}

// takePrimary returns the main process's first-command slot once, or nil.
func (m *Machine) takePrimary() *execution {
	m.primaryMu.Lock()
	defer m.primaryMu.Unlock()
	e := m.primary
	m.primary = nil
	return e
}

// takeStandby returns a waiting spare exec, waiting for one being started
// when none waits; nil when none is on its way.
func (m *Machine) takeStandby(ctx context.Context) *execution {
	m.standbyMu.Lock()
	for {
		if n := len(m.spares); n > 0 {
			e := m.spares[n-1]
			m.spares = m.spares[:n-1]
			m.standbyMu.Unlock()
			return e
		}
		if m.starting == 0 {
			m.standbyMu.Unlock()
			return nil
		}
		changed := m.standbyChanged
		m.standbyMu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil
		}
		m.standbyMu.Lock()
	}
}

// refillStandby starts, in the background, as many spare execs as the
// pool lacks (counting those being started).
func (m *Machine) refillStandby() {
	m.standbyMu.Lock()
	defer m.standbyMu.Unlock()
	if m.isClosed() {
		return
	}
	for ; len(m.spares)+m.starting < m.f.spareExecs; m.starting++ {
		if m.standbyChanged == nil {
			m.standbyChanged = make(chan struct{})
		}
		go m.startSpare()
	}
}

func (m *Machine) startSpare() {
	ctx, cancel := context.WithTimeout(m.spareCtx, 30*time.Second)
	defer cancel()
	e, err := m.startWrapped(ctx, "", nil, nil)
	m.standbyMu.Lock()
	m.starting--
	// Close may have run meanwhile: a spare it could not see is ended here.
	if err == nil && len(m.spares) < m.f.spareExecs && !m.isClosed() {
		m.spares, e = append(m.spares, e), nil
	}
	close(m.standbyChanged)
	m.standbyChanged = make(chan struct{})
	m.standbyMu.Unlock()
	if e != nil {
		e.raw.closeConn()
	}
}

// dropStandby ends the waiting spare execs (hanging up ends each
// wrapper: its read of the command meets end of file).
func (m *Machine) dropStandby() {
	m.standbyMu.Lock()
	spares := m.spares
	m.spares = nil
	m.standbyMu.Unlock()
	for _, e := range spares {
		e.raw.closeConn()
	}
}

var (
	_ machine.Machine        = (*Machine)(nil)
	_ machine.ProcessMachine = (*Machine)(nil)
)

func newMachine(f *Factory, id, name string, spec machine.Spec) *Machine {
	m := &Machine{f: f, cli: f.cli, id: id, name: name, spec: spec}
	m.spareCtx, m.spareCancel = context.WithCancel(context.Background())
	return m
}

// ContainerID is the id of the machine's container.
func (m *Machine) ContainerID() string { return m.id }

// ContainerName is the name of the machine's container.
func (m *Machine) ContainerName() string { return m.name }

func (m *Machine) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

func (m *Machine) check() error {
	if m.isClosed() {
		return machine.ErrClosed
	}
	if m.hasStopped() {
		return m.stoppedErr()
	}
	return nil
}

// hasStopped says whether the daemon reported the container's death.
func (m *Machine) hasStopped() bool {
	select {
	case <-m.stopped:
		return true
	default:
		return false
	}
}

// stoppedErr is the error of a call on a machine whose container died.
func (m *Machine) stoppedErr() error {
	reason := m.deadReason()
	if reason == "" {
		reason = m.f.stops.reason(m.id)
	}
	if reason == "" {
		reason = fmt.Sprintf("container %s stopped", m.name)
	}
	return &machine.TerminatedError{Reason: reason}
}

// Close removes the container and everything created for it (anonymous
// volumes included). It is idempotent; a removal the daemon refuses or
// cannot confirm gives a *machine.InfrastructureError, and a later Close
// tries again.
func (m *Machine) Close(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	done := m.removed
	m.mu.Unlock()
	m.spareCancel()
	m.dropStandby()
	m.closeEgress()
	if e := m.takePrimary(); e != nil {
		e.raw.closeConn()
	}
	if done {
		return nil
	}
	m.removeMu.Lock()
	defer m.removeMu.Unlock()
	m.mu.Lock()
	done = m.removed
	m.mu.Unlock()
	if done {
		return nil
	}
	// Hanging up ends the main process, so the container stops even if
	// the removal below fails.
	m.life.close()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.f.removeTimeout)
	defer cancel()
	err := m.f.removeContainer(rctx, m.id)
	if err != nil && !isNotFound(err) {
		return &machine.InfrastructureError{Op: "removing container " + m.name, Err: err}
	}
	m.removeGate()
	m.f.stops.remove(m.id)
	m.mu.Lock()
	m.removed = true
	m.mu.Unlock()
	return nil
}

// removeContainer force-removes a container. A runtime that cannot stop it in
// removeGrace (a gVisor sandbox saturated by a fork bomb does not answer
// the runtime's kill) has its host tasks killed directly, then the removal
// is retried until ctx ends.
func (f *Factory) removeContainer(ctx context.Context, id string) error {
	opts := container.RemoveOptions{Force: true, RemoveVolumes: true}
	// The init's PID is asked for first: while the daemon is stuck in the
	// removal it holds the container and would not answer an inspect.
	ictx, cancel := context.WithTimeout(ctx, 5*time.Second)
	pid := f.initPID(ictx, id)
	cancel()
	first, cancel := context.WithTimeout(ctx, removeGrace)
	err := f.cli.ContainerRemove(first, id, opts)
	cancel()
	for {
		switch {
		case err == nil || isNotFound(err) || ctx.Err() != nil:
			return err
		case errors.Is(err, context.DeadlineExceeded):
			// Still stuck with no task left to kill: the shim holds a
			// runtime that died under it.
			if killContainerTasks(id, pid) == 0 {
				killContainerShim(id)
			}
		case !cerrdefs.IsConflict(err):
			return err
		}
		// The daemon finishes the removal it started (a retry is refused
		// as already in progress) once the tasks are gone.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		retry, cancel := context.WithTimeout(ctx, removeGrace)
		err = f.cli.ContainerRemove(retry, id, opts)
		cancel()
	}
}

// closeAfter closes the machine after a failure it cannot recover from and
// returns the error that failure should surface as.
func (m *Machine) closeAfter(ctx context.Context, op string, cause error) error {
	cerr := m.Close(ctx)
	err := cause
	if cerr != nil {
		err = fmt.Errorf("%w (and the container could not be removed: %v)", cause, cerr)
	}
	return &machine.InfrastructureError{Op: op, Err: err}
}

// opErr classifies an Engine API error met while using the machine: a
// closed machine gives machine.ErrClosed, a container or daemon that went
// away a *machine.TerminatedError.
func (m *Machine) opErr(ctx context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return ctxErr
	}
	if m.isClosed() {
		return machine.ErrClosed
	}
	if term := m.terminated(err); term != nil {
		return term
	}
	// The daemon refuses an exec into a container that is dying with a
	// plain server error: wait a moment for the news of its death.
	select {
	case <-m.stopped:
		return m.stoppedErr()
	case <-time.After(stoppedGrace):
	}
	if reason := m.deadReason(); reason != "" {
		return &machine.TerminatedError{Reason: reason}
	}
	return fmt.Errorf("docker: %s: %w", what, err)
}

// terminated says whether err means the container is gone or stopped, in
// which case it returns the *machine.TerminatedError to surface.
func (m *Machine) terminated(err error) error {
	switch {
	case client.IsErrConnectionFailed(err):
		return &machine.TerminatedError{Reason: fmt.Sprintf("the Docker daemon at %s is unreachable: %v", m.f.host, err)}
	case cerrdefs.IsConflict(err) || isNotFound(err):
		if reason := m.deadReason(); reason != "" {
			return &machine.TerminatedError{Reason: reason}
		}
	}
	return nil
}

// deadReason inspects the container and says why it is not running, or ""
// when it is running.
func (m *Machine) deadReason() string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	insp, err := m.cli.ContainerInspect(ctx, m.id)
	switch {
	case isNotFound(err):
		return fmt.Sprintf("container %s was removed", m.name)
	case client.IsErrConnectionFailed(err):
		return fmt.Sprintf("the Docker daemon at %s is unreachable: %v", m.f.host, err)
	case err != nil:
		return ""
	case insp.State == nil || insp.State.Running:
		return ""
	}
	return fmt.Sprintf("container %s is %s (exit code %d%s)%s", m.name, insp.State.Status, insp.State.ExitCode, oomNote(insp.State.OOMKilled), m.logTail(ctx))
}

// logTail is the end of the container's output (what its init printed
// when it failed, e.g. an image without /bin/sh), or "".
func (m *Machine) logTail(ctx context.Context) string {
	rc, err := m.cli.ContainerLogs(ctx, m.id, container.LogsOptions{ShowStdout: true, ShowStderr: true, Tail: "5"})
	if err != nil {
		return ""
	}
	defer rc.Close()
	var out limitedBuffer
	out.limit = 2048
	_ = demux(rc, &out, &out, &out, false)
	// The first command's protocol lines reach the log too: drop them.
	var lines []string
	for _, l := range strings.Split(string(out.bytes()), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, pgidPrefix) && !strings.HasPrefix(l, markerLead) {
			lines = append(lines, l)
		}
	}
	text := strings.Join(lines, "\n")
	if text == "" {
		return ""
	}
	return ": " + text
}

// aliveAfterSignal tells, after a command died of a signal, whether the
// container is still alive: a dying container (its init gone, or its
// daemon stopping) kills every process in it before the daemon updates its
// state, so a root probe exec decides. It returns the TerminatedError to
// surface, or nil.
func (m *Machine) aliveAfterSignal(ctx context.Context) error {
	if reason := m.deadReason(); reason != "" {
		return &machine.TerminatedError{Reason: reason}
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	code, _, err := m.rootExec(pctx, "exit 0", nil, nil, nil)
	if err == nil && code == 0 {
		return nil
	}
	if errors.Is(err, machine.ErrTerminated) || errors.Is(err, machine.ErrClosed) {
		return err
	}
	if reason := m.deadReason(); reason != "" {
		return &machine.TerminatedError{Reason: reason}
	}
	if err == nil {
		err = fmt.Errorf("probe exited with %d", code)
	}
	return &machine.TerminatedError{Reason: fmt.Sprintf("container %s stopped responding: %v", m.name, err)}
}

func oomNote(oom bool) string {
	if oom {
		return ", out of memory"
	}
	return ""
}

// rawExec is an exec whose streams are demultiplexed in the background.
type rawExec struct {
	id     string
	hj     types.HijackedResponse
	done   chan struct{}
	err    error // the demultiplexer's error, valid after done
	stderr limitedBuffer
	system limitedBuffer
	// errParser strips the end marker from stderr (nil without marker).
	errParser *stdoutParser
	once      sync.Once
	// start holds the demultiplexer back until the output limits are set.
	start     chan struct{}
	startOnce sync.Once
	// lifeline: the stream is the container's main attach connection,
	// which must stay open after the output was read (see primaryScript).
	lifeline bool
}

// begin lets the demultiplexer run.
func (ex *rawExec) begin() { ex.startOnce.Do(func() { close(ex.start) }) }

// startExec creates and attaches an exec; stdout receives its stdout.
// With a nonce, the exec prints it as an end marker on both stdout (the
// caller's parser strips it) and stderr, and reading stops once both
// markers arrived. The caller feeds stdin (when opts.AttachStdin) and must
// call closeConn.
func (m *Machine) startExec(ctx context.Context, opts container.ExecOptions, nonce string, stdout io.Writer, stderrLimit int) (*rawExec, error) {
	ex, err := m.startExecDeferred(ctx, opts, nonce, stdout, stderrLimit)
	if err != nil {
		return nil, err
	}
	ex.begin()
	return ex, nil
}

// startExecDeferred is startExec leaving the demultiplexer waiting for
// begin.
func (m *Machine) startExecDeferred(ctx context.Context, opts container.ExecOptions, nonce string, stdout io.Writer, stderrLimit int) (*rawExec, error) {
	created, err := m.cli.ContainerExecCreate(ctx, m.id, opts)
	if err != nil {
		return nil, m.opErr(ctx, "creating exec", err)
	}
	hj, err := m.cli.ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{})
	if err != nil {
		return nil, m.opErr(ctx, "starting exec", err)
	}
	ex := newRawExec(created.ID, hj, nonce, stdout, stderrLimit)
	go ex.hangUpWhenStopped(m.stopped)
	return ex, nil
}

// stoppedGrace is how long an exec's stream may still end by itself after
// its container died, before it is cut.
const stoppedGrace = time.Second

// hangUpWhenStopped cuts the exec's stream when its container dies: a
// runtime may never end it (runsc after its sandbox died), and whoever
// waits on it then sees the end and asks why (see conclude).
func (ex *rawExec) hangUpWhenStopped(stopped <-chan struct{}) {
	select {
	case <-ex.done:
		return
	case <-stopped:
	}
	select {
	case <-ex.done:
	case <-time.After(stoppedGrace):
		ex.closeConn()
	}
}

// newRawExec demultiplexes an attached stream once begin is called. id is
// the exec's id, "" for the container's own process.
func newRawExec(id string, hj types.HijackedResponse, nonce string, stdout io.Writer, stderrLimit int) *rawExec {
	ex := &rawExec{id: id, hj: hj, done: make(chan struct{}), start: make(chan struct{})}
	ex.stderr.limit = stderrLimit
	ex.system.limit = 4096
	var stderr io.Writer = &ex.stderr
	if nonce != "" {
		ex.errParser = newStdoutParser(nonce, &ex.stderr, nil)
		ex.errParser.framed = true
		stderr = ex.errParser
	}
	go func() {
		<-ex.start
		ex.err = demux(hj.Reader, stdout, stderr, &ex.system, nonce != "")
		if ex.errParser != nil && !ex.errParser.done {
			_ = ex.errParser.flush()
		}
		close(ex.done)
		if ex.lifeline {
			drain(hj)
		}
	}()
	return ex
}

// closeConn stops reading and closes the connection; a lifeline's
// connection stays open, only its reading is cut short.
func (ex *rawExec) closeConn() {
	ex.once.Do(func() {
		if ex.lifeline {
			_ = ex.hj.Conn.SetReadDeadline(time.Now())
			return
		}
		ex.hj.Close()
	})
	ex.begin()
}

// closeConnAndWait closes the connection and waits for the demultiplexer.
func (ex *rawExec) closeConnAndWait() {
	ex.closeConn()
	<-ex.done
}

// errStillRunning: the daemon still reports the exec as running.
var errStillRunning = errors.New("exec still running")

// waitExit polls the exec until the daemon reports it finished, for at
// most limit.
func (m *Machine) waitExit(ctx context.Context, execID string, limit time.Duration) (container.ExecInspect, error) {
	deadline := time.Now().Add(limit)
	delay := 500 * time.Microsecond
	for {
		insp, err := m.cli.ContainerExecInspect(ctx, execID)
		if err != nil {
			return insp, err
		}
		if !insp.Running {
			return insp, nil
		}
		if time.Now().After(deadline) {
			return insp, errStillRunning
		}
		select {
		case <-ctx.Done():
			return insp, ctx.Err()
		case <-time.After(delay):
		}
		delay = min(2*delay, 50*time.Millisecond)
	}
}

// rootWrapper runs a root helper script and then prints the nonce (its
// first argument) and the script's status, so the host need not wait for
// the daemon to report the exec's exit (see conclude).
const rootWrapper = `n=$1; s=$2; shift 2
/bin/sh -c "$s" shellbox "$@"
r=$?
printf '\037%s:%s\n' "$n" "$r"
printf '\037%s:%s\n' "$n" "$r" >&2
exit $r`

// rootExec runs a shell script as root in the container, feeding stdin
// (when not nil) and sending stdout to stdout (when not nil), and returns
// its exit code and the start of its stderr.
func (m *Machine) rootExec(ctx context.Context, script string, args []string, stdin io.Reader, stdout io.Writer) (int, []byte, error) {
	if stdout == nil {
		stdout = io.Discard
	}
	nonce := newNonce()
	parser := newStdoutParser(nonce, stdout, nil)
	parser.framed = true
	opts := container.ExecOptions{
		User:         "0",
		WorkingDir:   "/",
		AttachStdin:  stdin != nil,
		AttachStdout: true,
		AttachStderr: true,
		Cmd:          append([]string{"/bin/sh", "-c", rootWrapper, "shellbox-root", nonce[len(markerLead):], script}, args...),
	}
	ex, err := m.startExec(ctx, opts, nonce, parser, 16<<10)
	if err != nil {
		return 0, nil, err
	}
	defer ex.closeConn()
	var stdinErr chan error
	if stdin != nil {
		stdinErr = make(chan error, 1)
		go func() {
			_, err := io.Copy(ex.hj.Conn, stdin)
			if err == nil {
				err = ex.hj.CloseWrite()
			} else {
				// Without EOF the script would wait for the rest of its
				// input forever: hang up instead.
				ex.closeConn()
			}
			stdinErr <- err
		}()
	}
	select {
	case <-ex.done:
	case <-ctx.Done():
		ex.closeConnAndWait()
		return 0, nil, ctx.Err()
	}
	ex.closeConnAndWait()
	if ex.err != nil {
		return 0, nil, m.opErr(ctx, "reading exec output", ex.err)
	}
	code, ok := parser.markerStatus()
	if !parser.done || !ok {
		if m.hasStopped() {
			return 0, nil, m.stoppedErr()
		}
		insp, err := m.waitExit(ctx, ex.id, 30*time.Second)
		if err != nil {
			return 0, nil, m.opErr(ctx, "inspecting exec", err)
		}
		if reason := m.deadReason(); reason != "" {
			return 0, nil, &machine.TerminatedError{Reason: reason}
		}
		_ = parser.flush()
		code = insp.ExitCode
		if code == 0 {
			code = 125 // the wrapper ended without reporting
		}
	}
	if stdinErr != nil {
		select {
		case err := <-stdinErr:
			if err != nil && code == 0 {
				return 0, nil, fmt.Errorf("docker: writing exec input: %w", err)
			}
		default:
		}
	}
	stderr := append(ex.stderr.bytes(), ex.system.bytes()...)
	return code, stderr, nil
}
