package execd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/transfer"
)

// stopGrace is how long the client waits, after asking the helper to stop
// a command, for the helper to confirm it.
const stopGrace = killConfirmTimeout + 5*time.Second

// maxIdle bounds the connections a client keeps open between operations;
// more run at once only while that many operations do.
const maxIdle = 4

// Client talks to one helper through its socket.
type Client struct {
	addr   *net.UnixAddr
	dialer func() (net.Conn, error) // when set, replaces dialing addr
	nextID atomic.Uint64

	// reuse: a connection whose operation ended cleanly carries the next
	// one (see the package documentation), which saves each command a
	// connect and an accept on both sides of the socket.
	reuse  bool
	mu     sync.Mutex
	idle   []*conn
	closed bool
}

// NewClient returns a client for the helper listening at socketPath. It
// keeps connections open between operations; Close closes them.
func NewClient(socketPath string) *Client {
	return &Client{addr: &net.UnixAddr{Name: socketPath, Net: "unix"}, reuse: true}
}

// Close closes the connections kept for reuse; operations still running
// keep theirs until they end, and later ones open new ones.
func (c *Client) Close() {
	c.mu.Lock()
	idle := c.idle
	c.idle, c.closed = nil, true
	c.mu.Unlock()
	for _, cn := range idle {
		cn.close()
	}
}

// ConnError is a failure to talk to the helper (it is gone or broken).
type ConnError struct{ Err error }

func (e *ConnError) Error() string { return "sandbox helper: " + e.Err.Error() }
func (e *ConnError) Unwrap() error { return e.Err }

// StopError says a command could not be confirmed stopped.
type StopError struct{ Err error }

func (e *StopError) Error() string { return "stopping a command: " + e.Err.Error() }
func (e *StopError) Unwrap() error { return e.Err }

type conn struct {
	c        net.Conn
	br       *bufio.Reader
	bw       *bufio.Writer
	deadline bool // a deadline was set on c
}

func (cn *conn) setReadDeadline(t time.Time) {
	cn.deadline = true
	cn.c.SetReadDeadline(t)
}

// readers and writers recycle connection buffers: a command's cost should
// not include clearing 32 KiB of fresh ones (and collecting them).
var (
	readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 16<<10) }}
	writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 16<<10) }}
)

// close closes the connection and recycles its buffers; nothing may read
// or write through it any more (a goroutine still writing stdin keeps
// its own writer).
func (cn *conn) close() {
	cn.c.Close()
	cn.br.Reset(nil)
	cn.bw.Reset(nil)
	readers.Put(cn.br)
	writers.Put(cn.bw)
}

// dial returns an idle connection or opens one, with req's frame
// buffered (not yet flushed).
func (c *Client) dial(req *Request) (*conn, error) {
	cn := c.takeIdle()
	if cn == nil {
		var uc net.Conn
		var err error
		if c.dialer != nil {
			uc, err = c.dialer()
		} else {
			uc, err = net.DialUnix("unix", nil, c.addr)
		}
		if err != nil {
			return nil, &ConnError{err}
		}
		br, bw := readers.Get().(*bufio.Reader), writers.Get().(*bufio.Writer)
		br.Reset(uc)
		bw.Reset(uc)
		cn = &conn{c: uc, br: br, bw: bw}
	}
	if err := writeFrame(cn.bw, FrameRequest, mustJSON(req)); err != nil {
		cn.close()
		return nil, &ConnError{err}
	}
	return cn, nil
}

// takeIdle returns a kept connection that is still open and quiet, or nil.
func (c *Client) takeIdle() *conn {
	if !c.reuse {
		return nil
	}
	for {
		c.mu.Lock()
		n := len(c.idle)
		if n == 0 {
			c.mu.Unlock()
			return nil
		}
		cn := c.idle[n-1]
		c.idle[n-1] = nil
		c.idle = c.idle[:n-1]
		c.mu.Unlock()
		if cn.quiet() {
			return cn
		}
		cn.close()
	}
}

// done ends an operation's use of cn: clean (its final frame was read,
// nothing else reads or writes it, no deadline can be set on it any more)
// keeps it for the next operation, anything else closes it.
func (c *Client) done(cn *conn, clean bool) {
	if clean && c.reuse && cn.br.Buffered() == 0 {
		if cn.deadline {
			cn.c.SetDeadline(time.Time{})
			cn.deadline = false
		}
		c.mu.Lock()
		if !c.closed && len(c.idle) < maxIdle {
			c.idle = append(c.idle, cn)
			cn = nil
		}
		c.mu.Unlock()
	}
	if cn != nil {
		cn.close()
	}
}

// readFinal reads an ok or failure frame.
func (cn *conn) readFinal() (Ack, error) {
	typ, payload, err := readFrame(cn.br, nil)
	if err != nil {
		return Ack{}, &ConnError{err}
	}
	return decodeFinal(typ, payload)
}

func decodeFinal(typ byte, payload []byte) (Ack, error) {
	switch typ {
	case FrameOK:
		var a Ack
		if err := jsonUnmarshal(payload, &a); err != nil {
			return a, &ConnError{err}
		}
		return a, nil
	case FrameFailure:
		f := &Failure{}
		if err := jsonUnmarshal(payload, f); err != nil {
			return Ack{}, &ConnError{err}
		}
		return Ack{}, f
	}
	return Ack{}, &ConnError{fmt.Errorf("unexpected frame %q", typ)}
}

// ExecResult is what a buffered exec produced.
type ExecResult struct {
	Exit
	Stdout, Stderr []byte
	// Free, when not nil, returns Stdout's and Stderr's off-heap memory
	// (Request.OffHeapOutput).
	Free func()
}

// Exec runs a command and collects at most req.OutputLimit bytes of each
// stream. When ctx ends first the command's process group is killed and,
// once the helper confirms it, ctx's error is returned; a kill that cannot
// be confirmed gives a *StopError.
func (c *Client) Exec(ctx context.Context, req Request, stdin []byte) (ExecResult, error) {
	wait, err := c.ExecStart(ctx, req, stdin)
	if err != nil {
		return ExecResult{}, err
	}
	return wait()
}

// ExecStart sends the request of Exec and returns at once; wait, which
// must be called once, waits for the command's end and returns what Exec
// returns. A caller that must not block (the bridge, on its host's
// thread) starts the command itself and waits elsewhere: the command
// does not wait for another thread to start it.
func (c *Client) ExecStart(ctx context.Context, req Request, stdin []byte) (wait func() (ExecResult, error), err error) {
	req.Op = OpExec
	req.ID = c.nextID.Add(1)
	req.Stream = false
	req.Stdin = len(stdin) > 0
	cn, err := c.dial(&req)
	if err != nil {
		return nil, err
	}
	// Stdin that fits the socket buffers goes out with the request; more
	// is written concurrently so that a command that does not read its
	// input cannot block the exchange (and the connection is not kept:
	// that writer may still be busy).
	bigStdin := len(stdin) > 64<<10
	if !bigStdin {
		if req.Stdin {
			writeChunks(cn.bw, FrameStdin, stdin)
			writeFrame(cn.bw, FrameStdinEOF, nil)
		}
		if err := cn.bw.Flush(); err != nil {
			c.done(cn, false)
			return nil, &ConnError{err}
		}
	} else {
		if err := cn.bw.Flush(); err != nil {
			c.done(cn, false)
			return nil, &ConnError{err}
		}
		go func() {
			w := bufio.NewWriterSize(cn.c, 64<<10)
			if writeChunks(w, FrameStdin, stdin) == nil && writeFrame(w, FrameStdinEOF, nil) == nil {
				w.Flush()
			}
		}()
	}

	var cancelled atomic.Bool
	stop := context.AfterFunc(ctx, func() {
		cancelled.Store(true)
		cn.c.SetReadDeadline(time.Now().Add(stopGrace))
		c.kill(req.ID)
	})
	if req.TimeoutMS > 0 {
		// The helper enforces the timeout; this only guards against a
		// helper that stopped answering.
		cn.setReadDeadline(time.Now().Add(time.Duration(req.TimeoutMS)*time.Millisecond + stopGrace))
	}
	return func() (ExecResult, error) {
		return c.execWait(ctx, cn, &req, bigStdin, stop, &cancelled)
	}, nil
}

// execWait reads an exec's frames up to its end; the connection is kept
// only when the exchange ended with the exit frame and nothing else may
// still touch it.
func (c *Client) execWait(ctx context.Context, cn *conn, req *Request, bigStdin bool, stop func() bool,
	cancelled *atomic.Bool) (res ExecResult, err error) {
	clean := false
	defer func() { c.done(cn, clean) }()
	defer stop() // before the connection is kept or closed
	var buf []byte
	// Large output the caller takes off the heap is written once, into
	// memory that can be returned at once (machine.Output).
	var outs [2]*machine.Output
	succeeded := false
	if req.OffHeapOutput && req.OutputLimit >= machine.OffHeapMin {
		outs = [2]*machine.Output{machine.NewOutput(req.OutputLimit, true), machine.NewOutput(req.OutputLimit, true)}
		res.Free = func() { outs[0].Free(); outs[1].Free() }
		defer func() {
			if !succeeded {
				res.Free()
			}
		}()
	}
	for {
		typ, payload, err := readFrame(cn.br, buf)
		if err != nil {
			if cancelled.Load() || errors.Is(err, os.ErrDeadlineExceeded) {
				return res, &StopError{err}
			}
			return res, &ConnError{err}
		}
		if cap(payload) > cap(buf) {
			buf = payload[:0]
		}
		switch typ {
		case FrameStdout, FrameStderr:
			if outs[0] != nil {
				i := 0
				if typ == FrameStderr {
					i = 1
				}
				outs[i].Write(payload)
				break
			}
			dst := &res.Stdout
			if typ == FrameStderr {
				dst = &res.Stderr
			}
			if len(*dst) == 0 && len(payload) <= req.OutputLimit {
				// Keep the frame's buffer (usually the whole stream)
				// instead of copying it.
				*dst = payload
				buf = nil
			} else {
				*dst = appendBounded(*dst, payload, req.OutputLimit)
			}
		case FrameExit:
			if err := jsonUnmarshal(payload, &res.Exit); err != nil {
				return res, &ConnError{err}
			}
			if !stop() {
				// Cancelled: the kill request may still be on its way.
				if cancelled.Load() || ctx.Err() != nil {
					return res, ctx.Err()
				}
			} else {
				clean = !bigStdin
			}
			if outs[0] != nil {
				res.Stdout, res.Stderr, succeeded = outs[0].Bytes(), outs[1].Bytes(), true
			}
			return res, nil
		case FrameFailure:
			f := &Failure{}
			if err := jsonUnmarshal(payload, f); err != nil {
				return res, &ConnError{err}
			}
			if f.Kind == KindInfrastructure {
				return res, &StopError{f}
			}
			return res, f
		default:
			return res, &ConnError{fmt.Errorf("unexpected frame %q", typ)}
		}
	}
}

func appendBounded(dst, p []byte, limit int) []byte {
	keep := min(len(p), limit-len(dst))
	if keep <= 0 {
		return dst
	}
	return append(dst, p[:keep]...)
}

// kill asks the helper to stop an exec; the exec's own connection reports
// when the stop is confirmed.
func (c *Client) kill(id uint64) error {
	cn, err := c.dial(&Request{Op: OpKill, ID: id})
	if err != nil {
		return err
	}
	if err := cn.bw.Flush(); err != nil {
		cn.close()
		return &ConnError{err}
	}
	cn.setReadDeadline(time.Now().Add(stopGrace))
	_, err = cn.readFinal()
	c.done(cn, err == nil)
	return err
}

// Shutdown asks the helper to exit, which ends the sandbox.
func (c *Client) Shutdown(ctx context.Context) error {
	cn, err := c.dial(&Request{Op: OpShutdown})
	if err != nil {
		return err
	}
	defer cn.close()
	if err := cn.bw.Flush(); err != nil {
		return &ConnError{err}
	}
	if d, ok := ctx.Deadline(); ok {
		cn.c.SetReadDeadline(d)
	}
	_, err = cn.readFinal()
	return err
}

// withDeadline makes ctx's end interrupt the connection; the function it
// returns says whether that was prevented (see context.AfterFunc).
func withDeadline(ctx context.Context, cn *conn) func() bool {
	cn.deadline = true
	return context.AfterFunc(ctx, func() { cn.c.SetDeadline(time.Now()) })
}

// ctxErr prefers ctx's error over the I/O error it caused.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Upload copies the host file or directory source to target in the
// sandbox. The source is checked before anything is sent.
func (c *Client) Upload(ctx context.Context, source, target string, allowedLinks []string) error {
	if err := transfer.Check(ctx, source); err != nil {
		return err
	}
	cn, err := c.dial(&Request{Op: OpUpload, Path: target, AllowedLinks: allowedLinks})
	if err != nil {
		return err
	}
	clean := false
	defer func() { c.done(cn, clean) }()
	stop := withDeadline(ctx, cn)
	defer stop()
	werr := transfer.WriteTar(ctx, dataWriter{cn.bw}, source)
	if werr == nil {
		writeFrame(cn.bw, FrameDataEnd, nil)
		werr = cn.bw.Flush()
	}
	var pe interface{ Timeout() bool }
	if werr != nil && !errors.As(werr, &pe) && !isConnErr(werr) {
		// A source-side failure: the helper sees a truncated stream.
		return werr
	}
	_, err = cn.readFinal()
	if err != nil {
		return ctxErr(ctx, err)
	}
	if werr != nil {
		return ctxErr(ctx, &ConnError{werr})
	}
	clean = stop()
	return nil
}

func isConnErr(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe)
}

// Download copies source in the sandbox to target on the host, through
// transfer.Extract (target is left untouched on failure). maxBytes is a
// machine.DownloadOptions.MaxBytes: positive bounds the total bytes of the
// files, negative allows none, zero means no bound. A refused download
// closes the connection, which stops the helper's tar.
func (c *Client) Download(ctx context.Context, source, target string, allowedLinks []string, maxBytes int64) error {
	cn, err := c.dial(&Request{Op: OpDownload, Path: source, AllowedLinks: allowedLinks})
	if err != nil {
		return err
	}
	clean := false
	defer func() { c.done(cn, clean) }()
	if err := cn.bw.Flush(); err != nil {
		return &ConnError{err}
	}
	stop := withDeadline(ctx, cn)
	defer stop()
	dr := &dataReader{r: cn.br}
	opts := transfer.ForDownload(machine.DownloadOptions{MaxBytes: maxBytes})
	if err := transfer.Extract(ctx, dr, target, opts); err != nil {
		if dr.err != nil {
			return ctxErr(ctx, dr.err)
		}
		return ctxErr(ctx, err)
	}
	if err := dr.drain(); err != nil {
		return ctxErr(ctx, err)
	}
	if _, err = cn.readFinal(); err != nil {
		return ctxErr(ctx, err)
	}
	clean = stop()
	return nil
}

// Process is a command started with Start.
type Process struct {
	c    *Client
	id   uint64
	cn   *conn
	wmu  sync.Mutex
	out  *io.PipeReader
	done chan struct{}
	exit Exit
	errb []byte
	err  error

	closeOnce sync.Once
}

// Start starts a command with streaming stdin and stdout; stderr is kept up
// to req.OutputLimit bytes and returned by Wait.
func (c *Client) Start(ctx context.Context, req Request) (*Process, error) {
	req.Op = OpExec
	req.ID = c.nextID.Add(1)
	req.Stream = true
	req.Stdin = true
	cn, err := c.dial(&req)
	if err != nil {
		return nil, err
	}
	if err := cn.bw.Flush(); err != nil {
		cn.c.Close()
		return nil, &ConnError{err}
	}
	pr, pw := io.Pipe()
	p := &Process{c: c, id: req.ID, cn: cn, out: pr, done: make(chan struct{})}
	go p.readLoop(pw, req.OutputLimit)
	return p, nil
}

func (p *Process) readLoop(pw *io.PipeWriter, limit int) {
	defer close(p.done)
	var buf []byte
	for {
		typ, payload, err := readFrame(p.cn.br, buf)
		if err != nil {
			p.err = &ConnError{err}
			pw.CloseWithError(p.err)
			return
		}
		if cap(payload) > cap(buf) {
			buf = payload[:0]
		}
		switch typ {
		case FrameStdout:
			pw.Write(payload) // blocks until read: backpressure
		case FrameStderr:
			p.errb = appendBounded(p.errb, payload, limit)
		case FrameExit:
			if err := jsonUnmarshal(payload, &p.exit); err != nil {
				p.err = &ConnError{err}
			}
			pw.Close()
			return
		case FrameFailure:
			f := &Failure{}
			if jsonUnmarshal(payload, f) != nil {
				f = &Failure{Kind: KindOther, Message: string(payload)}
			}
			p.err = f
			if f.Kind == KindInfrastructure {
				p.err = &StopError{f}
			}
			pw.CloseWithError(p.err)
			return
		default:
			p.err = &ConnError{fmt.Errorf("unexpected frame %q", typ)}
			pw.CloseWithError(p.err)
			return
		}
	}
}

// Stdout is the command's standard output.
func (p *Process) Stdout() io.Reader { return p.out }

// Stdin is the command's standard input.
func (p *Process) Stdin() io.WriteCloser { return stdinWriter{p} }

type stdinWriter struct{ p *Process }

func (s stdinWriter) Write(b []byte) (int, error) {
	s.p.wmu.Lock()
	defer s.p.wmu.Unlock()
	if err := writeChunks(s.p.cn.bw, FrameStdin, b); err != nil {
		return 0, err
	}
	if err := s.p.cn.bw.Flush(); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (s stdinWriter) Close() error {
	s.p.wmu.Lock()
	defer s.p.wmu.Unlock()
	if err := writeFrame(s.p.cn.bw, FrameStdinEOF, nil); err != nil {
		return err
	}
	return s.p.cn.bw.Flush()
}

// Wait waits for the command to exit (its stdout must be read for it to
// make progress) and returns its exit and stderr.
func (p *Process) Wait(ctx context.Context) (Exit, []byte, error) {
	select {
	case <-p.done:
		return p.exit, p.errb, p.err
	case <-ctx.Done():
		return Exit{}, nil, ctx.Err()
	}
}

// Abort releases the process without stopping it (its sandbox is going
// away): readers and writers get errors.
func (p *Process) Abort() {
	p.closeOnce.Do(func() {
		p.out.CloseWithError(io.ErrClosedPipe)
		p.cn.c.Close()
	})
}

// Close kills the command if it still runs, waits for the helper to
// confirm and releases the connection.
func (p *Process) Close(ctx context.Context) error {
	var err error
	p.closeOnce.Do(func() {
		select {
		case <-p.done:
		default:
			p.out.CloseWithError(io.ErrClosedPipe) // unblock the reader
			p.cn.c.SetReadDeadline(time.Now().Add(stopGrace))
			if kerr := p.c.kill(p.id); kerr != nil {
				err = &StopError{kerr}
			}
			select {
			case <-p.done:
				var se *StopError
				if errors.As(p.err, &se) {
					err = se
				}
			case <-ctx.Done():
				err = ctx.Err()
			}
		}
		p.cn.c.Close()
	})
	return err
}
