package daytona

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/remotemachine"
	"github.com/shellbox/shellbox/lib/remote/shwrap"
)

// inputChunk is the most input one send-input request carries.
const inputChunk = 48 << 10

// OpenProcess runs cmd as an asynchronous command of a session of its own,
// as the SDK runs one: its input goes by the toolbox's send-input, its
// output comes over the followed log while it runs, and its status at the
// end. shwrap.ProcessScript carries binary both ways as base64 lines and
// puts the command in a process group that Close and Command.Timeout stop.
func (m *Machine) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	if err := cmd.Validate(); err != nil {
		return nil, err
	}
	for k := range cmd.Env {
		if !shwrap.ValidEnvName(k) {
			return nil, &machine.InvalidSpec{Field: "env", Reason: fmt.Sprintf("%q is not a variable name a shell can export", k)}
		}
	}
	if cmd.User != "" {
		// Refuse an impossible user now rather than from the stream.
		if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}, User: cmd.User}); err != nil {
			return nil, err
		}
	}
	return remotemachine.Do(ctx, m.life, "opening a process", func(ctx context.Context) (machine.Process, error) {
		p, err := m.openProcess(ctx, cmd)
		if err != nil {
			return nil, err // not a nil *process in the interface
		}
		return p, nil
	})
}

func (m *Machine) openProcess(ctx context.Context, cmd machine.Command) (*process, error) {
	cwd := cmd.Cwd
	if cwd == "" {
		cwd = m.spec.Workdir
	}
	if cwd == "" {
		cwd = "/"
	}
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	p := &process{m: m, limit: cmd.OutputLimit, user: cmd.User, dir: shwrap.PrivateDir(), session: "shellbox-" + hex.EncodeToString(b),
		exited: make(chan struct{}), stopped: make(chan struct{})}
	p.stdoutR, p.stdoutW = io.Pipe()
	p.ctx, p.cancel = context.WithCancel(m.life.Context())
	script := shwrap.ProcessScript(shwrap.RunOptions{Dir: p.dir, Cwd: cwd, User: cmd.User, Argv: cmd.Argv, Env: cmd.Env,
		Limit: cmd.OutputLimit, Prelude: m.workdir.Prelude()})
	if err := m.tb.CreateSession(ctx, p.session); err != nil {
		p.cancel()
		return nil, err
	}
	fail := func(err error) (*process, error) {
		p.cancel()
		p.deleteSession()
		return nil, err
	}
	resp, err := m.tb.SessionExecute(ctx, p.session, SessionExecuteRequest{Command: "sh -c " + shwrap.Quote(script), RunAsync: true})
	if err != nil {
		return fail(err)
	}
	p.cmdID = resp.CmdID
	logs, err := m.tb.FollowLogs(p.ctx, p.session, p.cmdID)
	if err != nil {
		return fail(err)
	}
	// Closing marks the machine closed before it takes the processes, so
	// this one is either refused here or ended by the close.
	m.procsMu.Lock()
	if m.life.Closed() {
		m.procsMu.Unlock()
		logs.Close()
		return fail(machine.ErrClosed)
	}
	m.procs[p] = struct{}{}
	m.procsMu.Unlock()
	go p.pump(logs)
	if cmd.Timeout > 0 {
		p.timer = time.AfterFunc(cmd.Timeout, func() { p.stop(true) })
	}
	return p, nil
}

type process struct {
	m       *Machine
	limit   int
	user    string
	dir     string
	session string
	cmdID   string
	ctx     context.Context // ends the log and input requests
	cancel  context.CancelFunc
	stdoutR *io.PipeReader
	stdoutW *io.PipeWriter
	timer   *time.Timer

	inMu     sync.Mutex // orders input requests
	inClosed bool

	mu       sync.Mutex
	stopping bool
	timedOut bool
	stopErr  error
	stopRep  shwrap.Reply
	stopped  chan struct{} // closed once a stop ran
	ended    bool
	exited   chan struct{}
	exit     machine.ProcessExit
	err      error
}

func (p *process) Stdin() io.WriteCloser { return processStdin{p} }
func (p *process) Stdout() io.Reader     { return p.stdoutR }

type processStdin struct{ p *process }

func (s processStdin) Write(b []byte) (int, error) {
	p := s.p
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.inClosed || p.isEnded() {
		return 0, errors.New("daytona: the process's input is closed")
	}
	n := 0
	for n < len(b) {
		k := min(len(b)-n, inputChunk)
		if err := p.m.tb.SendInput(p.ctx, p.session, p.cmdID, shwrap.EncodeInput(b[n:n+k])); err != nil {
			return n, fmt.Errorf("daytona: sending the process's input: %w", err)
		}
		n += k
	}
	return n, nil
}

// Close ends the command's input.
func (s processStdin) Close() error {
	p := s.p
	p.inMu.Lock()
	defer p.inMu.Unlock()
	if p.inClosed || p.isEnded() {
		return nil
	}
	p.inClosed = true
	if err := p.m.tb.SendInput(p.ctx, p.session, p.cmdID, shwrap.InputEnd); err != nil && !p.isEnded() {
		return fmt.Errorf("daytona: closing the process's input: %w", err)
	}
	return nil
}

func (p *process) isEnded() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ended
}

// pump reads the followed log: stdout lines of the wrapper carry the
// command's output and, last, its status.
func (p *process) pump(logs *LogStream) {
	defer logs.Close()
	var line, noise []byte
	note := func(b []byte) {
		if len(noise) < 4096 {
			noise = append(noise, b...)
		}
	}
	for {
		data, stderr, err := logs.Next(p.ctx)
		if err != nil {
			p.logEnded(err, noise)
			return
		}
		if stderr {
			note(data)
			continue
		}
		line = append(line, data...)
		for {
			i := bytes.IndexByte(line, '\n')
			if i < 0 {
				break
			}
			l := string(line[:i])
			line = line[i+1:]
			pl, perr := shwrap.ParseProcessLine(l)
			switch {
			case perr != nil:
				note([]byte(l + "\n")) // the shell's own words
			case pl.Marker != "":
				p.stdoutW.CloseWithError(errors.New("daytona: the process did not start"))
				p.finish(machine.ProcessExit{}, p.m.markerErr(pl.Marker, p.user))
				return
			case pl.Exited:
				p.stdoutW.Close()
				p.finish(machine.ProcessExit{ExitCode: pl.Code, Stderr: pl.Stderr, StderrTruncated: pl.ErrLen > int64(p.limit)}, nil)
				p.deleteSession()
				return
			case len(pl.Stdout) > 0:
				// A reader that went away (Close) leaves the rest unread.
				_, _ = p.stdoutW.Write(pl.Stdout)
			}
		}
	}
}

// logEnded handles a log that ended without the status: after a stop,
// the stop's reply is the status; else it is an error.
func (p *process) logEnded(err error, noise []byte) {
	p.mu.Lock()
	stopping := p.stopping
	p.mu.Unlock()
	if stopping {
		<-p.stopped
		p.mu.Lock()
		rep, serr, timedOut := p.stopRep, p.stopErr, p.timedOut
		p.mu.Unlock()
		if timedOut && serr == nil {
			p.stdoutW.Close()
			p.finish(machine.ProcessExit{ExitCode: 137, Stderr: rep.Stderr, StderrTruncated: rep.ErrLen > int64(p.limit)}, nil)
			p.deleteSession()
			return
		}
	}
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("daytona: the process's log ended without its exit status: %s", strings.TrimSpace(shwrap.Truncate(string(noise), 2000)))
	}
	if p.m.life.Closed() {
		err = machine.ErrClosed
	}
	p.stdoutW.CloseWithError(err)
	p.finish(machine.ProcessExit{}, err)
	p.deleteSession()
}

// stop kills the command's process group once (StopScript), keeping its
// stderr so far; timedOut marks a stop by Command.Timeout.
func (p *process) stop(timedOut bool) {
	p.mu.Lock()
	if p.stopping || p.ended {
		p.mu.Unlock()
		return
	}
	p.stopping, p.timedOut = true, timedOut
	p.mu.Unlock()
	rep, err := p.m.stop(p.dir, p.limit)
	p.mu.Lock()
	p.stopRep, p.stopErr = rep, err
	p.mu.Unlock()
	close(p.stopped)
	if err != nil && !p.m.life.Closed() {
		// A group that could not be stopped leaves the machine in an
		// unknown state.
		go p.m.closeAfter(err)
	}
}

func (p *process) finish(exit machine.ProcessExit, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	p.exit, p.err = exit, err
	if p.timer != nil {
		p.timer.Stop()
	}
	close(p.exited)
	p.m.procsMu.Lock()
	delete(p.m.procs, p)
	p.m.procsMu.Unlock()
}

// deleteSession removes the process's session, best effort.
func (p *process) deleteSession() {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(p.m.life.Context()), stopTimeout)
	defer cancel()
	_ = p.m.tb.DeleteSession(ctx, p.session)
}

// abort ends the process: its group is stopped (unless the machine is
// going), its log and input requests end, and Wait returns err.
func (p *process) abort(err error) {
	if !p.m.life.Closed() {
		p.stop(false)
	}
	p.cancel()
	p.stdoutR.CloseWithError(err)
	p.finish(machine.ProcessExit{}, err)
}

func (p *process) Wait(ctx context.Context) (machine.ProcessExit, error) {
	select {
	case <-p.exited:
		return p.exit, p.err
	case <-ctx.Done():
		return machine.ProcessExit{}, ctx.Err()
	}
}

func (p *process) Close(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if !p.isEnded() {
			p.abort(errors.New("daytona: the process is closed"))
		}
		p.cancel()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
