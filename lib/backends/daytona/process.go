package daytona

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/shellbox/shellbox/lib/machine"
)

// maxProcessInput bounds what a process buffers before its input ends.
const maxProcessInput = 256 << 20

// OpenProcess starts cmd once its input is complete: the toolbox runs a
// command to its end with no stream in either direction, so the process
// sees its whole input when Stdin is closed and its output arrives when
// it ends (machinetest's BatchProcesses).
func (m *Machine) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	if err := cmd.Validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cmd.User != "" {
		// Refuse an impossible user now rather than when input ends.
		if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}, User: cmd.User}); err != nil {
			return nil, err
		}
	}
	pr, pw := io.Pipe()
	p := &process{m: m, cmd: cmd, stdoutR: pr, stdoutW: pw, exited: make(chan struct{})}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, machine.ErrClosed
	}
	m.procs[p] = struct{}{}
	m.mu.Unlock()
	return p, nil
}

type process struct {
	m       *Machine
	cmd     machine.Command
	ctx     context.Context
	cancel  context.CancelFunc
	stdoutR *io.PipeReader
	stdoutW *io.PipeWriter

	mu      sync.Mutex
	input   bytes.Buffer
	started bool
	ended   bool
	exited  chan struct{}
	exit    machine.ProcessExit
	err     error
}

func (p *process) Stdin() io.WriteCloser { return processStdin{p} }
func (p *process) Stdout() io.Reader     { return p.stdoutR }

type processStdin struct{ p *process }

func (s processStdin) Write(b []byte) (int, error) {
	p := s.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started || p.ended {
		return 0, errors.New("daytona: the process's input is closed")
	}
	if p.input.Len()+len(b) > maxProcessInput {
		return 0, errors.New("daytona: a process's input is limited to 256 MiB")
	}
	return p.input.Write(b)
}

// Close ends the input and runs the command.
func (s processStdin) Close() error {
	p := s.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started || p.ended {
		return nil
	}
	p.started = true
	cmd := p.cmd
	cmd.Stdin = p.input.Bytes()
	go p.run(cmd)
	return nil
}

func (p *process) run(cmd machine.Command) {
	res, err := p.m.Run(p.ctx, cmd)
	exit := machine.ProcessExit{Stderr: res.Stderr, StderrTruncated: res.StderrTruncated}
	switch {
	case err != nil:
	case res.Reason == machine.TimedOut:
		exit.ExitCode = 137 // killed, as an OS process past its deadline
	default:
		exit.ExitCode = *res.ExitCode
	}
	if err == nil && len(res.Stdout) > 0 { // an empty write would be an empty read
		_, err = p.stdoutW.Write(res.Stdout)
		if errors.Is(err, io.ErrClosedPipe) {
			err = nil
		}
	}
	p.stdoutW.CloseWithError(err)
	p.finish(exit, err)
}

func (p *process) finish(exit machine.ProcessExit, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	p.exit, p.err = exit, err
	close(p.exited)
	p.m.mu.Lock()
	delete(p.m.procs, p)
	p.m.mu.Unlock()
}

// abort ends the process: a running command is stopped by its Run's
// cancellation.
func (p *process) abort(err error) {
	p.cancel()
	p.mu.Lock()
	started := p.started
	p.mu.Unlock()
	if !started {
		p.stdoutW.CloseWithError(err)
		p.finish(machine.ProcessExit{}, err)
		return
	}
	p.stdoutR.CloseWithError(err)
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
	p.abort(errors.New("daytona: the process is closed"))
	select {
	case <-p.exited:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
