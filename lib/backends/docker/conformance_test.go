package docker_test

import (
	"testing"

	"github.com/shellbox/shellbox/lib/machine/machinetest"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

func TestConformance(t *testing.T) {
	machinetest.Run(t, factory, dockertest.Capabilities(factory, dockertest.BigOutputMiB(128), 100))
}
