package dockertest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

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

// ExecSemantics: what machinetest does not check (it sets a workdir for
// every machine): an empty workdir keeps the image's (the busybox image has
// none: /).
func ExecSemantics(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, func(s *machine.Spec) { s.Workdir = "" })
	wantOut(t, Sh(t, m, "pwd"), 0, "/\n", "")
}

// Users: a numeric uid the image does not know runs as that uid
// (machinetest checks names, known uids and refusals).
func Users(t *testing.T, f *docker.Factory) {
	m := NewMachine(t, f, nil)
	wantOut(t, Run(t, m, machine.Command{Argv: []string{"id", "-u"}, User: "12345"}), 0, "12345\n", "")
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
