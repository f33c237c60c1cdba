package egress

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostAddr is a non-loopback IPv4 address of the host, where an upstream
// is reachable from the host but must not be from the guest.
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

// TestHostileGuestInNamespace runs a guest in its own network namespace
// (unshare --net) with the filter attached, and has it try every way
// around the filter.
func TestHostileGuestInNamespace(t *testing.T) {
	t.Run("loopback", func(t *testing.T) { hostileGuest(t, "loopback") })
	t.Run("veth", func(t *testing.T) { hostileGuest(t, "veth") })
	t.Run("intercept", func(t *testing.T) { hostileGuest(t, "intercept") })
	// gVisor's way: the veth, and the filter's namespace forwards the
	// rest to its own intercepting device.
	t.Run("veth-intercept", func(t *testing.T) { hostileGuest(t, "veth-intercept") })
}

func hostileGuest(t *testing.T, mode string) {
	if os.Getuid() != 0 {
		t.Fatal("attaching to another network namespace needs root (CI runs as root)")
	}
	ip := hostAddr(t)
	up := serveUpstream(t, ip, nil, hello("up"))
	h := newHarness(t, ModeAllowlist, []string{"up.test"}, nil)
	h.res.set("up.test", ip)
	h.res.set("other.test", ip)

	cmd := exec.Command("unshare", "--net", os.Args[0], "-test.run=^TestGuestHelper$")
	cmd.Env = append(os.Environ(), "EGRESS_GUEST=1", "EGRESS_MODE="+mode, fmt.Sprintf("EGRESS_UP=%s", up.addr), fmt.Sprintf("EGRESS_PORT=%d", up.port))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	br := bufio.NewReader(stdout)
	if line, err := br.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("guest: %q %v", line, err)
	}
	nsPath := fmt.Sprintf("/proc/%d/ns/net", cmd.Process.Pid)
	var ep Endpoint
	var err error
	switch mode {
	case "veth":
		ep, err = h.f.AttachVeth(nsPath, "eth0")
	case "loopback":
		ep, err = h.f.Attach(nsPath)
	case "veth-intercept":
		ep, err = h.f.AttachVethIntercepting(nsPath, "eth0")
	case "intercept":
		if ep, err = h.f.Attach(nsPath); err == nil {
			err = h.f.Intercept(nsPath)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(stdin, "%s %s\n", ep.DNS, ep.Proxy)
	out, _ := io.ReadAll(br)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("guest: %v\n%s", err, out)
	}
	results := map[string]string{}
	line := string(out)
	if i := strings.Index(line, "{"); i >= 0 {
		line = line[i:]
	}
	line, _, _ = strings.Cut(line, "\n")
	if err := json.Unmarshal([]byte(line), &results); err != nil {
		t.Fatalf("guest output %q: %v", out, err)
	}
	want := map[string]string{
		"dns allowed":                "ok " + ip,
		"dns unlisted":               "nxdomain",
		"proxy allowed":              "ok 200",
		"proxy unlisted":             "ok 403",
		"direct tcp":                 "refused",
		"direct tcp v6":              "refused",
		"udp other resolver":         "refused",
		"udp to the upstream":        "refused",
		"raw icmp":                   "refused",
		"proxy on ::1":               "refused",
		"dns to another server":      "refused",
		"another port of the filter": "refused",
	}
	wantConns := int64(1)
	intercepting := strings.HasSuffix(mode, "intercept")
	if intercepting {
		// A program that ignores the proxy reaches the allowed host by
		// name (through its synthetic address) and nothing else; DNS to
		// any resolver is the filter's.
		want["dns allowed"] = "synthetic"
		want["direct by name"] = "ok 200 hello from up (Host up.test:" + fmt.Sprint(up.port) + ")"
		want["direct by name, Host unlisted"] = "ok 403"
		want["direct by name, TLS SNI unlisted"] = "refused"
		want["direct unlisted IP"] = "refused"
		want["direct to a synthetic address never handed out"] = "refused"
		want["udp other resolver"] = "answered by the filter"
		wantConns = 2
	}
	for k, v := range want {
		if got := results[k]; got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	// Allowed requests may share a pooled upstream connection.
	if n := up.connections(); n < 1 || n > wantConns {
		t.Errorf("the upstream saw %d connections, want 1 to %d (the allowed requests)", n, wantConns)
	}
	h.close()
	recs := h.records(t)
	if len(find(recs, EventDecision, "dns", "other.test", Block)) == 0 || len(find(recs, EventDecision, "http", "up.test", Allow)) != int(wantConns) ||
		len(find(recs, EventDecision, "http", "other.test", Block)) != int(wantConns) {
		t.Errorf("records: %+v", recs)
	}
	if !intercepting {
		return
	}
	var via []string
	for _, r := range find(recs, EventDecision, "http", "up.test", Allow) {
		via = append(via, r.Via)
	}
	if strings.Join(via, ",") != ViaProxy+","+ViaIntercept {
		t.Errorf("the allowed requests came via %v, want proxy then intercept", via)
	}
	for _, c := range []struct{ proto, host string }{{"tls", "other.test"}, {"tcp", "192.0.2.1"}, {"udp", ip}, {"icmp", ip}} {
		if rs := find(recs, EventDecision, c.proto, c.host, Block); len(rs) == 0 || rs[0].Via != ViaIntercept {
			t.Errorf("no intercepted %s block for %s: %+v", c.proto, c.host, recs)
		}
	}
}

// TestGuestHelper is the guest side of TestHostileGuestInNamespace.
func TestGuestHelper(t *testing.T) {
	if os.Getenv("EGRESS_GUEST") != "1" {
		t.Skip("the guest half of TestHostileGuestInNamespace")
	}
	fmt.Println("ready")
	var dnsAddr, proxyAddr string
	fmt.Scanln(&dnsAddr, &proxyAddr)
	up, port := os.Getenv("EGRESS_UP"), os.Getenv("EGRESS_PORT")
	res := map[string]string{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, dnsAddr)
	}}
	intercept := strings.HasSuffix(os.Getenv("EGRESS_MODE"), "intercept")
	var synthetic string
	if a, err := r.LookupHost(ctx, "up.test"); err == nil {
		res["dns allowed"] = "ok " + strings.Join(a, ",")
		if ip := net.ParseIP(a[0]); intercept && len(a) == 1 && ip.To4() != nil && ip.To4()[0] == 198 && ip.To4()[1]&0xfe == 18 {
			res["dns allowed"], synthetic = "synthetic", a[0]
		}
	} else {
		res["dns allowed"] = err.Error()
	}
	if _, err := r.LookupHost(ctx, "other.test"); err != nil && err.(*net.DNSError).IsNotFound {
		res["dns unlisted"] = "nxdomain"
	} else {
		res["dns unlisted"] = fmt.Sprint(err)
	}
	pu, _ := url.Parse("http://" + proxyAddr)
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}, Timeout: 20 * time.Second}
	for k, host := range map[string]string{"proxy allowed": "up.test", "proxy unlisted": "other.test"} {
		if resp, err := c.Get("http://" + host + ":" + port + "/"); err == nil {
			res[k] = fmt.Sprintf("ok %d", resp.StatusCode)
			resp.Body.Close()
		} else {
			res[k] = err.Error()
		}
	}
	refused := func(k string, err error) {
		if err != nil {
			res[k] = "refused"
		} else {
			res[k] = "went through"
		}
	}
	dial := func(network, addr string) error {
		c, err := net.DialTimeout(network, addr, 3*time.Second)
		if err != nil {
			return err
		}
		defer c.Close()
		if strings.HasPrefix(network, "udp") {
			// UDP "connects" locally; a reply is what proves a path.
			c.SetDeadline(time.Now().Add(2 * time.Second))
			if _, err := c.Write([]byte("\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x02up\x04test\x00\x00\x01\x00\x01")); err != nil {
				return err
			}
			_, err = c.Read(make([]byte, 512))
			return err
		}
		return nil
	}
	if intercept {
		// No proxy: a plain client to the address the filter's DNS gave.
		direct := &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: 20 * time.Second}
		for k, host := range map[string]string{"direct by name": "up.test", "direct by name, Host unlisted": "other.test"} {
			req, _ := http.NewRequest("GET", "http://"+net.JoinHostPort(synthetic, port)+"/", nil)
			req.Host = host + ":" + port
			if resp, err := direct.Do(req); err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				res[k] = fmt.Sprintf("ok %d", resp.StatusCode)
				if resp.StatusCode == 200 {
					res[k] += " " + string(b)
				}
			} else {
				res[k] = err.Error()
			}
		}
		tc, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", net.JoinHostPort(synthetic, port),
			&tls.Config{ServerName: "other.test", InsecureSkipVerify: true})
		if err == nil {
			tc.Close()
		}
		refused("direct by name, TLS SNI unlisted", err)
		refused("direct unlisted IP", dial("tcp4", "192.0.2.1:80"))
		refused("direct to a synthetic address never handed out", dial("tcp4", "198.18.200.1:80"))
	}
	refused("direct tcp", dial("tcp4", up))
	refused("direct tcp v6", dial("tcp6", "[2001:4860:4860::8888]:443"))
	if intercept {
		res["udp other resolver"] = "not answered by the filter"
		if a, err := (&net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "udp4", "8.8.8.8:53")
		}}).LookupHost(ctx, "up.test"); err == nil && len(a) == 1 && a[0] == synthetic {
			res["udp other resolver"] = "answered by the filter"
		}
	} else {
		refused("udp other resolver", dial("udp4", "8.8.8.8:53"))
	}
	refused("udp to the upstream", dial("udp4", up))
	refused("proxy on ::1", dial("tcp6", "[::1]:3128"))
	refused("dns to another server", dial("udp4", "127.0.0.53:53"))
	filterHost, _, _ := net.SplitHostPort(proxyAddr)
	refused("another port of the filter", dial("tcp4", net.JoinHostPort(filterHost, "22")))
	// A raw ICMP echo to the host: only a reply would prove a path.
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_RAW, syscall.IPPROTO_ICMP)
	if err == nil {
		hostIP := net.ParseIP(strings.Split(up, ":")[0]).To4()
		echo := []byte{8, 0, 0xf7, 0xff, 0, 0, 0, 0}
		err = syscall.Sendto(fd, echo, 0, &syscall.SockaddrInet4{Addr: [4]byte(hostIP)})
		if err == nil {
			tv := syscall.Timeval{Sec: 2}
			syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
			buf := make([]byte, 1500)
			for {
				var n int
				var from syscall.Sockaddr
				n, from, err = syscall.Recvfrom(fd, buf, 0)
				if err != nil {
					break
				}
				if sa, ok := from.(*syscall.SockaddrInet4); ok && sa.Addr == [4]byte(hostIP) && n > 20 && buf[(buf[0]&0xf)*4] == 0 {
					break // a reply
				}
			}
		}
		syscall.Close(fd)
	}
	refused("raw icmp", err)
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
}

// TestInterceptLeaksNothing opens connections through the intercepting
// device (in the machine's namespace, and behind a veth as for gVisor)
// and checks that Close removes the device (and the filter's namespace
// with the veth) and leaves no goroutine or descriptor behind.
func TestInterceptLeaksNothing(t *testing.T) {
	if os.Getuid() != 0 {
		t.Fatal("attaching to another network namespace needs root (CI runs as root)")
	}
	up := serveUpstream(t, "127.0.0.2", nil, hello("up"))
	round := func(veth bool) {
		h := newHarness(t, ModeAllowlist, []string{"up.test"}, nil)
		h.res.set("up.test", "127.0.0.2")
		cmd := exec.Command("unshare", "--net", "sleep", "60")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
		nsPath := fmt.Sprintf("/proc/%d/ns/net", cmd.Process.Pid)
		for i := 0; ; i++ { // unshare has moved when its namespace is not ours
			a, _ := os.Readlink(nsPath)
			b, _ := os.Readlink("/proc/self/ns/net")
			if a != b || i > 100 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		ifname := interceptIfname // what must go at Close
		if veth {
			ifname = "eth0"
			if _, err := h.f.AttachVethIntercepting(nsPath, ifname); err != nil {
				t.Fatal(err)
			}
		} else {
			if _, err := h.f.Attach(nsPath); err != nil {
				t.Fatal(err)
			}
			if err := h.f.Intercept(nsPath); err != nil {
				t.Fatal(err)
			}
		}
		err := inNetns(nsPath, func() error {
			if _, err := net.InterfaceByName(ifname); err != nil {
				return err
			}
			// (TestHostileGuestInNamespace asks the DNS server for it.)
			addrs := []string{h.f.synth.addrFor("up.test").String()}
			for range 50 {
				c, err := net.DialTimeout("tcp4", net.JoinHostPort(addrs[0], fmt.Sprint(up.port)), 5*time.Second)
				if err != nil {
					return err
				}
				fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: up.test\r\nConnection: close\r\n\r\n")
				b, _ := io.ReadAll(c)
				c.Close()
				if !strings.Contains(string(b), "hello from up") {
					return fmt.Errorf("response %q", b)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		h.close()
		// The kernel dismantles a namespace in the background.
		for i := 0; ; i++ {
			err = inNetns(nsPath, func() error {
				if _, err := net.InterfaceByName(ifname); err == nil {
					return fmt.Errorf("%s outlived Close", ifname)
				}
				return nil
			})
			if err == nil || i == 100 {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	both := func() { round(false); round(true) }
	both() // packages start their lazy goroutines once
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	both()
	for i := 0; ; i++ {
		g, f := runtime.NumGoroutine(), openFDs(t)
		// (+2: each round's harness keeps its log open until the test ends.)
		if g <= goroutines+1 && f <= fds+2 {
			return
		}
		if i == 50 {
			ents, _ := os.ReadDir("/proc/self/fd")
			for _, e := range ents {
				l, _ := os.Readlink("/proc/self/fd/" + e.Name())
				t.Log(e.Name(), l)
			}
			buf := make([]byte, 1<<20)
			t.Fatalf("after Close: %d goroutines (was %d), %d descriptors (was %d)\n%s", g, goroutines, f, fds, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(100 * time.Millisecond)
	}
}
