package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

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
		var r struct {
			Requirements machine.Requirements `json:"requirements"`
			Spec         machine.Spec         `json:"spec"`
		}
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		return Reply{}, f.factory.CheckEnvironment(r.Requirements, r.Spec)
	case "create":
		var spec machine.Spec
		if err := decode(req, &spec); err != nil {
			return Reply{}, err
		}
		m, err := f.factory.Create(ctx, spec)
		if err != nil {
			return Reply{}, err
		}
		_, processes := m.(machine.ProcessMachine)
		h := f.bridge.Add(&machineObject{bridge: f.bridge, machine: m})
		return Reply{Header: struct {
			Handle    uint64 `json:"handle"`
			Processes bool   `json:"processes"`
		}{h, processes}}, nil
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

// commandRequest is Command as Python sends it; stdin is the payload.
// Absent fields take the contract's defaults (no timeout, 1 MiB of output).
type commandRequest struct {
	machine.Command
	Timeout     *machine.Seconds `json:"timeout"`
	OutputLimit *int             `json:"output_limit_bytes"`
}

// command converts and validates the request: this is the one check every
// backend's commands go through, before the backend sees them.
func (r commandRequest) command(stdin []byte) (machine.Command, error) {
	c := r.Command
	if r.Timeout != nil {
		d, err := machine.DurationFromSeconds("timeout", float64(*r.Timeout))
		if err != nil {
			return c, err
		}
		if d <= 0 {
			return c, &machine.InvalidSpec{Field: "timeout", Reason: fmt.Sprintf("must be positive, got %g (give no timeout for none)", float64(*r.Timeout))}
		}
		c.Timeout = d
	}
	c.OutputLimit = machine.DefaultOutputLimit
	if r.OutputLimit != nil {
		c.OutputLimit = *r.OutputLimit
	}
	c.Stdin = stdin
	return c, c.Validate()
}

type resultHeader struct {
	ExitCode        *int                   `json:"exit_code"`
	StdoutTruncated bool                   `json:"stdout_truncated"`
	StderrTruncated bool                   `json:"stderr_truncated"`
	Reason          machine.ExitReason     `json:"reason"`
	Usage           *machine.ResourceUsage `json:"usage,omitempty"` // issue 14: per-command resource usage
}

func (m *machineObject) Call(ctx context.Context, method string, req, payload []byte) (Reply, error) {
	switch method {
	case "run":
		var r commandRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		cmd, err := r.command(payload)
		if err != nil {
			return Reply{}, err
		}
		cmd.OffHeapOutput = true // the reply frees it (Reply.Free)
		res, err := m.machine.Run(ctx, cmd)
		if err != nil {
			return Reply{}, err
		}
		return Reply{
			Header: resultHeader{res.ExitCode, res.StdoutTruncated, res.StderrTruncated, res.Reason, res.Usage},
			Body:   [][]byte{res.Stdout, res.Stderr},
			Free:   res.Free,
		}, nil
	case "upload":
		var r struct{ Source, Target string }
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
		var r struct {
			Source, Target string
			MaxBytes       *int64 `json:"max_bytes"`
		}
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
		var r commandRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		cmd, err := r.command(nil)
		if err != nil {
			return Reply{}, err
		}
		p, err := pm.OpenProcess(ctx, cmd)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: handleReply{m.bridge.Add(&processObject{process: p})}}, nil
	case "close":
		return Reply{}, m.machine.Close(ctx)
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

type eofHeader struct {
	EOF bool `json:"eof"`
}

func (p *processObject) Call(ctx context.Context, method string, req, payload []byte) (Reply, error) {
	switch method {
	case "write":
		_, err := p.process.Stdin().Write(payload)
		return Reply{}, err
	case "close_stdin":
		return Reply{}, p.process.Stdin().Close()
	case "read":
		var r struct {
			MaxBytes *int `json:"max_bytes"`
		}
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
		return Reply{Header: eofHeader{len(data) == 0 && err != nil}, Body: [][]byte{data}}, nil
	case "wait":
		exit, err := p.process.Wait(ctx)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: struct {
			ExitCode        int  `json:"exit_code"`
			StderrTruncated bool `json:"stderr_truncated"`
		}{exit.ExitCode, exit.StderrTruncated}, Body: [][]byte{exit.Stderr}}, nil
	case "close":
		return Reply{}, p.process.Close(ctx)
	}
	return Reply{}, unknownMethod("process", method)
}
