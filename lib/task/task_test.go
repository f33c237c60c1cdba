package task_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	shellsim "github.com/shellbox/shellbox/lib/backends/shellsim"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

func simSpec() machine.Spec {
	return machine.Spec{Source: machine.ShellSimBuiltins{}, Workdir: "/workspace", Network: machine.NetworkDeny}
}

// A backend without groups still runs the one-member case, probes
// included, and refuses more members naming the field.
func TestOneMemberTaskOnAnyBackend(t *testing.T) {
	f := newSimFactory(t)
	ctx := context.Background()
	probe := &task.Probe{Command: []string{"sh", "-c", "test -e /workspace/ready"}, Timeout: time.Second, Interval: 10 * time.Millisecond, Attempts: 3}
	tk, err := task.Create(ctx, f, task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: simSpec(), Readiness: probe}}})
	if err != nil {
		t.Fatal(err)
	}
	err = tk.WaitReady(ctx, 0)
	if err == nil || !strings.Contains(err.Error(), `"main"`) || !strings.Contains(err.Error(), "3 readiness attempts") {
		t.Fatalf("WaitReady without the file: %v", err)
	}
	if _, err := tk.Members()["main"].Run(ctx, machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("the member after a failed readiness: %v", err)
	}
	if err := tk.Close(ctx); err != nil {
		t.Fatalf("second Close: %v", err)
	}

	tk, err = task.Create(ctx, f, task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: simSpec(), Readiness: probe}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tk.Members()["main"].Run(ctx, machine.Command{Argv: []string{"touch", "/workspace/ready"}}); err != nil {
		t.Fatal(err)
	}
	if err := tk.WaitReady(ctx, 10*time.Second); err != nil {
		t.Fatalf("WaitReady: %v", err)
	}
	tk.Close(ctx)

	_, err = task.Create(ctx, f, task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: simSpec()}, {Name: "db", Machine: simSpec(), Command: []string{"true"}}}})
	var unsupported *machine.UnsupportedSpec
	if !errors.As(err, &unsupported) || unsupported.Field != "containers" {
		t.Fatalf("two members on shellsim: %v", err)
	}
}

// A group's members share one policy, DENY or ALLOW; a one-member task
// takes what its factory takes.
func TestGroupNetworkPolicy(t *testing.T) {
	f := newSimFactory(t)
	ctx := context.Background()
	with := func(p machine.NetworkPolicy) machine.Spec {
		s := simSpec()
		s.Network = p
		if p == machine.NetworkAllowlist {
			s.AllowedHosts = []string{"example.com"}
		}
		return s
	}
	group := func(a, b machine.NetworkPolicy) task.Spec {
		return task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: with(a)}, {Name: "db", Machine: with(b), Command: []string{"true"}}}}
	}
	var un *machine.UnsupportedSpec
	for _, c := range []struct {
		spec          task.Spec
		field, reason string
	}{
		{group(machine.NetworkDeny, machine.NetworkAllow), "containers[1].machine.network", "share one network policy"},
		{group(machine.NetworkAllow, machine.NetworkDeny), "containers[1].machine.network", "share one network policy"},
		{group(machine.NetworkAllowlist, machine.NetworkAllowlist), "containers[0].machine.network", "DENY"},
	} {
		if err := task.CheckEnvironment(f, machine.Requirements{}, c.spec); !errors.As(err, &un) || un.Field != c.field || !strings.Contains(un.Reason, c.reason) {
			t.Fatalf("CheckEnvironment(%s, %s): %v", c.spec.Containers[0].Machine.Network, c.spec.Containers[1].Machine.Network, err)
		}
		if _, err := task.Create(ctx, f, c.spec); !errors.As(err, &un) || un.Field != c.field {
			t.Fatalf("Create(%s, %s): %v", c.spec.Containers[0].Machine.Network, c.spec.Containers[1].Machine.Network, err)
		}
	}
	// One member: the factory's own answer (shellsim has no network).
	_, err := task.Create(ctx, f, task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: with(machine.NetworkAllow)}}})
	_, direct := f.Create(ctx, with(machine.NetworkAllow))
	if err == nil || direct == nil || err.Error() != direct.Error() {
		t.Fatalf("a one-member ALLOW task: %v; the factory: %v", err, direct)
	}
}

func newSimFactory(t *testing.T) machine.Factory {
	t.Helper()
	o, err := shellsim.DecodeOptions(nil)
	if err != nil {
		t.Fatal(err)
	}
	return shellsim.NewFactory(shellsim.NewEngine(o))
}

func TestCheckEnvironment(t *testing.T) {
	f := newSimFactory(t)
	one := task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: simSpec()}}}
	if err := task.CheckEnvironment(f, machine.Requirements{}, one); err != nil {
		t.Fatalf("one member: %v", err)
	}
	two := task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: simSpec()}, {Name: "db", Machine: simSpec(), Command: []string{"true"}}}}
	var un *machine.UnsupportedSpec
	if err := task.CheckEnvironment(f, machine.Requirements{}, two); !errors.As(err, &un) || un.Field != "containers" {
		t.Fatalf("two members on shellsim: %v", err)
	}
	bad := task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: machine.Spec{Source: machine.HostImage{}, Network: machine.NetworkDeny}}}}
	if err := task.CheckEnvironment(f, machine.Requirements{}, bad); !errors.As(err, &un) || !strings.Contains(err.Error(), `container "main"`) {
		t.Fatalf("a member shellsim cannot run: %v", err)
	}
}
