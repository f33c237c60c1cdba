package qemu

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/egress/egresstest"
	"github.com/shellbox/shellbox/lib/machine"
)

func TestEgressAllowlist(t *testing.T) {
	f := newTestFactory(t, Options{})
	suite := func(t *testing.T) {
		// 10.0.2.3: QEMU's own DNS forwarder, which sends to the host's
		// resolver from QEMU's namespace, through the intercepting device.
		egresstest.Run(t, testSpec(), func(t *testing.T, spec machine.Spec) machine.Machine {
			return newTestMachine(t, f, spec)
		}, egresstest.Options{Intercepts: true, Resolvers: []string{"10.0.2.3:53"}})
	}
	// The first round also starts what packages keep for the process's
	// life (descriptors among them); after the second, the filter, its
	// intercepting device and user-space stack must be gone with the
	// machine (the device and the namespace go with their last descriptor
	// and QEMU).
	t.Run("first", suite)
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	t.Run("second", suite)
	for i := 0; ; i++ {
		g, n := runtime.NumGoroutine(), openFDs(t)
		if g <= goroutines+2 && n <= fds {
			return
		}
		if i == 100 {
			buf := make([]byte, 1<<20)
			ents, _ := os.ReadDir("/proc/self/fd")
			for _, e := range ents {
				l, _ := os.Readlink("/proc/self/fd/" + e.Name())
				t.Log(e.Name(), l)
			}
			t.Fatalf("after Close: %d goroutines (was %d), %d descriptors (was %d)\n%s", g, goroutines, n, fds, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func openFDs(t testing.TB) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

func TestLoopbackResolvers(t *testing.T) {
	p := filepath.Join(t.TempDir(), "resolv.conf")
	conf := "# a comment\nsearch example.internal\nnameserver 10.255.255.53\nnameserver 127.0.0.53\nnameserver ::1\nnameserver 127.0.0.53\nnameserver 127.0.0.1\noptions edns0\n"
	if err := os.WriteFile(p, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := loopbackResolvers(p); !slices.Equal(got, []string{"127.0.0.53", "127.0.0.1"}) {
		t.Errorf("loopback resolvers: %q", got)
	}
	if got := loopbackResolvers(filepath.Join(t.TempDir(), "missing")); got != nil {
		t.Errorf("a missing file: %q", got)
	}
}
