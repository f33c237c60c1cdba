package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"testing"
	"time"
)

// TestServeDNSIn answers a namespace's loopback stub address (as QEMU's
// DNS forwarder uses it) over UDP and TCP, and stops at Close.
func TestServeDNSIn(t *testing.T) {
	if os.Getuid() != 0 {
		t.Fatal("attaching to another network namespace needs root (CI runs as root)")
	}
	h := newHarness(t, ModeAllowlist, []string{"up.test"}, nil)
	h.res.set("up.test", "192.0.2.7")
	h.res.set("other.test", "192.0.2.7")
	ns, err := newNetns()
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Close()
	nsPath := fmt.Sprintf("/proc/self/fd/%d", int(ns))
	if _, err := h.f.Attach(nsPath); err != nil { // brings loopback up
		t.Fatal(err)
	}
	const stub = "127.0.0.53:53"
	if err := h.f.ServeDNSIn(nsPath, stub); err != nil {
		t.Fatal(err)
	}
	// A resolver whose connections are opened inside the namespace.
	resolver := func(network string) *net.Resolver {
		return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var c net.Conn
			err := inNetns(nsPath, func() error {
				var err error
				c, err = (&net.Dialer{Timeout: 3 * time.Second}).DialContext(ctx, network, stub)
				return err
			})
			return c, err
		}}
	}
	for _, network := range []string{"udp4", "tcp4"} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		addrs, err := resolver(network).LookupHost(ctx, "up.test")
		if err != nil || len(addrs) != 1 || addrs[0] != "192.0.2.7" {
			t.Errorf("%s: up.test: %v %v", network, addrs, err)
		}
		_, err = resolver(network).LookupHost(ctx, "other.test")
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
			t.Errorf("%s: other.test: %v, want NXDOMAIN", network, err)
		}
		cancel()
	}
	if recs := find(h.records(t), EventDecision, "dns", "other.test", Block); len(recs) == 0 {
		t.Error("no record of the refused name")
	}
	h.close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := resolver("tcp4").LookupHost(ctx, "up.test"); err == nil {
		t.Error("the stub address still answered after Close")
	}
}
