package shellsimbackend

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/bridge"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
)

func newTestMachine(t *testing.T, options string, spec string) *Machine {
	t.Helper()
	f, err := machine.Open(Backend, json.RawMessage(options))
	if err != nil {
		t.Fatal(err)
	}
	s, err := bridge.DecodeSpec([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Create(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m.(*Machine)
}

const builtins = `{"source":{"type":"ShellSimBuiltins"},"env":{"A":"spec"}}`

func run(t *testing.T, m *Machine, c machine.Command) machine.Result {
	t.Helper()
	if c.OutputLimit == 0 {
		c.OutputLimit = 1 << 20
	}
	r, err := m.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunFreshStatePersistentFiles(t *testing.T) {
	m := newTestMachine(t, `{}`, builtins)
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "f() { echo fn; }; f; X=1; echo $A > file; pwd"}})
	if *r.ExitCode != 0 || string(r.Stdout) != "fn\n/workspace\n" {
		t.Fatalf("%+v %q %q", r, r.Stdout, r.Stderr)
	}
	r = run(t, m, machine.Command{Argv: []string{"sh", "-c", "type f >/dev/null 2>&1 || echo nofn; echo x${X}x; cat file; echo $A $B"}, Env: map[string]string{"B": "cmd"}})
	if string(r.Stdout) != "nofn\nxx\nspec\nspec cmd\n" {
		t.Fatalf("%q %q", r.Stdout, r.Stderr)
	}
	r = run(t, m, machine.Command{Argv: []string{"cat", "file"}, Cwd: "/workspace"})
	if string(r.Stdout) != "spec\n" || *r.ExitCode != 0 {
		t.Fatalf("%q", r.Stdout)
	}
	r = run(t, m, machine.Command{Argv: []string{"nosuchprogram"}})
	if *r.ExitCode != 127 {
		t.Fatalf("missing program: %d %q", *r.ExitCode, r.Stderr)
	}
	r = run(t, m, machine.Command{Argv: []string{"sh", "-c", "exit 3"}})
	if *r.ExitCode != 3 {
		t.Fatalf("exit: %d", *r.ExitCode)
	}
	r = run(t, m, machine.Command{Argv: []string{"cat"}, Stdin: []byte("in put")})
	if string(r.Stdout) != "in put" {
		t.Fatalf("stdin: %q", r.Stdout)
	}
	r = run(t, m, machine.Command{Argv: []string{"pwd"}, Cwd: "/nope"})
	if *r.ExitCode != 1 || !strings.Contains(string(r.Stderr), "No such file") {
		t.Fatalf("bad cwd: %d %q", *r.ExitCode, r.Stderr)
	}
}

func TestExhaustionEndsTheMachine(t *testing.T) {
	m := newTestMachine(t, `{"cpu": 200000}`, builtins)
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "while :; do :; done"}})
	if *r.ExitCode != 137 || !strings.Contains(string(r.Stderr), "cpu_exhausted") {
		t.Fatalf("%d %q", *r.ExitCode, r.Stderr)
	}
	if m.StopReason() != "cpu_exhausted" {
		t.Fatal(m.StopReason())
	}
	_, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}})
	if !errors.Is(err, machine.ErrTerminated) || !strings.Contains(err.Error(), "cpu_exhausted") || machine.KindOf(err) != machine.KindTerminated {
		t.Fatalf("after: %v", err)
	}
}

func TestSpecRefusals(t *testing.T) {
	f, _ := machine.Open(Backend, nil)
	for spec, field := range map[string]string{
		`{"source":{"type":"PackageSpec","pypi_packages":["numpy"],"tools":[]}}`: "source",
		`{"source":{"type":"HostImage"}}`:                                        "source",
		`{"source":{"type":"ShellSimBuiltins"},"cpus":2}`:                        "cpus",
		`{"source":{"type":"ShellSimBuiltins"},"gpus":1}`:                        "gpus",
		`{"source":{"type":"ShellSimBuiltins"},"network":"allow"}`:               "network",
	} {
		s, err := bridge.DecodeSpec([]byte(spec))
		if err != nil {
			t.Fatal(err)
		}
		err = f.CheckEnvironment(machine.Requirements{}, s)
		var u *machine.UnsupportedSpec
		if !errors.As(err, &u) || u.Field != field {
			t.Errorf("%s: %v", spec, err)
		}
		if _, err := f.Create(context.Background(), s); !errors.As(err, &u) {
			t.Errorf("create %s: %v", spec, err)
		}
	}
	s := machine.Spec{Source: machine.PackageSpec{PyPIPackages: []string{"numpy"}}, Network: machine.NetworkDeny}
	if err := f.CheckEnvironment(machine.Requirements{}, s); !strings.Contains(err.Error(), "Python is not available in ShellSim yet") {
		t.Fatal(err)
	}
	m := newTestMachine(t, `{}`, `{"source":{"type":"PackageSpec","pypi_packages":null,"tools":[]},"memory_mb":64,"storage_mb":1}`)
	if l := m.env.Usage(); l.DiskCurrent < 0 {
		t.Fatal(l)
	}
	if _, err := m.Run(context.Background(), machine.Command{Argv: []string{"id"}, User: "nobody"}); err == nil {
		t.Fatal("user accepted")
	}
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "head -c 2000000 /dev/zero > big"}})
	if *r.ExitCode == 0 {
		t.Fatalf("disk limit not applied: %q", r.Stderr)
	}
}

func TestUploadDownload(t *testing.T) {
	m := newTestMachine(t, `{}`, builtins)
	ctx := context.Background()
	host := t.TempDir()
	src := filepath.Join(host, "src")
	os.MkdirAll(filepath.Join(src, "sub"), 0o755)
	os.WriteFile(filepath.Join(src, "a.sh"), []byte("echo hi\n"), 0o755)
	os.WriteFile(filepath.Join(src, "sub", "b"), []byte("bee"), 0o640)
	if err := m.Upload(ctx, src, "/workspace/proj"); err != nil {
		t.Fatal(err)
	}
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "./a.sh; stat -c '%a %n' a.sh sub/b"}, Cwd: "/workspace/proj"})
	if string(r.Stdout) != "hi\n755 a.sh\n640 sub/b\n" {
		t.Fatalf("%q %q", r.Stdout, r.Stderr)
	}
	var pe *machine.PathError
	if err := m.Upload(ctx, filepath.Join(host, "nope"), "/x"); !errors.As(err, &pe) || !pe.NotFound {
		t.Fatalf("missing: %v", err)
	}
	os.Symlink("/etc/passwd", filepath.Join(src, "link"))
	if err := m.Upload(ctx, src, "/workspace/proj2"); err == nil || !strings.Contains(err.Error(), "symbolic") {
		t.Fatalf("symlink: %v", err)
	}
	r = run(t, m, machine.Command{Argv: []string{"sh", "-c", "test -e /workspace/proj2 && echo partial || echo none"}})
	if string(r.Stdout) != "none\n" {
		t.Fatalf("not all-or-nothing: %q", r.Stdout)
	}

	out := filepath.Join(host, "out")
	if err := m.Download(ctx, "/workspace/proj", out, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "sub", "b")); string(b) != "bee" {
		t.Fatalf("%q", b)
	}
	if fi, _ := os.Stat(filepath.Join(out, "a.sh")); fi.Mode().Perm() != 0o755 {
		t.Fatal(fi.Mode())
	}
	// A planted host symlink is replaced, never followed.
	outside := filepath.Join(host, "outside")
	os.Mkdir(outside, 0o755)
	out2 := filepath.Join(host, "out2")
	os.Mkdir(out2, 0o755)
	os.Symlink(outside, filepath.Join(out2, "sub"))
	if err := m.Download(ctx, "/workspace/proj", out2, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("wrote outside: %v", ents)
	}
	if st, err := os.Lstat(filepath.Join(out2, "sub")); err != nil || !st.IsDir() {
		t.Fatalf("the planted link is still there: %v %v", st, err)
	}
	// Guest symlinks out of the tree are refused.
	run(t, m, machine.Command{Argv: []string{"sh", "-c", "mkdir t && ln -s /etc t/l"}})
	if err := m.Download(ctx, "/workspace/t", filepath.Join(host, "t"), machine.DownloadOptions{}); err == nil {
		t.Fatal("escaping symlink downloaded")
	}
	file := filepath.Join(host, "f")
	os.WriteFile(file, []byte("old"), 0o644)
	if err := m.Download(ctx, "/workspace/proj/sub/b", file, machine.DownloadOptions{MaxBytes: 2}); !errors.As(err, new(*machine.DownloadLimitExceeded)) {
		t.Fatalf("limit: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "old" {
		t.Fatal("target touched")
	}
	if err := m.Download(ctx, "/workspace/proj", filepath.Join(host, "bounded"), machine.DownloadOptions{MaxBytes: 2}); !errors.As(err, new(*machine.DownloadLimitExceeded)) {
		t.Fatalf("dir bounded: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(host, "bounded")); err == nil {
		t.Fatal("a refused directory download left files")
	}
	if err := m.Download(ctx, "/workspace/proj/sub/b", file, machine.DownloadOptions{MaxBytes: 3}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != "bee" {
		t.Fatalf("%q", b)
	}
	if err := m.Download(ctx, "/nope", file, machine.DownloadOptions{}); !errors.As(err, &pe) || !pe.NotFound {
		t.Fatalf("missing: %v", err)
	}
	m.Close(ctx)
	m.Close(ctx)
	if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrClosed) {
		t.Fatal(err)
	}
	if err := m.Upload(ctx, src, "/x"); !errors.Is(err, machine.ErrClosed) {
		t.Fatal(err)
	}
}

func TestSessionKeepsState(t *testing.T) {
	m := newTestMachine(t, `{}`, builtins)
	s, err := m.OpenSession(shellOptions(map[string]string{"G": "g"}, ""))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, step := range []struct{ cmd, out string }{
		{"export X=1; f() { echo fn$X$G; }; mkdir -p d; cd d", ""},
		{"pwd; f", "/workspace/d\nfn1g\n"},
		{"echo out; echo err >&2", "out\nerr\n"},
	} {
		u, err := s.Execute(ctx, step.cmd, 0, 1<<20)
		if err != nil || string(u.Output) != step.out || *u.ExitCode != 0 {
			t.Fatalf("%q: %v %q", step.cmd, err, u.Output)
		}
	}
	u, _ := s.Execute(ctx, "exit 4", 0, 100)
	if u.Status != "reset" || *u.ExitCode != 4 {
		t.Fatalf("%+v", u)
	}
	u, _ = s.Execute(ctx, "pwd; echo $G", 0, 100)
	if string(u.Output) != "/workspace\ng\n" {
		t.Fatalf("%q", u.Output)
	}
	// Machine runs do not see the session's state.
	r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "echo x${X}x"}})
	if string(r.Stdout) != "xx\n" {
		t.Fatalf("%q", r.Stdout)
	}
}

func TestManyMachinesConcurrently(t *testing.T) {
	before := runtime.NumGoroutine()
	f, _ := machine.Open(Backend, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := f.Create(context.Background(), machine.Spec{Source: machine.ShellSimBuiltins{}, Workdir: "/workspace", Network: machine.NetworkDeny})
			if err != nil {
				errs <- err
				return
			}
			defer m.Close(context.Background())
			var inner sync.WaitGroup
			for j := 0; j < 3; j++ {
				inner.Add(1)
				go func() {
					defer inner.Done()
					r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "sleep 5 & echo $((6*7))"}, OutputLimit: 100})
					if err != nil || string(r.Stdout) != "42\n" {
						errs <- errors.New("bad run")
					}
				}()
			}
			inner.Wait()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Background jobs left by the commands die with their machines.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		t.Fatalf("goroutines leaked: %d before, %d after", before, n)
	}
}

func shellOptions(env map[string]string, cwd string) shell.Options {
	return shell.Options{Env: env, Cwd: cwd}
}

// NUL bytes (and the other invalid text) in argv, env, cwd and transfer
// paths are refused with the typed error every backend gives, before
// anything runs.
func TestRefusesNULEverywhere(t *testing.T) {
	m := newTestMachine(t, `{}`, builtins)
	ctx := context.Background()
	isInvalid := func(what string, err error, field string) {
		t.Helper()
		var inv *machine.InvalidSpec
		if !errors.As(err, &inv) || inv.Field != field {
			t.Errorf("%s: %v, want InvalidSpec on %s", what, err, field)
		}
	}
	for _, c := range []struct {
		cmd   machine.Command
		field string
	}{
		{machine.Command{Argv: []string{"echo", "a\x00b"}}, "argv"},
		{machine.Command{Argv: []string{"echo\x00"}}, "argv"},
		{machine.Command{Argv: []string{"true"}, Env: map[string]string{"A\x00": "x"}}, "env"},
		{machine.Command{Argv: []string{"true"}, Env: map[string]string{"A": "x\x00y"}}, "env"},
		{machine.Command{Argv: []string{"true"}, Cwd: "/tmp/a\x00b"}, "cwd"},
		{machine.Command{Argv: []string{"echo", "\xff"}}, "argv"},
	} {
		c.cmd.OutputLimit = 1 << 10
		_, err := m.Run(ctx, c.cmd)
		isInvalid("run", err, c.field)
		_, err = m.OpenProcess(ctx, c.cmd)
		isInvalid("open process", err, c.field)
	}
	host := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(host, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	isInvalid("upload target", m.Upload(ctx, host, "/tmp/a\x00b"), "target")
	isInvalid("upload source", m.Upload(ctx, host+"\x00", "/tmp/a"), "source")
	isInvalid("download source", m.Download(ctx, "/tmp/a\x00b", host+".d", machine.DownloadOptions{}), "source")
	isInvalid("download target", m.Download(ctx, "/etc/passwd", host+"\x00", machine.DownloadOptions{}), "target")
	if r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "ls /tmp"}}); len(r.Stdout) != 0 {
		t.Fatalf("something was written: %q", r.Stdout)
	}
}
