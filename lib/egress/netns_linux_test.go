package egress

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
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
	t.Run("loopback", func(t *testing.T) { hostileGuest(t, false) })
	t.Run("veth", func(t *testing.T) { hostileGuest(t, true) })
}

func hostileGuest(t *testing.T, veth bool) {
	if os.Getuid() != 0 {
		t.Fatal("attaching to another network namespace needs root (CI runs as root)")
	}
	ip := hostAddr(t)
	up := serveUpstream(t, ip, nil, hello("up"))
	h := newHarness(t, ModeAllowlist, []string{"up.test"}, nil)
	h.res.set("up.test", ip)
	h.res.set("other.test", ip)

	cmd := exec.Command("unshare", "--net", os.Args[0], "-test.run=^TestGuestHelper$")
	cmd.Env = append(os.Environ(), "EGRESS_GUEST=1", fmt.Sprintf("EGRESS_UP=%s", up.addr), fmt.Sprintf("EGRESS_PORT=%d", up.port))
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
	if veth {
		ep, err = h.f.AttachVeth(nsPath, "eth0")
	} else {
		ep, err = h.f.Attach(nsPath)
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
	for k, v := range want {
		if got := results[k]; got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
	if up.connections() != 1 {
		t.Errorf("the upstream saw %d connections, want exactly the allowed one", up.connections())
	}
	h.close()
	recs := h.records(t)
	if len(find(recs, EventDecision, "dns", "other.test", Block)) == 0 || len(find(recs, EventDecision, "http", "up.test", Allow)) != 1 ||
		len(find(recs, EventDecision, "http", "other.test", Block)) != 1 {
		t.Errorf("records: %+v", recs)
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
	if a, err := r.LookupHost(ctx, "up.test"); err == nil {
		res["dns allowed"] = "ok " + strings.Join(a, ",")
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
	refused("direct tcp", dial("tcp4", up))
	refused("direct tcp v6", dial("tcp6", "[2001:4860:4860::8888]:443"))
	refused("udp other resolver", dial("udp4", "8.8.8.8:53"))
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
