package qemu

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/hashicorp/yamux"

	"github.com/shellbox/shellbox/guest/channel"
)

// TestPooledStreamQuiet: a stream kept between operations counts as quiet
// only while the guest's end is open and sent nothing, and the check
// leaves a quiet stream usable.
func TestPooledStreamQuiet(t *testing.T) {
	hostEnd, guestEnd := net.Pipe()
	host, err := yamux.Client(hostEnd, channel.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	guest, err := yamux.Server(guestEnd, channel.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer guest.Close()
	pool := newStreamPool(host)
	accept := func() net.Conn {
		t.Helper()
		s, err := guest.Accept()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	c, err := pool.open()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("req")); err != nil {
		t.Fatal(err)
	}
	g := accept()
	buf := make([]byte, 3)
	if _, err := io.ReadFull(g, buf); err != nil {
		t.Fatal(err)
	}
	ps := c.(*pooledStream)
	if !ps.Quiet() {
		t.Fatal("an open, idle stream is not quiet")
	}
	// Still usable after the check: the deadline was cleared.
	go g.Write([]byte("answer"))
	got := make([]byte, 6)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "answer" {
		t.Fatalf("read after the check: %q %v", got, err)
	}
	// Something the guest sent since the last operation.
	if _, err := g.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return !ps.Quiet() })

	// A stream the guest closed.
	c2, err := host.OpenStream()
	if err != nil {
		t.Fatal(err)
	}
	c2.Write([]byte("r"))
	g2 := accept()
	g2.Close()
	ps2 := &pooledStream{Stream: c2, pool: pool}
	waitUntil(t, func() bool { return !ps2.Quiet() })
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10 s")
		}
		time.Sleep(time.Millisecond)
	}
}
