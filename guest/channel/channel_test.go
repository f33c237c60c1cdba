package channel

import (
	"bytes"
	"io"
	"net"
	"testing"

	"github.com/hashicorp/yamux"
)

// writeLog records each write it gets.
type writeLog struct {
	io.ReadWriteCloser
	writes [][]byte
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.writes = append(w.writes, append([]byte(nil), p...))
	return len(p), nil
}

func TestCoalesceJoinsDataHeaderAndBodyOnly(t *testing.T) {
	log := &writeLog{}
	c := Coalesce(log)
	dataHdr := []byte{0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 5}
	windowHdr := []byte{0, 1, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0}
	bigHdr := []byte{0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 0, 0} // 64 KiB body: written on its own
	for _, p := range [][]byte{dataHdr, []byte("hello"), windowHdr, bigHdr, make([]byte, 64<<10)} {
		if n, err := c.Write(p); n != len(p) || err != nil {
			t.Fatalf("write: %d %v", n, err)
		}
	}
	if len(log.writes) != 4 || !bytes.Equal(log.writes[0], append(dataHdr, "hello"...)) ||
		!bytes.Equal(log.writes[1], windowHdr) || !bytes.Equal(log.writes[2], bigHdr) || len(log.writes[3]) != 64<<10 {
		t.Fatalf("writes %q", log.writes)
	}
}

func TestCoalescedSessionsCarryStreamsIntact(t *testing.T) {
	a, b := net.Pipe()
	client, err := yamux.Client(Coalesce(a), Config())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := yamux.Server(Coalesce(b), Config())
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	payload := bytes.Repeat([]byte("shellbox"), 100000)
	go func() {
		s, err := server.Accept()
		if err != nil {
			return
		}
		io.Copy(s, s) // echo
		s.Close()
	}()
	s, err := client.Open()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for p := payload; len(p) > 0; {
			n := min(len(p), 1000)
			s.Write(p[:n])
			p = p[n:]
		}
		s.Close()
	}()
	got, err := io.ReadAll(s)
	if err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("echo: %d bytes, %v", len(got), err)
	}
}
