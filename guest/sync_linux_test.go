package guest

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/yamux"

	"github.com/shellbox/shellbox/guest/channel"
)

// routerPair is a host-side yamux client and a guest-side router over a
// pipe; sync requests are recorded instead of applied.
func routerPair(t *testing.T) (*yamux.Session, *streamRouter, func() []channel.SyncRequest) {
	t.Helper()
	a, b := net.Pipe()
	client, err := yamux.Client(a, channel.Config())
	if err != nil {
		t.Fatal(err)
	}
	server, err := yamux.Server(b, channel.Config())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var synced []channel.SyncRequest
	r := newStreamRouter(server, nil)
	r.apply = func(req *channel.SyncRequest) error {
		mu.Lock()
		defer mu.Unlock()
		synced = append(synced, *req)
		return nil
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, r, func() []channel.SyncRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]channel.SyncRequest(nil), synced...)
	}
}

func TestRouterAnswersSyncAndPassesOtherStreamsIntact(t *testing.T) {
	client, r, synced := routerPair(t)
	c, err := client.Open()
	if err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(channel.SyncRequest{Op: channel.OpSync, UnixNano: 42, Workdir: "/w"})
	channel.WriteFrame(c, channel.FrameRequest, req)
	typ, _, err := channel.ReadFrame(c)
	if got := synced(); err != nil || typ != channel.FrameOK || len(got) != 1 || got[0].UnixNano != 42 {
		t.Fatalf("sync: %q %v %+v", typ, err, got)
	}
	// An execd request reaches Accept with every byte, peeked ones included.
	exec := append([]byte{'R', 0, 0, 0, 13}, []byte(`{"op":"exec"}`)...)
	exec = append(exec, bytes.Repeat([]byte("x"), 100000)...)
	c2, _ := client.Open()
	go func() { c2.Write(exec); c2.Close() }()
	got, err := r.Accept()
	if err != nil {
		t.Fatal(err)
	}
	all, _ := io.ReadAll(got)
	if !bytes.Equal(all, exec) {
		t.Fatalf("execd got %d bytes, want %d", len(all), len(exec))
	}
}

// FuzzRouter: whatever a stream starts with, the router either answers it
// as a sync request or hands all of its bytes to execd; it never hangs or
// crashes.
func FuzzRouter(f *testing.F) {
	req, _ := json.Marshal(channel.SyncRequest{Op: channel.OpSync, UnixNano: 1})
	f.Add(append([]byte{'R', 0, 0, 0, byte(len(req))}, req...))
	f.Add([]byte{'R', 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{'R', 0, 1, 0, 1, '{'})
	f.Add([]byte("garbage"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		client, r, synced := routerPair(t)
		c, err := client.Open()
		if err != nil {
			t.Fatal(err)
		}
		go func() { c.Write(data); c.Close() }() // Close sends FIN: the end of the stream
		passed := make(chan []byte, 1)
		go func() {
			got, err := r.Accept()
			if err != nil {
				return
			}
			all, _ := io.ReadAll(got)
			got.Close()
			passed <- all
		}()
		answered := make(chan []byte, 1)
		go func() {
			reply, _ := io.ReadAll(c)
			answered <- reply
		}()
		select {
		case all := <-passed:
			if !bytes.Equal(all, data) {
				t.Fatalf("execd got %q, want %q", all, data)
			}
		case reply := <-answered:
			if len(reply) == 0 {
				// execd's side closed without answering: wait for what it read.
				select {
				case all := <-passed:
					if !bytes.Equal(all, data) {
						t.Fatalf("execd got %q, want %q", all, data)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("stream %q: no answer and nothing passed on", data)
				}
				return
			}
			if len(synced()) != 1 || reply[0] != channel.FrameOK {
				t.Fatalf("stream %q answered %q without a sync", data, reply)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("stream %q was neither answered nor passed on", data)
		}
	})
}
