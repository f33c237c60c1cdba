package docker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// idleWrappers counts the wrapper shells in m's container that wait for a
// command (every wrapper but the one running this count).
func idleWrappers(t *testing.T, m machine.Machine) int {
	t.Helper()
	r, err := m.Run(context.Background(), machine.Command{Argv: []string{"ps", "-o", "args"}, OutputLimit: 1 << 16})
	if err != nil || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("ps: %+v %v", r, err)
	}
	return strings.Count(string(r.Stdout), "shellbox-run") - 1
}

// A machine keeps SpareExecs wrapper execs waiting once it has run a
// command, never more, however fast commands follow each other; Close
// removes the container with them, also while replacements are starting.
func TestSpareExecPool(t *testing.T) {
	ctx := context.Background()
	f, err := docker.New(ctx, docker.Config{Backend: "docker", SpareExecs: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Client().Close()
	spec := machine.Spec{Source: dockertest.Busybox, Workdir: "/workspace", Network: machine.NetworkDeny}
	m, err := f.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	id := m.(*docker.Machine).ContainerID()
	true_ := machine.Command{Argv: []string{"true"}, OutputLimit: 100}
	if _, err := m.Run(ctx, true_); err != nil {
		t.Fatal(err)
	}
	// Each count takes a spare and starts its replacement: wait for the
	// pool to be full again.
	deadline := time.Now().Add(60 * time.Second)
	n := idleWrappers(t, m)
	for n < 3 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		n = idleWrappers(t, m)
	}
	if n != 2 && n != 3 {
		// The count itself took one whose replacement may still start.
		t.Fatalf("%d wrappers wait, want the pool of 3 (one perhaps still starting)", n)
	}
	for i := 0; i < 20; i++ {
		if r, err := m.Run(ctx, true_); err != nil || *r.ExitCode != 0 {
			t.Fatalf("run %d: %+v %v", i, r, err)
		}
	}
	if n := idleWrappers(t, m); n > 3 {
		t.Fatalf("%d wrappers wait after back-to-back runs, more than the pool's 3", n)
	}
	// Close while replacements are starting.
	if _, err := m.Run(ctx, true_); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Client().ContainerInspect(ctx, id); err == nil {
		t.Fatalf("container %s is still there after Close", id)
	}

	// With no spares every Run starts its own exec.
	f0, err := docker.New(ctx, docker.Config{Backend: "docker", SpareExecs: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer f0.Client().Close()
	m0, err := f0.Create(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer m0.Close(ctx)
	m0.Run(ctx, true_)
	time.Sleep(time.Second)
	if n := idleWrappers(t, m0); n != 0 {
		t.Fatalf("%d wrappers wait with SpareExecs -1", n)
	}
}
