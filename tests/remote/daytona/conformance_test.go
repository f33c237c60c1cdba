package daytona_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/daytona"
	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machine/machinetest"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// The client against the loopback server: every machine is a Daytona
// sandbox reached only through the API and the toolbox.
func TestConformance(t *testing.T) {
	machinetest.Run(t, factory, machinetest.Capabilities{
		Spec:         machine.Spec{Source: machine.RegistryImage{Reference: testImage}},
		User:         dockertest.TestUser,
		UID:          dockertest.TestUID,
		NetworkAllow: true,

		BigOutputMiB: 16,
		Cycles:       6,
		Timeout:      2e9,
		Resources: func(ctx context.Context) (map[string]int, error) {
			c, err := dockertest.Count(ctx, dockerFactory.Client(), docker.LabelBackend, dockerFactory.Backend())
			return map[string]int{"sandboxes": server.Sandboxes(), "networks": c.Networks, "volumes": c.Volumes}, err
		},
		Released: func(ctx context.Context, m machine.Machine) error {
			id := m.(*daytona.Machine).SandboxID()
			if _, err := factory.Client().GetSandbox(ctx, id); !daytona.IsNotFound(err) {
				return fmt.Errorf("sandbox %s: %v, want 404", id, err)
			}
			return nil
		},
	})
}
