package relay_test

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/relay"
)

// hostileGuest replaces the relay program with a script that writes frames
// (already placed at /tmp/frames in the machine) and then never reads its
// input, as a guest that swapped the program could.
func hostileGuest(t *testing.T) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "hostile")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat /tmp/frames\nexec sleep 1000\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(relay.SetGuestProgram(script))
}

func placeFrames(t *testing.T, m interface {
	Upload(context.Context, string, string) error
}, frames []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "frames")
	if err := os.WriteFile(file, frames, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Upload(context.Background(), file, "/tmp/frames"); err != nil {
		t.Fatal(err)
	}
}

var listening = relay.Frame('L', 0, `{"addr":"127.0.0.1:1"}`, nil)

func TestHostileFrameLengthEndsTheRelay(t *testing.T) {
	m := newMachine(t, localFactory(t), hostSpec())
	huge := relay.Frame('Q', 1, "", nil)
	binary.BigEndian.PutUint32(huge[5:], 0x7fffffff) // a 2 GiB frame, never sent
	placeFrames(t, m, append(append([]byte{}, listening...), huge...))
	hostileGuest(t)
	var calls atomic.Int32
	r := serve(t, m, 8140, func(context.Context, relay.Request) (relay.Response, error) {
		calls.Add(1)
		return relay.Response{Status: 200}, nil
	})
	select {
	case <-r.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the relay kept reading after a frame over its limit")
	}
	start := time.Now()
	err := r.Close(context.Background())
	if err == nil || !strings.Contains(err.Error(), "malformed relay frame") || calls.Load() != 0 {
		t.Fatalf("Close = %v after %d calls", err, calls.Load())
	}
	if time.Since(start) > 20*time.Second {
		t.Fatalf("Close took %v", time.Since(start))
	}
}

// TestHostileFloodIsBounded: 40 requests at once reach the handler at most
// MaxPending at a time, and a guest that never reads the answers cannot
// hold up Close.
func TestHostileFloodIsBounded(t *testing.T) {
	m := newMachine(t, localFactory(t), hostSpec())
	frames := append([]byte{}, listening...)
	for id := uint32(1); id <= 40; id++ {
		frames = append(frames, relay.Frame('Q', id, `{"method":"POST","path":"/","query":""}`, []byte("x"))...)
	}
	// A duplicate id and a method the host refuses itself.
	frames = append(frames, relay.Frame('Q', 1, `{"method":"POST","path":"/","query":""}`, nil)...)
	frames = append(frames, relay.Frame('Q', 99, `{"method":"DELETE","path":"/","query":""}`, nil)...)
	placeFrames(t, m, frames)
	hostileGuest(t)
	release := make(chan struct{})
	var inFlight, most, calls atomic.Int32
	r := serve(t, m, 8141, func(ctx context.Context, req relay.Request) (relay.Response, error) {
		calls.Add(1)
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for old := most.Load(); n > old && !most.CompareAndSwap(old, n); old = most.Load() {
		}
		select {
		case <-release:
		case <-ctx.Done():
		}
		// Answers far larger than a pipe holds, to a guest that never reads.
		return relay.Response{Status: 200, Body: make([]byte, relay.MaxBody)}, nil
	})
	deadline := time.Now().Add(30 * time.Second)
	for inFlight.Load() < relay.MaxPending && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // the rest of the flood arrives
	if calls.Load() != relay.MaxPending || most.Load() != relay.MaxPending {
		t.Fatalf("%d handler calls, at most %d at once", calls.Load(), most.Load())
	}
	close(release)
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	r.Close(context.Background())
	if time.Since(start) > 30*time.Second {
		t.Fatalf("Close took %v", time.Since(start))
	}
	if calls.Load() != relay.MaxPending {
		t.Fatalf("%d handler calls", calls.Load())
	}
}

func FuzzReadFrame(f *testing.F) {
	f.Add(relay.Frame('Q', 1, `{"method":"GET","path":"/","query":""}`, []byte("body")))
	f.Add(listening)
	f.Add([]byte{'Q', 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		relay.ParseFrames(data)
	})
}
