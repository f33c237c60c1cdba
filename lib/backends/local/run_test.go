package local

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/execd"
	"github.com/shellbox/shellbox/lib/machine"
)

func TestExitCodes(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	for _, tc := range []struct {
		cmd  machine.Command
		want int
	}{
		{sh("exit 3"), 3},
		{machine.Command{Argv: []string{"no-such-program-xyz"}}, 127},
		{machine.Command{Argv: []string{"/no/such/path"}}, 127},
		{sh("kill -KILL $$"), 137},
		{sh("kill -TERM $$"), 143},
		{machine.Command{Argv: []string{"/etc/passwd"}}, 126},
		{machine.Command{Argv: []string{"true"}}, 0},
	} {
		if r := run(t, m, tc.cmd); code(r) != tc.want || r.Reason != machine.Exited {
			t.Errorf("%q: exit %d (%q), want %d", tc.cmd.Argv, code(r), r.Stderr, tc.want)
		}
	}
}

func TestEnvironment(t *testing.T) {
	t.Setenv("SHELLBOX_HOST_SECRET", "leak")
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "python3"), []byte("#!/bin/sh\necho fake-python\n"), 0o755)
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec(func(s *machine.Spec) { s.Source = machine.HostImage{BinDirs: []string{bin}} }))
	r := run(t, m, machine.Command{Argv: []string{"env"}})
	if bytes.Contains(r.Stdout, []byte("SHELLBOX_HOST_SECRET")) {
		t.Fatalf("host env visible: %s", r.Stdout)
	}
	for _, want := range []string{"HOME=/home/shellbox", "LANG=C.UTF-8", "PATH=" + bin + ":" + defaultPath} {
		if !bytes.Contains(r.Stdout, []byte(want+"\n")) {
			t.Errorf("env lacks %s: %s", want, r.Stdout)
		}
	}
	if r := run(t, m, machine.Command{Argv: []string{"python3"}}); string(r.Stdout) != "fake-python\n" {
		t.Fatalf("bin_dirs not first: %q %q", r.Stdout, r.Stderr)
	}
}

func rssBytes(t testing.TB) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func TestTruncationBoundedMemory(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rss0 := rssBytes(t)
	cmd := sh("head -c 2147483648 /dev/zero; head -c 100000000 /dev/zero >&2")
	cmd.OutputLimit = 1 << 20
	start := time.Now()
	r := run(t, m, cmd)
	el := time.Since(start)
	runtime.ReadMemStats(&after)
	rss1 := rssBytes(t)
	if len(r.Stdout) != 1<<20 || !r.StdoutTruncated || len(r.Stderr) != 1<<20 || !r.StderrTruncated || code(r) != 0 {
		t.Fatalf("got %d %d %v %v %d", len(r.Stdout), len(r.Stderr), r.StdoutTruncated, r.StderrTruncated, code(r))
	}
	growth := rss1 - rss0
	t.Logf("2 GiB printed with a 1 MiB limit in %v: RSS %d -> %d KiB (growth %d KiB), total Go allocations %d KiB",
		el, rss0>>10, rss1>>10, growth>>10, (after.TotalAlloc-before.TotalAlloc)>>10)
	if growth > 16<<20 {
		t.Fatalf("RSS grew by %d bytes", growth)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("allocated %d bytes", alloc)
	}
}

func TestNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	probe := sh(fmt.Sprintf("exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d && head -n1 <&3'", port))
	f := newFactory(t, Options{})
	deny := newMachine(t, f, hostSpec())
	r := run(t, deny, sh("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"))
	if string(r.Stdout) != "lo\n" {
		t.Fatalf("deny interfaces: %q", r.Stdout)
	}
	if r := run(t, deny, probe); code(r) == 0 {
		t.Fatalf("deny reached the host: %q", r.Stdout)
	}
	allow := newMachine(t, f, hostSpec(func(s *machine.Spec) { s.Network = machine.NetworkAllow }))
	if r := run(t, allow, probe); code(r) != 0 || string(r.Stdout) != "hello\n" {
		t.Fatalf("allow: %d %q %q", code(r), r.Stdout, r.Stderr)
	}
}

func TestReadOnlySystemAndIsolation(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	// /etc is the machine's own copy (TestPrivateEtc).
	for _, p := range []string{"/usr/shellbox-x", "/bin/shellbox-x", "/usr/local/shellbox-x"} {
		if r := run(t, m, sh("touch "+p)); code(r) == 0 {
			t.Errorf("%s writable", p)
		}
	}
	// Capabilities are per thread in the helper: check many commands.
	for range 20 {
		r := run(t, m, sh("grep -E '^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs)' /proc/self/status"))
		for _, want := range []string{"CapEff:\t0000000000000000", "CapPrm:\t0000000000000000", "CapBnd:\t0000000000000000", "NoNewPrivs:\t1"} {
			if !bytes.Contains(r.Stdout, []byte(want)) {
				t.Fatalf("status lacks %q: %s", want, r.Stdout)
			}
		}
	}
	// Host paths outside the system directories are not reachable.
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("s"), 0o644)
	if r := run(t, m, sh("cat "+secret)); code(r) == 0 {
		t.Fatalf("host file readable")
	}
	if r := run(t, m, sh(fmt.Sprintf("kill -0 %d", os.Getpid()))); code(r) == 0 {
		t.Fatalf("host pid signalable")
	}
	if r := run(t, m, sh("stat -c %a /tmp")); string(r.Stdout) != "1777\n" {
		t.Fatalf("/tmp mode %q", r.Stdout)
	}
}

func TestUserSwitch(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	cmd := sh("id -u; id -g; id -G; grep CapEff /proc/self/status; touch /tmp/nobody-file && echo wrote")
	cmd.User = "65534"
	r := run(t, m, cmd)
	if string(r.Stdout) != "65534\n65534\n65534\nCapEff:\t0000000000000000\nwrote\n" {
		t.Fatalf("got %q %q", r.Stdout, r.Stderr)
	}
	cmd.User = "nobody"
	if r := run(t, m, cmd); !strings.HasPrefix(string(r.Stdout), "65534\n") {
		t.Fatalf("by name: %q", r.Stdout)
	}
	// A timeout stops the other user's process group too.
	slow := sh("sleep 3600")
	slow.User, slow.Timeout = "65534", 300*time.Millisecond
	if r := run(t, m, slow); r.Reason != machine.TimedOut {
		t.Fatalf("timeout as nobody: %+v", r)
	}
	_, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}, User: "no-such-user-xyz", OutputLimit: 10})
	var us *machine.UnsupportedSpec
	if !errors.As(err, &us) || us.Field != "user" {
		t.Fatalf("unknown user: %v", err)
	}
}

func TestConcurrentRuns(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := sh(fmt.Sprintf("echo %d; cat", i))
			cmd.Stdin = []byte("in")
			cmd.OutputLimit = 100
			r, err := m.Run(context.Background(), cmd)
			if err != nil || string(r.Stdout) != fmt.Sprintf("%d\nin", i) {
				errs <- fmt.Errorf("%d: %q %v", i, r.Stdout, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestConcurrentMachines(t *testing.T) {
	f := newFactory(t, Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			mm, err := f.Create(ctx, hostSpec(func(s *machine.Spec) { s.Workdir = "/app" }))
			if err != nil {
				errs <- err
				return
			}
			m := mm.(*Machine)
			root := m.Root()
			script := fmt.Sprintf(`test -z "$(ls /app)" || exit 9; for d in /app /tmp $HOME /srv; do mkdir -p $d && echo %d > $d/marker; done; cat /app/marker /tmp/marker`, i)
			r, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 100})
			if err != nil || string(r.Stdout) != fmt.Sprintf("%d\n%d\n", i, i) {
				errs <- fmt.Errorf("machine %d: %+v %v", i, r, err)
			}
			if err := m.Close(ctx); err != nil {
				errs <- err
			}
			if _, err := os.Stat(root); !os.IsNotExist(err) {
				errs <- fmt.Errorf("root %s left behind", root)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, p := range []string{"/srv/marker", "/app/marker", "/tmp/marker"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s leaked to the host", p)
		}
	}
}

func TestRejectedSpecs(t *testing.T) {
	f := newFactory(t, Options{})
	one := 1
	for _, tc := range []struct {
		field string
		mut   func(*machine.Spec)
	}{
		{"source", func(s *machine.Spec) { s.Source = machine.DockerImage{Reference: "busybox"} }},
		{"source", func(s *machine.Spec) { s.Source = machine.ShellSimBuiltins{} }},
		{"gpus", func(s *machine.Spec) { s.GPUs = 1 }},
		{"cpus", func(s *machine.Spec) { s.CPUs = &one }},
		{"memory_mb", func(s *machine.Spec) { s.MemoryMB = &one }},
		{"storage_mb", func(s *machine.Spec) { s.StorageMB = &one }},
		{"workdir", func(s *machine.Spec) { s.Workdir = "/usr/lib/x" }},
		{"workdir", func(s *machine.Spec) { s.Workdir = "/sbin" }},
	} {
		_, err := f.Create(context.Background(), hostSpec(tc.mut))
		var us *machine.UnsupportedSpec
		if !errors.As(err, &us) || us.Field != tc.field {
			t.Errorf("%s: got %v", tc.field, err)
		}
		if err := f.CheckEnvironment(machine.Requirements{}, hostSpec(tc.mut)); !errors.As(err, &us) || us.Field != tc.field {
			t.Errorf("CheckEnvironment %s: got %v", tc.field, err)
		}
	}
	if err := f.CheckEnvironment(machine.Requirements{CommandSemantics: "shell_simulator"}, hostSpec()); machine.KindOf(err) != machine.KindUnsupported {
		t.Errorf("shell_simulator: %v", err)
	}
}

func TestWorkdirRoot(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec(func(s *machine.Spec) { s.Workdir = "/" }))
	if r := run(t, m, sh("pwd")); string(r.Stdout) != "/\n" {
		t.Fatalf("pwd %q", r.Stdout)
	}
}

func TestSandboxUnavailable(t *testing.T) {
	_, err := New(Options{Bwrap: "/nonexistent/bwrap"})
	var su *machine.SandboxUnavailable
	if !errors.As(err, &su) || len(su.Candidates) != 1 || su.Candidates[0].Candidate != "/nonexistent/bwrap" || su.Hint == "" {
		t.Fatalf("got %v", err)
	}
	if machine.KindOf(err) != machine.KindSandboxUnavailable {
		t.Fatalf("kind %d", machine.KindOf(err))
	}
	// A binary that runs but is no bubblewrap.
	_, err = New(Options{Bwrap: "/bin/false"})
	if !errors.As(err, &su) {
		t.Fatalf("got %v", err)
	}
}

func TestTerminated(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	m.cmd.Process.Kill()
	<-m.exited
	_, err := m.Run(context.Background(), sh("true"))
	if !errors.Is(err, machine.ErrTerminated) {
		t.Fatalf("got %v", err)
	}
}

func TestRegistered(t *testing.T) {
	newFactory(t, Options{})
	opts, _ := json.Marshal(map[string]any{"read_only": []string{t.TempDir()}})
	fac, err := machine.Open("local", opts)
	if err != nil {
		t.Fatal(err)
	}
	if fac.Backend() != "local" {
		t.Fatal(fac.Backend())
	}
	if _, err := machine.Open("local", []byte(`{"bogus": 1}`)); machine.KindOf(err) != machine.KindInvalid {
		t.Fatalf("unknown option: %v", err)
	}
}

func TestStartupError(t *testing.T) {
	ro := t.TempDir()
	f := newFactory(t, Options{ReadOnly: []string{ro}})
	os.Remove(ro)
	_, err := f.Create(context.Background(), hostSpec())
	var se *machine.StartupError
	if !errors.As(err, &se) || machine.KindOf(err) != machine.KindStartup {
		t.Fatalf("got %v", err)
	}
	t.Log(err)
}

// TestUnconfirmedStopClosesMachine stands in a helper that cannot confirm
// a stop: the machine must close and say so with an InfrastructureError.
func TestUnconfirmedStopClosesMachine(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	root := m.Root()
	sock := filepath.Join(t.TempDir(), "fake.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			hdr := make([]byte, 5)
			io.ReadFull(c, hdr)
			io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(hdr[1:])))
			body := []byte(`{"kind":"infrastructure","field":"stop","message":"1 live member remains after SIGKILL"}`)
			frame := append([]byte{'F', 0, 0, 0, 0}, body...)
			binary.BigEndian.PutUint32(frame[1:5], uint32(len(body)))
			c.Write(frame)
			c.Close()
		}
	}()
	m.client = execd.NewClient(sock)
	cmd := sh("sleep 10")
	cmd.Timeout = 10 * time.Millisecond
	_, err = m.Run(context.Background(), cmd)
	var ie *machine.InfrastructureError
	if !errors.As(err, &ie) || machine.KindOf(err) != machine.KindInfrastructure {
		t.Fatalf("got %v", err)
	}
	if _, err := m.Run(context.Background(), sh("true")); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("after: %v", err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("root left behind: %v", err)
	}
}
