package docker

import (
	"context"
	"fmt"
	"sync"

	"github.com/docker/docker/api/types/container"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

var _ task.Host = (*Factory)(nil)

// LabelTask marks the containers of one task group.
const LabelTask = "dev.shellbox.task"

// NewGroup makes a task group's network: the primary's container gets a
// network namespace with loopback only (NetworkMode "none") and every
// other member joins it (NetworkMode "container:<primary>"), so members
// reach each other on 127.0.0.1 and nothing else. Names resolve through
// the primary's /etc/hosts, which the daemon shares with every container
// joined to its namespace.
//
// A Docker network, even an internal one, is not used: a container on a
// bridge reaches every address of the host (the bridge's gateway among
// them), so a host service listening on all addresses would be open to the
// guest. gVisor cannot share a namespace's loopback between sandboxes (each
// sentry has its own network stack), so the gVisor backend refuses groups.
func (f *Factory) NewGroup(ctx context.Context, names []string) (task.Group, error) {
	if err := f.CheckGroup(); err != nil {
		return nil, err
	}
	hosts := make([]string, 0, len(names))
	for _, n := range names {
		hosts = append(hosts, n+":127.0.0.1")
	}
	return &group{f: f, id: newID(), hosts: hosts}, nil
}

type group struct {
	f     *Factory
	id    string
	hosts []string

	mu      sync.Mutex
	primary string // the primary's container id, once started
}

// Start creates a member's container on the group's network.
func (g *group) Start(ctx context.Context, c task.Container) (machine.Machine, task.ImageService, error) {
	g.mu.Lock()
	primary := g.primary
	g.mu.Unlock()
	m, err := g.f.createMachine(ctx, c.Machine, func(cfg *container.Config, host *container.HostConfig) {
		cfg.Labels[LabelTask] = g.id
		if primary == "" {
			host.NetworkMode = "none"
			host.ExtraHosts = g.hosts
			cfg.Hostname = c.Name
			return
		}
		host.NetworkMode = container.NetworkMode("container:" + primary)
	})
	if err != nil {
		return nil, task.ImageService{}, err
	}
	if primary == "" {
		g.mu.Lock()
		g.primary = m.id
		g.mu.Unlock()
	}
	service, err := m.ImageCommand(ctx)
	if err != nil {
		m.Close(context.Background())
		return nil, task.ImageService{}, err
	}
	return m, service, nil
}

// CheckGroup refuses groups under gVisor.
func (f *Factory) CheckGroup() error {
	if f.runtime == "runsc" || f.backend == "gvisor" {
		return f.unsupported("containers", "a task group of several containers needs one shared loopback, and gVisor keeps loopback inside each sandbox "+
			"(a Docker network instead would let members reach the host's addresses); run groups on the docker or local backend")
	}
	return nil
}

// Close has nothing to release: the namespace ends with the containers.
func (g *group) Close(context.Context) error { return nil }

// ImageCommand is the image's ENTRYPOINT followed by its CMD in its
// WORKDIR (what docker run would start).
func (m *Machine) ImageCommand(ctx context.Context) (task.ImageService, error) {
	insp, err := m.cli.ContainerInspect(ctx, m.id)
	if err != nil {
		return task.ImageService{}, fmt.Errorf("inspecting container %s: %w", m.name, err)
	}
	img, err := m.cli.ImageInspect(ctx, insp.Image)
	if err != nil {
		return task.ImageService{}, fmt.Errorf("inspecting image %s: %w", insp.Image, err)
	}
	if img.Config == nil {
		return task.ImageService{}, nil
	}
	return task.ImageService{Entrypoint: img.Config.Entrypoint, Cmd: img.Config.Cmd, Cwd: img.Config.WorkingDir}, nil
}
