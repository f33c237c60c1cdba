package qemu

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/machine"
)

// An allowlisted machine's QEMU runs in a network namespace of its own
// that holds loopback, where the host opens the egress filter's DNS
// server and proxy, and an intercepting device as the default route
// (egress.Filter.Intercept). The VM's one card is on QEMU's user-mode
// network: its gateway (10.0.2.2) leads to that loopback, and every other
// address the guest dials (QEMU opens the connection on its behalf, in
// the namespace) to the intercepting device, which admits only the
// addresses the filter's DNS handed out for allowed names and answers DNS
// sent to any resolver, QEMU's own forwarder (10.0.2.3) included. The
// filter is the only thing the guest can reach.

// guestEndpoint is the filter as the guest addresses it.
var guestEndpoint = egress.Endpoint{DNS: "10.0.2.2:53", Proxy: "10.0.2.2:3128"}

func usesUserNet(spec machine.Spec) bool {
	return spec.Network == machine.NetworkAllow || spec.Network == machine.NetworkAllowlist
}

// checkEgress refuses an allowlist this host cannot give a namespace to.
func (f *Factory) checkEgress(spec machine.Spec) error {
	if spec.Network != machine.NetworkAllowlist {
		return nil
	}
	if !f.userNet {
		return &machine.UnsupportedSpec{Backend: Name, Field: "network", Reason: "this QEMU has no user-mode networking (slirp), which the allowlist needs"}
	}
	if os.Geteuid() != 0 {
		return &machine.UnsupportedSpec{Backend: Name, Field: "network", Reason: "the allowlist puts QEMU in a network namespace of its own, which needs root"}
	}
	return nil
}

// Create boots a fresh machine from the spec's image; an allowlisted one
// gets the proxy variables and a resolver pointing at the filter.
func (f *Factory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	if spec.Network == machine.NetworkAllowlist {
		env := maps.Clone(spec.Env)
		if env == nil {
			env = map[string]string{}
		}
		for k, v := range guestEndpoint.GuestEnv() {
			if _, set := env[k]; !set {
				env[k] = v
			}
		}
		spec.Env = env
	}
	m, err := f.createMachine(ctx, spec)
	if err != nil {
		return nil, err
	}
	if spec.Network == machine.NetworkAllowlist {
		if err := m.writeResolvConf(ctx); err != nil {
			m.Close(context.WithoutCancel(ctx))
			return nil, &machine.StartupError{Backend: Name, Err: fmt.Errorf("pointing the guest's resolver at the egress filter: %w", err)}
		}
	}
	return m, nil
}

// startEgress attaches the filter to a started QEMU's namespace, before
// the guest can send anything.
func (m *Machine) startEgress() error {
	if m.spec.Network != machine.NetworkAllowlist {
		return nil
	}
	g, err := egress.NewGuard(filepath.Base(m.dir), egress.ModeAllowlist, m.spec.AllowedHosts, m.spec.EgressLog)
	if err != nil {
		return err
	}
	nsPath := fmt.Sprintf("/proc/%d/ns/net", m.cmd.Process.Pid)
	_, err = g.Attach(nsPath)
	if err == nil {
		err = g.Intercept(nsPath)
	}
	for _, addr := range loopbackResolvers("/etc/resolv.conf") {
		if err == nil && addr != "127.0.0.1" { // 127.0.0.1:53 is Attach's
			err = g.ServeDNSIn(nsPath, net.JoinHostPort(addr, "53"))
		}
	}
	if err != nil {
		g.Close()
		return err
	}
	m.mu.Lock()
	m.egress = g
	m.mu.Unlock()
	return nil
}

// loopbackResolvers are the IPv4 loopback nameservers of a resolv.conf.
// QEMU's DNS forwarder (10.0.2.3) sends to the host's nameserver from
// QEMU's namespace: a non-loopback one is reached through the
// intercepting device, which answers DNS to any address, but a loopback
// one (a local stub such as 127.0.0.53) is that namespace's own loopback,
// where the filter must listen itself.
func loopbackResolvers(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil // QEMU then has no resolver but its fallback, 127.0.0.1
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "nameserver" {
			continue
		}
		if a, err := netip.ParseAddr(fields[1]); err == nil && a.Is4() && a.IsLoopback() && !slices.Contains(out, a.String()) {
			out = append(out, a.String())
		}
	}
	return out
}

// writeResolvConf replaces the resolver the guest set for user-mode
// networking (QEMU's own, which cannot reach out of the namespace).
func (m *Machine) writeResolvConf(ctx context.Context) error {
	p := filepath.Join(m.dir, "resolv.conf")
	if err := os.WriteFile(p, []byte(guestEndpoint.ResolvConf()), 0o644); err != nil {
		return err
	}
	defer os.Remove(p)
	return m.Upload(ctx, p, "/etc/resolv.conf")
}

// SetNetworkPolicy changes the policy of an allowlisted machine (deny,
// another allowlist, or every host through the filter).
func (m *Machine) SetNetworkPolicy(ctx context.Context, policy machine.NetworkPolicy, hosts []string, phase string) error {
	if err := machine.ValidateAllowedHosts(policy, hosts); err != nil {
		return err
	}
	m.mu.Lock()
	g, closed := m.egress, m.closed
	m.mu.Unlock()
	if closed {
		return machine.ErrClosed
	}
	if g == nil {
		if policy == m.spec.Network {
			return nil
		}
		return &machine.UnsupportedSpec{Backend: Name, Field: "network", Reason: "only a machine created with the allowlist policy can change its network policy"}
	}
	return g.SetNetwork(egress.Mode(policy), hosts, phase)
}

func (m *Machine) closeEgress() {
	m.mu.Lock()
	g := m.egress
	m.egress = nil
	m.mu.Unlock()
	if g != nil {
		g.Close()
	}
}
