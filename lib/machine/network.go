package machine

import (
	"context"
	"errors"

	"github.com/shellbox/shellbox/lib/egress"
)

// NetworkSwitcher is a machine whose network policy can change while it
// runs (Harbor switches it between the agent and verifier phases).
// Connections the new policy would not admit end at once.
type NetworkSwitcher interface {
	SetNetworkPolicy(ctx context.Context, policy NetworkPolicy, allowedHosts []string, phase string) error
}

// ValidateAllowedHosts checks an allowlist with egress's rules: hosts only
// with NetworkAllowlist, and each one a hostname, leading wildcard, IP or
// CIDR range that the filter can honour.
func ValidateAllowedHosts(policy NetworkPolicy, hosts []string) error {
	if policy != NetworkAllowlist {
		if len(hosts) > 0 {
			return &InvalidSpec{Field: "allowed_hosts", Reason: "allowed_hosts is only meaningful with the allowlist network policy"}
		}
		return nil
	}
	if _, err := egress.Parse(egress.ModeAllowlist, hosts); err != nil {
		var ee *egress.EntryError
		if errors.As(err, &ee) {
			return &InvalidSpec{Field: "allowed_hosts", Reason: ee.Error()}
		}
		return &InvalidSpec{Field: "allowed_hosts", Reason: err.Error()}
	}
	return nil
}
