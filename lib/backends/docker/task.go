package docker

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/docker/docker/api/types/container"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

var _ task.Host = (*Factory)(nil)

// LabelTask marks the containers of one task group.
const LabelTask = "dev.shellbox.task"

// NewGroup makes a task group's network.
//
// Under runc the primary's container gets a network namespace with
// loopback only (NetworkMode "none"), or Docker's default bridge when the
// group may reach outside (NetworkPolicy.ALLOW), and every other member
// joins it (NetworkMode "container:<primary>"), so members reach each
// other on 127.0.0.1. Names resolve through the primary's /etc/hosts,
// which the daemon shares with every container joined to its namespace.
//
// A Docker network, even an internal one, is not used for a private
// group: a container on a bridge reaches every address of the host (the
// bridge's gateway among them), so a host service listening on all
// addresses would be open to the guest; and macvlan or ipvlan networks
// (whose members cannot reach their parent link) need kernel modules that
// not every host has.
//
// gVisor cannot share one loopback between sandboxes (each sentry has its
// own network stack), so under gVisor each member joins a gate of its own
// (a runc container holding a network namespace, as for the egress
// filter), and the gates are linked by a hub (groupHub): a namespace of
// this process's with a bridge that has no address. Each member has its
// own address on that link (hubAddr) and names resolve to those addresses
// through each gate's /etc/hosts. A gate has Docker's "none" network, or
// the default bridge when the group may reach outside, the hub's link
// being its second card. Services must then listen on the member's
// address or on 0.0.0.0: one bound to 127.0.0.1 is reachable only from
// inside its own member.
func (f *Factory) NewGroup(ctx context.Context, names []string, network machine.NetworkPolicy) (task.Group, error) {
	if err := f.CheckGroup(network); err != nil {
		return nil, err
	}
	g := &group{f: f, id: newID(), names: names, network: network}
	if !f.usesGate() {
		for _, n := range names {
			g.hosts = append(g.hosts, n+":127.0.0.1")
		}
		return g, nil
	}
	if len(names) > maxHubMembers {
		return nil, f.unsupported("containers", fmt.Sprintf("a gVisor task group has at most %d members, got %d", maxHubMembers, len(names)))
	}
	hub, err := newGroupHub()
	if err != nil {
		return nil, &machine.StartupError{Backend: f.backend, Err: err}
	}
	g.hub = hub
	for i, n := range names {
		g.hosts = append(g.hosts, n+":"+hubAddr(i))
	}
	return g, nil
}

// The hub's link is 198.18.0.0/24 (RFC 2544's benchmarking range: not a
// network a group with a route out would need to reach); member i (in
// creation order, the primary first) has 198.18.0.(i+2).
const (
	hubPrefix     = 24
	maxHubMembers = 250
)

func hubAddr(i int) string { return fmt.Sprintf("198.18.0.%d", i+2) }

type group struct {
	f       *Factory
	id      string
	names   []string
	network machine.NetworkPolicy
	hosts   []string // name:address, as ExtraHosts
	hub     *groupHub

	mu      sync.Mutex
	primary string // the primary's container id, once started (runc)
}

// Start creates a member's container on the group's network.
func (g *group) Start(ctx context.Context, c task.Container) (machine.Machine, task.ImageService, error) {
	var adjust func(cfg *container.Config, host *container.HostConfig) (*egressGate, error)
	if g.hub != nil {
		adjust = func(cfg *container.Config, host *container.HostConfig) (*egressGate, error) {
			cfg.Labels[LabelTask] = g.id
			return g.startGate(ctx, c.Name, cfg, host)
		}
	} else {
		g.mu.Lock()
		primary := g.primary
		g.mu.Unlock()
		adjust = func(cfg *container.Config, host *container.HostConfig) (*egressGate, error) {
			cfg.Labels[LabelTask] = g.id
			if primary == "" {
				// containerConfig gave it "none" or, for a group that may
				// reach outside, the default bridge.
				host.ExtraHosts = g.hosts
				cfg.Hostname = c.Name
				return nil, nil
			}
			host.NetworkMode = container.NetworkMode("container:" + primary)
			return nil, nil
		}
	}
	m, err := g.f.createMachine(ctx, c.Machine, adjust)
	if err != nil {
		return nil, task.ImageService{}, err
	}
	g.mu.Lock()
	if g.primary == "" {
		g.primary = m.id
	}
	g.mu.Unlock()
	if g.hub != nil {
		m.groupAddr = hubAddr(slices.Index(g.names, c.Name))
	}
	service, err := m.ImageCommand(ctx)
	if err != nil {
		m.Close(context.Background())
		return nil, task.ImageService{}, err
	}
	return m, service, nil
}

// startGate starts the gate member name's container joins (a gVisor
// group): its network, the hub's link as eth0 (or eth1 beside the default
// bridge), the group's names, the member's host name.
func (g *group) startGate(ctx context.Context, name string, cfg *container.Config, host *container.HostConfig) (*egressGate, error) {
	idx := slices.Index(g.names, name)
	if idx < 0 {
		return nil, fmt.Errorf("%q is not a member of the group", name)
	}
	labels := map[string]string{LabelTask: g.id, LabelBackend: g.f.backend}
	if v, ok := cfg.Labels[LabelMachine]; ok {
		labels[LabelMachine] = v
	}
	gcfg := &container.Config{Image: cfg.Image, Env: cfg.Env, Labels: labels, Hostname: name}
	ifname, mode := "eth0", container.NetworkMode("none")
	if g.network == machine.NetworkAllow {
		ifname, mode = "eth1", "bridge"
	}
	gate, pid, err := g.f.runGate(ctx, "shellbox-"+cfg.Labels[LabelMachine]+"-gate", gcfg, &container.HostConfig{NetworkMode: mode, ExtraHosts: g.hosts})
	if err != nil {
		return nil, err
	}
	if err := g.hub.attach(gate.id, pid, idx, ifname, hubAddr(idx), hubPrefix); err != nil {
		gate.close(g.f)
		return nil, fmt.Errorf("linking member %q to the group: %w", name, err)
	}
	host.NetworkMode = container.NetworkMode("container:" + gate.id)
	return gate, nil
}

// GroupAddrs is where the other members of its gVisor group reach it (they
// share no loopback with it); nil outside such a group. serve_http listens
// there too (lib/relay.GroupAddresser).
func (m *Machine) GroupAddrs() []string {
	if m.groupAddr == "" {
		return nil
	}
	return []string{m.groupAddr}
}

// CheckGroup refuses what this host cannot give a group: under gVisor the
// hub needs root (it makes network namespaces and moves links into the
// gates'); it also needs the daemon on this host, which starting a member
// checks (groupHub.attach).
func (f *Factory) CheckGroup(network machine.NetworkPolicy) error {
	if network != machine.NetworkDeny && network != machine.NetworkAllow {
		return f.unsupported("network", fmt.Sprintf("a task group's members use NetworkPolicy.DENY or ALLOW, not %q", network))
	}
	if !f.usesGate() {
		return nil
	}
	if err := hubSupported(); err != nil {
		return f.unsupported("containers", err.Error())
	}
	if os.Geteuid() != 0 {
		return f.unsupported("containers", "a gVisor task group links its members' network namespaces, which needs a host process running as root")
	}
	return nil
}

// Close releases the hub, once every member (and with it its gate) is gone.
func (g *group) Close(context.Context) error {
	if g.hub != nil {
		g.hub.close()
	}
	return nil
}

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
