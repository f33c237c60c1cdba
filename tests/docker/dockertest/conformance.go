package dockertest

import (
	"context"
	"fmt"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machine/machinetest"
)

// Capabilities describe the docker and gvisor backends to machinetest: the
// busybox image with its TestUser, networks allowed, and leaks counted by
// label at the daemon. Containers are counted per machine, by id, since
// other test processes may share the daemon.
func Capabilities(f *docker.Factory, bigOutputMiB, cycles int) machinetest.Capabilities {
	return machinetest.Capabilities{
		Spec:         machine.Spec{Source: Busybox},
		User:         TestUser,
		UID:          TestUID,
		NetworkAllow: true,
		BigOutputMiB: bigOutputMiB,
		Cycles:       cycles,
		Resources: func(ctx context.Context) (map[string]int, error) {
			c, err := Count(ctx, f.Client(), docker.LabelBackend, f.Backend())
			return map[string]int{"networks": c.Networks, "volumes": c.Volumes, "all volumes": c.AllVolumes}, err
		},
		Released: func(ctx context.Context, m machine.Machine) error {
			dm := m.(*docker.Machine)
			if _, err := f.Client().ContainerInspect(ctx, dm.ContainerID()); err == nil {
				return fmt.Errorf("container %s still exists", dm.ContainerName())
			}
			return nil
		},
	}
}
