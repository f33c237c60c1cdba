package daytona_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/daytona"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/daytonad"
)

// A sandbox whose TTL ends is deleted by the server (its machine closed)
// whatever its client does, as ttl_minutes promises; the sandbox object
// says when.
func TestTTLDeletesTheSandbox(t *testing.T) {
	t.Parallel()
	srv, err := daytonad.New(daytonad.Config{APIKey: apiKey, Factory: dockerFactory, TTLUnit: 500 * time.Millisecond,
		Source: func(image string) (machine.Source, error) { return machine.DockerImage{Reference: image}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	defer srv.Close(context.Background())
	ttl := 1
	f, err := daytona.New(daytona.Options{APIKey: apiKey, APIURL: hs.URL + "/api", TTLMinutes: &ttl})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m, err := f.Create(ctx, machine.Spec{Source: machine.RegistryImage{Reference: testImage}, Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	id := m.(*daytona.Machine).SandboxID()
	sb, err := f.Client().GetSandbox(ctx, id)
	if err != nil || sb.AutoDestroyAt == "" {
		t.Fatalf("%+v %v", sb, err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := f.Client().GetSandbox(ctx, id); daytona.IsNotFound(err) && srv.Sandboxes() == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sandbox outlived its TTL")
		}
	}
	if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}, OutputLimit: 10}); !errors.Is(err, machine.ErrTerminated) || machine.KindOf(err) != machine.KindTerminated {
		t.Fatalf("a command in a sandbox past its TTL: %v", err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatalf("closing a sandbox the server already deleted: %v", err)
	}
}

// A sandbox stopped behind the machine's back terminates it, naming the
// state.
func TestStoppedSandboxTerminates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, err := factory.Create(ctx, machine.Spec{Source: machine.RegistryImage{Reference: testImage}, Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	if err := factory.Client().StopSandbox(ctx, m.(*daytona.Machine).SandboxID()); err != nil {
		t.Fatal(err)
	}
	_, err = m.Run(ctx, machine.Command{Argv: []string{"true"}, OutputLimit: 10})
	if !errors.Is(err, machine.ErrTerminated) || !strings.Contains(err.Error(), "is stopped") {
		t.Fatalf("a command in a stopped sandbox: %v", err)
	}
}
