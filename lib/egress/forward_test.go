package egress

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// pathLog is an upstream handler that remembers the requests it served.
type pathLog struct {
	mu    sync.Mutex
	paths []string
}

func (p *pathLog) add(r *http.Request) {
	p.mu.Lock()
	p.paths = append(p.paths, r.Host+" "+r.URL.Path)
	p.mu.Unlock()
}

func (p *pathLog) seen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.paths, ", ")
}

// framingHandler serves the framings the filter must pass on: a fixed
// length, chunked, an echo of the request body, and no body.
func framingHandler(log *pathLog) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		switch r.URL.Path {
		case "/big":
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			w.Header().Set("Content-Length", strconv.Itoa(n))
			w.Write(bytes.Repeat([]byte("x"), n))
		case "/chunked":
			for i := range 5 {
				fmt.Fprintf(w, "part %d;", i)
				w.(http.Flusher).Flush()
			}
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("X-Got", strconv.Itoa(len(b)))
			w.Write(b)
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		default:
			w.Header().Set("Content-Length", "5")
			io.WriteString(w, "hello")
		}
	})
}

// readResponse reads one response from a raw connection with its body,
// and the bytes it took.
func readResponse(t *testing.T, br *bufio.Reader, method string) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(br, &http.Request{Method: method})
	if err != nil {
		t.Fatalf("reading a response: %v", err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading a body: %v", err)
	}
	return resp, string(b)
}

func TestKeptAliveProxyConnectionChecksEachRequest(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"ok.test"}, nil)
	var log pathLog
	up := serveUpstream(t, "127.0.0.2", nil, framingHandler(&log))
	h.res.set("ok.test", "127.0.0.2")
	h.res.set("no.test", "127.0.0.2")
	c, err := net.Dial("tcp", h.proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for i := range 3 {
		fmt.Fprintf(c, "GET http://ok.test:%d/r%d HTTP/1.1\r\nHost: ok.test:%d\r\n\r\n", up.port, i, up.port)
		resp, body := readResponse(t, br, "GET")
		if resp.StatusCode != 200 || body != "hello" || resp.Close {
			t.Fatalf("request %d: %s %q close=%v", i, resp.Status, body, resp.Close)
		}
	}
	// The same connection, another host: refused, and the connection ends.
	fmt.Fprintf(c, "GET http://no.test:%d/sneak HTTP/1.1\r\nHost: no.test:%d\r\n\r\n", up.port, up.port)
	resp, _ := readResponse(t, br, "GET")
	if resp.StatusCode != 403 {
		t.Fatalf("the unlisted host on a kept-alive connection: %s", resp.Status)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("the connection stayed open after a refusal: %v", err)
	}
	if strings.Contains(log.seen(), "sneak") {
		t.Fatalf("the upstream served the refused request: %s", log.seen())
	}
	if n := up.connections(); n != 1 {
		t.Errorf("three kept-alive requests took %d upstream connections, want 1", n)
	}
	h.close()
	recs := h.records(t)
	if got := len(find(recs, EventDecision, "http", "ok.test", Allow)); got != 3 {
		t.Errorf("%d allow decisions for ok.test, want 3: %+v", got, recs)
	}
	if len(find(recs, EventDecision, "http", "no.test", Block)) != 1 {
		t.Errorf("no block decision for no.test: %+v", recs)
	}
}

// Bodies larger than the relay's buffer, with the next requests already
// behind them on the connection: each body is copied to its last byte and
// no further, and each request after it is decided by its own host.
func TestPipelinedRequestsAfterLargeBodiesAreEachChecked(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"ok.test", "also.test"}, nil)
	var log pathLog
	up := serveUpstream(t, "127.0.0.2", nil, framingHandler(&log))
	for _, n := range []string{"ok.test", "also.test", "no.test"} {
		h.res.set(n, "127.0.0.2")
	}
	c, err := net.Dial("tcp", h.proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second)) // a stall fails the read below, naming it
	upload := bytes.Repeat([]byte("u"), 2*bulkBufferSize+3)
	const download = 3*bulkBufferSize + 5
	var all bytes.Buffer
	fmt.Fprintf(&all, "POST http://ok.test:%d/echo HTTP/1.1\r\nHost: ok.test:%d\r\nContent-Length: %d\r\n\r\n%s",
		up.port, up.port, len(upload), upload)
	fmt.Fprintf(&all, "POST http://also.test:%d/echo HTTP/1.1\r\nHost: also.test:%d\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n",
		up.port, up.port, len(upload), upload)
	fmt.Fprintf(&all, "GET http://also.test:%d/big?n=%d HTTP/1.1\r\nHost: also.test:%d\r\n\r\n", up.port, download, up.port)
	fmt.Fprintf(&all, "GET http://no.test:%d/sneak HTTP/1.1\r\nHost: no.test:%d\r\n\r\n", up.port, up.port)
	go c.Write(all.Bytes()) // in one go, while the responses are read
	br := bufio.NewReader(c)
	for _, want := range []string{"ok.test echo", "also.test chunked echo"} {
		if resp, body := readResponse(t, br, "POST"); resp.StatusCode != 200 || body != string(upload) {
			t.Fatalf("%s: %s, %d bytes back of %d", want, resp.Status, len(body), len(upload))
		}
	}
	if resp, body := readResponse(t, br, "GET"); resp.StatusCode != 200 || len(body) != download {
		t.Fatalf("also.test download: %s, %d bytes of %d", resp.Status, len(body), download)
	}
	if resp, _ := readResponse(t, br, "GET"); resp.StatusCode != 403 {
		t.Fatalf("no.test after the bodies: %s", resp.Status)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("the connection stayed open after a refusal: %v", err)
	}
	if strings.Contains(log.seen(), "sneak") {
		t.Fatalf("the upstream served the refused request: %s", log.seen())
	}
	h.close()
	recs := h.records(t)
	if a, b, n := len(find(recs, EventDecision, "http", "ok.test", Allow)), len(find(recs, EventDecision, "http", "also.test", Allow)),
		len(find(recs, EventDecision, "http", "no.test", Block)); a != 1 || b != 2 || n != 1 {
		t.Fatalf("decisions: ok.test allowed %d times, also.test %d, no.test blocked %d; want 1, 2, 1: %+v", a, b, n, recs)
	}
}

func TestTunnelledHTTPChecksEachRequestByHost(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"ok.test"}, nil)
	var log pathLog
	up := serveUpstream(t, "127.0.0.2", nil, framingHandler(&log))
	h.res.set("ok.test", "127.0.0.2")
	c, err := net.Dial("tcp", h.proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	fmt.Fprintf(c, "CONNECT ok.test:%d HTTP/1.1\r\nHost: ok.test:%d\r\n\r\n", up.port, up.port)
	if resp, err := http.ReadResponse(br, &http.Request{Method: "CONNECT"}); err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	// A port that is no number must not pass for ok.test.
	fmt.Fprintf(c, "GET /odd HTTP/1.1\r\nHost: ok.test:80@evil.test\r\n\r\n")
	if resp, _ := readResponse(t, br, "GET"); resp.StatusCode != 403 {
		t.Fatalf("Host ok.test:80@evil.test: %s", resp.Status)
	}
	c.Close()
	if c, err = net.Dial("tcp", h.proxy); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br = bufio.NewReader(c)
	fmt.Fprintf(c, "CONNECT ok.test:%d HTTP/1.1\r\nHost: ok.test:%d\r\n\r\n", up.port, up.port)
	if resp, err := http.ReadResponse(br, &http.Request{Method: "CONNECT"}); err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	// Two requests in one write: the second names a host that is not the
	// tunnel's.
	fmt.Fprintf(c, "GET /first HTTP/1.1\r\nHost: ok.test\r\n\r\nGET /second HTTP/1.1\r\nHost: evil.test\r\n\r\n")
	resp, body := readResponse(t, br, "GET")
	if resp.StatusCode != 200 || body != "hello" {
		t.Fatalf("first: %s %q", resp.Status, body)
	}
	resp, _ = readResponse(t, br, "GET")
	if resp.StatusCode != 403 {
		t.Fatalf("second (Host evil.test): %s", resp.Status)
	}
	if strings.Contains(log.seen(), "second") {
		t.Fatalf("the upstream served the refused request: %s", log.seen())
	}
}

func TestBodiesPassWithTheirFraming(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"ok.test"}, nil)
	var log pathLog
	up := serveUpstream(t, "127.0.0.2", nil, framingHandler(&log))
	h.res.set("ok.test", "127.0.0.2")
	base := fmt.Sprintf("http://ok.test:%d", up.port)
	c, err := net.Dial("tcp", h.proxy)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	w := &countingWriter{w: c} // what the guest sends
	var down int64
	counted := func(f func()) {
		// What the guest reads, counted from the connection's side.
		before := br.Buffered()
		cr := &countingReader{r: c}
		br.Reset(cr)
		f()
		down += cr.n - int64(br.Buffered()) + int64(before)
	}
	const big = 3<<20 + 17
	counted(func() {
		fmt.Fprintf(w, "GET %s/big?n=%d HTTP/1.1\r\nHost: ok.test\r\n\r\n", base, big)
		if resp, body := readResponse(t, br, "GET"); resp.StatusCode != 200 || len(body) != big {
			t.Fatalf("big: %s, %d bytes", resp.Status, len(body))
		}
	})
	counted(func() {
		fmt.Fprintf(w, "GET %s/chunked HTTP/1.1\r\nHost: ok.test\r\n\r\n", base)
		resp, body := readResponse(t, br, "GET")
		if resp.StatusCode != 200 || len(resp.TransferEncoding) != 1 || body != "part 0;part 1;part 2;part 3;part 4;" {
			t.Fatalf("chunked: %s %v %q", resp.Status, resp.TransferEncoding, body)
		}
	})
	counted(func() {
		// A chunked request body, with an extension and a trailer.
		fmt.Fprintf(w, "POST %s/echo HTTP/1.1\r\nHost: ok.test\r\nTransfer-Encoding: chunked\r\n\r\n"+
			"5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n", base)
		if resp, body := readResponse(t, br, "POST"); resp.StatusCode != 200 || body != "hello world" {
			t.Fatalf("chunked echo: %s %q", resp.Status, body)
		}
	})
	counted(func() {
		fmt.Fprintf(w, "POST %s/echo HTTP/1.1\r\nHost: ok.test\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n", base)
		if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 100 {
			t.Fatalf("100-continue: %v %v", resp, err)
		}
		io.WriteString(w, "abcd")
		if resp, body := readResponse(t, br, "POST"); resp.StatusCode != 200 || body != "abcd" {
			t.Fatalf("echo: %s %q", resp.Status, body)
		}
	})
	counted(func() {
		fmt.Fprintf(w, "HEAD %s/big?n=100 HTTP/1.1\r\nHost: ok.test\r\n\r\n", base)
		if resp, body := readResponse(t, br, "HEAD"); resp.StatusCode != 200 || resp.ContentLength != 100 || body != "" {
			t.Fatalf("head: %s %d %q", resp.Status, resp.ContentLength, body)
		}
		fmt.Fprintf(w, "GET %s/empty HTTP/1.1\r\nHost: ok.test\r\n\r\n", base)
		if resp, body := readResponse(t, br, "GET"); resp.StatusCode != 204 || body != "" {
			t.Fatalf("204: %s %q", resp.Status, body)
		}
		// An HTTP/1.0 request ends its connection.
		fmt.Fprintf(w, "GET %s/last HTTP/1.0\r\nHost: ok.test\r\n\r\n", base)
		if resp, body := readResponse(t, br, "GET"); resp.StatusCode != 200 || body != "hello" {
			t.Fatalf("1.0: %s %q", resp.Status, body)
		}
		if _, err := br.ReadByte(); err != io.EOF {
			t.Fatalf("an HTTP/1.0 connection stayed open: %v", err)
		}
	})
	h.close()
	var sumUp, sumDown int64
	for _, r := range find(h.records(t), EventClose, "http", "ok.test", Allow) {
		sumUp += r.BytesUp
		sumDown += r.BytesDown
	}
	if sumDown != down || sumUp != w.n {
		t.Errorf("the records count %d bytes up and %d down, the guest sent %d and read %d", sumUp, sumDown, w.n, down)
	}
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func TestChunkedRequestCannotSmuggleARequest(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"ok.test"}, nil)
	var log pathLog
	up := serveUpstream(t, "127.0.0.2", nil, framingHandler(&log))
	h.res.set("ok.test", "127.0.0.2")
	smuggled := "GET /smuggled HTTP/1.1\r\nHost: evil.test\r\n\r\n"
	for _, body := range []string{
		// Bad framing that a lenient upstream might split elsewhere.
		"5 \r\nhello\r\n0\r\n\r\n" + smuggled,
		"5\nhello\r\n0\r\n\r\n" + smuggled,
		"5\r\nhelloXX0\r\n\r\n" + smuggled,
		fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(smuggled), smuggled) + "zz\r\n",
	} {
		c, err := net.Dial("tcp", h.proxy)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST http://ok.test:%d/echo HTTP/1.1\r\nHost: ok.test\r\nTransfer-Encoding: chunked\r\n\r\n%s", up.port, body)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		io.Copy(io.Discard, c)
		c.Close()
	}
	time.Sleep(100 * time.Millisecond)
	if strings.Contains(log.seen(), "evil.test /smuggled") {
		t.Fatalf("a request went upstream undecided: %s", log.seen())
	}
}

// A guest that resolved a name itself (to its synthetic address) and
// hands the address to the proxy reaches that name, under its checks.
func TestProxyMapsSyntheticAddressesToTheirNames(t *testing.T) {
	h := newHarness(t, ModeAllowlist, []string{"ok.test"}, nil)
	var log pathLog
	up := serveUpstream(t, "127.0.0.2", nil, framingHandler(&log))
	h.res.set("ok.test", "127.0.0.2")
	h.f.intercepting.Store(true)
	a, err := h.resolver().LookupNetIP(context.Background(), "ip4", "ok.test")
	if err != nil || len(a) != 1 || !syntheticRange.Contains(a[0]) {
		t.Fatalf("ok.test resolved to %v (%v), want one synthetic address", a, err)
	}
	// Absolute form: the URL's host is the request's (RFC 9112 3.2.2).
	for _, tc := range []struct {
		url  string
		want int
	}{
		{fmt.Sprintf("http://%s/a", net.JoinHostPort(a[0].String(), fmt.Sprint(up.port))), 200},
		{fmt.Sprintf("http://198.18.77.77:%d/b", up.port), 403}, // never handed out
	} {
		c, err := net.Dial("tcp", h.proxy)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: ignored.test\r\n\r\n", tc.url)
		resp, body := readResponse(t, bufio.NewReader(c), "GET")
		c.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %s %q, want %d", tc.url, resp.Status, body, tc.want)
		}
	}
	if got := log.seen(); got != fmt.Sprintf("ok.test:%d /a", up.port) {
		t.Errorf("the upstream saw %q, want the synthetic address's name", got)
	}
}
