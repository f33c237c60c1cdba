package relay

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"

	"github.com/shellbox/shellbox/lib/machine"
)

// RouteMachine is a machine whose network is virtual (ShellSim): there the
// relay is a route answered in-process, with the same limits, instead of
// a program in the machine.
type RouteMachine interface {
	machine.Machine
	// ServeRoute makes requests to guest loopback port reach serve until
	// remove is called.
	ServeRoute(port int, serve func(method, url string, body []byte) (status int, contentType string, answer []byte)) (remove func(), err error)
	// Closed is closed when the machine is closed.
	Closed() <-chan struct{}
}

// Server is a running relay: a program in the machine (Relay) or a
// virtual route (Virtual).
type Server interface {
	URL() string
	Done() <-chan struct{}
	Err() error
	Close(ctx context.Context) error
}

var (
	_ Server = (*Relay)(nil)
	_ Server = (*Virtual)(nil)
)

// Start serves h on guest loopback port of m: a virtual route when m is a
// RouteMachine, else the relay program (Serve).
func Start(ctx context.Context, m machine.Machine, port int, h Handler) (Server, error) {
	if rm, ok := m.(RouteMachine); ok {
		return ServeVirtual(rm, port, h)
	}
	return Serve(ctx, m, port, h)
}

// Virtual is a relay on a RouteMachine.
type Virtual struct {
	port   int
	h      Handler
	remove func()
	slots  chan struct{}

	ctx    context.Context // ends on Close or when the machine closes
	cancel context.CancelFunc
	done   chan struct{}
	gone   <-chan struct{}
	err    error        // set before done is closed
	calls  sync.RWMutex // each answer holds it shared; Close takes it to wait for them

	closeOnce sync.Once
	closeErr  error
}

// errMachineClosed is why a relay stops when its machine is closed first.
var errMachineClosed = fmt.Errorf("the machine was closed while serve_http was running: %w", machine.ErrClosed)

// ServeVirtual installs h as m's route for guest loopback port.
func ServeVirtual(m RouteMachine, port int, h Handler) (*Virtual, error) {
	if port < 1 || port > 65535 {
		return nil, &machine.InvalidSpec{Field: "port", Reason: fmt.Sprintf("%d is not in 1..65535", port)}
	}
	if h == nil {
		return nil, &machine.InvalidSpec{Field: "handler", Reason: "a handler is required"}
	}
	v := &Virtual{port: port, h: h, slots: make(chan struct{}, MaxPending), done: make(chan struct{}), gone: m.Closed()}
	v.ctx, v.cancel = context.WithCancel(context.Background())
	remove, err := m.ServeRoute(port, v.serve)
	if err != nil {
		v.cancel()
		return nil, err
	}
	v.remove = remove
	go func() {
		select {
		case <-v.gone:
			v.err = errMachineClosed
			v.cancel()
		case <-v.ctx.Done():
		}
		close(v.done)
	}()
	return v, nil
}

// serve answers one request of guest code as the guest program would.
func (v *Virtual) serve(method, rawURL string, body []byte) (int, string, []byte) {
	const text = "text/plain; charset=utf-8"
	v.calls.RLock()
	defer v.calls.RUnlock()
	if v.ctx.Err() != nil {
		return http.StatusBadGateway, text, []byte("the host relay is gone\n")
	}
	if method != http.MethodGet && method != http.MethodPost {
		return http.StatusMethodNotAllowed, text, []byte("only GET and POST are relayed\n")
	}
	if len(body) > MaxBody {
		return http.StatusRequestEntityTooLarge, text, []byte("request body over 4 MiB\n")
	}
	select {
	case v.slots <- struct{}{}:
		defer func() { <-v.slots }()
	default:
		return http.StatusServiceUnavailable, text, []byte("too many pending requests\n")
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return http.StatusBadRequest, text, []byte("malformed URL\n")
	}
	path := u.Path
	if path == "" {
		path = "/"
	}
	resp := callHandler(v.ctx, v.h, Request{Method: method, Path: path, Query: u.RawQuery, Body: append([]byte{}, body...)})
	return resp.Status, resp.ContentType, resp.Body
}

// URL is the base URL guest code uses.
func (v *Virtual) URL() string { return fmt.Sprintf("http://127.0.0.1:%d", v.port) }

// Done is closed when the relay stopped.
func (v *Virtual) Done() <-chan struct{} { return v.done }

// Err says the machine was closed first, nil while the relay runs or
// after an ordinary Close.
func (v *Virtual) Err() error {
	select {
	case <-v.done:
		return v.err
	default:
		return nil
	}
}

// Close removes the route, cancels handler calls in flight and waits for
// them. It reports a machine closed first. Idempotent.
func (v *Virtual) Close(ctx context.Context) error {
	v.closeOnce.Do(func() {
		select {
		case <-v.gone:
			v.closeErr = errMachineClosed
		default:
			v.remove()
		}
		v.cancel()
		<-v.done
		v.calls.Lock()
		v.calls.Unlock() // every answer in flight has returned
	})
	return v.closeErr
}
