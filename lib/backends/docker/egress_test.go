package docker_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shellbox/shellbox/lib/egress/egresstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

func TestEgressAllowlist(t *testing.T) {
	base := machine.Spec{Source: dockertest.Busybox, Workdir: "/workspace"}
	egresstest.Run(t, base, func(t *testing.T, spec machine.Spec) machine.Machine {
		return dockertest.NewMachine(t, factory, func(s *machine.Spec) { *s = spec })
	}, egresstest.Options{Intercepts: true, IPv6: true}) // runc: the default runtime
}

func TestEgressRefusesBadHosts(t *testing.T) {
	_, err := factory.Create(context.Background(), machine.Spec{Source: dockertest.Busybox, Network: machine.NetworkAllowlist,
		AllowedHosts: []string{"*.com"}})
	var inv *machine.InvalidSpec
	if !errors.As(err, &inv) || inv.Field != "allowed_hosts" {
		t.Fatalf("*.com: %v", err)
	}
}
