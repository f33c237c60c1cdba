package gvisor_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// gVisor runs one-member tasks (probes inside the sandbox) and refuses
// groups, naming why: each sentry keeps loopback to itself.
func TestTaskOneMemberAndNoGroups(t *testing.T) {
	helperstest.Build(t) // the readiness helper (shellbox-probe)
	ctx := context.Background()
	spec := machine.Spec{Source: machine.DockerImage{Reference: dockertest.BusyboxImage}, Workdir: "/workspace", Network: machine.NetworkDeny}
	probe := &task.Probe{Command: []string{"sh", "-c", "test -e /tmp/up"}, Timeout: 10 * time.Second, Interval: 50 * time.Millisecond}
	tk, err := task.Create(ctx, factory, task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: spec, Readiness: probe}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close(ctx)
	if _, err := tk.Members()["main"].Run(ctx, machine.Command{Argv: []string{"touch", "/tmp/up"}}); err != nil {
		t.Fatal(err)
	}
	if err := tk.WaitReady(ctx, 120*time.Second); err != nil {
		t.Fatal(err)
	}
	group := task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: spec}, {Name: "db", Machine: spec, Command: []string{"sleep", "100"}}}}
	if err := task.CheckEnvironment(factory, machine.Requirements{}, group); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("CheckEnvironment of a gVisor group: %v", err)
	}
	_, err = task.Create(ctx, factory, group)
	var un *machine.UnsupportedSpec
	if !errors.As(err, &un) || un.Field != "containers" || !strings.Contains(un.Reason, "loopback") {
		t.Fatalf("a gVisor group: %v", err)
	}
}
