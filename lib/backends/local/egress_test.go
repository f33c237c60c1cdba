package local

import (
	"testing"

	"github.com/shellbox/shellbox/lib/egress/egresstest"
	"github.com/shellbox/shellbox/lib/machine"
)

func TestEgressAllowlist(t *testing.T) {
	f := newFactory(t, Options{})
	egresstest.Run(t, hostSpec(), func(t *testing.T, spec machine.Spec) machine.Machine {
		return newMachine(t, f, spec)
	}, egresstest.Options{Intercepts: true, IPv6: true})
}
