package gvisor_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

var factory *docker.Factory

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	f, lock, err := dockertest.Setup(context.Background(), docker.GvisorConfig(docker.Options{}))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer lock.Release()
	factory = f
	return m.Run()
}

// runsc with the ptrace platform is slow: the suites run the same checks as
// the docker backend's, with fewer cycles and smaller outputs.
func TestExecSemantics(t *testing.T)    { t.Parallel(); dockertest.ExecSemantics(t, factory) }
func TestUsers(t *testing.T)            { t.Parallel(); dockertest.Users(t, factory) }
func TestConcurrency(t *testing.T)      { t.Parallel(); dockertest.Concurrency(t, factory, 2, 5) }
func TestBoundedDownloads(t *testing.T) { t.Parallel(); dockertest.BoundedDownloads(t, factory) }
func TestResources(t *testing.T)        { dockertest.Resources(t, factory) }
func TestNetwork(t *testing.T)          { t.Parallel(); dockertest.Network(t, factory) }
func TestSources(t *testing.T)          { t.Parallel(); dockertest.Sources(t, factory) }
func TestCreateCancel(t *testing.T)     { dockertest.CreateCancel(t, factory) }

func TestRegistered(t *testing.T) {
	f, err := machine.Open("gvisor", json.RawMessage(`{"host": "`+factory.Host()+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Backend() != "gvisor" || f.(*docker.Factory).Runtime() != "runsc" {
		t.Fatal(f.Backend())
	}
}

// TestRuntimeNotRegistered: a daemon without the runtime gives a
// SandboxUnavailable that says how to register it.
func TestRuntimeNotRegistered(t *testing.T) {
	rt := "runsc-not-registered"
	_, err := docker.New(context.Background(), docker.GvisorConfig(docker.Options{Runtime: &rt}))
	var un *machine.SandboxUnavailable
	if !errors.As(err, &un) || !strings.Contains(err.Error(), "daemon.json") {
		t.Fatalf("got %v", err)
	}
	t.Log(err)
}

// TestRuntimeIsRunsc: commands really run under gVisor.
func TestRuntimeIsRunsc(t *testing.T) {
	m := dockertest.NewMachine(t, factory, nil)
	out := string(dockertest.Sh(t, m, "dmesg 2>/dev/null | head -1; cat /proc/version").Stdout)
	if !strings.Contains(out, "gVisor") && !strings.Contains(out, "4.4.0") {
		t.Fatalf("not gVisor: %q", out)
	}
}
