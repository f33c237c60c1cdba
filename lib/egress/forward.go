package egress

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http/httpguts"
)

// Plain HTTP is decided request by request: a kept-alive connection may
// name another host in its next request, so the filter parses every
// request head (and the response head, to know where the response ends)
// and copies the bodies between the two sockets by their framing
// (Content-Length, chunked, or to the end of the stream). Upstream
// connections are pooled per address so that a request does not pay for
// a new one.

// guestStream is the guest's side of a connection: its requests are read
// through br, and the bytes of each head are counted.
type guestStream struct {
	c  net.Conn // unwrapped: bodies are copied from and to the socket itself
	cr *countingConn
	br *bufio.Reader
}

// guestSendBuffer bounds the kernel's send buffer of a guest's TCP
// connection. The guest is on this host (the loopback of its namespace,
// or a veth), and autotuning would grow the buffer to tcp_wmem's maximum
// (4 MiB by default): megabytes of a download in flight between the
// filter and a guest that has not read them, which bring no speed and
// cost CPU time (the guest reads them after they left the caches: 10 to
// 20% of the CPU time per GiB relayed on loopback, in our measurements).
// 256 KiB (the kernel doubles it) still holds 8 full loopback segments,
// so the guest's delayed acknowledgements never stall the stream (with
// one or two segments in flight they do, 40 ms each).
const guestSendBuffer = 256 << 10

func newGuestStream(c net.Conn) *guestStream {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(guestSendBuffer)
	}
	cr := &countingConn{Conn: c}
	return &guestStream{c: c, cr: cr, br: bufio.NewReader(cr)}
}

// readRequest reads the next request head and says how many bytes it
// took (also when it fails).
func (g *guestStream) readRequest() (*http.Request, int64, error) {
	mark := g.cr.read() - int64(g.br.Buffered())
	req, err := http.ReadRequest(g.br)
	return req, g.cr.read() - int64(g.br.Buffered()) - mark, err
}

// upConn is an upstream connection; its reader holds nothing between
// exchanges, so that bodies can be copied from the socket itself.
type upConn struct {
	c    net.Conn
	br   *bufio.Reader
	addr netip.AddrPort
	idle time.Time
}

// upstreamPool keeps idle upstream connections per address.
type upstreamPool struct {
	mu     sync.Mutex
	idle   map[netip.AddrPort][]*upConn
	closed bool
}

const (
	poolPerAddr = 16
	poolIdleFor = 30 * time.Second
)

func (p *upstreamPool) get(ap netip.AddrPort) *upConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.idle[ap]
	for len(l) > 0 {
		u := l[len(l)-1]
		l = l[:len(l)-1]
		p.idle[ap] = l
		if time.Since(u.idle) < poolIdleFor {
			return u
		}
		u.c.Close()
	}
	delete(p.idle, ap)
	return nil
}

func (p *upstreamPool) put(u *upConn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.idle[u.addr]) >= poolPerAddr {
		u.c.Close()
		return
	}
	if p.idle == nil {
		p.idle = map[netip.AddrPort][]*upConn{}
	}
	u.idle = time.Now()
	p.idle[u.addr] = append(p.idle[u.addr], u)
}

// closeIdle closes every idle connection; final refuses later ones.
func (p *upstreamPool) closeIdle(final bool) {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.closed = p.closed || final
	p.mu.Unlock()
	for _, l := range idle {
		for _, u := range l {
			u.c.Close()
		}
	}
}

// upstream is a pooled connection to one of addrs, or a new one.
func (f *Filter) upstream(addrs []netip.Addr, port int, pooled bool) (*upConn, bool, error) {
	if pooled {
		for _, a := range addrs {
			if u := f.pool.get(netip.AddrPortFrom(a, uint16(port))); u != nil {
				return u, true, nil
			}
		}
	}
	c, ap, err := f.dialAny(addrs, port)
	if err != nil {
		return nil, false, err
	}
	return &upConn{c: c, br: bufio.NewReaderSize(c, 64<<10), addr: ap}, false, nil
}

func (f *Filter) dialAny(addrs []netip.Addr, port int) (net.Conn, netip.AddrPort, error) {
	var err error = errors.New("no address")
	for _, a := range addrs {
		ap := netip.AddrPortFrom(a, uint16(port))
		ctx, cancel := contextTimeout(10 * time.Second)
		var c net.Conn
		c, err = f.cfg.Dial(ctx, "tcp", ap.String())
		cancel()
		if err == nil {
			return c, ap, nil
		}
	}
	return nil, netip.AddrPort{}, err
}

// hopHeaders are the headers of one connection (RFC 9110 7.6.1), never
// passed on.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func dropHopHeaders(h http.Header) {
	for _, v := range h.Values("Connection") {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				h.Del(n)
			}
		}
	}
	for _, n := range hopHeaders {
		h.Del(n)
	}
}

func hasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

func isChunked(te []string) bool { return len(te) == 1 && te[0] == "chunked" }

// retryable methods may be sent again on a new connection when a pooled
// one turns out to have been closed by the server (RFC 9110 9.2.2).
func retryable(m string) bool {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// requestHead is req's head in origin form, without the guest's
// connection headers.
func requestHead(req *http.Request, upgrade bool) []byte {
	var b bytes.Buffer
	uri := req.URL.RequestURI()
	if req.URL.Scheme == "" && req.URL.Host == "" && req.RequestURI == "*" {
		uri = "*"
	}
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.Method, uri, req.Host)
	h := req.Header.Clone()
	dropHopHeaders(h)
	h.Del("Host")
	if isChunked(req.TransferEncoding) {
		h.Del("Content-Length")
		h.Set("Transfer-Encoding", "chunked")
	}
	if upgrade {
		h.Set("Connection", "Upgrade")
		h.Set("Upgrade", req.Header.Get("Upgrade"))
	}
	h.Write(&b)
	b.WriteString("\r\n")
	return b.Bytes()
}

// responseHead is resp's head as the guest gets it.
func responseHead(resp *http.Response, hasBody, chunked, keep bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %s\r\n", resp.Status)
	h := resp.Header.Clone()
	dropHopHeaders(h)
	switch {
	case resp.StatusCode == http.StatusSwitchingProtocols:
		h.Set("Connection", "Upgrade")
		h.Set("Upgrade", resp.Header.Get("Upgrade"))
	case resp.StatusCode/100 == 1:
	case !keep:
		h.Set("Connection", "close")
	}
	if hasBody {
		h.Del("Content-Length")
		if chunked {
			h.Set("Transfer-Encoding", "chunked")
		} else if resp.ContentLength >= 0 {
			h.Set("Content-Length", fmt.Sprint(resp.ContentLength))
		}
	}
	h.Write(&b)
	b.WriteString("\r\n")
	return b.Bytes()
}

// relayHTTP forwards one plain HTTP request whose target (t, addrs) is
// admitted, after checking its Host, and copies the response back; it
// says whether the guest's connection may carry another request.
// headBytes is the size of the request head as the guest sent it.
func (f *Filter) relayHTTP(g *guestStream, req *http.Request, headBytes int64, t target, addrs []netip.Addr) bool {
	c := g.c
	host := hostOnly(req.Host)
	if a, err := netip.ParseAddr(host); err == nil && syntheticRange.Contains(a) {
		// A guest that dialled the address its DNS gave: the upstream
		// gets (and the check sees) the name it stands for.
		if name, ok := f.synth.nameOf(a); ok {
			host = name
			if _, port, err := net.SplitHostPort(req.Host); err == nil {
				req.Host = net.JoinHostPort(name, port)
			} else {
				req.Host = name
			}
		}
	}
	ok, why := f.admitName(t, host, addrs[0])
	if _, err := splitTarget(req.Host, "80"); ok && (err != nil || !httpguts.ValidHostHeader(req.Host)) {
		// What goes upstream is the Host as the guest wrote it: a port
		// that is no number ("ok.test:80@evil") must not pass as ok.test.
		ok, why = false, fmt.Sprintf("malformed Host %q", req.Host)
	}
	if !ok {
		f.refuse(c, "http", t, host, why)
		return false
	}
	tun := &tunnel{name: host, addr: netip.AddrPortFrom(addrs[0], uint16(t.port)), client: c}
	if !f.register(tun) {
		return false
	}
	rec := Record{Protocol: "http", Name: host, Address: addrs[0].String(), Port: t.port, Via: t.via}
	f.record(withDecision(rec, Allow, why))
	c.SetReadDeadline(time.Time{})

	x := &exchange{f: f, g: g, req: req, tun: tun, up: headBytes}
	keep, reuse := x.run(addrs, t.port)
	f.unregister(tun)
	reason := "closed"
	if r, cut := tun.wasCut(); cut {
		reason, keep, reuse = r, false, false
	}
	if x.u != nil {
		if reuse {
			f.pool.put(x.u)
		} else {
			x.u.c.Close()
		}
	}
	if x.u != nil {
		rec.Address = x.u.addr.Addr().String()
	}
	f.record(withClose(rec, reason, x.up, x.down))
	return keep
}

// exchange is one request and its response.
type exchange struct {
	f        *Filter
	g        *guestStream
	req      *http.Request
	tun      *tunnel
	u        *upConn
	up, down int64 // bytes from and to the guest
}

// run sends the request and copies the response; keep says whether the
// guest's connection may go on, reuse whether the upstream one may.
func (x *exchange) run(addrs []netip.Addr, port int) (keep, reuse bool) {
	req := x.req
	keep = !req.Close && req.ProtoAtLeast(1, 1)
	chunked := isChunked(req.TransferEncoding)
	bodyless := req.ContentLength == 0 && !chunked
	upgrade := hasToken(req.Header, "Connection", "upgrade") && req.Header.Get("Upgrade") != ""
	head := requestHead(req, upgrade)

	var resp *http.Response
	var err error
	bodyDone := make(chan error, 1)
	for attempt := 0; ; attempt++ {
		var pooled bool
		if x.u, pooled, err = x.f.upstream(addrs, port, attempt == 0); err != nil {
			x.fail("the upstream is unreachable: " + err.Error())
			return false, false
		}
		if !x.tun.attach(x.u.c) {
			return false, false
		}
		if _, err = x.u.c.Write(head); err == nil && bodyless {
			resp, err = http.ReadResponse(x.u.br, req)
		}
		if err == nil || !pooled || !bodyless || !retryable(req.Method) {
			break
		}
		// A pooled connection the server had closed: once more on a new one.
		x.u.c.Close()
	}
	if err != nil {
		x.fail("the upstream failed: " + err.Error())
		return false, false
	}
	if bodyless {
		bodyDone <- nil
	} else {
		go func() {
			var n int64
			var err error
			if chunked {
				n, err = copyChunked(x.u.c, x.g.br, x.g.c, true)
			} else {
				n, err = copyBody(x.u.c, x.g.br, x.g.c, req.ContentLength)
			}
			x.up += n
			if err != nil {
				// A broken body (bad framing, the guest gone): the exchange
				// cannot end well, and the upstream must not wait for it.
				x.tun.cut("")
			}
			bodyDone <- err
		}()
		resp, err = http.ReadResponse(x.u.br, req)
	}
	// Interim responses (100 Continue, 103 Early Hints) go on as they are.
	for err == nil && resp.StatusCode/100 == 1 && resp.StatusCode != http.StatusSwitchingProtocols {
		err = x.toGuest(responseHead(resp, false, false, true))
		if err == nil {
			resp, err = http.ReadResponse(x.u.br, req)
		}
	}
	// finish waits for the rest of the request body (the copy of a body
	// the guest has sent ends at once); one that does not come in time
	// after the response (an early refusal of an upload) ends the
	// connection.
	finish := func(keep, reuse bool) (bool, bool) {
		timer := time.NewTimer(x.f.cfg.HandshakeTimeout)
		defer timer.Stop()
		select {
		case berr := <-bodyDone:
			if berr != nil {
				keep, reuse = false, false
			}
		case <-timer.C:
			x.tun.cut("")
			<-bodyDone
			keep, reuse = false, false
		}
		return keep, reuse
	}
	if err != nil {
		if x.down == 0 {
			x.fail("the upstream failed: " + err.Error())
		}
		return finish(false, false)
	}
	if resp.StatusCode == http.StatusSwitchingProtocols {
		if !upgrade {
			return finish(false, false)
		}
		if err := x.toGuest(responseHead(resp, false, false, true)); err != nil {
			return finish(false, false)
		}
		keep, _ = finish(true, false)
		if keep {
			x.pipe()
		}
		return false, false
	}

	noBody := req.Method == http.MethodHead || resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified
	respChunked := !noBody && isChunked(resp.TransferEncoding)
	toEOF := !noBody && !respChunked && resp.ContentLength < 0
	if toEOF {
		keep = false
	}
	reuse = !resp.Close && !toEOF
	rh := responseHead(resp, !noBody, respChunked, keep)
	switch {
	case noBody:
		err = x.toGuest(rh)
	case respChunked:
		if err = x.toGuest(rh); err == nil {
			var n int64
			n, err = copyChunked(x.g.c, x.u.br, x.u.c, false)
			x.down += n
		}
	case toEOF:
		if err = x.toGuest(rh); err == nil {
			var n int64
			n, err = relay(x.g.c, io.MultiReader(bytes.NewReader(take(x.u.br, x.u.br.Buffered())), x.u.c), false)
			x.down += n
		}
	case resp.ContentLength <= int64(x.u.br.Buffered()):
		// A small body that came with the head leaves in one write.
		err = x.toGuest(append(rh, take(x.u.br, int(resp.ContentLength))...))
	default:
		if err = x.toGuest(rh); err == nil {
			var n int64
			n, err = copyBody(x.g.c, x.u.br, x.u.c, resp.ContentLength)
			x.down += n
		}
	}
	if err != nil || x.u.br.Buffered() > 0 {
		keep, reuse = false, false
	}
	return finish(keep, reuse)
}

// take consumes n buffered bytes of br.
func take(br *bufio.Reader, n int) []byte {
	b, _ := br.Peek(n)
	b = append([]byte(nil), b...)
	br.Discard(n)
	return b
}

func (x *exchange) toGuest(b []byte) error {
	n, err := x.g.c.Write(b)
	x.down += int64(n)
	return err
}

// fail answers 502 and records why.
func (x *exchange) fail(why string) {
	if _, cut := x.tun.wasCut(); cut {
		return
	}
	body := "egress: " + why + "\n"
	n, _ := fmt.Fprintf(x.g.c, "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
	x.down += int64(n)
	x.tun.cutReason.CompareAndSwap(nil, &why)
}

// pipe copies both ways after a protocol switch, until both sides end.
func (x *exchange) pipe() {
	done := make(chan int64, 1)
	go func() {
		n, _ := relay(x.u.c, io.MultiReader(bytes.NewReader(take(x.g.br, x.g.br.Buffered())), x.g.c), false)
		closeWrite(x.u.c)
		done <- n
	}()
	n, _ := relay(x.g.c, io.MultiReader(bytes.NewReader(take(x.u.br, x.u.br.Buffered())), x.u.c), false)
	closeWrite(x.g.c)
	x.down += n
	x.up += <-done
	x.tun.cut("")
}

// copyBody copies n bytes from br and then from raw, the socket under br.
func copyBody(dst io.Writer, br *bufio.Reader, raw io.Reader, n int64) (int64, error) {
	var done int64
	if b := int64(br.Buffered()); b > 0 {
		w, err := dst.Write(take(br, int(min(b, n))))
		done += int64(w)
		if err != nil {
			return done, err
		}
	}
	if done < n {
		w, err := relay(dst, &io.LimitedReader{R: raw, N: n - done}, n-done > streamBufferSize)
		done += w
		if err != nil {
			return done, err
		}
		if done < n {
			return done, io.ErrUnexpectedEOF
		}
	}
	return done, nil
}

// copyChunked passes a chunked body through as it is, to its last chunk
// and trailer, the data of each chunk relayed by its size. (net/http's
// chunked reader decodes, and the body would have to be framed anew.) The
// framing is checked strictly: a request body that the upstream could
// split elsewhere than the filter would smuggle an unchecked request.
func copyChunked(dst io.Writer, br *bufio.Reader, raw io.Reader, strict bool) (int64, error) {
	var total int64
	// line reads a line, checks it and only then passes it on.
	line := func(check func([]byte) error) ([]byte, error) {
		l, err := br.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		if !bytes.HasSuffix(l, []byte("\r\n")) {
			return nil, errors.New("a chunk line does not end in CRLF")
		}
		if err := check(l); err != nil {
			return nil, err
		}
		n, err := dst.Write(l)
		total += int64(n)
		return l, err
	}
	for {
		var size int64
		if _, err := line(func(l []byte) (err error) {
			size, err = chunkSize(l, strict)
			return err
		}); err != nil {
			return total, err
		}
		if size == 0 {
			for { // the trailer section ends with an empty line
				l, err := line(func(l []byte) error {
					if strict && bytes.IndexByte(l[:len(l)-2], '\r') >= 0 {
						return errors.New("a bare CR in a trailer")
					}
					return nil
				})
				if err != nil || len(l) == 2 {
					return total, err
				}
			}
		}
		n, err := copyBody(dst, br, raw, size)
		total += n
		if err != nil {
			return total, err
		}
		var crlf [2]byte
		if _, err := io.ReadFull(br, crlf[:]); err != nil {
			return total, err
		}
		if crlf != [2]byte{'\r', '\n'} {
			return total, errors.New("chunk data does not end in CRLF")
		}
		w, err := dst.Write(crlf[:])
		total += int64(w)
		if err != nil {
			return total, err
		}
	}
}

// chunkSize parses "HEX[;ext]\r\n" (RFC 9112 7.1).
func chunkSize(l []byte, strict bool) (int64, error) {
	l = l[:len(l)-2]
	if i := bytes.IndexByte(l, ';'); i >= 0 {
		if strict && bytes.IndexByte(l[i:], '\r') >= 0 {
			return 0, errors.New("a bare CR in a chunk extension")
		}
		l = l[:i]
	}
	if !strict {
		l = bytes.TrimRight(l, " \t")
	}
	if len(l) == 0 || len(l) > 15 {
		return 0, fmt.Errorf("bad chunk size %q", l)
	}
	var n int64
	for _, ch := range l {
		switch {
		case '0' <= ch && ch <= '9':
			n = n<<4 | int64(ch-'0')
		case 'a' <= ch && ch <= 'f':
			n = n<<4 | int64(ch-'a'+10)
		case 'A' <= ch && ch <= 'F':
			n = n<<4 | int64(ch-'A'+10)
		default:
			return 0, fmt.Errorf("bad chunk size %q", l)
		}
	}
	return n, nil
}

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
