package dockertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
)

// Busybox is the spec source of the test image.
var Busybox = machine.DockerImage{Reference: BusyboxImage}

// NewMachine creates a busybox machine (workdir /workspace, no network)
// after applying edit, and closes it when the test ends.
func NewMachine(t testing.TB, f *docker.Factory, edit func(*machine.Spec)) *docker.Machine {
	t.Helper()
	spec := machine.Spec{Source: Busybox, Workdir: "/workspace", Network: machine.NetworkDeny}
	if edit != nil {
		edit(&spec)
	}
	m, err := f.CreateMachine(context.Background(), spec)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	t.Cleanup(func() {
		if err := m.Close(context.Background()); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return m
}

// Run runs argv with a 1 MiB output limit and fails the test on error.
func Run(t testing.TB, m machine.Machine, cmd machine.Command) machine.Result {
	t.Helper()
	if cmd.OutputLimit == 0 {
		cmd.OutputLimit = machine.DefaultOutputLimit
	}
	res, err := m.Run(context.Background(), cmd)
	if err != nil {
		t.Fatalf("run %q: %v", cmd.Argv, err)
	}
	return res
}

// Sh runs a shell script and returns its result.
func Sh(t testing.TB, m machine.Machine, script string) machine.Result {
	t.Helper()
	return Run(t, m, machine.Command{Argv: []string{"sh", "-c", script}})
}

// Code is a result's exit code, -1 when there is none.
func Code(r machine.Result) int {
	if r.ExitCode == nil {
		return -1
	}
	return *r.ExitCode
}

func wantOut(t testing.TB, r machine.Result, code int, stdout, stderr string) {
	t.Helper()
	if Code(r) != code || string(r.Stdout) != stdout || string(r.Stderr) != stderr || r.Reason != machine.Exited {
		t.Fatalf("got code %d stdout %q stderr %q reason %s; want %d %q %q", Code(r), r.Stdout, r.Stderr, r.Reason, code, stdout, stderr)
	}
}

// ExecSemantics: exit codes, stdout/stderr, stdin, env overlay, cwd,
// missing programs, signals, host env isolation.
func ExecSemantics(t *testing.T, f *docker.Factory) {
	os.Setenv("SHELLBOX_HOST_ONLY", "leak")
	defer os.Unsetenv("SHELLBOX_HOST_ONLY")
	m := NewMachine(t, f, func(s *machine.Spec) {
		s.Workdir = "/app"
		s.Env = map[string]string{"SPEC": "from-spec", "ANSWER": "overridden"}
	})
	r := Run(t, m, machine.Command{
		Argv:  []string{"sh", "-c", `pwd; printf '%s %s\n' "$SPEC" "$ANSWER"; cat; echo diagnostic >&2; exit 3`},
		Cwd:   "/tmp",
		Env:   map[string]string{"ANSWER": "42"},
		Stdin: []byte("input\n"),
	})
	wantOut(t, r, 3, "/tmp\nfrom-spec 42\ninput\n", "diagnostic\n")
	wantOut(t, Sh(t, m, "pwd"), 0, "/app\n", "")
	if r := Run(t, m, machine.Command{Argv: []string{"no-such-program"}}); Code(r) != 127 {
		t.Fatalf("missing program: code %d, want 127 (%q)", Code(r), r.Stderr)
	}
	if r := Sh(t, m, "kill -KILL $$"); Code(r) != 137 {
		t.Fatalf("killed by SIGKILL: code %d, want 137", Code(r))
	}
	if r := Sh(t, m, "env"); bytes.Contains(r.Stdout, []byte("SHELLBOX_HOST_ONLY")) {
		t.Fatalf("host environment leaked: %s", r.Stdout)
	}
	// Binary stdin and stdout, and a payload that looks like the frame.
	payload := []byte("SHELLBOX_PGID:7\nanswer\x00\xff")
	r = Run(t, m, machine.Command{Argv: []string{"sh", "-c", "cat; exit 23"}, Stdin: payload})
	if Code(r) != 23 || !bytes.Equal(r.Stdout, payload) {
		t.Fatalf("frame-like stdin: code %d stdout %q", Code(r), r.Stdout)
	}
	big := bytes.Repeat([]byte{0, 1, 2, 250, 255, '\n'}, 200_000)
	r = Run(t, m, machine.Command{Argv: []string{"cat"}, Stdin: big, OutputLimit: len(big)})
	if !bytes.Equal(r.Stdout, big) || r.StdoutTruncated {
		t.Fatalf("1.2 MB stdin round trip: got %d bytes, truncated %v", len(r.Stdout), r.StdoutTruncated)
	}
	// Arguments and environment values with quotes, newlines and other
	// control bytes arrive intact.
	args := []string{"a b", "it's", "new\nline\n\n", "", "%s %% \\ \\n", "tab\there", "\x01\x7f", "ünï", "'\n'"}
	r = Run(t, m, machine.Command{
		Argv: append([]string{"sh", "-c", `for a in "$@"; do printf '[%s]' "$a"; done; printf '{%s}' "$V"`, "x"}, args...),
		Env:  map[string]string{"V": "multi\nline\n"},
	})
	want := ""
	for _, a := range args {
		want += "[" + a + "]"
	}
	want += "{multi\nline\n}"
	if string(r.Stdout) != want || Code(r) != 0 {
		t.Fatalf("quoting:\n got %q\nwant %q (%q)", r.Stdout, want, r.Stderr)
	}
	// A missing cwd fails the command, not the machine.
	if r := Run(t, m, machine.Command{Argv: []string{"pwd"}, Cwd: "/no/such/dir"}); Code(r) == 0 || len(r.Stderr) == 0 {
		t.Fatalf("missing cwd: %+v", r)
	}
	// Empty workdir keeps the image's (the busybox image has none: /).
	m2 := NewMachine(t, f, func(s *machine.Spec) { s.Workdir = "" })
	wantOut(t, Sh(t, m2, "pwd"), 0, "/\n", "")
	// The workdir is created at start, nested.
	m3 := NewMachine(t, f, func(s *machine.Spec) { s.Workdir = "/deep/work/dir" })
	wantOut(t, Sh(t, m3, "pwd; test -w ."), 0, "/deep/work/dir\n", "")
}

// Users: by name, by uid, unknown.
func Users(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	wantOut(t, Run(t, m, machine.Command{Argv: []string{"id", "-u"}}), 0, "0\n", "")
	wantOut(t, Run(t, m, machine.Command{Argv: []string{"id", "-u"}, User: TestUser}), 0, strconv.Itoa(TestUID)+"\n", "")
	wantOut(t, Run(t, m, machine.Command{Argv: []string{"id", "-u"}, User: strconv.Itoa(TestUID)}), 0, strconv.Itoa(TestUID)+"\n", "")
	wantOut(t, Run(t, m, machine.Command{Argv: []string{"id", "-u"}, User: "12345"}), 0, "12345\n", "")
	_, err := m.Run(context.Background(), machine.Command{Argv: []string{"id"}, User: "no-such-user", OutputLimit: 100})
	var us *machine.UnsupportedSpec
	if !errors.As(err, &us) || us.Field != "user" {
		t.Fatalf("unknown user: %v, want UnsupportedSpec on user", err)
	}
	// A timed-out command of another user is stopped too.
	r := Run(t, m, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 & sleep 1000"}, User: "12345", Timeout: time.Second})
	if r.Reason != machine.TimedOut {
		t.Fatalf("reason %s", r.Reason)
	}
	if out := Sh(t, m, "ps -o user,args | grep 'sleep 1000' | grep -v grep || true").Stdout; len(out) > 0 {
		t.Fatalf("survivors: %s", out)
	}
}

// OutputLimits: per-stream limits, truncation flags, limit 0.
func OutputLimits(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	r := Run(t, m, machine.Command{Argv: []string{"sh", "-c", "yes | head -c 100; printf ab >&2"}, OutputLimit: 4})
	if string(r.Stdout) != "y\ny\n" || !r.StdoutTruncated || string(r.Stderr) != "ab" || r.StderrTruncated {
		t.Fatalf("limit 4: %q %v %q %v", r.Stdout, r.StdoutTruncated, r.Stderr, r.StderrTruncated)
	}
	r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "echo out; echo err >&2"}, OutputLimit: 0})
	if err != nil || len(r.Stdout) != 0 || len(r.Stderr) != 0 || !r.StdoutTruncated || !r.StderrTruncated || Code(r) != 0 {
		t.Fatalf("limit 0: %+v %v", r, err)
	}
}

// rss is the process's resident set in bytes.
func rss() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// peakRSS samples the resident set while fn runs and returns its growth.
func peakRSS(fn func()) int64 {
	runtime.GC()
	base := rss()
	peak := base
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				if r := rss(); r > peak {
					peak = r
				}
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	if r := rss(); r > peak {
		peak = r
	}
	return peak - base
}

// BigOutputMiB is the size BoundedOutput prints per stream:
// $SHELLBOX_DOCKER_BIG_OUTPUT_MIB, else def (the daemon streams exec
// output at about 40 MB/s on a 2-core host, so 1024 takes ~50 s).
func BigOutputMiB(def int) int {
	if v, err := strconv.Atoi(os.Getenv("SHELLBOX_DOCKER_BIG_OUTPUT_MIB")); err == nil && v > 0 {
		return v
	}
	return def
}

// BoundedOutput prints mib MiB on stdout and stderr with a 1 MiB limit and
// checks the host process's memory does not grow by more than 16 MiB.
func BoundedOutput(t *testing.T, f *docker.Factory, mib int) {
	m := NewMachine(t, f, nil)
	var r machine.Result
	start := time.Now()
	grow := peakRSS(func() {
		r = Run(t, m, machine.Command{
			Argv:        []string{"sh", "-c", fmt.Sprintf("head -c %d /dev/zero & head -c %d /dev/zero >&2; wait", mib<<20, mib<<20)},
			OutputLimit: 1 << 20,
		})
	})
	t.Logf("printed 2 x %d MiB in %v; RSS grew %.1f MiB", mib, time.Since(start), float64(grow)/(1<<20))
	if Code(r) != 0 || len(r.Stdout) != 1<<20 || len(r.Stderr) != 1<<20 || !r.StdoutTruncated || !r.StderrTruncated {
		t.Fatalf("code %d, %d/%d bytes kept, truncated %v/%v", Code(r), len(r.Stdout), len(r.Stderr), r.StdoutTruncated, r.StderrTruncated)
	}
	if grow > 16<<20 {
		t.Fatalf("RSS grew %d MiB", grow>>20)
	}
}

// Timeouts: a timeout kills the whole group, keeps the machine, files and
// services of other groups; unread stdin does not matter.
func Timeouts(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	Sh(t, m, "echo keep > /workspace/file; setsid sleep 1000 >/dev/null 2>&1 < /dev/null &")
	start := time.Now()
	r := Run(t, m, machine.Command{Argv: []string{"sh", "-c", "sleep 3333 & wait"}, Timeout: time.Second, Stdin: bytes.Repeat([]byte("x"), 1<<20)})
	if r.ExitCode != nil || r.Reason != machine.TimedOut || len(r.Stdout) != 0 || len(r.Stderr) != 0 || r.StdoutTruncated || r.StderrTruncated {
		t.Fatalf("timeout result: %+v", r)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("timeout took %v", d)
	}
	// Partial output is kept.
	r = Run(t, m, machine.Command{Argv: []string{"sh", "-c", "echo partial; echo e >&2; sleep 1000"}, Timeout: time.Second})
	if r.Reason != machine.TimedOut || string(r.Stdout) != "partial\n" || string(r.Stderr) != "e\n" {
		t.Fatalf("partial output: %+v", r)
	}
	ps := string(Sh(t, m, "ps -o args").Stdout)
	if strings.Contains(ps, "sleep 3333") {
		t.Fatalf("timed-out group survived:\n%s", ps)
	}
	if !strings.Contains(ps, "sleep 1000") {
		t.Fatalf("the service in another group was killed:\n%s", ps)
	}
	wantOut(t, Sh(t, m, "cat /workspace/file; exit 7"), 7, "keep\n", "")
}

// Cancellation stops the group and returns the context's error.
func Cancellation(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 3456 & sleep 3457"}, OutputLimit: 100})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("cancelled run: %v", err)
	}
	if ps := string(Sh(t, m, "ps -o args").Stdout); strings.Contains(ps, "sleep 345") {
		t.Fatalf("cancelled group survived:\n%s", ps)
	}
	wantOut(t, Sh(t, m, "echo ok"), 0, "ok\n", "")
}

// Background processes of a successful command survive it, and the
// command returns promptly although they hold its stdout.
func Background(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	start := time.Now()
	wantOut(t, Sh(t, m, "sleep 100 & echo started"), 0, "started\n", "")
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Fatalf("took %v", d)
	}
	if ps := string(Sh(t, m, "ps -o args").Stdout); !strings.Contains(ps, "sleep 100") {
		t.Fatalf("background process gone:\n%s", ps)
	}
	// A later command is not slowed down by the one still holding stdout.
	start = time.Now()
	wantOut(t, Sh(t, m, "echo again"), 0, "again\n", "")
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Fatalf("next command took %v", d)
	}
}

// Concurrency: parallel runs on one machine and parallel machines.
func Concurrency(t *testing.T, f *docker.Factory, machines, runs int) {
	var wg sync.WaitGroup
	errs := make(chan error, machines*runs)
	for i := 0; i < machines; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			m, err := f.CreateMachine(context.Background(), machine.Spec{Source: Busybox, Workdir: "/w", Network: machine.NetworkDeny})
			if err != nil {
				errs <- err
				return
			}
			defer m.Close(context.Background())
			var inner sync.WaitGroup
			for j := 0; j < runs; j++ {
				inner.Add(1)
				go func(j int) {
					defer inner.Done()
					want := fmt.Sprintf("%d-%d", i, j)
					r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "echo $X > f$X; cat f$X"}, Env: map[string]string{"X": want}, OutputLimit: 100})
					if err != nil {
						errs <- err
					} else if string(r.Stdout) != want+"\n" {
						errs <- fmt.Errorf("machine %d run %d: %q", i, j, r.Stdout)
					}
				}(j)
			}
			inner.Wait()
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Processes: OpenProcess streams binary both ways, reports exit and stderr,
// and Close kills a running group.
func Processes(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	ctx := context.Background()
	p, err := m.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "cat; echo bye >&2; exit 5"}, OutputLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("SHELLBOX_PGID:9\n\x00\x01\xff binary")
	if _, err := p.Stdin().Write(payload); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(payload))
	if _, err := ioReadFull(p, got); err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("echo: %q %v", got, err)
	}
	p.Stdin().Close()
	rest, err := readAll(p)
	if err != nil || len(rest) != 0 {
		t.Fatalf("after EOF: %q %v", rest, err)
	}
	exit, err := p.Wait(ctx)
	if err != nil || exit.ExitCode != 5 || string(exit.Stderr) != "bye\n" {
		t.Fatalf("exit: %+v %v", exit, err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// Close kills the group of a running process.
	p, err = m.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 2000 & sleep 2001"}, OutputLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if ps := string(Sh(t, m, "ps -o args").Stdout); strings.Contains(ps, "sleep 200") {
		t.Fatalf("closed process survived:\n%s", ps)
	}
	// Command.Timeout kills the group of a process.
	p, err = m.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 2100 & sleep 2101"}, OutputLimit: 100, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = readAll(p) }()
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	exit, err = p.Wait(wctx)
	if err != nil || exit.ExitCode != 137 {
		t.Fatalf("process timeout: %+v %v", exit, err)
	}
	p.Close(ctx)
	if ps := string(Sh(t, m, "ps -o args").Stdout); strings.Contains(ps, "sleep 210") {
		t.Fatalf("timed-out process survived:\n%s", ps)
	}
}

// Closing: Close is idempotent and later operations give ErrClosed.
func Closing(t *testing.T, f *docker.Factory) {
	ctx := context.Background()
	m, err := f.CreateMachine(ctx, machine.Spec{Source: Busybox, Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("run after close: %v", err)
	}
	if err := m.Upload(ctx, "/etc/hostname", "/x"); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("upload after close: %v", err)
	}
	if err := m.Download(ctx, "/etc/hostname", filepath.Join(t.TempDir(), "x"), machine.DownloadOptions{}); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("download after close: %v", err)
	}
	if _, err := f.Client().ContainerInspect(ctx, m.ContainerID()); err == nil {
		t.Fatalf("container %s still exists", m.ContainerName())
	}
}

// Leaks runs create/run/close cycles including timeouts and cancellations
// and checks nothing labelled for this backend remains.
func Leaks(t *testing.T, f *docker.Factory, cycles int) {
	ctx := context.Background()
	before, err := Count(ctx, f.Client(), docker.LabelBackend, f.Backend())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ours := map[string]bool{}
	for i := 0; i < cycles; i++ {
		m, err := f.CreateMachine(ctx, machine.Spec{Source: Busybox, Workdir: "/w", Network: machine.NetworkDeny})
		if err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		ours[m.ContainerID()] = true
		switch i % 3 {
		case 0:
			Sh(t, m, "echo hi > f; sleep 100 & cat f")
		case 1:
			if r := Run(t, m, machine.Command{Argv: []string{"sh", "-c", "sleep 100 & sleep 100"}, Timeout: 200 * time.Millisecond}); r.Reason != machine.TimedOut {
				t.Fatalf("cycle %d: %+v", i, r)
			}
		case 2:
			cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			_, err := m.Run(cctx, machine.Command{Argv: []string{"sleep", "100"}, OutputLimit: 10})
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("cycle %d: %v", i, err)
			}
		}
		if i%10 == 1 || i%10 == 2 {
			// A first command stopped by a timeout or a cancellation
			// leaves the machine usable.
			if r := Sh(t, m, "echo alive"); string(r.Stdout) != "alive\n" {
				t.Fatalf("cycle %d: %+v", i, r)
			}
		}
		if err := m.Close(ctx); err != nil {
			t.Fatalf("cycle %d close: %v", i, err)
		}
	}
	after, err := Count(ctx, f.Client(), docker.LabelBackend, f.Backend())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cycles in %v; before %+v after %+v", cycles, time.Since(start), before, after)
	// Containers are told apart by id: other processes (the gvisor
	// tests, the Python tests) may use the same daemon meanwhile.
	left, err := f.Client().ContainerList(ctx, container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", docker.LabelBackend+"="+f.Backend()))})
	if err != nil {
		t.Fatal(err)
	}
	others := 0
	for _, c := range left {
		if ours[c.ID] {
			t.Errorf("leaked container %s (%s)", c.ID, c.State)
		} else {
			others++
		}
	}
	if after.Containers > before.Containers && others > 0 {
		t.Logf("%d labelled containers belong to another user of the daemon", others)
	}
	if after.Networks > before.Networks || after.Volumes > before.Volumes || after.AllVolumes > before.AllVolumes {
		t.Fatalf("leaked: before %+v after %+v", before, after)
	}
}

func ioReadFull(p machine.Process, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := p.Stdout().Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func readAll(p machine.Process) ([]byte, error) {
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := p.Stdout().Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
	}
}
