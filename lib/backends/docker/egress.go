package docker

import (
	"context"
	"fmt"
	"maps"
	"net"
	"os"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"

	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/machine"
)

// An allowlisted container has Docker's "none" network (loopback only);
// the host opens the egress filter's DNS server and proxy on that
// loopback, inside the container's network namespace, and an
// intercepting device as its default route for programs that ignore the
// proxy (egress.Filter.Intercept), so nothing else leads out. The
// container's resolver and proxy variables point there.

// gVisor's sentry has a network stack of its own, which cannot see
// sockets on the kernel's loopback of the container's namespace. An
// allowlisted gVisor container therefore joins the namespace of a small
// runc "gate" container (its image, running `read`) whose only card is a
// veth to a namespace holding nothing but the egress filter
// (egress.AttachVethIntercepting); runsc takes that card over at start.
// The filter's namespace forwards what the guest sends elsewhere to its
// intercepting device, so programs that ignore the proxy reach allowed
// names there too. The gate reads its stdin from us, so it ends when this
// process does.

// egressGate is the gate of an allowlisted gVisor container.
type egressGate struct {
	id       string
	hj       types.HijackedResponse
	guard    *egress.Guard
	endpoint egress.Endpoint
}

// vethFilterHost is the filter's address on a gate's link (egress.AttachVeth).
var vethFilterHost, _, _ = net.SplitHostPort(egress.VethEndpoint.DNS)

// usesGate says whether an allowlisted container needs a gate.
func (f *Factory) usesGate() bool { return f.runtime != "" && f.runtime != "runc" }

// prepareEgress adds what an allowlisted container needs to its config,
// starting its gate (with the filter attached) first under gVisor.
func (f *Factory) prepareEgress(ctx context.Context, spec machine.Spec, image, id string, cfg *container.Config, hostCfg *container.HostConfig) (*egressGate, error) {
	if spec.Network != machine.NetworkAllowlist {
		return nil, nil
	}
	ep := egress.GuestEndpoint
	var gate *egressGate
	if f.usesGate() {
		var err error
		if gate, err = f.startGate(ctx, spec, image, id); err != nil {
			return nil, err
		}
		ep = gate.endpoint
		hostCfg.NetworkMode = container.NetworkMode("container:" + gate.id)
	} else {
		host, _, _ := net.SplitHostPort(ep.DNS)
		hostCfg.DNS = []string{host}
		hostCfg.NetworkMode = "none"
	}
	env := maps.Clone(spec.Env)
	if env == nil {
		env = map[string]string{}
	}
	for k, v := range ep.GuestEnv() {
		if _, set := env[k]; !set {
			env[k] = v
		}
	}
	cfg.Env = envList(env, nil)
	return gate, nil
}

func (f *Factory) startGate(ctx context.Context, spec machine.Spec, image, id string) (*egressGate, error) {
	labels := map[string]string{LabelMachine: id, LabelBackend: f.backend}
	// The machine's environment too: whoever looks for the machine's
	// containers by it finds the gate.
	cfg := &container.Config{Image: image, Env: envList(spec.Env, nil), Labels: labels}
	hostCfg := &container.HostConfig{NetworkMode: "none", DNS: []string{vethFilterHost}}
	g, pid, err := f.runGate(ctx, "shellbox-"+id+"-gate", cfg, hostCfg)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*egressGate, error) {
		g.close(f)
		return nil, err
	}
	if g.guard, err = egress.NewGuard("shellbox-"+id, egress.ModeAllowlist, spec.AllowedHosts, spec.EgressLog); err != nil {
		return fail(err)
	}
	if g.endpoint, err = g.guard.AttachVethIntercepting(fmt.Sprintf("/proc/%d/ns/net", pid), "eth0"); err != nil {
		return fail(err)
	}
	return g, nil
}

// runGate starts a runc container that only holds a network namespace for
// a gVisor container to join (its main process reads the stdin we hold,
// so it ends when this process does) and returns its process id; cfg
// gives the image, labels and environment, hostCfg the network.
func (f *Factory) runGate(ctx context.Context, name string, cfg *container.Config, hostCfg *container.HostConfig) (*egressGate, int, error) {
	if f.owner != "" {
		cfg.Labels[LabelOwner] = f.owner
	}
	cfg.Entrypoint, cfg.Cmd = []string{"/bin/sh", "-c", "read x"}, nil
	cfg.OpenStdin, cfg.StdinOnce, cfg.AttachStdin = true, true, true
	hostCfg.Runtime = "runc"
	id, err := f.createContainer(ctx, cfg, hostCfg, name)
	if err != nil {
		return nil, 0, fmt.Errorf("creating the network gate: %w", err)
	}
	g := &egressGate{id: id}
	fail := func(err error) (*egressGate, int, error) {
		g.close(f)
		return nil, 0, err
	}
	if g.hj, err = f.cli.ContainerAttach(ctx, id, container.AttachOptions{Stream: true, Stdin: true}); err != nil {
		return fail(fmt.Errorf("attaching to the network gate: %w", err))
	}
	if err := f.cli.ContainerStart(ctx, id, container.StartOptions{}); err != nil {
		return fail(fmt.Errorf("starting the network gate: %w", err))
	}
	info, err := f.cli.ContainerInspect(ctx, id)
	if err != nil {
		return fail(err)
	}
	if info.State == nil || info.State.Pid == 0 {
		return fail(fmt.Errorf("the network gate has no process"))
	}
	return g, info.State.Pid, nil
}

// close removes the gate (after its container, when there is one).
func (g *egressGate) close(f *Factory) {
	if g == nil {
		return
	}
	if g.guard != nil {
		g.guard.Close()
	}
	if g.hj.Conn != nil {
		g.hj.Close()
	}
	f.removeQuietly(g.id)
}

// startEgress attaches the filter to a started container, before any
// guest command runs.
func (m *Machine) startEgress(ctx context.Context) error {
	if m.spec.Network != machine.NetworkAllowlist {
		return nil
	}
	if m.gate != nil { // attached to the gate before the container started
		m.mu.Lock()
		m.egress = m.gate.guard
		m.mu.Unlock()
		return nil
	}
	info, err := m.cli.ContainerInspect(ctx, m.id)
	if err != nil {
		return err
	}
	if info.State == nil || info.State.Pid == 0 {
		return fmt.Errorf("the container has no process")
	}
	g, err := egress.NewGuard(m.name, egress.ModeAllowlist, m.spec.AllowedHosts, m.spec.EgressLog)
	if err != nil {
		return err
	}
	nsPath := fmt.Sprintf("/proc/%d/ns/net", info.State.Pid)
	_, err = g.Attach(nsPath)
	if err == nil {
		err = g.Intercept(nsPath)
	}
	if err != nil {
		g.Close()
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		g.Close()
		return machine.ErrClosed
	}
	m.egress = g
	return nil
}

// SetNetworkPolicy changes the policy of an allowlisted container (deny,
// another allowlist, or every host through the filter); the network of
// other containers is fixed when they are created.
func (m *Machine) SetNetworkPolicy(ctx context.Context, policy machine.NetworkPolicy, hosts []string, phase string) error {
	if err := machine.ValidateAllowedHosts(policy, hosts); err != nil {
		return err
	}
	if err := m.check(); err != nil {
		return err
	}
	m.mu.Lock()
	g := m.egress
	m.mu.Unlock()
	if g == nil {
		if policy == m.spec.Network {
			return nil
		}
		return m.f.unsupported("network", "only a machine created with the allowlist policy can change its network policy")
	}
	return g.SetNetwork(egress.Mode(policy), hosts, phase)
}

func (m *Machine) closeEgress() {
	m.mu.Lock()
	g := m.egress
	m.mu.Unlock()
	if g != nil {
		g.Close()
	}
}

// removeGate removes the gate of a gVisor container, once the container
// that joined its namespace is gone.
func (m *Machine) removeGate() {
	m.mu.Lock()
	g := m.gate
	m.gate = nil
	m.mu.Unlock()
	g.close(m.f)
}

// checkEgress refuses an allowlist where the filter cannot be attached.
func (f *Factory) checkEgress(spec machine.Spec) error {
	if spec.Network == machine.NetworkAllowlist && os.Geteuid() != 0 {
		return f.unsupported("network", "the allowlist opens the egress filter inside the container's network namespace, which needs root")
	}
	return nil
}
