package gvisor_test

import (
	"testing"

	"github.com/shellbox/shellbox/lib/egress/egresstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// TestEgressAllowlist: gVisor's own network stack reaches only the filter,
// through the veth of its network gate, whose far end also leads programs
// that ignore the proxy to the filter's intercepting device, over IPv4
// and IPv6 (runsc takes the link's IPv6 address and route up at start).
func TestEgressAllowlist(t *testing.T) {
	base := machine.Spec{Source: dockertest.Busybox, Workdir: "/workspace"}
	egresstest.Run(t, base, func(t *testing.T, spec machine.Spec) machine.Machine {
		return dockertest.NewMachine(t, factory, func(s *machine.Spec) { *s = spec })
	}, egresstest.Options{Intercepts: true, IPv6: true})
}
