package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/machine"
)

// An allowlisted machine has a private network namespace (bubblewrap's
// --unshare-net), where the host opens the egress filter's DNS server and
// proxy on loopback (the guest's /etc/resolv.conf and proxy variables
// lead there) and an intercepting device as the default route, for
// programs that ignore the proxy (egress.Filter.Intercept); nothing else
// leads anywhere.

// startEgress attaches the filter to a freshly started sandbox, before any
// guest command runs.
func (m *Machine) startEgress(policy machine.NetworkPolicy, hosts []string, phase string) error {
	pid, err := sandboxPID(m.cmd.Process.Pid)
	if err != nil {
		return err
	}
	g, err := egress.NewGuard(filepath.Base(m.dir), egress.Mode(policy), hosts, m.spec.EgressLog)
	if err != nil {
		return err
	}
	g.SetPolicy(g.Policy(), phase)
	nsPath := fmt.Sprintf("/proc/%d/ns/net", pid)
	ep, err := g.Attach(nsPath)
	if err == nil {
		err = g.Intercept(nsPath)
	}
	if err != nil {
		g.Close()
		return err
	}
	// The sandbox's /etc is its own tmpfs, written by the helper; no guest
	// code has run yet, so the path holds no link of the guest's.
	resolv := fmt.Sprintf("/proc/%d/root/etc/resolv.conf", pid)
	if err := os.WriteFile(resolv, []byte(ep.ResolvConf()), 0o644); err != nil {
		g.Close()
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		g.Close()
		return &machine.TerminatedError{Reason: "the machine is closed"}
	}
	m.egress, m.egressEnv = g, ep.GuestEnv()
	return nil
}

// SetNetworkPolicy changes the policy of a machine created with a private
// network (deny or allowlist); one created with the host's network keeps
// it.
func (m *Machine) SetNetworkPolicy(ctx context.Context, policy machine.NetworkPolicy, hosts []string, phase string) error {
	if err := machine.ValidateAllowedHosts(policy, hosts); err != nil {
		return err
	}
	if m.isClosed() {
		return &machine.TerminatedError{Reason: "the machine is closed"}
	}
	if m.spec.Network == machine.NetworkAllow {
		if policy == machine.NetworkAllow {
			return nil
		}
		return &machine.UnsupportedSpec{Backend: Name, Field: "network",
			Reason: "a machine created with the host's network cannot be restricted later; create it with deny or allowlist"}
	}
	m.mu.Lock()
	g := m.egress
	m.mu.Unlock()
	if g == nil {
		if policy == machine.NetworkDeny {
			return nil
		}
		return m.startEgress(policy, hosts, phase)
	}
	return g.SetNetwork(egress.Mode(policy), hosts, phase)
}

// sandboxPID is a process of the sandbox: the first descendant of the
// launcher in another network namespace.
func sandboxPID(launcher int) (int, error) {
	// Compared with the launcher's namespace (the host's), not this
	// process's: /proc/self follows the main thread, which a goroutine
	// that ended locked in another namespace (a task group's) leaves
	// there for good, and the launcher itself would then pass for the
	// sandbox.
	self, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", launcher))
	if err != nil {
		return 0, err
	}
	queue := []int{launcher}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if ns, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", pid)); err == nil && ns != self {
			return pid, nil
		}
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		for _, t := range tasks {
			data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
			for _, f := range strings.Fields(string(data)) {
				if child, err := strconv.Atoi(f); err == nil {
					queue = append(queue, child)
				}
			}
		}
	}
	return 0, fmt.Errorf("no process of the sandbox has its own network namespace")
}
