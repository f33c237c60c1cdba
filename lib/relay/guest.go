package relay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Guest is the relay's side inside the machine (cmd/shellbox-relay): it
// serves HTTP on a loopback listener and exchanges frames with the host
// over in and out.
type Guest struct {
	in  io.Reader
	out io.Writer

	writeMu sync.Mutex
	slots   chan struct{} // one per pending request

	mu      sync.Mutex
	next    uint32
	waiting map[uint32]chan frame
}

// NewGuest makes the guest side over the host's frames (in) and its own
// (out).
func NewGuest(in io.Reader, out io.Writer) *Guest {
	return &Guest{in: in, out: out, slots: make(chan struct{}, MaxPending), waiting: map[uint32]chan frame{}}
}

// Serve answers HTTP on ln until the host closes in (then it returns nil)
// or the stream breaks.
func (g *Guest) Serve(ln net.Listener) error {
	srv := &http.Server{Handler: g, ReadHeaderTimeout: time.Minute}
	if err := g.write(frameListening, 0, listeningHead{Addr: ln.Addr().String()}, nil); err != nil {
		return err
	}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	go func() { errc <- g.readResponses() }()
	err := <-errc
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	srv.Shutdown(ctx)
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func (g *Guest) write(typ byte, id uint32, head any, body []byte) error {
	g.writeMu.Lock()
	defer g.writeMu.Unlock()
	return writeFrame(g.out, typ, id, head, body)
}

// readResponses delivers the host's response frames to their requests.
func (g *Guest) readResponses() error {
	for {
		f, err := readFrame(g.in, MaxBody)
		if err != nil {
			return err
		}
		if f.typ != frameResponse {
			continue
		}
		g.mu.Lock()
		ch := g.waiting[f.id]
		delete(g.waiting, f.id)
		g.mu.Unlock()
		if ch != nil {
			ch <- f
		}
	}
}

// ServeHTTP relays one request.
func (g *Guest) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "only GET and POST are relayed", http.StatusMethodNotAllowed)
		return
	}
	if r.ContentLength > MaxBody {
		tooLarge(w, r)
		return
	}
	select {
	case g.slots <- struct{}{}:
		defer func() { <-g.slots }()
	default:
		http.Error(w, "too many pending requests", http.StatusServiceUnavailable)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			tooLarge(w, r)
			return
		}
		http.Error(w, "reading the request body failed", http.StatusBadRequest)
		return
	}
	ch := make(chan frame, 1)
	g.mu.Lock()
	g.next++
	id := g.next
	g.waiting[id] = ch
	g.mu.Unlock()
	if err := g.write(frameRequest, id, requestHead{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery}, body); err != nil {
		http.Error(w, "the host relay is gone", http.StatusBadGateway)
		return
	}
	select {
	case f := <-ch:
		var head responseHead
		if json.Unmarshal(f.head, &head) != nil || head.Status < 100 || head.Status > 599 {
			http.Error(w, "malformed response from the host", http.StatusBadGateway)
			return
		}
		if head.ContentType != "" {
			w.Header().Set("Content-Type", head.ContentType)
		}
		w.WriteHeader(head.Status)
		w.Write(f.body)
	case <-r.Context().Done():
		g.mu.Lock()
		delete(g.waiting, id)
		g.mu.Unlock()
		g.write(frameCancel, id, nil, nil)
	}
}

// drainLimit bounds the body read and dropped before a 413: a client
// still sending when the server closes gets a reset (busybox wget dies of
// SIGPIPE without a word) instead of the answer.
const drainLimit = 4 * MaxBody

func tooLarge(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, io.LimitReader(r.Body, drainLimit))
	w.Header().Set("Connection", "close")
	http.Error(w, "request body over 4 MiB", http.StatusRequestEntityTooLarge)
}
