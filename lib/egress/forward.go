package egress

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// Plain HTTP goes through a forward proxy of our own: each request is
// decided by itself (a kept-alive client connection may name another host
// in its next request), and upstream connections are pooled per host so
// that a request does not pay for a new connection.

type admittedKey struct{}

func newTransport(f *Filter) *http.Transport {
	return &http.Transport{
		Proxy: nil, // the filter's own environment never applies
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			addrs, _ := ctx.Value(admittedKey{}).([]netip.Addr)
			_, port, err := net.SplitHostPort(address)
			if err != nil || len(addrs) == 0 {
				return nil, fmt.Errorf("no admitted address for %s", address)
			}
			for _, a := range addrs {
				var c net.Conn
				if c, err = f.cfg.Dial(ctx, "tcp", net.JoinHostPort(a.String(), port)); err == nil {
					return c, nil
				}
			}
			return nil, err
		},
		MaxIdleConnsPerHost: 16,
		ReadBufferSize:      256 << 10, // a download moves in large reads, not 4 KiB ones
		WriteBufferSize:     64 << 10,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true, // the guest's Accept-Encoding goes through as it is
	}
}

// hopHeaders are the headers of one connection (RFC 9110 7.6.1), never
// passed on.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func dropHopHeaders(h http.Header) {
	for _, name := range h.Values("Connection") {
		for _, n := range splitComma(name) {
			h.Del(n)
		}
	}
	for _, n := range hopHeaders {
		h.Del(n)
	}
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if part := trimSpace(s[start:i]); part != "" {
				out = append(out, part)
			}
			start = i + 1
		}
	}
	return out
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// proxyHTTP forwards one admitted-target request in absolute form and
// writes the response back; it says whether the client connection may
// carry another request.
// sent counts the bytes the guest sent for this request so far.
func (f *Filter) proxyHTTP(c net.Conn, req *http.Request, t target, addrs []netip.Addr, sent func() int64) bool {
	// In absolute form the URL's host is the request's host (RFC 9112
	// 3.2.2): net/http already put it in req.Host.
	host := hostOnly(req.Host)
	ok, why := f.admitName(t, host, addrs[0])
	if !ok {
		f.refuse(c, "http", t, host, why)
		return false
	}
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), admittedKey{}, addrs))
	defer cancel()
	tun := &tunnel{name: host, addr: netip.AddrPortFrom(addrs[0], uint16(t.port)), client: c, cancel: cancel}
	if !f.register(tun) {
		return false
	}
	defer f.unregister(tun)
	rec := Record{Protocol: "http", Name: host, Address: addrs[0].String(), Port: t.port}
	f.record(withDecision(rec, Allow, why))

	out := req.Clone(ctx)
	out.RequestURI = ""
	out.Close = false
	dropHopHeaders(out.Header)
	c.SetReadDeadline(time.Time{})
	resp, err := f.transport.RoundTrip(out)
	if err != nil {
		reason := "the upstream failed: " + err.Error()
		if r, cut := tun.wasCut(); cut {
			reason = r
		} else {
			body := "egress: the upstream failed\n"
			fmt.Fprintf(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
		}
		f.record(withClose(rec, reason, sent(), 0))
		return false
	}
	dropHopHeaders(resp.Header)
	keep := !req.Close && req.ProtoAtLeast(1, 1)
	resp.Close = !keep
	down := &streamWriter{countingWriter: countingWriter{w: c}}
	err = resp.Write(down)
	if err == nil {
		err = down.flush()
		// Response.Write stops at Content-Length; the pool keeps the
		// upstream connection only for a body read to its end.
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1))
	}
	resp.Body.Close()
	reason := "closed"
	if r, cut := tun.wasCut(); cut {
		reason, keep = r, false
	}
	f.record(withClose(rec, reason, sent(), down.n))
	return keep && err == nil
}

// streamWriter sends the response head in one write (Response.Write
// writes each header by itself) and then passes each read of the body on
// at once (a streamed response must not wait in a buffer), reading in
// large pieces, not io.Copy's 32 KiB ones.
type streamWriter struct {
	countingWriter
	head   []byte
	inBody bool
}

// Write holds bytes until the blank line that ends the head.
func (s *streamWriter) Write(p []byte) (int, error) {
	if s.inBody {
		return s.countingWriter.Write(p)
	}
	s.head = append(s.head, p...)
	if i := bytes.Index(s.head, []byte("\r\n\r\n")); i >= 0 {
		s.inBody = true
		if err := s.flush(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (s *streamWriter) flush() error {
	if len(s.head) == 0 {
		return nil
	}
	_, err := s.countingWriter.Write(s.head)
	s.head = nil
	return err
}

func (s *streamWriter) ReadFrom(r io.Reader) (int64, error) {
	s.inBody = true
	if err := s.flush(); err != nil {
		return 0, err
	}
	bp := bodyBuffers.Get().(*[]byte)
	defer bodyBuffers.Put(bp)
	buf := *bp
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := s.countingWriter.Write(buf[:n]); werr != nil {
				return total, werr
			}
			total += int64(n)
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

func withDecision(r Record, verdict, reason string) Record {
	r.Event, r.Verdict, r.Reason = EventDecision, verdict, reason
	return r
}

func withClose(r Record, reason string, up, down int64) Record {
	r.Event, r.Verdict, r.Reason, r.BytesUp, r.BytesDown = EventClose, Allow, reason, up, down
	return r
}

// register tracks an admitted connection so that a policy change or
// Close can end it; it refuses once the filter is closed or when the
// policy changed while the connection was being admitted.
func (f *Filter) register(t *tunnel) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || !f.stillAdmitted(f.policy, t) {
		return false
	}
	f.conns[t] = struct{}{}
	return true
}

func (f *Filter) unregister(t *tunnel) {
	f.mu.Lock()
	delete(f.conns, t)
	f.mu.Unlock()
}
