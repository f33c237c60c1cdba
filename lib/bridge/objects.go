package bridge

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

// releaseTimeout bounds the close done for a handle its owner dropped.
const releaseTimeout = 30 * time.Second

type factoryObject struct {
	bridge  *Bridge
	factory machine.Factory
}

func (f *factoryObject) Release() {}

func (f *factoryObject) Call(ctx context.Context, method string, req, _ []byte) (Reply, error) {
	switch method {
	case "check_environment":
		var r wire.CheckEnvironmentRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		spec, err := specOf(r.Spec)
		if err != nil {
			return Reply{}, err
		}
		return Reply{}, f.factory.CheckEnvironment(requirementsOf(r.Requirements), spec)
	case "create":
		spec, err := DecodeSpec(req)
		if err != nil {
			return Reply{}, err
		}
		m, err := f.factory.Create(ctx, spec)
		if err != nil {
			return Reply{}, err
		}
		_, processes := m.(machine.ProcessMachine)
		h := f.bridge.Add(&machineObject{bridge: f.bridge, machine: m})
		return Reply{Header: wire.CreateReply{Handle: h, Processes: processes}}, nil
	}
	return Reply{}, unknownMethod("factory", method)
}

type machineObject struct {
	bridge  *Bridge
	machine machine.Machine
}

func (m *machineObject) Release() {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	_ = m.machine.Close(ctx)
}

// stopReasoner is a machine that knows which budget ended it (ShellSim).
type stopReasoner interface{ StopReason() string }

func (m *machineObject) stopReason() string {
	if s, ok := m.machine.(stopReasoner); ok {
		return s.StopReason()
	}
	return ""
}

// Call adds the machine's stop reason to a MachineTerminated error.
func (m *machineObject) Call(ctx context.Context, method string, req, payload []byte) (Reply, error) {
	reply, err := m.call(ctx, method, req, payload)
	if err != nil && machine.KindOf(err) == machine.KindTerminated {
		if r := m.stopReason(); r != "" {
			err = &stoppedError{err, r}
		}
	}
	return reply, err
}

func (m *machineObject) call(ctx context.Context, method string, req, payload []byte) (Reply, error) {
	switch method {
	case "run":
		var r wire.Command
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		cmd, err := commandOf(r, payload)
		if err != nil {
			return Reply{}, err
		}
		cmd.OffHeapOutput = true // the reply frees it (Reply.Free)
		res, err := m.machine.Run(ctx, cmd)
		if err != nil {
			return Reply{}, err
		}
		return Reply{
			Header: runReply(res, m.stopReason()),
			Body:   [][]byte{res.Stdout, res.Stderr},
			Free:   res.Free,
		}, nil
	case "upload":
		var r wire.UploadRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		if err := machine.ValidateHostPath("source", r.Source); err != nil {
			return Reply{}, err
		}
		if err := machine.ValidateGuestPath("target", r.Target); err != nil {
			return Reply{}, err
		}
		return Reply{}, m.machine.Upload(ctx, r.Source, r.Target)
	case "download":
		var r wire.DownloadRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		if err := machine.ValidateGuestPath("source", r.Source); err != nil {
			return Reply{}, err
		}
		if err := machine.ValidateHostPath("target", r.Target); err != nil {
			return Reply{}, err
		}
		var opts machine.DownloadOptions
		if r.MaxBytes != nil {
			if *r.MaxBytes < 0 {
				return Reply{}, &machine.InvalidSpec{Field: "max_bytes", Reason: "must not be negative"}
			}
			opts.MaxBytes = *r.MaxBytes
			if opts.MaxBytes == 0 {
				opts.MaxBytes = -1 // a bound of zero bytes, distinct from "no bound"
			}
		}
		return Reply{}, m.machine.Download(ctx, r.Source, r.Target, opts)
	case "open_process":
		pm, ok := m.machine.(machine.ProcessMachine)
		if !ok {
			return Reply{}, &machine.UnsupportedSpec{Backend: "this", Field: "open_process", Reason: "the backend has no process sessions"}
		}
		var r wire.Command
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		cmd, err := commandOf(r, nil)
		if err != nil {
			return Reply{}, err
		}
		p, err := pm.OpenProcess(ctx, cmd)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: wire.HandleReply{Handle: m.bridge.Add(&processObject{process: p})}}, nil
	case "close":
		return Reply{}, m.machine.Close(ctx)
	case "set_network_policy":
		return setNetworkPolicy(ctx, m.machine, req) // egress.go
	}
	return Reply{}, unknownMethod("machine", method)
}

type processObject struct {
	process machine.Process
	readMu  sync.Mutex
	pending chan readResult // a read a cancelled call left running
}

type readResult struct {
	data []byte
	err  error
}

func (p *processObject) Release() {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	_ = p.process.Close(ctx)
}

// read returns the next chunk of stdout. A cancelled read's chunk is not
// lost: the next read picks it up.
func (p *processObject) read(ctx context.Context, max int) ([]byte, error) {
	p.readMu.Lock()
	defer p.readMu.Unlock()
	if p.pending == nil {
		ch := make(chan readResult, 1)
		p.pending = ch
		go func() {
			defer recoverTo("process read", func(err error) { ch <- readResult{nil, err} })
			buf := make([]byte, max)
			n, err := p.process.Stdout().Read(buf)
			ch <- readResult{buf[:n], err}
		}()
	}
	select {
	case res := <-p.pending:
		p.pending = nil
		return res.data, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// defaultReadBytes and maxReadBytes bound one process read.
const (
	defaultReadBytes = 64 << 10
	maxReadBytes     = 16 << 20
)

func (p *processObject) Call(ctx context.Context, method string, req, payload []byte) (Reply, error) {
	switch method {
	case "write":
		_, err := p.process.Stdin().Write(payload)
		return Reply{}, err
	case "close_stdin":
		return Reply{}, p.process.Stdin().Close()
	case "read":
		var r wire.ReadRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		limit := defaultReadBytes
		if r.MaxBytes != nil {
			if limit = *r.MaxBytes; limit <= 0 {
				return Reply{}, &machine.InvalidSpec{Field: "max_bytes", Reason: "max_bytes must be positive"}
			}
			// A read returns what the pipe holds; a larger buffer only costs memory.
			limit = min(limit, maxReadBytes)
		}
		data, err := p.read(ctx, limit)
		if err != nil && !errors.Is(err, io.EOF) {
			return Reply{}, err
		}
		return Reply{Header: wire.ReadReply{EOF: len(data) == 0 && err != nil}, Body: [][]byte{data}}, nil
	case "wait":
		exit, err := p.process.Wait(ctx)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: wire.WaitReply{ExitCode: exit.ExitCode, StderrTruncated: exit.StderrTruncated},
			Body: [][]byte{exit.Stderr}}, nil
	case "close":
		return Reply{}, p.process.Close(ctx)
	}
	return Reply{}, unknownMethod("process", method)
}
