package egress

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// testResolver is the host resolver of the tests: names on 127.0.0.x.
type testResolver struct {
	mu    sync.Mutex
	names map[string][]netip.Addr
}

func (r *testResolver) set(name string, addrs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.names == nil {
		r.names = map[string][]netip.Addr{}
	}
	r.names[name] = nil
	for _, a := range addrs {
		r.names[name] = append(r.names[name], netip.MustParseAddr(a))
	}
}

func (r *testResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []netip.Addr
	for _, a := range r.names[host] {
		if network == "ip" || network == "ip4" && a.Is4() || network == "ip6" && a.Is6() {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

// testCA signs leaf certificates for the upstream TLS servers.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newTestCA(t testing.TB) *testCA {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "egress test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool}
}

func (ca *testCA) leaf(t testing.TB, names ...string) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: names[0]},
		DNSNames: names, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// upstream is a real HTTP (or HTTPS) server on a loopback address; hits
// counts the connections it accepted.
type upstream struct {
	addr string // ip:port
	port int
	hits *int64
	mu   *sync.Mutex
}

func serveUpstream(t testing.TB, ip string, cert *tls.Certificate, h http.Handler) upstream {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	var hits int64
	var mu sync.Mutex
	srv := &http.Server{Handler: h, ConnState: func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			mu.Lock()
			hits++
			mu.Unlock()
		}
	}}
	if cert != nil {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}}
		go srv.ServeTLS(l, "", "")
	} else {
		go srv.Serve(l)
	}
	t.Cleanup(func() { srv.Close() })
	return upstream{addr: l.Addr().String(), port: l.Addr().(*net.TCPAddr).Port, hits: &hits, mu: &mu}
}

func (u upstream) connections() int64 {
	u.mu.Lock()
	defer u.mu.Unlock()
	return *u.hits
}

func hello(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s (Host %s)", name, r.Host)
	})
}

// harness is a filter serving DNS and the proxy on loopback for the tests,
// with its records in a file.
type harness struct {
	f        *Filter
	res      *testResolver
	proxy    string
	dns      string
	logPath  string
	closeOne sync.Once
}

func newHarness(t testing.TB, mode Mode, entries []string, tweak func(*Config)) *harness {
	p, err := Parse(mode, entries)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{res: &testResolver{}, logPath: filepath.Join(t.TempDir(), "decisions.jsonl")}
	log, err := os.Create(h.logPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Machine: "m1", Phase: "agent", Policy: p, Log: log, Resolver: h.res, HandshakeTimeout: 5 * time.Second}
	if tweak != nil {
		tweak(&cfg)
	}
	h.f = New(cfg)
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dl, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.proxy, h.dns = pl.Addr().String(), dl.LocalAddr().String()
	go h.f.ServeProxy(pl)
	go h.f.ServeDNS(dl)
	t.Cleanup(func() { h.close(); log.Close() })
	return h
}

func (h *harness) close() { h.closeOne.Do(func() { h.f.Close() }) }

func (h *harness) client(ca *testCA) *http.Client {
	pu, _ := url.Parse("http://" + h.proxy)
	tr := &http.Transport{Proxy: http.ProxyURL(pu), DisableKeepAlives: true}
	if ca != nil {
		tr.TLSClientConfig = &tls.Config{RootCAs: ca.pool}
	}
	return &http.Client{Transport: tr, Timeout: 20 * time.Second}
}

// resolver asks the filter's DNS server, as a guest would.
func (h *harness) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", h.dns)
	}}
}

func (h *harness) records(t testing.TB) []Record {
	t.Helper()
	data, err := os.ReadFile(h.logPath)
	if err != nil {
		t.Fatal(err)
	}
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("record %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// find returns the decision records for name (or address) with a verdict.
func find(recs []Record, event, proto, host, verdict string) []Record {
	var out []Record
	for _, r := range recs {
		if r.Event == event && r.Protocol == proto && (r.Name == host || r.Address == host) && r.Verdict == verdict {
			out = append(out, r)
		}
	}
	return out
}

func get(c *http.Client, u string) (int, string, error) {
	resp, err := c.Get(u)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}
