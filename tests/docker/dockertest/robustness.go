package dockertest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machine/machinetest"
)

// GuestPaths: guest paths that are relative, hold ".." or a NUL byte are
// refused before any I/O, naming the field (a NUL once panicked net/http
// in the embedding process and hung gVisor uploads).
func GuestPaths(t *testing.T, f *docker.Factory) {
	ctx := context.Background()
	m := NewMachine(t, f, nil)
	host := t.TempDir()
	src := filepath.Join(host, "t.txt")
	writeFile(t, src, "x", 0o644)
	var invalid *machine.InvalidSpec
	for _, p := range []string{"out.bin", "/workspace/../workspace/out.bin", "/tmp/a\x00b", "/tmp/\x00", ""} {
		if err := m.Download(ctx, p, filepath.Join(host, "bad"), machine.DownloadOptions{}); !errors.As(err, &invalid) || invalid.Field != "source" {
			t.Fatalf("download from %q: %v", p, err)
		}
		if err := m.Upload(ctx, src, p); !errors.As(err, &invalid) || invalid.Field != "target" {
			t.Fatalf("upload to %q: %v", p, err)
		}
	}
	if err := m.Upload(ctx, filepath.Join(host, "t\x00.txt"), "/tmp/x"); !errors.As(err, &invalid) || invalid.Field != "source" {
		t.Fatalf("upload from a host path with NUL: %v", err)
	}
	wantOut(t, Sh(t, m, "ls -A /tmp; ls -A /workspace"), 0, "", "")
	if _, err := os.Stat(filepath.Join(host, "bad")); err == nil {
		t.Fatal("a refused download created its target")
	}
}

// ForkBomb: a fork bomb is held by the container's task limit: one in the
// foreground ends at its timeout with the machine usable; one left in the
// background does not keep the command from returning, stays within the
// limit, and closing the machine removes it. With sandboxEnds (gVisor,
// whose sandbox counts its own host threads against the limit and ends
// when it cannot create one), a run may instead end early with
// MachineTerminated, the machine then closing cleanly.
func ForkBomb(t *testing.T, f *docker.Factory, limit int, sandboxEnds bool) {
	for _, first := range []bool{true, false} {
		// The machine's first command runs in its main process, later
		// ones as execs.
		m := NewMachine(t, f, nil)
		if !first {
			Sh(t, m, "true")
		}
		start := time.Now()
		r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "f(){ f|f& };f; sleep 100"}, Timeout: 5 * time.Second, OutputLimit: 1 << 10})
		took := time.Since(start)
		// A saturated gVisor sandbox may not answer the stop request; the
		// run then gives up on the group after its 60 s stop deadline
		// (measured 65 s on a loaded CI host) and ends the machine.
		if sandboxEnds && errors.Is(err, machine.ErrTerminated) && took < 90*time.Second {
			t.Logf("a foreground fork bomb (first command %v) ended the sandbox after %v: %v", first, took, err)
			if err := m.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err != nil || r.Reason != machine.TimedOut || took > 15*time.Second {
			t.Fatalf("a foreground fork bomb (first command %v) after %v: %v %v", first, took, r.Reason, err)
		}
		t.Logf("a foreground fork bomb (first command %v) timed out after %v", first, took)
		wantOut(t, Sh(t, m, "echo ok"), 0, "ok\n", "")
	}

	m := NewMachine(t, f, nil)
	start := time.Now()
	r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "f(){ f|f& };f"}, Timeout: 5 * time.Second, OutputLimit: 1 << 10})
	took := time.Since(start)
	if err != nil && !(sandboxEnds && errors.Is(err, machine.ErrTerminated)) || took > 15*time.Second {
		t.Fatalf("a background fork bomb after %v: %v %v", took, r.Reason, err)
	}
	t.Logf("a background fork bomb: %v after %v", r.Reason, took)
	time.Sleep(2 * time.Second)
	// Forks stop at the limit; the machine's own exec processes (the
	// spare execs and their shells) are moved into the cgroup by the
	// runtime, which the pids controller does not refuse, so they may
	// stand above it (CI counted 4,101 at a limit of 4,096).
	n, err := tasks(f, m)
	switch {
	case err != nil && sandboxEnds && strings.Contains(err.Error(), "is not running"):
		// The bomb ended the gVisor sandbox after the command returned:
		// the next command (with no timeout of its own) reports the
		// machine terminated instead of waiting on an exec the dead
		// sandbox never ends, and the machine closes cleanly (below).
		t.Logf("the background fork bomb ended the sandbox: %v", err)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		start := time.Now()
		_, err := m.Run(ctx, machine.Command{Argv: []string{"true"}})
		cancel()
		if !errors.Is(err, machine.ErrTerminated) || time.Since(start) > 20*time.Second {
			t.Fatalf("a run after the sandbox ended: %v after %v", err, time.Since(start))
		}
	case err != nil || n > limit+2*(docker.DefaultSpareExecs+1):
		t.Fatalf("%d tasks in the container (%v)", n, err)
	default:
		t.Logf("%d tasks in the container", n)
	}
	start = time.Now()
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("closed in %v", time.Since(start))
}

// tasks counts the container's tasks from its pids cgroup (runc), else the
// processes the daemon lists.
func tasks(f *docker.Factory, m *docker.Machine) (int, error) {
	for _, p := range []string{"/sys/fs/cgroup/pids/docker/" + m.ContainerID() + "/pids.current", "/sys/fs/cgroup/system.slice/docker-" + m.ContainerID() + ".scope/pids.current"} {
		if data, err := os.ReadFile(p); err == nil {
			var n int
			_, err := fmt.Sscan(string(data), &n)
			return n, err
		}
	}
	top, err := f.Client().ContainerTop(context.Background(), m.ContainerID(), nil)
	return len(top.Processes), err
}

// OwnerEnv makes a test binary act as the owner process of OwnerDeath.
const OwnerEnv = "SHELLBOX_DOCKERTEST_OWNER"

// Owner is what a test binary runs, from an init function, when OwnerEnv
// is set (to the runtime, "-" for the default): it creates a machine,
// leaves a background process in it, starts a long command, prints the
// container's id and waits to be killed.
func Owner() {
	rt := os.Getenv(OwnerEnv)
	if rt == "-" {
		rt = ""
	}
	ctx := context.Background()
	f, err := docker.New(ctx, docker.Config{Runtime: rt})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	m, err := f.CreateMachine(ctx, machine.Spec{Source: Busybox, Network: machine.NetworkDeny})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	if _, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 & echo started"}, OutputLimit: 100}); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	go func() { _, _ = m.Run(ctx, machine.Command{Argv: []string{"sleep", "1000"}, OutputLimit: 100}) }()
	time.Sleep(time.Second)
	fmt.Println("container", m.ContainerID())
	select {}
}

// OwnerDeath: the containers of a process killed with SIGKILL stop within
// seconds (their lifeline ends), and the next factory removes them.
func OwnerDeath(t *testing.T, f *docker.Factory) {
	rt := f.Runtime()
	if rt == "" {
		rt = "-"
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), OwnerEnv+"="+rt)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	id, ok := strings.CutPrefix(strings.TrimSpace(line), "container ")
	if err != nil || !ok {
		t.Fatalf("owner: %q %v", line, err)
	}
	cli := f.Client()
	ctx := context.Background()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed := time.Now()
	for {
		insp, err := cli.ContainerInspect(ctx, id)
		if err != nil {
			t.Fatalf("inspect: %v", err)
		}
		if !insp.State.Running {
			break
		}
		if time.Since(killed) > 10*time.Second {
			t.Fatalf("container %s still running %v after its owner was killed", id, time.Since(killed))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the container stopped %v after its owner was killed", time.Since(killed))
	if _, err := docker.New(ctx, docker.Config{Runtime: f.Runtime()}); err != nil {
		t.Fatal(err)
	}
	swept := time.Now()
	for {
		if _, err := cli.ContainerInspect(ctx, id); err != nil {
			break
		}
		if time.Since(swept) > 30*time.Second {
			t.Fatalf("container %s not removed %v after a new factory started", id, time.Since(swept))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the next factory removed it in %v", time.Since(swept))
}

// LargeOutput: mib MiB of output under a larger limit are held once, off
// the Go heap as the bridge asks (machine.Command.OffHeapOutput): the
// process grows by little more than the output, and Free gives it back.
func LargeOutput(t *testing.T, f *docker.Factory, mib int) {
	m := NewMachine(t, f, nil)
	Sh(t, m, "true") // the machine's first command is not the one measured
	size := mib << 20
	var r machine.Result
	runtime.GC()
	debug.FreeOSMemory()
	base := machinetest.RSS()
	grow := machinetest.PeakRSS(func() {
		r = Run(t, m, machine.Command{
			Argv:          []string{"sh", "-c", fmt.Sprintf("head -c %d /dev/zero | tr '\\000' x; echo done >&2", size)},
			OutputLimit:   2 << 30,
			OffHeapOutput: true,
		})
	})
	t.Logf("%d MiB of output: RSS grew %d MiB", mib, grow>>20)
	if Code(r) != 0 || len(r.Stdout) != size || r.StdoutTruncated || string(r.Stderr) != "done\n" || r.Stdout[size-1] != 'x' {
		t.Fatalf("code %d, %d bytes, truncated %v, stderr %q", Code(r), len(r.Stdout), r.StdoutTruncated, r.Stderr)
	}
	if limit := int64(size)*13/10 + 64<<20; grow > limit {
		t.Fatalf("RSS grew %d MiB for %d MiB of output (bound %d MiB)", grow>>20, mib, limit>>20)
	}
	if r.Free == nil {
		t.Fatal("an off-heap result has no Free")
	}
	r.Free()
	runtime.GC()
	if after := machinetest.RSS() - base; after > 64<<20 {
		t.Fatalf("RSS still %d MiB over the start after Free", after>>20)
	}
}

// StopBeforeFirstCommand: a timeout that reaches the main process before
// it got a first command (the first Run had stdin, so it ran as an exec)
// leaves later commands working.
func StopBeforeFirstCommand(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sleep", "100"}, Stdin: []byte("x"), Timeout: time.Second, OutputLimit: 100})
	if err != nil || r.Reason != machine.TimedOut {
		t.Fatalf("%+v %v", r, err)
	}
	wantOut(t, Sh(t, m, "echo ok"), 0, "ok\n", "")
	wantOut(t, Sh(t, m, "echo again"), 0, "again\n", "")
}

// LongCommand: a command line too long for the wrapper to read from stdin
// (over 16 KiB) travels in the exec's own arguments and environment and
// behaves as a short one: argv bytes (control bytes included), env, cwd,
// stdin, exit status and timeout. (On gVisor a 1 MB command line read from
// stdin a byte at a time took 90 s.)
func LongCommand(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	big := strings.Repeat("a", 100<<10)
	odd := "line\nwith 'quotes' and \x01 control $HOME"
	r := Run(t, m, machine.Command{
		Argv:  []string{"sh", "-c", `pwd; echo "$V"; printf '%s|' "$1" "$3"; echo ${#2}; cat; exit 7`, "sh", odd, big, "end"},
		Env:   map[string]string{"V": strings.Repeat("v", 20<<10) + "!", "weird.name": "w"},
		Cwd:   "/tmp",
		Stdin: []byte("from stdin\n"),
	})
	want := "/tmp\n" + strings.Repeat("v", 20<<10) + "!\n" + odd + "|end|" + fmt.Sprint(100<<10) + "\nfrom stdin\n"
	if Code(r) != 7 || string(r.Stdout) != want {
		t.Fatalf("long command: exit %d, stdout %.200q", Code(r), r.Stdout)
	}
	start := time.Now()
	r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "sleep 100", "sh", big}, Timeout: time.Second, OutputLimit: 1 << 10})
	if err != nil || r.Reason != machine.TimedOut || time.Since(start) > 20*time.Second {
		t.Fatalf("long command with a timeout: %+v %v after %v", r.Reason, err, time.Since(start))
	}
	wantOut(t, Sh(t, m, "echo ok"), 0, "ok\n", "")
}

// ContainerDies: when a machine's container dies under it (its init
// killed from the host, as a fork bomb can end a gVisor sandbox, or a
// `docker kill` from outside), a command waiting on it, the next command
// and a transfer end with MachineTerminated within seconds, none hangs,
// and the machine closes. Some runtimes never end the streams of execs
// whose container died (runsc), so the backend must notice the death
// itself.
func ContainerDies(t *testing.T, f *docker.Factory) {
	for _, how := range []string{"init-killed", "docker-kill"} {
		t.Run(how, func(t *testing.T) {
			ctx := context.Background()
			m := NewMachine(t, f, nil)
			// Later commands run in the spare execs started meanwhile.
			Sh(t, m, "true")
			wantOut(t, Sh(t, m, "echo ready"), 0, "ready\n", "")
			running := make(chan error, 1)
			go func() {
				_, err := m.Run(ctx, machine.Command{Argv: []string{"sleep", "1000"}, OutputLimit: 100})
				running <- err
			}()
			time.Sleep(time.Second)
			switch how {
			case "init-killed":
				insp, err := f.Client().ContainerInspect(ctx, m.ContainerID())
				if err != nil || insp.State == nil || insp.State.Pid <= 0 {
					t.Fatalf("the container's init: %v", err)
				}
				if err := syscall.Kill(insp.State.Pid, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			case "docker-kill":
				if err := f.Client().ContainerKill(ctx, m.ContainerID(), "KILL"); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			select {
			case err := <-running:
				if !errors.Is(err, machine.ErrTerminated) {
					t.Fatalf("the command running as the container died: %v", err)
				}
				t.Logf("the running command ended after %v: %v", time.Since(start), err)
			case <-time.After(60 * time.Second):
				t.Fatal("the command running as the container died still waits after 60 s")
			}
			for _, op := range []struct {
				name string
				do   func(context.Context) error
			}{
				{"run", func(ctx context.Context) error {
					_, err := m.Run(ctx, machine.Command{Argv: []string{"true"}})
					return err
				}},
				{"download", func(ctx context.Context) error {
					return m.Download(ctx, "/etc/hostname", filepath.Join(t.TempDir(), "h"), machine.DownloadOptions{})
				}},
			} {
				octx, cancel := context.WithTimeout(ctx, 60*time.Second)
				start := time.Now()
				err := op.do(octx)
				cancel()
				if !errors.Is(err, machine.ErrTerminated) || time.Since(start) > 20*time.Second {
					t.Fatalf("%s after the container died: %v after %v", op.name, err, time.Since(start))
				}
			}
			if err := m.Close(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}
