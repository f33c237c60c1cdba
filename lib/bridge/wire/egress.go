package wire

// SetNetworkPolicyRequest changes a running machine's network policy;
// phase names the egress filter's records from now on.
type SetNetworkPolicyRequest struct {
	Network      NetworkPolicy `json:"network"`
	AllowedHosts []string      `json:"allowed_hosts,omitempty"`
	Phase        string        `json:"phase,omitempty"`
}

// ValidateAllowedHostsRequest checks an allowlist as a spec's would be
// (MachineSpec checks at construction).
type ValidateAllowedHostsRequest struct {
	Network      NetworkPolicy `json:"network"`
	AllowedHosts []string      `json:"allowed_hosts,omitempty"`
}
