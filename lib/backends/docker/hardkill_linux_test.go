package docker

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestKillContainerTasks: the fallback that removal uses when a runtime
// cannot stop its container (a gVisor sandbox saturated by a fork bomb)
// ends the container from the host, and it never signals a process that
// is not the named container's (a host process, or a PID given with
// another container's id).
func TestKillContainerTasks(t *testing.T) {
	eachRuntime(t, func(t *testing.T, f *Factory, m *Machine) {
		ctx := context.Background()
		if _, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 >/dev/null 2>&1 &"}}); err != nil {
			t.Fatal(err)
		}
		pid := f.initPID(ctx, m.id)
		if pid <= 0 {
			t.Fatalf("no init PID for a running container: %d", pid)
		}

		other := "0000000000000000000000000000000000000000000000000000000000000000"
		if n := killContainerTasks(other, pid); n != 0 {
			t.Fatalf("the container's init was signalled under another id (%d)", n)
		}
		if reason := m.deadReason(); reason != "" {
			t.Fatalf("the container stopped: %s", reason)
		}
		// A PID that is not the container's (reused, or wrong) is
		// never signalled; the container's own cgroup still finds
		// its tasks.
		host := exec.Command("sleep", "1000")
		if err := host.Start(); err != nil {
			t.Fatal(err)
		}
		defer host.Process.Kill()
		if n := killContainerTasks(m.id, host.Process.Pid); n == 0 {
			t.Fatal("nothing was signalled")
		}
		if err := host.Process.Signal(syscall.Signal(0)); err != nil {
			t.Fatalf("the host process was signalled: %v", err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for m.deadReason() == "" {
			if time.Now().After(deadline) {
				t.Fatal("the container still runs 30 s after its tasks were killed")
			}
			time.Sleep(200 * time.Millisecond)
		}
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// TestCloseEndsAStuckSandbox: a gVisor sandbox that cannot answer the
// runtime (stopped here with SIGSTOP; a fork bomb that saturates it has
// the same effect) used to hold the forced removal until removeTimeout,
// so Close failed and the container stayed. Close now kills its host
// tasks after removeGrace and succeeds.
func TestCloseEndsAStuckSandbox(t *testing.T) {
	ctx := context.Background()
	f, err := New(ctx, Config{Runtime: "runsc"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.CreateMachine(ctx, machine.Spec{Source: machine.DockerImage{Reference: "shellbox-test/busybox:latest"}, Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	pid := f.initPID(ctx, m.id)
	if pid <= 0 {
		t.Fatalf("no init PID: %d", pid)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = m.Close(ctx)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("after %v: %v", took, err)
	}
	if took >= removeTimeout {
		t.Fatalf("Close took %v", took)
	}
	if _, err := f.cli.ContainerInspect(ctx, m.id); !isNotFound(err) {
		t.Fatalf("the container is still there: %v", err)
	}
	t.Logf("closed in %v", took)
}

// TestKillContainerShim: the last resort of a removal that a dead runtime
// blocks finds the shim of exactly the named container; once the shim is
// gone the machine reports itself terminated and closes.
func TestKillContainerShim(t *testing.T) {
	eachRuntime(t, func(t *testing.T, f *Factory, m *Machine) {
		ctx := context.Background()
		if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}}); err != nil {
			t.Fatal(err)
		}
		if killContainerShim(m.id[:12]) || killContainerShim("0000000000000000000000000000000000000000000000000000000000000000") {
			t.Fatal("a shim was killed for an id it does not serve")
		}
		if !killContainerShim(m.id) {
			t.Fatal("no shim found for a running container")
		}
		// containerd cleans up after a dead shim: it ends the task.
		deadline := time.Now().Add(30 * time.Second)
		for m.deadReason() == "" {
			if time.Now().After(deadline) {
				t.Fatal("the container still runs 30 s after its shim was killed")
			}
			time.Sleep(100 * time.Millisecond)
		}
		rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		start := time.Now()
		if _, err := m.Run(rctx, machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrTerminated) || time.Since(start) > 20*time.Second {
			t.Fatalf("a run after the shim was killed: %v after %v", err, time.Since(start))
		}
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := f.cli.ContainerInspect(ctx, m.id); !isNotFound(err) {
			t.Fatalf("the container is still there after Close: %v", err)
		}
	})
}

func TestIsShimOf(t *testing.T) {
	id := "7522110403e1c384cffc385385e91cdecdda95400cf55597a1ea3e6803bca358"
	for _, c := range []struct {
		argv []string
		want bool
	}{
		{[]string{"/usr/bin/containerd-shim-runc-v2", "-namespace", "moby", "-id", id, "-address", "/run/c.sock"}, true},
		{[]string{"/usr/bin/containerd-shim-runc-v2", "-namespace", "moby", "-id", id[:12]}, false},
		{[]string{"/usr/bin/containerd-shim-runc-v2", "-namespace", "moby", "-id"}, false},
		{[]string{"/bin/sleep", "-id", id}, false},
		{[]string{"containerd-shim", "-id", id + "0"}, false},
		{nil, false},
	} {
		if got := isShimOf(c.argv, id); got != c.want {
			t.Errorf("isShimOf(%q) = %v", c.argv, got)
		}
	}
}

// TestGuestPosingAsShimIsNotKilled (an attack): a container's processes
// are visible in the host's /proc, so a guest can run one whose command
// line is a shim's for any container id. The last resort of a blocked
// removal must never take it for a shim: it would signal a guest process
// in place of the shim (or none at all).
func TestGuestPosingAsShimIsNotKilled(t *testing.T) {
	ctx := context.Background()
	f, err := New(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.CreateMachine(ctx, machine.Spec{Source: machine.DockerImage{Reference: "shellbox-test/busybox:latest"}, Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	// A static program that only waits, named as containerd's shim.
	src := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module fakeshim\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"time\"\n\nfunc main() { time.Sleep(time.Hour) }\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "containerd-shim-runc-v2")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = src
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the fake shim: %v: %s", err, out)
	}
	if err := m.Upload(ctx, bin, "/tmp/containerd-shim-runc-v2"); err != nil {
		t.Fatal(err)
	}
	target := "1111111111111111111111111111111111111111111111111111111111111111"
	r, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "/tmp/containerd-shim-runc-v2 -namespace moby -id " + target + " >/dev/null 2>&1 & echo $!"}})
	if err != nil || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("starting the fake shim: %+v %v", r, err)
	}
	pid := strings.TrimSpace(string(r.Stdout))
	// The host sees it with the shim's command line.
	seen := false
	for deadline := time.Now().Add(10 * time.Second); !seen && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		procs, _ := os.ReadDir("/proc")
		for _, p := range procs {
			data, err := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
			if err == nil && isShimOf(strings.Split(strings.TrimRight(string(data), "\x00"), "\x00"), target) {
				seen = true
			}
		}
	}
	if !seen {
		t.Fatal("the fake shim never appeared in the host's /proc")
	}
	if killContainerShim(target) {
		t.Fatal("a guest process posing as a shim was killed")
	}
	r, err = m.Run(ctx, machine.Command{Argv: []string{"kill", "-0", pid}})
	if err != nil || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("the fake shim (pid %s in the guest) is gone: %+v %v", pid, r, err)
	}
}
