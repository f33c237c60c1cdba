package docker

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docker/docker/api/types/container"

	"github.com/shellbox/shellbox/lib/machine"
)

// runScript wraps every command. It reads the per-run nonce from the first
// line of stdin and the command from the second (a line of shell that sets
// the directory D, exports the environment and sets the arguments), then
// starts the command under setsid (a new session, so a new process group
// whose id is the command's pid) with the rest of stdin, and waits for it.
// The command's shell prints the group frame before it changes directory
// and execs the command, so the frame is always the first line of stdout;
// after the command exited the wrapper prints the nonce and the status on
// stdout and on stderr, which tells the host that both streams are
// complete even when background processes still hold them open. The
// command runs in the foreground, in a subshell: a child of this shell is
// never a group leader, so setsid needs no fork; unlike an asynchronous
// command (which a non-interactive shell starts with SIGINT and SIGQUIT
// ignored, for good) it keeps default signal handling, so Ctrl-C on a
// terminal inside it works; and the subshell keeps busybox ash from
// printing "Killed" on the command's stderr when the group is killed. The
// wrapper's own diagnostics go to /dev/null. Because
// the command arrives on stdin, an exec can be started ahead of time and
// wait for it (see standby).
const runScript = `IFS= read -r n || exit 125
IFS= read -r c || exit 125
D=
eval "$c"
` + runTail

// argvScript is runScript for a command line too long to read from stdin
// (busybox's read takes a byte per system call, which under gVisor's ptrace
// platform costs about 80 µs: a 1 MB command line took 90 s). The nonce,
// the directory and the arguments come as the exec's own arguments and the
// environment as the exec's environment, so Linux's per-string limit
// applies to each of them, as for any command.
const argvScript = `n=$1; D=$2; shift 2
` + runTail

// runTail runs the command that runScript or argvScript set up.
const runTail = `exec 3<&0 4>&2 2>/dev/null
(setsid /bin/sh -c 'd=$1; shift; printf "` + pgidPrefix + `%s\n" "$$" && { [ -z "$d" ] || cd "$d" || exit 126; } && exec "$@"' sh "$D" "$@" <&3 2>&4 3<&- 4>&-)
s=$?
exec 3<&- 0</dev/null
printf '\037%s:%s\n' "$n" "$s"
printf '\037%s:%s\n' "$n" "$s" >&4
exit $s`

// stopScript kills a process group as root and polls /proc until no live
// member is left (zombies do not count), re-sending the kill each round.
// Exit 0 means confirmed, 3 means members survived every round.
const stopScript = `pg=$1; i=0
while :; do
  kill -KILL "-$pg" 2>/dev/null || kill -s KILL -- "-$pg" 2>/dev/null
  live=
  for f in /proc/[0-9]*/stat; do
    IFS= read -r l < "$f" 2>/dev/null || continue
    set -- ${l##*) }
    if [ "$3" = "$pg" ] && [ "$1" != Z ] && [ "$1" != X ]; then live=1; break; fi
  done
  [ -z "$live" ] && exit 0
  i=$((i+1))
  [ "$i" -ge 200 ] && exit 3
  sleep 0.05 2>/dev/null || sleep 1
done`

// maxReadLine is the longest command line runScript reads from stdin;
// longer ones go through argvScript.
const maxReadLine = 16 << 10

// frameGrace is how long a timeout waits for a command's process-group
// frame that has not arrived yet.
const frameGrace = 5 * time.Second

// drainGrace is how long output is still read after a command's group was
// killed.
const drainGrace = 2 * time.Second

// newNonce is a fresh end marker: markerLead and 32 random hex digits (the
// wrappers receive it without the lead and print it back with
// printf '\037').
func newNonce() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return markerLead + hex.EncodeToString(b[:])
}

// markerLead starts every end marker: an ASCII unit separator, a byte
// programs rarely end a write with (a tail that could start the marker is
// held back until more output comes), and not the record separator our
// shell sessions frame their own markers with.
const markerLead = "\x1f"

// execution is one wrapped command in flight.
type execution struct {
	raw    *rawExec
	nonce  string
	stdout limitedBuffer
	parser *stdoutParser
	framed chan struct{}
	pgid   atomic.Int64
	// raw text the daemon wrote in place of the frame (exec start errors)
	startOut limitedBuffer
}

// startWrapped starts runScript as user with env in the exec's own
// environment; the command follows later through feed. stdout, when not
// nil, receives the command's stdout instead of the bounded buffer. The
// demultiplexer waits until configure.
func (m *Machine) startWrapped(ctx context.Context, user string, env []string, stdout io.Writer) (*execution, error) {
	e := newExecution(stdout)
	opts := container.ExecOptions{
		User: user,
		Env:  env,
		// The script changes to the command's directory itself; starting in
		// the container's workdir would fail every exec once it is deleted.
		WorkingDir:   "/",
		AttachStdin:  true,
		AttachStdout: true,
		AttachStderr: true,
		Cmd:          []string{"/bin/sh", "-c", runScript, "shellbox-run"},
	}
	raw, err := m.startExecDeferred(ctx, opts, e.nonce, e.parser, 0)
	if err != nil {
		return nil, err
	}
	e.raw = raw
	return e, nil
}

// startWrappedArgv starts argvScript for cmd as its user, with dir and
// argv in the exec's arguments and every variable of env in its
// environment; only stdin follows through feedStdin.
func (m *Machine) startWrappedArgv(ctx context.Context, cmd machine.Command, dir string) (*execution, error) {
	e := newExecution(nil)
	env := make([]string, 0, len(cmd.Env))
	for k, v := range cmd.Env {
		env = append(env, k+"="+v)
	}
	opts := container.ExecOptions{
		User:         cmd.User,
		Env:          env,
		WorkingDir:   "/", // as in startWrapped
		AttachStdin:  true,
		AttachStdout: true,
		AttachStderr: true,
		Cmd:          append([]string{"/bin/sh", "-c", argvScript, "shellbox-run", e.nonce[len(markerLead):], dir}, cmd.Argv...),
	}
	raw, err := m.startExecDeferred(ctx, opts, e.nonce, e.parser, 0)
	if err != nil {
		return nil, err
	}
	e.raw = raw
	return e, nil
}

// newExecution prepares the host side of a wrapped command; stdout, when
// not nil, receives the command's stdout instead of the bounded buffer.
func newExecution(stdout io.Writer) *execution {
	e := &execution{nonce: newNonce(), framed: make(chan struct{})}
	e.startOut.limit = 4096
	var out io.Writer = &e.stdout
	if stdout != nil {
		out = stdout
	}
	var once sync.Once
	e.parser = newStdoutParser(e.nonce, out, func(pgid int) {
		e.pgid.Store(int64(pgid))
		once.Do(func() { close(e.framed) })
	})
	e.parser.raw = &e.startOut
	return e
}

// configure sets the output limits and lets the output be read; with
// offHeap, large outputs stay off the Go heap (machine.Command.OffHeapOutput)
// until the Result's Free.
func (e *execution) configure(limit int, offHeap bool) {
	e.stdout.out = machine.NewOutput(limit, offHeap)
	e.raw.stderr.out = machine.NewOutput(limit, offHeap)
	e.raw.begin()
}

// freeOutput returns the output's memory when no Result carries it.
func (e *execution) freeOutput() {
	e.stdout.free()
	e.raw.stderr.free()
}

// feed writes the nonce line, the command line and then stdin, closing
// the write side at the end (EOF for the command).
func (e *execution) feed(line string, stdin io.Reader) {
	if line != "" {
		if _, err := io.WriteString(e.raw.hj.Conn, e.nonce[len(markerLead):]+"\n"+line+"\n"); err != nil {
			return
		}
	}
	if stdin != nil {
		if _, err := io.Copy(e.raw.hj.Conn, stdin); err != nil {
			return
		}
	}
	_ = e.raw.hj.CloseWrite()
}

// commandLine renders the directory, environment and arguments of cmd as
// one line of shell for runScript. Environment entries whose names the
// shell cannot export are returned to go in the exec's own environment.
func (m *Machine) commandLine(cmd machine.Command) (string, []string) {
	var q quoter
	dir := cmd.Cwd
	if dir == "" {
		dir = m.spec.Workdir
	}
	var stmts []string
	stmts = append(stmts, "D="+q.word(dir))
	var execEnv []string
	for k, v := range cmd.Env {
		if !shellName(k) {
			execEnv = append(execEnv, k+"="+v)
			continue
		}
		stmts = append(stmts, "export "+k+"="+q.word(v))
	}
	set := "set --"
	for _, a := range cmd.Argv {
		set += " " + q.word(a)
	}
	stmts = append(stmts, set)
	return strings.Join(append(q.pre, stmts...), "; "), execEnv
}

func shellName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// quoter quotes words for one line of shell. Words with control bytes (a
// newline above all) are built by printf into variables first, with a
// trailing dot that keeps command substitution from eating final
// newlines.
type quoter struct {
	pre []string
}

func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (q *quoter) word(s string) string {
	ctl := false
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			ctl = true
			break
		}
	}
	if !ctl {
		return singleQuote(s)
	}
	var esc strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			esc.WriteString(`\\`)
		case c == '%':
			esc.WriteString("%%")
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&esc, `\%03o`, c)
		default:
			esc.WriteByte(c)
		}
	}
	v := fmt.Sprintf("_sbw%d", len(q.pre))
	q.pre = append(q.pre, fmt.Sprintf("%s=$(printf %s); %s=${%s%%.}", v, singleQuote(esc.String()+"."), v, v))
	return `"$` + v + `"`
}

// Run executes cmd in its own process group and waits for it; see
// machine.Machine.
func (m *Machine) Run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	if err := cmd.Validate(); err != nil {
		return machine.Result{}, err
	}
	if err := m.check(); err != nil {
		return machine.Result{}, err
	}
	// A spare exec is ready at once, so a context cancelled before the
	// call would otherwise still start the command.
	if err := ctx.Err(); err != nil {
		return machine.Result{}, err
	}
	return m.run(ctx, cmd, true)
}

func (m *Machine) run(ctx context.Context, cmd machine.Command, useStandby bool) (machine.Result, error) {
	line, execEnv := m.commandLine(cmd)
	var e *execution
	if len(line) > maxReadLine {
		dir := cmd.Cwd
		if dir == "" {
			dir = m.spec.Workdir
		}
		var err error
		if e, err = m.startWrappedArgv(ctx, cmd, dir); err != nil {
			return machine.Result{}, err
		}
		useStandby, line = false, ""
	}
	standby := e == nil && useStandby && cmd.User == "" && len(execEnv) == 0
	primary := false
	if standby {
		// The main process runs the first command without stdin (its own
		// stdin is the lifeline).
		if len(cmd.Stdin) == 0 {
			e = m.takePrimary()
			primary = e != nil
		}
		if e == nil {
			e = m.takeStandby(ctx)
		}
		// The replacement starts while this command runs.
		m.refillStandby()
	}
	fromStandby := standby && e != nil
	if e == nil {
		var err error
		if e, err = m.startWrapped(ctx, cmd.User, execEnv, nil); err != nil {
			return machine.Result{}, err
		}
	}
	e.configure(cmd.OutputLimit, cmd.OffHeapOutput)
	if primary {
		if !m.life.start(e.nonce, line) {
			// A kill request already told the main process there is no
			// first command.
			e.raw.closeConnAndWait()
			e.freeOutput()
			return m.run(ctx, cmd, false)
		}
	} else {
		go e.feed(line, strings.NewReader(string(cmd.Stdin)))
	}
	var timeout <-chan time.Time
	if cmd.Timeout > 0 {
		t := time.NewTimer(cmd.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-e.raw.done:
		if fromStandby && !e.parser.framed && !e.parser.done && !e.parser.rawMode && !m.isClosed() && !m.hasStopped() {
			// The standby died before it took the command: start afresh.
			e.raw.closeConnAndWait()
			e.freeOutput()
			return m.run(ctx, cmd, false)
		}
		return m.finish(ctx, cmd, e)
	case <-timeout:
		return m.interrupt(ctx, cmd, e, nil)
	case <-ctx.Done():
		return m.interrupt(ctx, cmd, e, ctx.Err())
	}
}

// finish builds the result of a command whose stream ended.
func (m *Machine) finish(ctx context.Context, cmd machine.Command, e *execution) (machine.Result, error) {
	code, extra, err := m.conclude(ctx, cmd, e)
	if err != nil {
		e.freeOutput()
		return machine.Result{}, err
	}
	res := e.result(code)
	if len(extra) > 0 {
		res.Stderr = append(res.Stderr, extra...)
	}
	return res, nil
}

// conclude closes a finished execution's stream and works out its exit
// code; extra is a daemon message for stderr when the exec never started.
func (m *Machine) conclude(ctx context.Context, cmd machine.Command, e *execution) (int, []byte, error) {
	e.raw.closeConnAndWait()
	p := e.parser
	if !p.done {
		_ = p.flush()
	}
	ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	switch {
	case p.done && !p.noFrame:
		// The marker carries the status: asking the daemon instead would
		// wait behind its per-container event queue, which holds every exec
		// exit for up to 2 s while an earlier exec's background processes
		// keep that exec's stdout open.
		if code, ok := p.markerStatus(); ok {
			if code >= 128 {
				// Killed by a signal: possibly because the container died.
				if err := m.aliveAfterSignal(ctx); err != nil {
					return 0, nil, err
				}
			}
			return code, nil, nil
		}
		if e.raw.id == "" {
			return 0, nil, &machine.InfrastructureError{Op: "reading the command's status", Err: fmt.Errorf("malformed status %q", p.status)}
		}
		insp, err := m.waitExit(ictx, e.raw.id, 5*time.Second)
		if err != nil {
			return 0, nil, m.opErr(ctx, "inspecting exec", err)
		}
		return insp.ExitCode, nil, nil
	case p.done && p.noFrame:
		// The wrapper ran but could not start the command's shell.
		return 0, nil, m.f.unsupported("source", "the image needs /bin/sh and setsid to run commands: "+strings.TrimSpace(string(e.raw.stderr.bytes())))
	}
	// The stream ended without the wrapper's end marker: the exec never
	// started, the wrapper was killed, or the container went away.
	if m.isClosed() {
		return 0, nil, machine.ErrClosed
	}
	if m.hasStopped() {
		return 0, nil, m.stoppedErr()
	}
	if e.raw.id == "" {
		// The container's main process ended: so did the container.
		if err := m.aliveAfterSignal(ctx); err != nil {
			return 0, nil, err
		}
		return 0, nil, &machine.TerminatedError{Reason: fmt.Sprintf("the main process of container %s ended", m.name)}
	}
	insp, err := m.waitExit(ictx, e.raw.id, 5*time.Second)
	if err != nil {
		if term := m.terminated(err); term != nil {
			return 0, nil, term
		}
		if reason := m.deadReason(); reason != "" {
			return 0, nil, &machine.TerminatedError{Reason: reason}
		}
		return 0, nil, m.opErr(ctx, "inspecting exec", err)
	}
	if p.framed && !p.noFrame {
		// The wrapper itself was killed: most likely with its container.
		if err := m.aliveAfterSignal(ctx); err != nil {
			return 0, nil, err
		}
	} else if reason := m.deadReason(); reason != "" {
		return 0, nil, &machine.TerminatedError{Reason: reason}
	}
	if !p.framed || p.noFrame {
		msg := strings.TrimSpace(string(e.startOut.bytes()) + string(e.raw.system.bytes()))
		if i := strings.LastIndex(msg, " in sandbox: "); i >= 0 && strings.HasPrefix(msg, "OCI runtime exec failed") {
			msg = "OCI runtime exec failed: " + msg[i+len(" in sandbox: "):] // runsc quotes the whole wrapper
		}
		if strings.Contains(msg, "unable to find user") || strings.Contains(msg, "no matching entries in passwd") {
			return 0, nil, m.f.unsupported("user", fmt.Sprintf("user %q: %s", cmd.User, msg))
		}
		// The wrapper never reported the command's group: the exec could
		// not start, or it died with a container the daemon does not
		// know dead yet (runc refuses to enter a dying container).
		if err := m.aliveAfterSignal(ctx); err != nil {
			return 0, nil, err
		}
		// The daemon could not start the exec (e.g. a missing cwd): report
		// it as the docker CLI does, with its message on stderr.
		if msg != "" {
			return insp.ExitCode, []byte(msg + "\n"), nil
		}
	}
	return insp.ExitCode, nil, nil
}

func (e *execution) result(code int) machine.Result {
	res := machine.ExitedWith(code, e.stdout.bytes(), e.raw.stderr.bytes(), e.stdout.isTruncated(), e.raw.stderr.isTruncated())
	res.Free = e.freeFunc()
	return res
}

// freeFunc is the Result's Free: nil unless the output is off the heap.
func (e *execution) freeFunc() func() {
	if e.stdout.out == nil || !e.stdout.out.OffHeap() && !e.raw.stderr.out.OffHeap() {
		return nil
	}
	return e.freeOutput
}

// interrupt stops a command on timeout (cause nil) or cancellation.
func (m *Machine) interrupt(ctx context.Context, cmd machine.Command, e *execution, cause error) (machine.Result, error) {
	select {
	case <-e.raw.done:
		if cause == nil {
			return m.finish(ctx, cmd, e) // it completed as the deadline came
		}
	default:
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.f.stopTimeout+frameGrace)
	defer cancel()
	if err := m.stopExecution(sctx, e); err != nil {
		e.raw.closeConnAndWait()
		e.freeOutput()
		return machine.Result{}, err
	}
	if cause != nil {
		e.freeOutput()
		return machine.Result{}, cause
	}
	return machine.Result{ExitCode: nil, Stdout: e.stdout.bytes(), Stderr: e.raw.stderr.bytes(),
		StdoutTruncated: e.stdout.isTruncated(), StderrTruncated: e.raw.stderr.isTruncated(), Reason: machine.TimedOut, Free: e.freeFunc()}, nil
}

// stopExecution kills the execution's process group, confirms that no
// member is alive and collects the output that was still in flight. A stop
// that cannot be confirmed closes the machine.
func (m *Machine) stopExecution(ctx context.Context, e *execution) error {
	select {
	case <-e.framed:
	case <-e.raw.done:
	case <-time.After(frameGrace):
	}
	pgid := int(e.pgid.Load())
	if pgid == 0 {
		select {
		case <-e.raw.done:
			if !e.parser.framed || e.parser.noFrame {
				e.raw.closeConnAndWait()
				return nil // it never started
			}
		default:
		}
		e.raw.closeConn()
		return m.closeAfter(ctx, "stopping the command", errors.New("the command never reported its process group"))
	}
	// The main process kills the group at once, even when a fork bomb
	// leaves no task for an exec; the root exec then confirms.
	m.life.kill(pgid)
	if err := m.stopGroup(ctx, pgid); err != nil {
		e.raw.closeConn()
		// The guest defeated the stop (a sandbox saturated by its own
		// tasks, or dying of them): the machine is closed and that is
		// its termination, not a host failure, unless the removal fails.
		reason := m.deadReason()
		if reason == "" {
			reason = fmt.Sprintf("process group %d could not be stopped after the command's timeout (%v), so the machine was closed", pgid, err)
		}
		// The removal of a saturated gVisor sandbox can take the daemon
		// minutes: it goes on in the background, and Close waits for it
		// (or retries it).
		go func() { _ = m.Close(context.WithoutCancel(ctx)) }()
		return &machine.TerminatedError{Reason: reason}
	}
	// The group is gone, so the wrapper prints its marker and exits.
	select {
	case <-e.raw.done:
	case <-time.After(drainGrace):
	}
	e.raw.closeConnAndWait()
	return nil
}

// stopGroup kills a process group as root and confirms it is gone. An
// exec the runtime could not start (exit 125-127: e.g. no task left under
// the container's limit while the group still forks), or whose shell
// could not fork the probe for the same reason, is retried until ctx
// ends.
func (m *Machine) stopGroup(ctx context.Context, pgid int) error {
	// A sandbox that dies meanwhile (gVisor's ends when it reaches its
	// task limit) may leave the exec hanging: watch the container.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		full := 0
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(500 * time.Millisecond):
			}
			if reason := m.deadReason(); reason != "" {
				cancel(&machine.TerminatedError{Reason: reason})
				return
			}
			// A gVisor sandbox whose task limit stays exhausted cannot
			// run the stop (its kernel needs host threads to act): it
			// is ended from the host instead of waiting out ctx.
			if m.f.runtime == "" || m.f.runtime == "runc" || !taskLimitExhausted(m.id) {
				full = 0
				continue
			}
			if full++; full >= 3 {
				killContainerTasks(m.id, 0)
				cancel(&machine.TerminatedError{Reason: fmt.Sprintf("the command's processes exhausted the sandbox's task limit (pids_limit %d) and would not stop, so the machine was ended", m.f.pids)})
				return
			}
		}
	}()
	delay := 50 * time.Millisecond
	for {
		code, stderr, err := m.rootExec(ctx, stopScript, []string{strconv.Itoa(pgid)}, nil, nil)
		if cause := context.Cause(ctx); errors.Is(cause, machine.ErrTerminated) {
			return cause
		}
		if err != nil {
			return err
		}
		if code == 0 {
			return nil
		}
		if (code < 125 || code > 127) && !cannotFork(stderr) || ctx.Err() != nil {
			return fmt.Errorf("process group %d still has live members (probe exit %d): %s", pgid, code, strings.TrimSpace(string(stderr)))
		}
		m.life.kill(pgid)
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		delay = min(2*delay, time.Second)
	}
}

// cannotFork says whether a root exec's stderr is a shell's report that
// it could not fork (the container's task limit was full).
func cannotFork(stderr []byte) bool {
	return bytes.Contains(stderr, []byte("can't fork")) || bytes.Contains(stderr, []byte("Resource temporarily unavailable"))
}
