package docker_test

import (
	"testing"

	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// The task group suites (tests/docker/dockertest/task.go); the gVisor
// backend runs the same ones (tests/docker/gvisor).
func TestTaskGroupImageServiceReachedByName(t *testing.T) {
	dockertest.TaskGroupReachedByName(t, factory)
}
func TestTaskGroupCannotReachTheHost(t *testing.T) {
	dockertest.TaskGroupCannotReachTheHost(t, factory)
}
func TestTaskGroupsOnTheSamePort(t *testing.T)   { dockertest.TaskGroupsOnTheSamePort(t, factory) }
func TestTaskGroupFailuresTearDown(t *testing.T) { dockertest.TaskGroupFailuresTearDown(t, factory) }
func TestTaskGroupsLeaveNothing(t *testing.T)    { dockertest.TaskGroupsLeaveNothing(t, factory, 50) }
func TestTaskComposeRouteOut(t *testing.T)       { dockertest.TaskComposeRouteOut(t, factory) }
func TestTaskGroupRelay(t *testing.T)            { dockertest.TaskGroupRelay(t, factory) }
