// Package egresstest is the suite every backend with an egress allowlist
// calls: a real guest (a static probe program uploaded into the machine)
// tries the allowed hosts and every way around the filter, against real
// HTTP and HTTPS servers on the host.
package egresstest

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/machine"
)

// Create makes a machine of the backend under test from spec.
type Create func(t *testing.T, spec machine.Spec) machine.Machine

// Options say where the suite puts its probe in the guest and what the
// backend does with programs that ignore the proxy.
type Options struct {
	ProbeDir string // a writable guest directory; default /tmp
	// Intercepts: direct connections reach the filter too
	// (egress.Filter.Intercept); otherwise they fail.
	Intercepts bool
	// Resolvers are more guest-visible resolvers (ADDR:53) the backend
	// offers, such as a user-mode network's forwarder: with Intercepts
	// each must be answered by the filter, like any other resolver.
	Resolvers []string
	// IPv6: the guest's IPv6 goes to the intercepting device too, so an
	// IPv6 literal on the allowlist (an address of the host) is reached
	// directly as well as through the proxy, and any other IPv6
	// destination is refused, and recorded.
	IPv6 bool
}

// Run runs the suite. base is a spec the backend can create (its source,
// workdir); the suite sets the network fields.
func Run(t *testing.T, base machine.Spec, create Create, opts Options) {
	if opts.ProbeDir == "" {
		opts.ProbeDir = "/tmp"
	}
	env := newEnv(t, opts.IPv6)
	spec := base
	spec.Network = machine.NetworkAllowlist
	spec.AllowedHosts = []string{"allowed.test", "*.wild.test"}
	if opts.IPv6 {
		spec.AllowedHosts = append(spec.AllowedHosts, env.ip6)
	}
	spec.EgressLog = filepath.Join(t.TempDir(), "decisions.jsonl")
	m := create(t, spec)
	probe := opts.ProbeDir + "/probe"
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := m.Upload(ctx, env.probe, probe); err != nil {
		t.Fatalf("uploading the probe: %v", err)
	}
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		res, err := m.Run(ctx, machine.Command{Argv: append([]string{probe}, args...), OutputLimit: 1 << 20})
		if err != nil {
			t.Fatalf("probe %v: %v", args, err)
		}
		if res.Free != nil {
			defer res.Free()
		}
		return strings.TrimSpace(string(res.Stdout)) + strings.TrimSpace(string(res.Stderr))
	}
	expect := func(what, got, prefix string) {
		t.Helper()
		if !strings.HasPrefix(got, prefix) {
			t.Errorf("%s: %q, want it to start with %q", what, got, prefix)
		}
	}
	ip := env.ip
	httpURL := func(host string) string { return fmt.Sprintf("http://%s:%d/", host, env.http.port) }
	httpsURL := func(host string) string { return fmt.Sprintf("https://%s:%d/", host, env.https.port) }

	expect("http to an allowed name", run("fetch", httpURL("allowed.test")), "status 200 hello")
	expect("https to an allowed name", run("fetch", httpsURL("allowed.test")), "status 200 hello")
	expect("https to a name under a wildcard", run("fetch", httpsURL("deep.down.wild.test")), "status 200 hello")
	expect("http to an unlisted name", run("fetch", httpURL("other.test")), "status 403")
	expect("https to an unlisted name", run("fetch", httpsURL("other.test")), "error")
	expect("https to the wildcard's apex", run("fetch", httpsURL("wild.test")), "error")
	resolved := run("resolve", "allowed.test")
	if opts.Intercepts {
		expect("resolving an allowed name", resolved, "addrs [198.18.")
	} else {
		expect("resolving an allowed name", resolved, "addrs ["+ip+"]")
	}
	expect("resolving an unlisted name", run("resolve", "other.test"), "error")
	expect("https to an allowed host's IP literal", run("fetch", httpsURL(ip)), "error")
	expect("http to an allowed host's IP literal", run("fetch", httpURL(ip)), "status 403")
	expect("direct TCP to the host", run("tcp", net.JoinHostPort(ip, fmt.Sprint(env.http.port))), "error")
	expect("direct TCP over IPv6", run("tcp", "[2001:4860:4860::8888]:443"), "error")
	if opts.Intercepts {
		// Programs that ignore the proxy reach the allowed names, and
		// only them: a synthetic address leads to its name's host, with
		// the SNI or Host checked as through the proxy.
		synthetic := strings.TrimSuffix(strings.TrimPrefix(resolved, "addrs ["), "]")
		expect("direct http to an allowed name", run("direct", httpURL("allowed.test")), "status 200 hello from allowed.test")
		expect("direct https to an allowed name", run("direct", httpsURL("allowed.test")), "status 200 hello from allowed.test")
		expect("direct https to a name under a wildcard", run("direct", httpsURL("deep.down.wild.test")), "status 200 hello")
		expect("direct http to an unlisted name", run("direct", httpURL("other.test")), "error")
		expect("direct TLS to an allowed name's address with an unlisted SNI",
			run("tls", net.JoinHostPort(synthetic, fmt.Sprint(env.https.port)), "other.test"), "error")
		expect("direct TLS to an allowed name's address with its SNI",
			run("tls", net.JoinHostPort(synthetic, fmt.Sprint(env.https.port)), "allowed.test"), "handshake done")
		expect("direct TCP to an unlisted address", run("tcp", "192.0.2.1:80"), "error")
		expect("direct TCP to a synthetic address never handed out", run("tcp", "198.18.250.1:80"), "error")
		// Whichever resolver the guest asks, the filter answers (this
		// name is not allowed: NXDOMAIN).
		expect("DNS to another resolver", run("udp", "8.8.8.8:53"), "answered")
		for _, r := range opts.Resolvers {
			expect("DNS to the backend's resolver "+r, run("udp", r), "answered")
		}
	} else {
		expect("direct http to an allowed name", run("direct", httpURL("allowed.test")), "error")
	}
	if opts.IPv6 {
		// (The upstream's answer names the Host the guest sent.)
		hostport := net.JoinHostPort(env.ip6, fmt.Sprint(env.http6.port))
		http6, hello6 := "http://"+hostport+"/", "status 200 hello from "+hostport
		expect("direct http to a listed IPv6 literal", run("direct", http6), hello6)
		expect("http through the proxy to a listed IPv6 literal", run("fetch", http6), hello6)
	}
	if !opts.Intercepts {
		expect("DNS to another resolver", run("udp", "8.8.8.8:53"), "error")
	}
	if !opts.Intercepts {
		expect("UDP to the host", run("udp", net.JoinHostPort(ip, "53")), "error")
	}
	expect("UDP to an arbitrary port", run("udp", net.JoinHostPort(ip, "9999")), "error")
	icmp := run("icmp", "8.8.8.8")
	expect("raw ICMP", icmp, "error")
	proxy := proxyOf(t, m, probe)
	expect("an allowed CONNECT with an unlisted SNI", run("sni", proxy, fmt.Sprintf("allowed.test:%d", env.https.port), "other.test"), "error")
	expect("an allowed CONNECT with its own SNI", run("sni", proxy, fmt.Sprintf("allowed.test:%d", env.https.port), "allowed.test"), "handshake done")
	if env.http.connectionsFrom("other.test")+env.https.connectionsFrom("other.test") != 0 {
		t.Error("an upstream saw a request for other.test")
	}

	if sw, ok := m.(machine.NetworkSwitcher); ok {
		// A phase switch to no network ends a download in progress.
		done := make(chan string, 1)
		go func() { done <- run("slow", fmt.Sprintf("http://allowed.test:%d/slow", env.http.port)) }()
		select {
		case <-env.slowStarted:
		case <-time.After(60 * time.Second):
			t.Fatal("the slow request never reached the upstream")
		}
		if err := sw.SetNetworkPolicy(ctx, machine.NetworkDeny, nil, "verifier"); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-done:
			// The upstream never ends this response: only the cut can.
			if strings.HasSuffix(got, "<nil>") || !strings.HasPrefix(got, "ended after") && !strings.HasPrefix(got, "error") {
				t.Errorf("the download across the switch to no network: %q", got)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the open connection survived the switch to no network")
		}
		expect("http after the switch to no network", run("fetch", httpURL("allowed.test")), "status 403")
		if err := sw.SetNetworkPolicy(ctx, machine.NetworkAllowlist, []string{"other.test"}, "verifier"); err != nil {
			t.Fatal(err)
		}
		expect("the new allowlist's host", run("fetch", httpURL("other.test")), "status 200 hello")
		expect("the old allowlist's host", run("fetch", httpURL("allowed.test")), "status 403")
		if err := sw.SetNetworkPolicy(ctx, machine.NetworkAllowlist, []string{"bad host"}, "x"); err == nil {
			t.Error("a malformed entry was accepted by SetNetworkPolicy")
		}
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, spec.EgressLog)
	for _, want := range []struct{ event, proto, name, verdict string }{
		{egress.EventDecision, "http", "allowed.test", egress.Allow},
		{egress.EventDecision, "tls", "allowed.test", egress.Allow},
		{egress.EventDecision, "tls", "deep.down.wild.test", egress.Allow},
		{egress.EventClose, "tls", "allowed.test", egress.Allow},
		{egress.EventDecision, "http", "other.test", egress.Block},
		{egress.EventDecision, "tcp", "other.test", egress.Block},
		{egress.EventDecision, "dns", "other.test", egress.Block},
		{egress.EventDecision, "dns", "allowed.test", egress.Allow},
		{egress.EventDecision, "tls", "other.test", egress.Block}, // the SNI mismatch
	} {
		if !hasRecord(recs, want.event, want.proto, want.name, "", want.verdict) {
			t.Errorf("no %s record %s %s %s among %d records", want.event, want.proto, want.name, want.verdict, len(recs))
		}
	}
	if opts.Intercepts {
		wants := []struct{ event, proto, host, verdict string }{
			{egress.EventDecision, "http", "allowed.test", egress.Allow},
			{egress.EventDecision, "tls", "allowed.test", egress.Allow},
			{egress.EventClose, "tls", "allowed.test", egress.Allow},
			{egress.EventDecision, "tls", "other.test", egress.Block},
			{egress.EventDecision, "tcp", "192.0.2.1", egress.Block},
			{egress.EventDecision, "tcp", ip, egress.Block},
			{egress.EventDecision, "udp", ip, egress.Block},
			{egress.EventDecision, "dns", "example.com", egress.Block},
		}
		if opts.IPv6 {
			wants = append(wants,
				struct{ event, proto, host, verdict string }{egress.EventDecision, "http", env.ip6, egress.Allow},
				struct{ event, proto, host, verdict string }{egress.EventDecision, "tcp", "2001:4860:4860::8888", egress.Block})
		}
		for _, want := range wants {
			if !hasRecord(recs, want.event, want.proto, want.host, egress.ViaIntercept, want.verdict) {
				t.Errorf("no intercepted %s record %s %s %s among %d records", want.event, want.proto, want.host, want.verdict, len(recs))
			}
		}
		// An echo that left (the guest may not open raw sockets at all).
		if strings.HasPrefix(icmp, "error no reply") && !hasRecord(recs, egress.EventDecision, "icmp", "8.8.8.8", egress.ViaIntercept, egress.Block) {
			t.Errorf("no intercepted icmp record among %d records", len(recs))
		}
	}
	for _, r := range recs {
		if r.Machine == "" || r.Time.IsZero() || r.Reason == "" {
			t.Errorf("incomplete record %+v", r)
		}
	}
}

// hasRecord says whether recs hold a record of event, protocol, name or
// address host, and verdict (that came via via, unless empty).
func hasRecord(recs []egress.Record, event, proto, host, via, verdict string) bool {
	for _, r := range recs {
		if r.Event == event && r.Protocol == proto && (r.Name == host || r.Address == host) && r.Verdict == verdict && (via == "" || r.Via == via) {
			return true
		}
	}
	return false
}

// proxyOf reads the proxy address the machine gives its commands.
func proxyOf(t *testing.T, m machine.Machine, probe string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "echo $HTTPS_PROXY"}, OutputLimit: 4096})
	if err != nil {
		t.Fatal(err)
	}
	p := strings.TrimPrefix(strings.TrimSpace(string(res.Stdout)), "http://")
	if p == "" {
		t.Fatal("the machine's commands have no HTTPS_PROXY")
	}
	return p
}

func readRecords(t *testing.T, path string) []egress.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []egress.Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r egress.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("record %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// env is the host side: upstream servers on a non-loopback address of the
// host (a guest's loopback is its own), names for them in a hosts file
// the filter reads, and the probe binary.
type env struct {
	ip          string
	http, https *upstream
	ip6         string    // with IPv6: an IPv6 address of the host
	http6       *upstream // with IPv6: an HTTP server on ip6
	probe       string
	slowStarted chan struct{}
}

func newEnv(t *testing.T, ipv6 bool) *env {
	e := &env{ip: hostAddr(t), slowStarted: make(chan struct{}, 1)}
	dir := t.TempDir()
	hosts := filepath.Join(dir, "hosts")
	names := "allowed.test other.test wild.test deep.down.wild.test"
	if err := os.WriteFile(hosts, []byte(e.ip+" "+names+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(egress.HostsFileEnv, hosts)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			w.Write([]byte(strings.Repeat("x", 1000)))
			w.(http.Flusher).Flush()
			select {
			case e.slowStarted <- struct{}{}:
			default:
			}
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		fmt.Fprintf(w, "hello from %s", r.Host)
	})
	e.http = serve(t, e.ip, nil, h)
	if ipv6 {
		e.ip6 = hostAddr6(t)
		e.http6 = serve(t, e.ip6, nil, h)
	}
	cert := selfSigned(t, "allowed.test", "other.test", "deep.down.wild.test", "wild.test")
	e.https = serve(t, e.ip, &cert, h)
	e.probe = filepath.Join(dir, "probe")
	build := exec.Command("go", "build", "-o", e.probe, "github.com/shellbox/shellbox/lib/egress/egresstest/probe")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the probe: %v\n%s", err, out)
	}
	return e
}

type upstream struct {
	port  int
	mu    sync.Mutex
	hosts map[string]int
}

func (u *upstream) connectionsFrom(host string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.hosts[host]
}

func serve(t *testing.T, ip string, cert *tls.Certificate, h http.Handler) *upstream {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	u := &upstream{port: l.Addr().(*net.TCPAddr).Port, hosts: map[string]int{}}
	counting := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.Host)
		u.mu.Lock()
		u.hosts[host]++
		u.mu.Unlock()
		h.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: counting}
	if cert != nil {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}}
		go srv.ServeTLS(l, "", "")
	} else {
		go srv.Serve(l)
	}
	t.Cleanup(func() { srv.Close() })
	return u
}

func selfSigned(t *testing.T, names ...string) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: names[0]}, DNSNames: names,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// hostAddr is a non-loopback IPv4 address of the host.
func hostAddr(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	t.Fatal("the host has no non-loopback IPv4 address")
	return ""
}

// hostAddr6 is an IPv6 address of the host that is neither loopback nor
// link-local (a guest's loopback is its own, and a link-local address
// names no host beyond its link). Where the host has none, the test adds
// one of its own to the host's loopback until it ends: an address from a
// unique local prefix (RFC 4193) that is this process's alone, so that
// tests in other processes do not remove it under it.
func hostAddr6(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() == nil && n.IP.IsGlobalUnicast() && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	pid := os.Getpid()
	ip := net.IP{0xfd, 0x5b, 0xe9, 0xc5, 0x1e, 0x5e, 0xff, 0xff, 0, 0, 0, 0, byte(pid >> 24), byte(pid >> 16), byte(pid >> 8), byte(pid)}
	lo, err := netlink.LinkByName("lo")
	if err != nil {
		t.Fatalf("IPv6: the host has no IPv6 address of its own, and its loopback: %v", err)
	}
	addr := &netlink.Addr{IPNet: &net.IPNet{IP: ip, Mask: net.CIDRMask(128, 128)}, Flags: unix.IFA_F_NODAD}
	if err := netlink.AddrAdd(lo, addr); err != nil {
		t.Fatalf("IPv6: the host has no IPv6 address of its own, and adding %s to its loopback failed (IPv6 off?): %v", ip, err)
	}
	t.Cleanup(func() { netlink.AddrDel(lo, addr) })
	return ip.String()
}
