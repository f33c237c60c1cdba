package egress

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestInterceptedFloodKeepsWorking holds many intercepted connections
// that never finish their handshake, then fetches by name.
func TestInterceptedFloodKeepsWorking(t *testing.T) {
	if os.Getuid() != 0 {
		t.Fatal("attaching to another network namespace needs root (CI runs as root)")
	}
	up := serveUpstream(t, "127.0.0.2", nil, hello("up"))
	h := newHarness(t, ModeAllowlist, []string{"up.test"}, nil)
	h.res.set("up.test", "127.0.0.2")
	cmd := exec.Command("unshare", "--net", "sleep", "120")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	nsPath := fmt.Sprintf("/proc/%d/ns/net", cmd.Process.Pid)
	for i := 0; i < 100; i++ {
		a, _ := os.Readlink(nsPath)
		b, _ := os.Readlink("/proc/self/ns/net")
		if a != b {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := h.f.Attach(nsPath); err != nil {
		t.Fatal(err)
	}
	if err := h.f.Intercept(nsPath); err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort(h.f.synth.addrFor("up.test").String(), fmt.Sprint(up.port))
	for round := range 3 {
		err := inNetns(nsPath, func() error {
			var conns []net.Conn
			for i := range 400 {
				c, err := net.DialTimeout("tcp4", addr, 5*time.Second)
				if err != nil {
					return fmt.Errorf("flood connection %d: %w", i, err)
				}
				if i%2 == 0 {
					fmt.Fprintf(c, "CONNECT up.test:443 HTTP/1.1\r\nHost: up.test:443\r\n\r\n")
				} else {
					c.Write([]byte("\x16\x03\x01\xff\xff garbage"))
				}
				conns = append(conns, c)
			}
			time.Sleep(time.Second)
			for _, c := range conns {
				c.Close()
			}
			c, err := net.DialTimeout("tcp4", addr, 5*time.Second)
			if err != nil {
				return err
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(20 * time.Second))
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: up.test\r\nConnection: close\r\n\r\n")
			b, err := io.ReadAll(c)
			if !strings.Contains(string(b), "hello from up") {
				return fmt.Errorf("after the flood: %q %v", b, err)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}
