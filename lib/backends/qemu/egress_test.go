package qemu

import (
	"testing"

	"github.com/shellbox/shellbox/lib/egress/egresstest"
	"github.com/shellbox/shellbox/lib/machine"
)

func TestEgressAllowlist(t *testing.T) {
	f := newTestFactory(t, Options{})
	egresstest.Run(t, testSpec(), func(t *testing.T, spec machine.Spec) machine.Machine {
		return newTestMachine(t, f, spec)
	}, egresstest.Options{})
}
