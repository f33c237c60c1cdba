package docker_test

import (
	"os"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

func init() {
	if os.Getenv(dockertest.OwnerEnv) != "" {
		dockertest.Owner()
	}
}

func TestGuestPaths(t *testing.T)  { t.Parallel(); dockertest.GuestPaths(t, factory) }
func TestForkBomb(t *testing.T)    { dockertest.ForkBomb(t, factory, docker.DefaultPidsLimit, false) }
func TestOwnerDeath(t *testing.T)  { dockertest.OwnerDeath(t, factory) }
func TestLargeOutput(t *testing.T) { dockertest.LargeOutput(t, factory, dockertest.BigOutputMiB(512)) }
func TestStopBeforeFirstCommand(t *testing.T) {
	t.Parallel()
	dockertest.StopBeforeFirstCommand(t, factory)
}

func TestLongCommand(t *testing.T) { t.Parallel(); dockertest.LongCommand(t, factory) }

func TestContainerDies(t *testing.T) { t.Parallel(); dockertest.ContainerDies(t, factory) }
