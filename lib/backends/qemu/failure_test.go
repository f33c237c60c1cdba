package qemu

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// runtimeDirs lists the machines' runtime directories in the temp dir.
func runtimeDirs(t *testing.T) map[string]bool {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(os.TempDir(), "shellbox-qemu-*"))
	out := map[string]bool{}
	for _, n := range names {
		if !strings.HasPrefix(filepath.Base(n), "shellbox-qemu-test-") {
			out[n] = true
		}
	}
	return out
}

// children lists the live child processes of the test process.
func children(t *testing.T) []string {
	t.Helper()
	var out []string
	entries, _ := os.ReadDir("/proc")
	me := strconv.Itoa(os.Getpid())
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+2:])
		if len(f) > 1 && f[1] == me {
			out = append(out, e.Name()+":"+s[:i+1])
		}
	}
	return out
}

func assertNoLeaks(t *testing.T, before map[string]bool) {
	t.Helper()
	for d := range runtimeDirs(t) {
		if !before[d] {
			t.Errorf("runtime directory left behind: %s", d)
		}
	}
	if c := children(t); len(c) > 0 {
		t.Errorf("child processes left behind: %v", c)
	}
}

func TestMissingKernelIsAStartupError(t *testing.T) {
	before := runtimeDirs(t)
	f := newTestFactory(t, Options{Kernel: filepath.Join(t.TempDir(), "no-vmlinuz")})
	_, err := f.Create(context.Background(), testSpec())
	var se *machine.StartupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "no-vmlinuz") {
		t.Fatalf("got %v", err)
	}
	assertNoLeaks(t, before)
}

func TestBrokenInitIsAStartupErrorWithTheConsole(t *testing.T) {
	before := runtimeDirs(t)
	setup(t)
	broken := filepath.Join(t.TempDir(), "broken-init")
	os.WriteFile(broken, []byte("#!/no/such/interpreter\n"), 0o755)
	f := newTestFactory(t, Options{Guest: broken})
	start := time.Now()
	_, err := f.Create(context.Background(), testSpec())
	var se *machine.StartupError
	if !errors.As(err, &se) {
		t.Fatalf("got %v", err)
	}
	// The kernel's own words about the failed init reach the caller.
	if !strings.Contains(err.Error(), "init") || !strings.Contains(err.Error(), "Kernel panic") {
		t.Fatalf("the error lacks the console tail: %v", err)
	}
	if d := time.Since(start); d > 2*time.Minute {
		t.Fatalf("took %v", d)
	}
	assertNoLeaks(t, before)
}

func TestStartupTimeout(t *testing.T) {
	before := runtimeDirs(t)
	f := newTestFactory(t, Options{})
	spec := testSpec()
	spec.StartupTimeout = 100 * time.Millisecond
	start := time.Now()
	_, err := f.Create(context.Background(), spec)
	var se *machine.StartupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "startup timeout") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 30*time.Second { // includes staging on a cold cache
		t.Fatalf("took %v", d)
	}
	assertNoLeaks(t, before)
}

func TestQemuKilledMidCommandIsTerminated(t *testing.T) {
	before := runtimeDirs(t)
	f := newTestFactory(t, Options{})
	m, err := f.Create(context.Background(), testSpec())
	if err != nil {
		t.Fatal(err)
	}
	qm := m.(*Machine)
	done := make(chan error, 1)
	go func() {
		_, err := m.Run(context.Background(), machine.Command{Argv: []string{"sleep", "1000"}, OutputLimit: 100})
		done <- err
	}()
	time.Sleep(500 * time.Millisecond)
	syscall.Kill(qm.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case err := <-done:
		if !errors.Is(err, machine.ErrTerminated) {
			t.Fatalf("the running command got %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run hangs after QEMU died")
	}
	if _, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrTerminated) {
		t.Fatalf("the next call got %v", err)
	}
	if err := m.Upload(context.Background(), t.TempDir(), "/x"); !errors.Is(err, machine.ErrTerminated) {
		t.Fatalf("upload got %v", err)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
	assertNoLeaks(t, before)
}

func TestCreateCloseCyclesLeaveNothing(t *testing.T) {
	before := runtimeDirs(t)
	f := newTestFactory(t, Options{})
	for i := 0; i < 10; i++ {
		m, err := f.Create(context.Background(), testSpec())
		if err != nil {
			t.Fatal(err)
		}
		qm := m.(*Machine)
		if i%2 == 0 {
			// a busy machine: a running command and an open process
			go m.Run(context.Background(), machine.Command{Argv: []string{"sleep", "1000"}})
			p, err := qm.OpenProcess(context.Background(), machine.Command{Argv: []string{"cat"}})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close(context.Background())
		}
		if err := m.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(qm.dir); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("cycle %d: runtime dir remains: %v", i, err)
		}
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(qm.cmd.Process.Pid))); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("cycle %d: QEMU process remains", i)
		}
	}
	assertNoLeaks(t, before)
}

// TestDeadOwnersRuntimeDirIsSwept: a machine's runtime directory stays
// while its owner lives, and the next factory removes it once the owner
// died without closing the machine. The owner's death is what the kernel
// does then: QEMU gets SIGKILL (Pdeathsig) and the directory's lock is
// released with the owner's descriptors.
func TestDeadOwnersRuntimeDirIsSwept(t *testing.T) {
	f := newTestFactory(t, Options{})
	m, err := f.Create(context.Background(), testSpec())
	if err != nil {
		t.Fatal(err)
	}
	qm := m.(*Machine)
	defer qm.Close(context.Background())
	dir := qm.dir
	if !strings.HasPrefix(filepath.Base(dir), machineDirPrefix) {
		t.Fatalf("runtime directory %s lacks the prefix %s", dir, machineDirPrefix)
	}
	if _, err := New(f.opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("a new factory removed the runtime directory of a live machine: %v", err)
	}
	if r := run(t, qm, machine.Command{Argv: []string{"true"}}); r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("the machine after the sweep: %+v", r)
	}

	syscall.Kill(-qm.cmd.Process.Pid, syscall.SIGKILL)
	<-qm.exited
	qm.dirLock.Close()
	qm.dirLock = nil
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the directory went before the sweep: %v", err)
	}
	if _, err := New(f.opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the runtime directory of a dead owner's machine remains after a new factory: %v", err)
	}
}
