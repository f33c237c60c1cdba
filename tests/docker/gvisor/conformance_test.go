package gvisor_test

import (
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine/machinetest"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// runsc with the ptrace platform is slow: fewer cycles, smaller outputs,
// a longer timeout.
func TestConformance(t *testing.T) {
	caps := dockertest.Capabilities(factory, dockertest.BigOutputMiB(64), 10)
	caps.Timeout = 2 * time.Second
	machinetest.Run(t, factory, caps)
}
