package relay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
)

// Request is what the guest sent: no headers cross.
type Request struct {
	Method string
	Path   string
	Query  string
	Body   []byte
}

// Response is the handler's whole answer.
type Response struct {
	Status      int
	Body        []byte
	ContentType string // "": application/json
}

// Handler answers a request. ctx ends when the guest's client goes away
// or the relay closes. An error becomes a 502 whose body says nothing of
// it.
type Handler func(ctx context.Context, req Request) (Response, error)

// HelperName is the guest program, found with helpers.Path.
const HelperName = "shellbox-relay"

// guestProgram finds the program placed in the machine (tests put a
// hostile one in its place).
var guestProgram = func() (string, error) { return helpers.Path(HelperName) }

// startTimeout bounds the wait for the guest listener.
const startTimeout = 60 * time.Second

// Relay is one running relay.
type Relay struct {
	m      machine.Machine
	proc   machine.Process
	port   int
	binary string // the guest program's path in the machine
	h      Handler

	writeMu sync.Mutex

	ctx    context.Context // ends on Close: cancels every handler call
	cancel context.CancelFunc

	mu      sync.Mutex
	pending map[uint32]context.CancelFunc
	calls   sync.WaitGroup

	done    chan struct{} // the frame loop ended
	err     error         // why, when not by Close
	closing bool

	closeOnce sync.Once
	closeErr  error
}

// GroupAddresser is a machine whose task group's other members reach it at
// addresses of its own rather than on a shared loopback (a member of a
// gVisor group); the relay listens there too, on the same port.
type GroupAddresser interface {
	GroupAddrs() []string
}

// Serve starts the relay in m on guest loopback port and returns once the
// guest listener is up. m must be a machine.ProcessMachine.
func Serve(ctx context.Context, m machine.Machine, port int, h Handler) (*Relay, error) {
	if port < 1 || port > 65535 {
		return nil, &machine.InvalidSpec{Field: "port", Reason: fmt.Sprintf("%d is not in 1..65535", port)}
	}
	if h == nil {
		return nil, &machine.InvalidSpec{Field: "handler", Reason: "a handler is required"}
	}
	pm, ok := m.(machine.ProcessMachine)
	if !ok {
		return nil, &machine.UnsupportedSpec{Field: "machine", Reason: "serve_http needs a machine that runs long-lived processes (local, docker, gvisor)"}
	}
	bin, err := guestProgram()
	if err != nil {
		return nil, err
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	r := &Relay{m: m, port: port, h: h, binary: "/tmp/.shellbox-relay-" + hex.EncodeToString(rnd[:]),
		pending: map[uint32]context.CancelFunc{}, done: make(chan struct{})}
	if err := m.Upload(ctx, bin, r.binary); err != nil {
		return nil, fmt.Errorf("placing the relay program in the machine: %w", err)
	}
	argv := []string{r.binary, "-port", fmt.Sprint(port)}
	if gm, ok := m.(GroupAddresser); ok && len(gm.GroupAddrs()) > 0 {
		// The other members of its task group reach it there, not on its
		// loopback (gVisor).
		argv = append(argv, "-also", strings.Join(gm.GroupAddrs(), ","))
	}
	r.proc, err = pm.OpenProcess(ctx, machine.Command{Argv: argv, OutputLimit: 4096})
	if err != nil {
		r.removeBinary()
		return nil, fmt.Errorf("starting the relay program: %w", err)
	}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	up := make(chan error, 1)
	go r.loop(up)
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case err = <-up:
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
		err = fmt.Errorf("the relay program did not listen within %v", startTimeout)
	}
	if err != nil {
		r.Close(context.Background())
		return nil, err
	}
	return r, nil
}

// URL is the base URL guest code uses.
func (r *Relay) URL() string { return fmt.Sprintf("http://127.0.0.1:%d", r.port) }

// Done is closed when the relay stopped (Err says why when it was not
// Close).
func (r *Relay) Done() <-chan struct{} { return r.done }

// Err is why the relay stopped by itself, nil while it runs or after an
// ordinary Close.
func (r *Relay) Err() error {
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

// loop reads the guest's frames until the stream ends.
func (r *Relay) loop(up chan<- error) {
	defer close(r.done)
	listening := false
	fail := func(err error) {
		r.mu.Lock()
		closing := r.closing
		r.mu.Unlock()
		if !listening {
			up <- err
		} else if !closing {
			r.err = err
		}
	}
	for {
		f, err := readFrame(r.proc.Stdout(), MaxBody)
		if err != nil {
			fail(r.ended(err))
			return
		}
		switch f.typ {
		case frameListening:
			if !listening {
				listening = true
				up <- nil
			}
		case frameRequest:
			r.dispatch(f)
		case frameCancel:
			r.mu.Lock()
			if cancel := r.pending[f.id]; cancel != nil {
				cancel()
			}
			r.mu.Unlock()
		default:
			fail(fmt.Errorf("%w: type %q", errFrame, f.typ))
			return
		}
	}
}

// ended explains the end of the guest's stream.
func (r *Relay) ended(err error) error {
	if errors.Is(err, errFrame) {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	exit, werr := r.proc.Wait(ctx)
	switch {
	case errors.Is(werr, machine.ErrClosed) || errors.Is(err, machine.ErrClosed):
		return fmt.Errorf("the machine was closed while serve_http was running: %w", machine.ErrClosed)
	case werr != nil:
		return fmt.Errorf("the relay program ended: %w", werr)
	}
	return fmt.Errorf("the relay program exited with status %d: %s", exit.ExitCode, exit.Stderr)
}

// dispatch runs the handler for one request frame, within the limits.
func (r *Relay) dispatch(f frame) {
	var head requestHead
	if err := json.Unmarshal(f.head, &head); err != nil {
		r.respond(f.id, Response{Status: http.StatusBadRequest, Body: []byte(`{"error":"malformed request"}`)})
		return
	}
	if head.Method != http.MethodGet && head.Method != http.MethodPost {
		r.respond(f.id, Response{Status: http.StatusMethodNotAllowed, Body: []byte(`{"error":"only GET and POST are relayed"}`)})
		return
	}
	r.mu.Lock()
	_, dup := r.pending[f.id]
	full := len(r.pending) >= MaxPending
	ctx, cancel := context.WithCancel(r.ctx)
	if !dup && !full {
		r.pending[f.id] = cancel
		r.calls.Add(1)
	}
	r.mu.Unlock()
	if dup || full {
		cancel()
		r.respond(f.id, Response{Status: http.StatusServiceUnavailable, Body: []byte(`{"error":"too many pending requests"}`)})
		return
	}
	go func() {
		defer r.calls.Done()
		resp := r.call(ctx, Request{Method: head.Method, Path: head.Path, Query: head.Query, Body: f.body})
		r.mu.Lock()
		delete(r.pending, f.id)
		r.mu.Unlock()
		cancel()
		r.respond(f.id, resp)
	}()
}

// call runs the handler, turning its failures into 502s.
func (r *Relay) call(ctx context.Context, req Request) Response { return callHandler(ctx, r.h, req) }

// callHandler runs h, turning its failures into 502s.
func callHandler(ctx context.Context, h Handler, req Request) (resp Response) {
	badGateway := func(msg string) Response {
		return Response{Status: http.StatusBadGateway, Body: []byte(`{"error":"` + msg + `"}`)}
	}
	defer func() {
		if p := recover(); p != nil {
			resp = badGateway("handler failed")
		}
	}()
	resp, err := h(ctx, req)
	switch {
	case err != nil:
		return badGateway("handler failed")
	case len(resp.Body) > MaxBody:
		return badGateway("handler response over 4 MiB")
	case resp.Status < 100 || resp.Status > 599:
		return badGateway("handler gave an invalid status")
	}
	if resp.ContentType == "" {
		resp.ContentType = "application/json"
	}
	return resp
}

func (r *Relay) respond(id uint32, resp Response) {
	ct := resp.ContentType
	if ct == "" {
		ct = "application/json"
	}
	r.writeMu.Lock()
	defer r.writeMu.Unlock()
	// A failed write means the guest is gone; the loop reports it.
	writeFrame(r.proc.Stdin(), frameResponse, id, responseHead{Status: resp.Status, ContentType: ct}, resp.Body)
}

// Close stops the guest listener and its process, cancels handler calls in
// flight and waits for them. It reports a relay that had stopped by itself
// (say, its machine was closed first). Idempotent.
func (r *Relay) Close(ctx context.Context) error {
	r.closeOnce.Do(func() {
		r.mu.Lock()
		r.closing = true
		r.mu.Unlock()
		stoppedEarly := r.Err()
		r.cancel()
		// The guest program exits at the end of its input. A guest that
		// stopped reading holds up a write (and writeMu) until its process
		// is killed below.
		stdinClosed := make(chan struct{})
		go func() {
			defer close(stdinClosed)
			r.writeMu.Lock()
			defer r.writeMu.Unlock()
			r.proc.Stdin().Close()
		}()
		select {
		case <-r.done:
		case <-time.After(5 * time.Second):
		}
		r.proc.Close(ctx)
		<-r.done
		<-stdinClosed
		r.calls.Wait()
		r.removeBinary()
		r.closeErr = stoppedEarly
	})
	return r.closeErr
}

func (r *Relay) removeBinary() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r.m.Run(ctx, machine.Command{Argv: []string{"rm", "-f", r.binary}, OutputLimit: 1024})
}
