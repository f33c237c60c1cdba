package egress

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vishvananda/netlink"
	"golang.org/x/net/dns/dnsmessage"
	"golang.org/x/sys/unix"
)

// TestInterceptIPv6 gives an intercepted namespace IPv6 destinations: an
// upstream namespace of the test's own holds IPv6 addresses on its
// loopback (the filter dials there, as it dials the host's network for a
// machine), and a guest namespace reaches the listed address and the
// CIDR through the intercepting device, while an unlisted address of the
// same upstream and any other IPv6 destination get a reset; AAAA queries
// for allowed names are answered empty, so clients use the synthetic
// IPv4 address.
func TestInterceptIPv6(t *testing.T) {
	t.Run("intercept", func(t *testing.T) { interceptIPv6(t, false) })
	// gVisor's way: the machine's IPv6 goes over the veth to the
	// filter's namespace, which forwards it to its intercepting device.
	t.Run("veth-intercept", func(t *testing.T) { interceptIPv6(t, true) })
}

func interceptIPv6(t *testing.T, veth bool) {
	if os.Getuid() != 0 {
		t.Fatal("network namespaces need root (CI runs as root)")
	}
	const listed, unlisted, inCIDR = "2001:db8:5b::10", "2001:db8:5b::11", "2001:db8:5c::7"
	upNS, err := newNetns()
	if err != nil {
		t.Fatal(err)
	}
	defer upNS.Close()
	upPath := fmt.Sprintf("/proc/self/fd/%d", int(upNS))
	nh, err := netlink.NewHandleAt(upNS)
	if err != nil {
		t.Fatal(err)
	}
	lo, err := nh.LinkByName("lo")
	if err == nil {
		err = nh.LinkSetUp(lo)
	}
	for _, a := range []string{listed, unlisted, inCIDR} {
		if err == nil {
			err = nh.AddrAdd(lo, &netlink.Addr{IPNet: &net.IPNet{IP: net.ParseIP(a), Mask: net.CIDRMask(128, 128)}, Flags: unix.IFA_F_NODAD})
		}
	}
	nh.Close()
	if err != nil {
		t.Fatal(err)
	}
	hits := map[string]*atomic.Int64{}
	var port int
	err = inNetns(upPath, func() error {
		for _, a := range []string{listed, unlisted, inCIDR} {
			l, err := net.Listen("tcp6", net.JoinHostPort(a, fmt.Sprint(port)))
			if err != nil {
				return err
			}
			port = l.Addr().(*net.TCPAddr).Port // the same port on each
			n := new(atomic.Int64)
			hits[a] = n
			srv := &http.Server{Handler: hello(a), ConnState: func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					n.Add(1)
				}
			}}
			go srv.Serve(l)
			t.Cleanup(func() { srv.Close() })
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dialUp := func(ctx context.Context, network, address string) (c net.Conn, err error) {
		err = inNetns(upPath, func() error {
			c, err = (&net.Dialer{}).DialContext(ctx, network, address)
			return err
		})
		return c, err
	}
	h := newHarness(t, ModeAllowlist, []string{listed, "2001:db8:5c::/64", "up.test"}, func(c *Config) { c.Dial = dialUp })
	h.res.set("up.test", listed)

	guestNS, err := newNetns()
	if err != nil {
		t.Fatal(err)
	}
	defer guestNS.Close()
	guestPath := fmt.Sprintf("/proc/self/fd/%d", int(guestNS))
	// IPv6 disabled in the namespace, as Docker leaves a container's
	// without an IPv6 network (and so the gate's): cards made there
	// inherit it.
	err = inNetns(guestPath, func() error {
		for _, c := range []string{"all", "default"} {
			if err := os.WriteFile("/proc/sys/net/ipv6/conf/"+c+"/disable_ipv6", []byte("1\n"), 0o644); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if veth {
		if _, err := h.f.AttachVethIntercepting(guestPath, "eth0"); err != nil {
			t.Fatal(err)
		}
	} else {
		if _, err := h.f.Attach(guestPath); err != nil {
			t.Fatal(err)
		}
		if err := h.f.Intercept(guestPath); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	err = inNetns(guestPath, func() error {
		get := func(addr, host string) string {
			c, err := net.DialTimeout("tcp6", net.JoinHostPort(addr, fmt.Sprint(port)), 5*time.Second)
			if err != nil {
				return "refused"
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", host)
			b, _ := io.ReadAll(c)
			status, _, _ := strings.Cut(string(b), "\r\n")
			_, body, _ := strings.Cut(string(b), "\r\n\r\n")
			return status + " " + body
		}
		got["listed"] = get(listed, "["+listed+"]")
		got["in the CIDR"] = get(inCIDR, "example.org")
		got["unlisted, same upstream"] = get(unlisted, "up.test")
		got["elsewhere"] = get("2001:db8:ffff::1", "up.test")
		// DNS to whichever IPv6 resolver is the filter's, as over IPv4.
		for _, q := range []dnsmessage.Type{dnsmessage.TypeAAAA, dnsmessage.TypeA} {
			got["dns "+q.String()] = query6("[2001:db8:53::53]:53", "up.test.", q)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"listed":                  fmt.Sprintf("HTTP/1.1 200 OK hello from %s (Host [%s])", listed, listed),
		"in the CIDR":             fmt.Sprintf("HTTP/1.1 200 OK hello from %s (Host example.org)", inCIDR),
		"unlisted, same upstream": "refused",
		"elsewhere":               "refused",
		"dns TypeAAAA":            "Success []",
		"dns TypeA":               fmt.Sprintf("Success [%s]", h.f.synth.addrFor("up.test")),
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if n := hits[unlisted].Load(); n != 0 {
		t.Errorf("the unlisted address saw %d connections", n)
	}
	h.close()
	recs := h.records(t)
	for _, c := range []struct{ proto, addr, verdict string }{
		{"http", listed, Allow}, {"http", inCIDR, Allow}, {"tcp", unlisted, Block}, {"tcp", "2001:db8:ffff::1", Block},
	} {
		if rs := find(recs, EventDecision, c.proto, c.addr, c.verdict); len(rs) != 1 || rs[0].Via != ViaIntercept {
			t.Errorf("%s %s %s: %+v", c.proto, c.addr, c.verdict, rs)
		}
	}
}

// query6 asks resolver (over UDP) for name and says the answer's code and
// addresses.
func query6(resolver, name string, typ dnsmessage.Type) string {
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: 7, RecursionDesired: true})
	b.StartQuestions()
	b.Question(dnsmessage.Question{Name: dnsmessage.MustNewName(name), Type: typ, Class: dnsmessage.ClassINET})
	msg, _ := b.Finish()
	c, err := net.DialTimeout("udp6", resolver, 3*time.Second)
	if err != nil {
		return err.Error()
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := c.Write(msg); err != nil {
		return err.Error()
	}
	buf := make([]byte, 1500)
	n, err := c.Read(buf)
	if err != nil {
		return err.Error()
	}
	var m dnsmessage.Message
	if err := m.Unpack(buf[:n]); err != nil {
		return err.Error()
	}
	var addrs []netip.Addr
	for _, a := range m.Answers {
		switch r := a.Body.(type) {
		case *dnsmessage.AResource:
			addrs = append(addrs, netip.AddrFrom4(r.A))
		case *dnsmessage.AAAAResource:
			addrs = append(addrs, netip.AddrFrom16(r.AAAA))
		}
	}
	return fmt.Sprintf("%s %v", strings.TrimPrefix(m.RCode.String(), "RCode"), addrs)
}
