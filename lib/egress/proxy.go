package egress

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// ServeProxy serves the guest's HTTP proxy on l until Close: CONNECT
// tunnels (whose first bytes must be a TLS ClientHello or an HTTP request
// naming the same host) and plain HTTP requests in absolute form.
func (f *Filter) ServeProxy(l net.Listener) error {
	return f.serveListener(l, f.serveProxyConn)
}

func (f *Filter) serveListener(l net.Listener, serve func(net.Conn)) error {
	if err := f.track(l); err != nil {
		return err
	}
	defer f.untrack(l)
	for {
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		if !f.goServe(func() { serve(c) }) {
			c.Close()
		}
	}
}

// target is where a guest asked to go.
type target struct {
	host string // a name, or an IP literal
	port int
	via  string // how the guest came: ViaProxy or ViaIntercept
}

// How a connection reached the filter (Record.Via).
const (
	ViaProxy     = "proxy"
	ViaIntercept = "intercept"
)

func splitTarget(hostport, defaultPort string) (target, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, defaultPort
	}
	n, err := strconv.Atoi(port)
	if err != nil || n <= 0 || n > 65535 || host == "" {
		return target{}, fmt.Errorf("bad target %q", hostport)
	}
	return target{host: canonicalName(host), port: n, via: ViaProxy}, nil
}

func (f *Filter) serveProxyConn(c net.Conn) {
	g := newGuestStream(c)
	for {
		// A request head, or the next one on a kept-alive connection,
		// must come within the handshake timeout.
		c.SetReadDeadline(time.Now().Add(f.cfg.HandshakeTimeout))
		req, head, err := g.readRequest()
		if err != nil {
			c.Close()
			if head > 0 { // bytes that are no request are a refusal too
				f.record(Record{Event: EventDecision, Protocol: "tcp", Via: ViaProxy, Verdict: Block, Reason: "not an HTTP proxy request: " + err.Error()})
			}
			return
		}
		if req.Method == http.MethodConnect {
			f.serveConnect(g, req)
			return
		}
		if req.URL.Host == "" {
			f.refuse(c, "http", target{host: req.Host, via: ViaProxy}, "", "not a proxy request (the URL has no host)")
			return
		}
		if req.URL.Scheme != "http" {
			f.refuse(c, "http", target{host: req.URL.Host, via: ViaProxy}, "", "only http:// URLs go through the proxy in the clear; use CONNECT for TLS")
			return
		}
		t, err := splitTarget(req.URL.Host, "80")
		if err != nil {
			f.refuse(c, "http", target{host: req.URL.Host, via: ViaProxy}, "", err.Error())
			return
		}
		t = f.unsynthesize(t)
		addrs, why := f.admitTarget(t)
		if addrs == nil {
			f.refuse(c, "http", t, "", why)
			return
		}
		if !f.relayHTTP(g, req, head, t, addrs) {
			c.Close()
			return
		}
	}
}

func (f *Filter) serveConnect(g *guestStream, req *http.Request) {
	c := g.c
	t, err := splitTarget(req.RequestURI, "443")
	if err != nil {
		f.refuse(c, "tcp", target{host: req.RequestURI, via: ViaProxy}, "", "a CONNECT needs host:port")
		return
	}
	t = f.unsynthesize(t)
	addrs, why := f.admitTarget(t)
	if addrs == nil {
		f.refuse(c, "tcp", t, "", why)
		return
	}
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		c.Close()
		return
	}
	f.serveTunnel(g, t, addrs)
}

// admitTarget decides on the host of a CONNECT or URL before any byte of
// the guest's protocol is seen: a name must be allowed (the filter
// resolves it), an IP literal must be listed or have been handed out by
// the filter for an allowed name (the SNI or Host decides which, later).
// It returns the addresses to dial, or nil and why not.
func (f *Filter) admitTarget(t target) ([]netip.Addr, string) {
	p := f.Policy()
	if addr, err := netip.ParseAddr(t.host); err == nil {
		addr = addr.Unmap()
		switch {
		case p.Mode == ModeDeny:
			return nil, "the network is off"
		case p.Mode == ModeAllow || p.AllowsAddr(addr):
			return []netip.Addr{addr}, ""
		case f.resolvedAnywhere(addr):
			return []netip.Addr{addr}, "" // the SNI or Host must name it
		}
		return nil, "the address is not on the allowlist and was not resolved for an allowed name"
	}
	ok, why := nameVerdict(p, t.host)
	if !ok {
		return nil, why
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	addrs, err := f.lookup(ctx, "ip", t.host)
	if err != nil {
		return nil, "cannot resolve: " + err.Error()
	}
	if len(addrs) == 0 {
		return nil, "the name has no address"
	}
	return addrs, ""
}

func (f *Filter) resolvedAnywhere(addr netip.Addr) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range f.resolved {
		if m[addr] {
			return true
		}
	}
	return false
}

// admitName checks the SNI or Host the guest sent against what it asked
// to reach: under an allowlist the name must be allowed and be the one of
// the CONNECT, or (for an IP target) one the filter resolved to that
// address. A listed address needs no name.
func (f *Filter) admitName(t target, name string, addr netip.Addr) (bool, string) {
	p := f.Policy()
	switch p.Mode {
	case ModeAllow:
		return true, "the network is public"
	case ModeDeny:
		return false, "the network is off"
	}
	if p.AllowsAddr(addr) {
		return true, "the address is on the allowlist"
	}
	if name == "" {
		return false, "no server name (SNI or Host) for an address that is not on the allowlist"
	}
	if !p.AllowsName(name) {
		return false, fmt.Sprintf("the server name %q is not on the allowlist", name)
	}
	if _, err := netip.ParseAddr(t.host); err != nil && name != t.host {
		return false, fmt.Sprintf("the server name %q does not match the host %q", name, t.host)
	}
	if !f.resolvedFor(name, addr) {
		return false, fmt.Sprintf("%s was not resolved for %q", addr, name)
	}
	return true, "the name is on the allowlist"
}

// serveTunnel reads the first bytes of a CONNECT tunnel (or of an
// intercepted connection), admits a TLS ClientHello by its server name and
// relays it to the upstream, or relays plain HTTP requests, each admitted
// by its Host.
func (f *Filter) serveTunnel(g *guestStream, t target, addrs []netip.Addr) {
	c, br := g.c, g.br
	first, err := br.Peek(1)
	if err != nil {
		f.refuse(c, "tcp", t, "", "the client sent nothing")
		return
	}
	if first[0] != 0x16 { // not a TLS handshake record: it must be HTTP
		f.serveHTTPStream(g, t, addrs)
		return
	}
	var seen bytes.Buffer
	hello, err := readClientHello(io.TeeReader(br, &seen))
	if err != nil {
		f.refuse(c, "tls", t, "", "no TLS ClientHello: "+err.Error())
		return
	}
	name := canonicalName(hello.ServerName)
	addr := addrs[0]
	ok, why := f.admitName(t, name, addr)
	if !ok {
		f.refuse(c, "tls", t, name, why)
		return
	}
	c.SetReadDeadline(time.Time{})
	// Everything the guest sends goes on; its end of stream is passed on
	// as a half close.
	send := func(up io.Writer) (int64, error) {
		// The hello and what the reader already holds, then the guest's
		// connection itself.
		return relay(up, io.MultiReader(&seen, io.LimitReader(br, int64(br.Buffered())), c), false)
	}
	f.relayTunnel(c, send, "tls", t, name, addrs, why)
}

// serveHTTPStream relays the plain HTTP requests of a tunnel to its
// target, each admitted by its own Host (a kept-alive connection may name
// another host in its next request).
func (f *Filter) serveHTTPStream(g *guestStream, t target, addrs []netip.Addr) {
	for {
		g.c.SetReadDeadline(time.Now().Add(f.cfg.HandshakeTimeout))
		req, head, err := g.readRequest()
		if err != nil {
			if head > 0 {
				f.refuse(g.c, "tcp", t, "", "neither TLS nor HTTP")
			}
			g.c.Close()
			return
		}
		if req.Method == http.MethodConnect {
			f.refuse(g.c, "http", t, "", "CONNECT inside a tunnel")
			return
		}
		if !f.relayHTTP(g, req, head, t, addrs) {
			g.c.Close()
			return
		}
	}
}

// readClientHello parses a TLS ClientHello with crypto/tls, stopping the
// handshake as soon as the hello is known.
func readClientHello(r io.Reader) (*tls.ClientHelloInfo, error) {
	var hello *tls.ClientHelloInfo
	errStop := errors.New("stop")
	err := tls.Server(readOnlyConn{r: r}, &tls.Config{
		GetConfigForClient: func(h *tls.ClientHelloInfo) (*tls.Config, error) {
			hello = &tls.ClientHelloInfo{ServerName: h.ServerName}
			return nil, errStop
		},
	}).Handshake()
	if hello != nil {
		return hello, nil
	}
	return nil, err
}

type readOnlyConn struct {
	net.Conn
	r io.Reader
}

func (c readOnlyConn) Read(p []byte) (int, error)         { return c.r.Read(p) }
func (c readOnlyConn) Write(p []byte) (int, error)        { return 0, io.ErrClosedPipe }
func (c readOnlyConn) Close() error                       { return nil }
func (c readOnlyConn) LocalAddr() net.Addr                { return &net.TCPAddr{} }
func (c readOnlyConn) RemoteAddr() net.Addr               { return &net.TCPAddr{} }
func (c readOnlyConn) SetDeadline(t time.Time) error      { return nil }
func (c readOnlyConn) SetReadDeadline(t time.Time) error  { return nil }
func (c readOnlyConn) SetWriteDeadline(t time.Time) error { return nil }

// refuse records a block and ends the connection (with a 403 while the
// guest still speaks to the proxy itself).
func (f *Filter) refuse(c net.Conn, proto string, t target, name, why string) {
	if proto == "http" || proto == "tcp" {
		body := "egress refused by the sandbox's network policy: " + why + "\n"
		fmt.Fprintf(c, "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
	}
	c.Close()
	if name == "" {
		if _, err := netip.ParseAddr(t.host); err != nil {
			name = t.host
		}
	}
	rec := Record{Event: EventDecision, Protocol: proto, Name: name, Port: t.port, Via: t.via, Verdict: Block, Reason: why}
	if a, err := netip.ParseAddr(t.host); err == nil {
		rec.Address = a.String()
	}
	f.record(rec)
}

// tunnel is one admitted connection, kept so that a policy change or
// Close can end it.
type tunnel struct {
	name      string
	addr      netip.AddrPort
	cutReason atomic.Pointer[string]

	mu       sync.Mutex
	client   net.Conn
	upstream net.Conn
	done     bool
}

func (t *tunnel) cut(why string) {
	t.cutReason.CompareAndSwap(nil, &why)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return
	}
	t.done = true
	t.client.Close()
	if t.upstream != nil {
		t.upstream.Close()
	}
}

// attach makes up the upstream connection that a cut closes; it fails
// (closing up) once the tunnel was cut.
func (t *tunnel) attach(up net.Conn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		up.Close()
		return false
	}
	t.upstream = up
	return true
}

func (t *tunnel) wasCut() (string, bool) {
	if r := t.cutReason.Load(); r != nil && *r != "" {
		return *r, true
	}
	return "", false
}

func hostOnly(hostport string) string {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	return canonicalName(host)
}

// relayTunnel dials the upstream, sends head, and copies both ways until both
// sides are done, recording the decision and then the byte counts.
func (f *Filter) relayTunnel(c net.Conn, send func(io.Writer) (int64, error), proto string, t target, name string, addrs []netip.Addr, why string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	var up net.Conn
	var addr netip.Addr
	var err error
	for _, a := range addrs {
		addr = a
		up, err = f.cfg.Dial(ctx, "tcp", netip.AddrPortFrom(a, uint16(t.port)).String())
		if err == nil {
			break
		}
	}
	cancel()
	if up == nil {
		c.Close()
		f.record(Record{Event: EventDecision, Protocol: proto, Name: name, Address: addr.String(), Port: t.port, Via: t.via,
			Verdict: Block, Reason: "allowed, but the upstream is unreachable: " + err.Error()})
		return
	}
	tun := &tunnel{name: name, addr: netip.AddrPortFrom(addr, uint16(t.port)), client: c, upstream: up}
	if !f.register(tun) { // closed, or the policy changed while dialing
		c.Close()
		up.Close()
		return
	}
	f.record(Record{Event: EventDecision, Protocol: proto, Name: name, Address: addr.String(), Port: t.port,
		Via: t.via, Verdict: Allow, Reason: why})

	var upBytes, downBytes int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n, _ := send(up)
		atomic.AddInt64(&upBytes, n)
		closeWrite(up)
	}()
	n, _ := relay(c, up, false)
	atomic.AddInt64(&downBytes, n)
	closeWrite(c)
	wg.Wait()
	tun.cut("")
	f.unregister(tun)
	reason := "closed"
	if r, cut := tun.wasCut(); cut {
		reason = r
	}
	f.record(Record{Event: EventClose, Protocol: proto, Name: name, Address: addr.String(), Port: t.port,
		Via: t.via, Verdict: Allow, Reason: reason, BytesUp: atomic.LoadInt64(&upBytes), BytesDown: atomic.LoadInt64(&downBytes)})
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
}

// countingConn counts the bytes read from a guest's connection.
type countingConn struct {
	net.Conn
	n atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingConn) read() int64 { return c.n.Load() }
