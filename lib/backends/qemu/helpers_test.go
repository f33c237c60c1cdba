package qemu

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/qemu/qemutest"
	"github.com/shellbox/shellbox/lib/machine"
)

// testRoot holds what the tests of this package share: the guest build,
// the boot assets and staged disk cache, and the busybox image.
var (
	testOnce   sync.Once
	testRoot   string
	testGuest  string
	testImage  machine.PreparedImage
	testSetErr error
)

func TestMain(m *testing.M) {
	// A temp dir of this process's own, so the leak checks' count of
	// runtime directories sees only this package's machines (go test runs
	// other packages that start VMs at the same time).
	tmp, err := os.MkdirTemp("", "sbqt-")
	if err != nil {
		panic(err)
	}
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	if testRoot != "" {
		os.RemoveAll(testRoot)
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

// setup builds the guest program and a busybox image once.
func setup(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("qemu-system-x86_64"); err != nil {
		t.Fatalf("QEMU tests need qemu-system-x86 installed: %v", err)
	}
	testOnce.Do(func() {
		testRoot, testSetErr = os.MkdirTemp("", "shellbox-qemu-test-")
		if testSetErr != nil {
			return
		}
		if testGuest, testSetErr = qemutest.BuildGuest(testRoot); testSetErr != nil {
			return
		}
		testImage, testSetErr = qemutest.BusyboxLayout(filepath.Join(testRoot, "busybox-oci"))
	})
	if testSetErr != nil {
		t.Fatal(testSetErr)
	}
}

// newTestFactory is a TCG factory using the shared cache.
func newTestFactory(t testing.TB, o Options) *Factory {
	t.Helper()
	setup(t)
	if o.Acceleration == "" {
		o.Acceleration = AccelTCG
	}
	if o.Guest == "" {
		o.Guest = testGuest
	}
	if o.CacheDir == "" {
		o.CacheDir = filepath.Join(testRoot, "cache")
	}
	if o.DiskSizeMB == 0 {
		o.DiskSizeMB = 64
	}
	f, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func testSpec() machine.Spec {
	return machine.Spec{Source: testImage, Workdir: "/workspace", Network: machine.NetworkDeny,
		Env: map[string]string{"SPEC_VAR": "from-spec"}, StartupTimeout: 5 * time.Minute}
}

// newTestMachine boots a busybox machine, closed at the end of the test.
func newTestMachine(t testing.TB, f *Factory, spec machine.Spec) *Machine {
	t.Helper()
	m, err := f.Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m.(*Machine)
}
