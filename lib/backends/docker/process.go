package docker

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// OpenProcess starts cmd in its own process group with raw binary pipes
// over the exec's hijacked connection. Its stdout must be read for the
// command to make progress (as with an OS pipe); Wait returns after the
// command exited and its stdout was consumed up to the end.
// Command.Timeout, when set, kills the process group after that long.
func (m *Machine) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	if err := cmd.Validate(); err != nil {
		return nil, err
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	line, execEnv := m.commandLine(cmd)
	e, err := m.startWrapped(ctx, cmd.User, execEnv, pw)
	if err != nil {
		return nil, err
	}
	e.configure(cmd.OutputLimit, false)
	p := &process{m: m, cmd: cmd, e: e, stdoutR: pr, stdoutW: pw, exited: make(chan struct{})}
	p.stdin = &processStdin{p: p}
	if _, err := io.WriteString(e.raw.hj.Conn, e.nonce[len(markerLead):]+"\n"+line+"\n"); err != nil {
		e.raw.closeConnAndWait()
		return nil, m.opErr(ctx, "writing to the process", err)
	}
	go p.watch()
	if cmd.Timeout > 0 {
		p.timer = time.AfterFunc(cmd.Timeout, func() { _ = p.kill(context.Background()) })
	}
	return p, nil
}

type process struct {
	m       *Machine
	cmd     machine.Command
	e       *execution
	stdin   *processStdin
	stdoutR *io.PipeReader
	stdoutW *io.PipeWriter
	timer   *time.Timer

	exited  chan struct{}
	exit    machine.ProcessExit
	exitErr error

	stopMu  sync.Mutex
	stopped bool
	stopErr error
}

func (p *process) Stdin() io.WriteCloser { return p.stdin }
func (p *process) Stdout() io.Reader     { return p.stdoutR }

// watch waits for the stream to end, then ends stdout and records the
// exit status.
func (p *process) watch() {
	<-p.e.raw.done
	if !p.e.parser.done {
		_ = p.e.parser.flush()
	}
	if p.e.raw.err != nil && !p.m.isClosed() {
		p.stdoutW.CloseWithError(p.e.raw.err)
	} else {
		p.stdoutW.Close()
	}
	code, extra, err := p.m.conclude(context.Background(), p.cmd, p.e)
	p.exit = machine.ProcessExit{ExitCode: code, Stderr: append(p.e.raw.stderr.bytes(), extra...), StderrTruncated: p.e.raw.stderr.isTruncated()}
	p.exitErr = err
	close(p.exited)
}

// Wait blocks until the process exited.
func (p *process) Wait(ctx context.Context) (machine.ProcessExit, error) {
	select {
	case <-p.exited:
		return p.exit, p.exitErr
	case <-ctx.Done():
		return machine.ProcessExit{}, ctx.Err()
	}
}

// kill stops the process group once; the result is remembered.
func (p *process) kill(ctx context.Context) error {
	p.stopMu.Lock()
	defer p.stopMu.Unlock()
	if p.stopped {
		return p.stopErr
	}
	p.stopped = true
	select {
	case <-p.exited:
		return nil
	default:
	}
	// The stop drains stdout so the wrapper can finish even if nobody
	// reads it any more.
	go func() { _, _ = io.Copy(io.Discard, p.stdoutR) }()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.m.f.stopTimeout+frameGrace)
	defer cancel()
	p.stopErr = p.m.stopExecution(sctx, p.e)
	return p.stopErr
}

// Close kills the process group if it is still running and releases the
// connection.
func (p *process) Close(ctx context.Context) error {
	if p.timer != nil {
		p.timer.Stop()
	}
	err := p.kill(ctx)
	p.e.raw.closeConn()
	p.stdoutR.CloseWithError(errors.New("process closed"))
	select {
	case <-p.exited:
	case <-ctx.Done():
	}
	return err
}

// processStdin writes to the exec's stdin; Close sends EOF.
type processStdin struct {
	p    *process
	mu   sync.Mutex
	done bool
}

func (s *processStdin) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return 0, io.ErrClosedPipe
	}
	return s.p.e.raw.hj.Conn.Write(b)
}

func (s *processStdin) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return nil
	}
	s.done = true
	return s.p.e.raw.hj.CloseWrite()
}
