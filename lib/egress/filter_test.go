package egress

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestAllowedHTTPAndHTTPSByName(t *testing.T) {
	ca := newTestCA(t)
	h := newHarness(t, ModeAllowlist, []string{"plain.test", "secure.test"}, nil)
	plain := serveUpstream(t, "127.0.0.2", nil, hello("plain"))
	cert := ca.leaf(t, "secure.test")
	secure := serveUpstream(t, "127.0.0.3", &cert, hello("secure"))
	h.res.set("plain.test", "127.0.0.2")
	h.res.set("secure.test", "127.0.0.3")
	c := h.client(ca)
	code, body, err := get(c, fmt.Sprintf("http://plain.test:%d/", plain.port))
	if err != nil || code != 200 || !strings.Contains(body, "hello from plain") {
		t.Fatalf("http: %d %q %v", code, body, err)
	}
	code, body, err = get(c, fmt.Sprintf("https://secure.test:%d/", secure.port))
	if err != nil || code != 200 || !strings.Contains(body, "hello from secure") {
		t.Fatalf("https: %d %q %v", code, body, err)
	}
	h.close()
	recs := h.records(t)
	for _, c := range []struct{ proto, name string }{{"http", "plain.test"}, {"tls", "secure.test"}} {
		if len(find(recs, EventDecision, c.proto, c.name, Allow)) != 1 {
			t.Errorf("no allow decision for %s %s in %+v", c.proto, c.name, recs)
		}
		closes := find(recs, EventClose, c.proto, c.name, Allow)
		if len(closes) != 1 || closes[0].BytesUp == 0 || closes[0].BytesDown == 0 {
			t.Errorf("close record of %s: %+v", c.name, closes)
		}
	}
	for _, r := range recs {
		if r.Machine != "m1" || r.Phase != "agent" || r.Time.IsZero() {
			t.Errorf("record without machine, phase or time: %+v", r)
		}
	}
}

func TestDNSAnswersOnlyAllowedNames(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"good.test", "*.wild.test"}, nil)
	h.res.set("good.test", "127.0.0.2")
	h.res.set("bad.test", "127.0.0.4")
	h.res.set("a.b.wild.test", "127.0.0.5")
	h.res.set("wild.test", "127.0.0.6")
	r := h.resolver()
	ctx := context.Background()
	addrs, err := r.LookupHost(ctx, "good.test")
	if err != nil || len(addrs) != 1 || addrs[0] != "127.0.0.2" {
		t.Fatalf("good.test: %v %v", addrs, err)
	}
	addrs, err = r.LookupHost(ctx, "a.b.wild.test")
	if err != nil || len(addrs) != 1 || addrs[0] != "127.0.0.5" {
		t.Fatalf("a.b.wild.test: %v %v", addrs, err)
	}
	for _, name := range []string{"bad.test", "wild.test", "good.test.evil.test"} {
		_, err = r.LookupHost(ctx, name)
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
			t.Errorf("%s: %v, want NXDOMAIN", name, err)
		}
	}
	// Other record types of an unlisted name are refused too (TXT is a
	// classic tunnel).
	if _, err := r.LookupTXT(ctx, "bad.test"); err == nil {
		t.Error("a TXT query for an unlisted name was answered")
	}
	h.close()
	recs := h.records(t)
	if len(find(recs, EventDecision, "dns", "bad.test", Block)) == 0 || len(find(recs, EventDecision, "dns", "good.test", Allow)) == 0 {
		t.Errorf("dns records: %+v", recs)
	}
}

func TestDNSOverTCP(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"good.test"}, nil)
	h.res.set("good.test", "127.0.0.2")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go h.f.ServeDNSStream(l)
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", l.Addr().String())
	}}
	addrs, err := r.LookupHost(context.Background(), "good.test")
	if err != nil || len(addrs) != 1 || addrs[0] != "127.0.0.2" {
		t.Fatalf("over TCP: %v %v", addrs, err)
	}
	if _, err := r.LookupHost(context.Background(), "other.test"); err == nil {
		t.Fatal("an unlisted name resolved over TCP")
	}
}

func TestUnlistedNameRefusedByProxy(t *testing.T) {
	ca := newTestCA(t)
	h := newHarness(t, ModeAllowlist, []string{"good.test"}, nil)
	cert := ca.leaf(t, "bad.test")
	bad := serveUpstream(t, "127.0.0.4", &cert, hello("bad"))
	h.res.set("bad.test", "127.0.0.4")
	c := h.client(ca)
	if _, _, err := get(c, fmt.Sprintf("https://bad.test:%d/", bad.port)); err == nil {
		t.Fatal("reached an unlisted host over CONNECT")
	}
	code, _, err := get(c, fmt.Sprintf("http://bad.test:%d/", bad.port))
	if err != nil || code != http.StatusForbidden {
		t.Fatalf("plain HTTP to an unlisted host: %d %v", code, err)
	}
	if n := bad.connections(); n != 0 {
		t.Fatalf("the unlisted upstream saw %d connections", n)
	}
	h.close()
	if got := find(h.records(t), EventDecision, "tcp", "bad.test", Block); len(got) != 1 {
		t.Fatalf("block records: %+v", h.records(t))
	}
}

func TestIPLiteralRefusedUnlessListed(t *testing.T) {
	ca := newTestCA(t)
	h := newHarness(t, ModeAllowlist, []string{"good.test", "127.0.0.7"}, nil)
	cert := ca.leaf(t, "good.test")
	good := serveUpstream(t, "127.0.0.2", &cert, hello("good"))
	listed := serveUpstream(t, "127.0.0.7", nil, hello("listed"))
	h.res.set("good.test", "127.0.0.2")
	c := h.client(nil)
	c.Transport.(*http.Transport).TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
	// The guest learns the address through the filter's own DNS, then
	// goes to the IP literal: no SNI and no name, so it is refused.
	if _, err := h.resolver().LookupHost(context.Background(), "good.test"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := get(c, fmt.Sprintf("https://127.0.0.2:%d/", good.port)); err == nil {
		t.Fatal("reached an allowed host's address by IP literal")
	}
	if code, _, _ := get(c, fmt.Sprintf("http://127.0.0.2:%d/", good.port)); code != http.StatusForbidden {
		t.Fatalf("plain HTTP to the IP literal: %d", code)
	}
	if n := good.connections(); n != 0 {
		t.Fatalf("the upstream saw %d connections", n)
	}
	// A listed address is reachable by its literal.
	code, body, err := get(c, fmt.Sprintf("http://127.0.0.7:%d/", listed.port))
	if err != nil || code != 200 || !strings.Contains(body, "listed") {
		t.Fatalf("listed address: %d %q %v", code, body, err)
	}
	h.close()
	recs := h.records(t)
	if len(find(recs, EventDecision, "tls", "127.0.0.2", Block)) != 1 || len(find(recs, EventDecision, "http", "127.0.0.7", Allow)) != 1 {
		t.Fatalf("records: %+v", recs)
	}
}

// connectRaw opens a CONNECT tunnel by hand, so that the test chooses the
// SNI or Host independently of the CONNECT target.
func connectRaw(t *testing.T, proxy, target string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", proxy)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT %s: %s", target, resp.Status)
	}
	return c, br
}

func TestSNIAndHostMismatchRefused(t *testing.T) {
	ca := newTestCA(t)
	h := newHarness(t, ModeAllowlist, []string{"good.test", "plain.test"}, nil)
	cert := ca.leaf(t, "good.test", "evil.test")
	good := serveUpstream(t, "127.0.0.2", &cert, hello("good"))
	plain := serveUpstream(t, "127.0.0.3", nil, hello("plain"))
	h.res.set("good.test", "127.0.0.2")
	h.res.set("plain.test", "127.0.0.3")
	h.res.set("evil.test", "127.0.0.2")

	// TLS: CONNECT to the allowed name, ClientHello for another.
	c, _ := connectRaw(t, h.proxy, fmt.Sprintf("good.test:%d", good.port))
	tc := tls.Client(c, &tls.Config{ServerName: "evil.test", RootCAs: ca.pool})
	tc.SetDeadline(time.Now().Add(10 * time.Second))
	if err := tc.Handshake(); err == nil {
		t.Fatal("a TLS handshake with an unlisted SNI went through")
	}
	// TLS with no SNI at all.
	c, _ = connectRaw(t, h.proxy, fmt.Sprintf("good.test:%d", good.port))
	tc = tls.Client(c, &tls.Config{InsecureSkipVerify: true})
	tc.SetDeadline(time.Now().Add(10 * time.Second))
	if err := tc.Handshake(); err == nil {
		t.Fatal("a TLS handshake without SNI went through")
	}
	// HTTP in a tunnel: Host names another host.
	h.res.set("good.test", "127.0.0.2", "127.0.0.3")
	c, br := connectRaw(t, h.proxy, fmt.Sprintf("good.test:%d", plain.port))
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: plain.test\r\n\r\n")
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if resp, err := http.ReadResponse(br, nil); err == nil && resp.StatusCode != http.StatusForbidden {
		t.Fatalf("an HTTP request with a mismatched Host went through a tunnel: %s", resp.Status)
	}
	// Plain proxy request: URL and Host disagree.
	pc, err := net.Dial("tcp", h.proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	if good.connections() != 0 || plain.connections() != 0 {
		t.Fatalf("upstreams saw %d and %d connections", good.connections(), plain.connections())
	}
	// Plain proxy request whose Host header names another host: the URL
	// wins (RFC 9112 3.2.2), and the upstream sees the allowed name.
	fmt.Fprintf(pc, "GET http://plain.test:%d/ HTTP/1.1\r\nHost: evil.test\r\n\r\n", plain.port)
	resp, err := http.ReadResponse(bufio.NewReader(pc), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(body), fmt.Sprintf("Host plain.test:%d", plain.port)) {
		t.Fatalf("URL/Host mismatch: %s %q", resp.Status, body)
	}
	if good.connections() != 0 || plain.connections() != 1 {
		t.Fatalf("upstreams saw %d and %d connections", good.connections(), plain.connections())
	}
	h.close()
	recs := h.records(t)
	if len(find(recs, EventDecision, "tls", "evil.test", Block)) != 1 {
		t.Errorf("no block record of the SNI evil.test: %+v", recs)
	}
	if b := find(recs, EventDecision, "http", "plain.test", Block); len(b) != 1 || !strings.Contains(b[0].Reason, "does not match") {
		t.Errorf("no block record of the mismatched Host plain.test: %+v", recs)
	}
}

func TestDNSRebindingRefused(t *testing.T) {
	forbidden := append([]netip.Prefix{netip.MustParsePrefix("127.0.0.66/32")}, DefaultForbidden...)
	h := newHarness(t, ModeAllowlist, []string{"flip.test"}, func(c *Config) { c.Forbidden = forbidden })
	first := serveUpstream(t, "127.0.0.2", nil, hello("first"))
	inner := serveUpstream(t, "127.0.0.66", nil, hello("inner"))
	if first.port != inner.port {
		// Same port on both so that only the address differs.
		inner = serveUpstreamOn(t, "127.0.0.66", first.port)
	}
	h.res.set("flip.test", "127.0.0.2")
	c := h.client(nil)
	u := fmt.Sprintf("http://flip.test:%d/", first.port)
	if code, body, err := get(c, u); err != nil || code != 200 || !strings.Contains(body, "first") {
		t.Fatalf("before the flip: %d %q %v", code, body, err)
	}
	h.res.set("flip.test", "127.0.0.66") // the name now leads to a forbidden address
	if code, _, _ := get(c, u); code != http.StatusForbidden {
		t.Fatalf("after the flip: %d", code)
	}
	if _, err := h.resolver().LookupHost(context.Background(), "flip.test"); err == nil {
		t.Fatal("the filter's DNS handed out a forbidden address")
	}
	// Nor may the guest use the old address with a name that now
	// resolves elsewhere: the tunnel to the IP literal is refused too.
	if inner.connections() != 0 {
		t.Fatalf("the forbidden upstream saw %d connections", inner.connections())
	}
	h.close()
	if len(find(h.records(t), EventDecision, "http", "flip.test", Block)) != 1 {
		t.Fatalf("records: %+v", h.records(t))
	}
}

func serveUpstreamOn(t *testing.T, ip string, port int) upstream {
	t.Helper()
	l, err := net.Listen("tcp", fmt.Sprintf("%s:%d", ip, port))
	if err != nil {
		t.Skipf("port %d is taken on %s", port, ip)
	}
	l.Close()
	return serveUpstream(t, ip, nil, hello("inner"))
}

func TestWildcardAndCIDR(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"*.mirror.test", "127.0.8.0/24"}, nil)
	deep := serveUpstream(t, "127.0.0.2", nil, hello("deep"))
	cidr := serveUpstream(t, "127.0.8.9", nil, hello("cidr"))
	outside := serveUpstream(t, "127.0.9.9", nil, hello("outside"))
	h.res.set("a.b.mirror.test", "127.0.0.2")
	h.res.set("mirror.test", "127.0.0.2")
	c := h.client(nil)
	if code, body, err := get(c, fmt.Sprintf("http://a.b.mirror.test:%d/", deep.port)); code != 200 || !strings.Contains(body, "deep") {
		t.Fatalf("wildcard: %d %q %v", code, body, err)
	}
	if code, _, _ := get(c, fmt.Sprintf("http://mirror.test:%d/", deep.port)); code != http.StatusForbidden {
		t.Fatalf("the wildcard admitted its apex: %d", code)
	}
	if code, body, err := get(c, fmt.Sprintf("http://127.0.8.9:%d/", cidr.port)); code != 200 || !strings.Contains(body, "cidr") {
		t.Fatalf("cidr: %d %q %v", code, body, err)
	}
	if code, _, _ := get(c, fmt.Sprintf("http://127.0.9.9:%d/", outside.port)); code != http.StatusForbidden {
		t.Fatalf("an address outside the range: %d", code)
	}
	if outside.connections() != 0 {
		t.Fatal("the address outside the range was reached")
	}
}

func TestPolicySwitchCutsOpenConnections(t *testing.T) {
	release := make(chan struct{})
	slow := serveUpstream(t, "127.0.0.2", nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("first part\n"))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer close(release)
	h := newHarness(t, ModeAllowlist, []string{"slow.test"}, nil)
	h.res.set("slow.test", "127.0.0.2")
	resp, err := h.client(nil).Get(fmt.Sprintf("http://slow.test:%d/", slow.port))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if line, err := br.ReadString('\n'); err != nil || line != "first part\n" {
		t.Fatalf("%q %v", line, err)
	}
	deny, _ := Parse(ModeDeny, nil)
	done := make(chan error, 1)
	go func() { _, err := io.ReadAll(br); done <- err }()
	h.f.SetPolicy(deny, "verifier")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the open connection survived the switch to no network")
	}
	if code, _, _ := get(h.client(nil), fmt.Sprintf("http://slow.test:%d/", slow.port)); code != http.StatusForbidden {
		t.Fatalf("a new connection after the switch: %d", code)
	}
	h.close()
	recs := h.records(t)
	closes := find(recs, EventClose, "http", "slow.test", Allow)
	if len(closes) != 1 || closes[0].Reason != "the network policy changed" {
		t.Fatalf("close records: %+v", closes)
	}
	blocks := find(recs, EventDecision, "http", "slow.test", Block)
	if len(blocks) != 1 || blocks[0].Phase != "verifier" {
		t.Fatalf("block after the switch: %+v", blocks)
	}
}

func TestSwitchToAllowlistKeepsAdmittedConnections(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"a.test"}, nil)
	up := serveUpstream(t, "127.0.0.2", nil, hello("a"))
	h.res.set("a.test", "127.0.0.2")
	h.res.set("b.test", "127.0.0.2")
	p, _ := Parse(ModeAllowlist, []string{"b.test"})
	h.f.SetPolicy(p, "verifier")
	c := h.client(nil)
	if code, _, _ := get(c, fmt.Sprintf("http://a.test:%d/", up.port)); code != http.StatusForbidden {
		t.Fatalf("a.test after the switch: %d", code)
	}
	if code, _, _ := get(c, fmt.Sprintf("http://b.test:%d/", up.port)); code != 200 {
		t.Fatalf("b.test after the switch: %d", code)
	}
}

func TestThousandConnectionsLeakNothing(t *testing.T) {
	up := serveUpstream(t, "127.0.0.2", nil, hello("many"))
	warm := &http.Client{Transport: &http.Transport{}}
	get(warm, "http://"+up.addr+"/") // the upstream's own goroutines and descriptors settle first
	warm.CloseIdleConnections()
	time.Sleep(100 * time.Millisecond)
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)

	h := newHarness(t, ModeAllowlist, []string{"many.test"}, nil)
	h.res.set("many.test", "127.0.0.2")
	const n = 1000
	sem := make(chan struct{}, 32)
	errc := make(chan error, n)
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		go func(i int) {
			defer func() { <-sem }()
			c := h.client(nil)
			if i%2 == 0 {
				// Half the clients keep their connection to the proxy alive.
				c.Transport.(*http.Transport).DisableKeepAlives = false
				defer c.CloseIdleConnections()
			}
			host := "many.test"
			if i%4 == 3 {
				host = "other.test" // refused ones too
			}
			code, _, err := get(c, fmt.Sprintf("http://%s:%d/", host, up.port))
			if err == nil && (code == 200) != (i%4 != 3) {
				err = fmt.Errorf("request %d: status %d", i, code)
			}
			errc <- err
		}(i)
	}
	for i := 0; i < n; i++ {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	h.close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		// io.Copy between sockets (which the filter avoids, but the
		// test's servers may do) splices through pipes that the runtime
		// caches in a sync.Pool and closes by finalizer: two collections
		// empty the cache.
		runtime.GC()
		runtime.GC()
		g, f := runtime.NumGoroutine(), openFDs(t)
		if g <= goroutines+2 && f <= fds+2 { // the decision log stays open until the test ends
			break
		}
		if time.Now().After(deadline) {
			out, _ := exec.Command("sh", "-c", fmt.Sprintf("ls -l /proc/%d/fd", os.Getpid())).CombinedOutput()
			buf := make([]byte, 1<<20)
			t.Fatalf("after %d connections and Close: %d goroutines (was %d), %d descriptors (was %d)\n%s\n%s", n, g, goroutines, f, fds, out, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(50 * time.Millisecond)
	}
	recs := h.records(t)
	if a, b := len(find(recs, EventDecision, "http", "many.test", Allow)), len(find(recs, EventDecision, "http", "other.test", Block)); a != n/4*3 || b != n/4 {
		t.Fatalf("%d allow and %d block records, want %d and %d", a, b, n/4*3, n/4)
	}
	if c := len(find(recs, EventClose, "http", "many.test", Allow)); c != n/4*3 {
		t.Fatalf("%d close records, want %d", c, n/4*3)
	}
	s := h.f.Summary()
	if len(s.Allowed) != 1 || s.Allowed[0].Host != "many.test" || s.Allowed[0].Count != n/4*3 || len(s.Blocked) != 1 {
		t.Fatalf("summary %+v", s)
	}
}

func openFDs(t testing.TB) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

func TestCloseEndsEverything(t *testing.T) {
	hang := serveUpstream(t, "127.0.0.2", nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	h := newHarness(t, ModeAllowlist, []string{"hang.test"}, nil)
	h.res.set("hang.test", "127.0.0.2")
	resp, err := h.client(nil).Get(fmt.Sprintf("http://hang.test:%d/", hang.port))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	done := make(chan struct{})
	go func() { h.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end an open connection")
	}
	if _, err := net.DialTimeout("tcp", h.proxy, time.Second); err == nil {
		t.Fatal("the proxy still accepts after Close")
	}
}
