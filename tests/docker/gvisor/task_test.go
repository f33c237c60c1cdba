package gvisor_test

import (
	"context"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// The docker backend's task group suites under gVisor: members linked by a
// hub between per-member gates instead of one shared loopback.
func TestTaskGroupImageServiceReachedByName(t *testing.T) {
	dockertest.TaskGroupReachedByName(t, factory)
}
func TestTaskGroupCannotReachTheHost(t *testing.T) {
	dockertest.TaskGroupCannotReachTheHost(t, factory)
}
func TestTaskGroupsOnTheSamePort(t *testing.T)   { dockertest.TaskGroupsOnTheSamePort(t, factory) }
func TestTaskGroupFailuresTearDown(t *testing.T) { dockertest.TaskGroupFailuresTearDown(t, factory) }
func TestTaskGroupsLeaveNothing(t *testing.T)    { dockertest.TaskGroupsLeaveNothing(t, factory, 10) }
func TestTaskComposeRouteOut(t *testing.T)       { dockertest.TaskComposeRouteOut(t, factory) }
func TestTaskGroupRelay(t *testing.T)            { dockertest.TaskGroupRelay(t, factory) }

// A one-member task runs its probe inside the sandbox.
func TestTaskOneMember(t *testing.T) {
	helperstest.Build(t) // the readiness helper (shellbox-probe)
	ctx := context.Background()
	probe := &task.Probe{Command: []string{"sh", "-c", "test -e /tmp/up"}, Timeout: 10 * time.Second, Interval: 50 * time.Millisecond}
	tk := dockertest.NewTask(t, factory, task.Spec{Primary: "main", Containers: []task.Container{{Name: "main", Machine: dockertest.BusyboxSpec(dockertest.BusyboxImage), Readiness: probe}}})
	if _, err := tk.Members()["main"].Run(ctx, machine.Command{Argv: []string{"touch", "/tmp/up"}}); err != nil {
		t.Fatal(err)
	}
	if err := tk.WaitReady(ctx, 120*time.Second); err != nil {
		t.Fatal(err)
	}
}
