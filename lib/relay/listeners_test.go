package relay_test

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/relay"
)

// One listener accepting from several: connections to either arrive, and
// Close ends Accept and both listeners.
func TestJoinListeners(t *testing.T) {
	a, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	j := relay.JoinListeners(a, b)
	if j.Addr().String() != a.Addr().String() {
		t.Fatalf("Addr = %v", j.Addr())
	}
	for _, ln := range []net.Listener{a, b} {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(ln.Addr().String()))
		c.Close()
		s, err := j.Accept()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(s)
		s.Close()
		if string(got) != ln.Addr().String() {
			t.Fatalf("accepted %q, dialled %v", got, ln.Addr())
		}
	}
	done := make(chan error, 1)
	go func() { _, err := j.Accept(); done <- err }()
	time.Sleep(50 * time.Millisecond)
	j.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Accept after Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Accept did not return after Close")
	}
	if _, err := net.Dial("tcp", b.Addr().String()); err == nil {
		t.Fatal("the second listener is still open")
	}
}
