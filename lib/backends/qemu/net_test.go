package qemu

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestNetworkAllowReachesTheHost: with NetworkAllow the guest has a card on
// QEMU's user-mode network and reaches a server on the host's loopback
// through the gateway; without it there is only lo.
func TestNetworkAllowReachesTheHost(t *testing.T) {
	f := newTestFactory(t, Options{})
	if !f.userNet {
		t.Fatal("this QEMU lacks user-mode networking; qemu-system-x86 from Debian has it")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello from the host") })}
	go srv.Serve(ln)
	defer srv.Close()
	port := ln.Addr().(*net.TCPAddr).Port

	spec := testSpec()
	spec.Network = machine.NetworkAllow
	m := newTestMachine(t, f, spec)
	// busybox's nc: its static wget crashes resolving even numeric hosts.
	r := run(t, m, sh(fmt.Sprintf("printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 20 10.0.2.2 %d | tail -n 1; echo; cat /etc/resolv.conf", port)))
	if code(r) != 0 || !strings.HasPrefix(string(r.Stdout), "hello from the host\nnameserver 10.0.2.3") {
		t.Fatalf("got %d %q %q", code(r), r.Stdout, r.Stderr)
	}
	r = run(t, m, sh("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | grep -vx lo"))
	if code(r) != 0 || strings.TrimSpace(string(r.Stdout)) == "" {
		t.Fatalf("no network card: %q", r.Stdout)
	}
}
