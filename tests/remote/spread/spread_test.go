package spread_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/backends/spread"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// Machines spread over two Docker daemons (the host's and a second one on
// a loopback TCP port with TLS), two at most on each; a Create beyond that
// waits for a free place; when the second daemon stops, its machines
// report MachineTerminated and new machines go to the first.
func TestTwoDaemons(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	lock, err := dockertest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	if err := dockertest.StartDaemon(ctx); err != nil {
		t.Fatal(err)
	}
	local, err := docker.New(ctx, docker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := dockertest.EnsureBusybox(ctx, local.Client()); err != nil {
		t.Fatal(err)
	}
	d := dockertest.StartTLSDaemon(t)
	t.Setenv(docker.EnvTLSVerify, "1")
	t.Setenv(docker.EnvCertPath, d.Certs)
	var remote *docker.Factory
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		if remote, err = docker.New(ctx, docker.Config{Host: d.Host}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the second daemon did not answer: %v\n%s", err, d.Log())
		}
	}
	if err := dockertest.EnsureBusybox(ctx, remote.Client()); err != nil {
		t.Fatal(err)
	}
	f, err := spread.New([]spread.Member{{Name: "local", Factory: local, Limit: 2}, {Name: "tls", Factory: remote, Limit: 2}}, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spec := machine.Spec{Source: dockertest.Busybox, Workdir: "/workspace", Network: machine.NetworkDeny}

	machines := make([]machine.Machine, 4)
	var wg sync.WaitGroup
	for i := range machines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := f.Create(ctx, spec)
			if err != nil {
				t.Error(err)
				return
			}
			machines[i] = m
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	defer func() {
		for _, m := range machines {
			if m != nil {
				m.Close(context.Background())
			}
		}
	}()
	if l := f.Loads(); l["local"] != 2 || l["tls"] != 2 {
		t.Fatalf("loads %v, want 2 and 2", l)
	}
	// Every place is taken: a fifth machine waits.
	wctx, wcancel := context.WithTimeout(ctx, time.Second)
	if _, err := f.Create(wctx, spec); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a fifth machine: %v, want to wait", err)
	}
	wcancel()
	got := make(chan machine.Machine, 1)
	go func() {
		m, err := f.Create(ctx, spec)
		if err != nil {
			t.Error(err)
		}
		got <- m
	}()
	time.Sleep(300 * time.Millisecond)
	// Free one place on the first daemon for the waiting Create.
	for i, m := range machines {
		if asSpread(m).Member() == "local" {
			if err := m.Close(ctx); err != nil {
				t.Fatal(err)
			}
			machines[i] = nil
			break
		}
	}
	fifth := <-got
	if fifth == nil {
		t.FailNow()
	}
	defer fifth.Close(context.Background())
	if asSpread(fifth).Member() != "local" {
		t.Fatalf("the freed place was on local, the machine went to %s", asSpread(fifth).Member())
	}
	var onTLS []*spread.Machine
	for _, m := range machines {
		if m != nil && asSpread(m).Member() == "tls" {
			onTLS = append(onTLS, asSpread(m))
		}
	}
	if r, err := onTLS[0].Run(ctx, machine.Command{Argv: []string{"echo", "remote"}, OutputLimit: 100}); err != nil || string(r.Stdout) != "remote\n" {
		t.Fatalf("%+v %v", r, err)
	}

	// The second daemon stops: its machines are terminated, new ones go to
	// the first daemon once it has room.
	d.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := onTLS[0].Run(ctx, machine.Command{Argv: []string{"true"}, OutputLimit: 10})
		if errors.Is(err, machine.ErrTerminated) && machine.KindOf(err) == machine.KindTerminated {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a machine of the stopped daemon: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, s := range onTLS {
		if err := s.Close(ctx); err != nil {
			t.Fatalf("closing a machine of the stopped daemon: %v", err)
		}
	}
	if l := f.Loads(); l["tls"] != 0 {
		t.Fatalf("loads %v after closing the stopped daemon's machines", l)
	}
	wctx, wcancel = context.WithTimeout(ctx, time.Second)
	defer wcancel()
	if _, err := f.Create(wctx, spec); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with the first daemon full and the second down: %v, want to wait", err)
	}
}

func asSpread(m machine.Machine) *spread.Machine {
	switch v := m.(type) {
	case *spread.Machine:
		return v
	case interface{ Spread() *spread.Machine }:
		return v.Spread()
	}
	panic("not a spread machine")
}

// The registered constructor builds members from their backends' options.
func TestOpen(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	lock, err := dockertest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	f, err := machine.Open("spread", []byte(`{"members": [{"backend": "docker", "options": {}, "limit": 1}], "check_every": 0.2}`))
	if err != nil {
		t.Fatal(err)
	}
	defer f.(*spread.Factory).Close()
	m, err := f.Create(ctx, machine.Spec{Source: dockertest.Busybox, Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := m.Run(ctx, machine.Command{Argv: []string{"echo", "ok"}, OutputLimit: 10}); err != nil || string(r.Stdout) != "ok\n" {
		t.Fatalf("%+v %v", r, err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`{"members": []}`, `{"members": [{"backend": "spread", "options": {}}]}`, `{"members": [{"backend": "docker", "limit": -1}]}`} {
		if _, err := machine.Open("spread", []byte(bad)); machine.KindOf(err) != machine.KindInvalid {
			t.Fatalf("%s: %v", bad, err)
		}
	}
}
