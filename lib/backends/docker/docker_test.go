package docker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

var (
	factory *docker.Factory
	lock    *dockertest.Lock
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	if factory, lock, err = dockertest.Setup(context.Background(), docker.Config{Backend: "docker"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer lock.Release()
	return m.Run()
}

func TestExecSemantics(t *testing.T)    { t.Parallel(); dockertest.ExecSemantics(t, factory) }
func TestUsers(t *testing.T)            { t.Parallel(); dockertest.Users(t, factory) }
func TestConcurrency(t *testing.T)      { t.Parallel(); dockertest.Concurrency(t, factory, 4, 10) }
func TestBoundedDownloads(t *testing.T) { t.Parallel(); dockertest.BoundedDownloads(t, factory) }
func TestResources(t *testing.T)        { dockertest.Resources(t, factory) }
func TestNetwork(t *testing.T)          { t.Parallel(); dockertest.Network(t, factory) }
func TestSources(t *testing.T)          { t.Parallel(); dockertest.Sources(t, factory) }
func TestCreateCancel(t *testing.T)     { dockertest.CreateCancel(t, factory) }

func TestRegistered(t *testing.T) {
	f, err := machine.Open("docker", json.RawMessage(`{"host": "`+factory.Host()+`", "runtime": null}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Backend() != "docker" {
		t.Fatal(f.Backend())
	}
	var invalid *machine.InvalidSpec
	if _, err := machine.Open("docker", json.RawMessage(`{"hots": "x"}`)); !errors.As(err, &invalid) {
		t.Fatalf("unknown option: %v", err)
	}
	var un *machine.SandboxUnavailable
	if _, err := machine.Open("docker", json.RawMessage(`{"runtime": "no-such-runtime"}`)); !errors.As(err, &un) {
		t.Fatalf("unknown runtime: %v", err)
	}
}

// TestDaemonUnreachable: a bogus socket gives one clear error naming it.
func TestDaemonUnreachable(t *testing.T) {
	sock := "unix:///tmp/shellbox-no-such-docker.sock"
	_, err := docker.New(context.Background(), docker.Config{Host: sock})
	var un *machine.SandboxUnavailable
	if !errors.As(err, &un) || !strings.Contains(err.Error(), "/tmp/shellbox-no-such-docker.sock") || machine.KindOf(err) != machine.KindSandboxUnavailable {
		t.Fatalf("got %v", err)
	}
	t.Log(err)
	t.Setenv("DOCKER_HOST", sock)
	if _, err := machine.Open("docker", nil); !errors.As(err, &un) {
		t.Fatalf("DOCKER_HOST: %v", err)
	}
}

// TestDaemonRestart stops dockerd during a long command: the command ends
// with machine.ErrTerminated instead of hanging, and the machine can still
// be closed once the daemon is back. It takes the shared lock exclusively,
// so no other test process uses the daemon meanwhile.
func TestDaemonRestart(t *testing.T) {
	if err := lock.Exclusive(); err != nil {
		t.Fatal(err)
	}
	defer lock.Downgrade()
	ctx := context.Background()
	m, err := factory.CreateMachine(ctx, machine.Spec{Source: dockertest.Busybox, Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	type outcome struct {
		res machine.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := m.Run(ctx, machine.Command{Argv: []string{"sleep", "600"}, OutputLimit: 100})
		done <- outcome{res, err}
	}()
	time.Sleep(time.Second)
	pidText, err := os.ReadFile("/var/run/docker.pid")
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := dockertest.StartDaemon(ctx); err != nil {
			t.Fatal(err)
		}
	}()
	select {
	case o := <-done:
		if !errors.Is(o.err, machine.ErrTerminated) || machine.KindOf(o.err) != machine.KindTerminated {
			t.Fatalf("run during restart: code %d %+v %v", dockertest.Code(o.res), o.res, o.err)
		}
		t.Log(o.err)
	case <-time.After(60 * time.Second):
		t.Fatal("run hung while the daemon stopped")
	}
	for i := 0; i < 300 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if err := dockertest.StartDaemon(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrTerminated) {
		t.Fatalf("run after restart: %v", err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := factory.Client().ContainerInspect(ctx, m.ContainerID()); err == nil {
		t.Fatal("container survived close")
	}
	// The factory keeps working against the restarted daemon.
	m2 := dockertest.NewMachine(t, factory, nil)
	if r := dockertest.Sh(t, m2, "echo back"); string(r.Stdout) != "back\n" {
		t.Fatalf("%q", r.Stdout)
	}
}
