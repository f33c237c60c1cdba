package qemu

import (
	"net/http"
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
	idle := func() {
		// Pooled keep-alive connections (the Docker client's among them)
		// are the process's, not the machine's.
		if f.docker != nil {
			f.docker.Close()
		}
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	}
	idle()
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	t.Run("second", suite)
	for deadline := time.Now().Add(30 * time.Second); ; {
		idle()
		g, now := runtime.NumGoroutine(), openFDs(t)
		var added []string
		for fd, target := range now {
			if fds[fd] != target {
				added = append(added, fd+" -> "+target)
			}
		}
		if g <= goroutines+2 && len(added) == 0 {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			slices.Sort(added)
			t.Fatalf("after Close: %d goroutines (was %d), descriptors not open before: %q\n%s", g, goroutines, added, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// openFDs maps the process's open descriptors to what they refer to.
func openFDs(t testing.TB) map[string]string {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	fds := map[string]string{}
	for _, e := range ents {
		// The directory's own descriptor is closed by now and reads as
		// nothing.
		if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil {
			fds[e.Name()] = l
		}
	}
	return fds
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
