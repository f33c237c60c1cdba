package bridge

import (
	"context"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

func init() {
	extraRoot["validate_allowed_hosts"] = validateAllowedHosts
}

// validateAllowedHosts: the InvalidSpec naming allowed_hosts, or nothing.
func validateAllowedHosts(_ *Bridge, _ context.Context, req []byte) (Reply, error) {
	var r wire.ValidateAllowedHostsRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	return Reply{}, machine.ValidateAllowedHosts(machine.NetworkPolicy(r.Network), r.AllowedHosts)
}

// setNetworkPolicy is the machine method set_network_policy.
func setNetworkPolicy(ctx context.Context, m machine.Machine, req []byte) (Reply, error) {
	var r wire.SetNetworkPolicyRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	policy := machine.NetworkPolicy(r.Network)
	if err := (machine.Spec{Source: machine.ShellSimBuiltins{}, Network: policy, AllowedHosts: r.AllowedHosts}).Validate(); err != nil {
		return Reply{}, err // an unknown policy or a bad entry, named as a spec's would be
	}
	sw, ok := m.(machine.NetworkSwitcher)
	if !ok {
		return Reply{}, &machine.UnsupportedSpec{Backend: "this", Field: "network", Reason: "the backend cannot change the network policy of a running machine"}
	}
	return Reply{}, sw.SetNetworkPolicy(ctx, policy, r.AllowedHosts, r.Phase)
}
