package egress

import (
	"fmt"
	"net/netip"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Mode is a machine's network mode, Harbor's network_mode.
type Mode string

const (
	ModeDeny      Mode = "deny"      // no network at all
	ModeAllow     Mode = "allow"     // unfiltered (the filter is not involved)
	ModeAllowlist Mode = "allowlist" // only the hosts of the policy
)

// EntryError is an allowlist entry refused at construction.
type EntryError struct {
	Entry  string
	Reason string
}

func (e *EntryError) Error() string {
	return fmt.Sprintf("allowed_hosts entry %q: %s", e.Entry, e.Reason)
}

// Policy is a parsed allowlist. The zero Policy admits nothing.
type Policy struct {
	Mode     Mode
	names    map[string]bool // exact names
	suffixes []string        // "*.example.com" kept as ".example.com"
	prefixes []netip.Prefix  // IP literals as /32 or /128
	entries  []string        // normalized, in order
}

// Parse checks and normalizes allowlist entries the way Harbor does
// (lowercase, trailing dot dropped) and refuses what the filter cannot
// honour safely.
func Parse(mode Mode, entries []string) (*Policy, error) {
	switch mode {
	case ModeDeny, ModeAllow, ModeAllowlist:
	default:
		return nil, &EntryError{Entry: string(mode), Reason: "unknown network mode"}
	}
	if mode != ModeAllowlist && len(entries) > 0 {
		return nil, &EntryError{Entry: entries[0], Reason: "hosts are only meaningful with the allowlist mode"}
	}
	p := &Policy{Mode: mode, names: map[string]bool{}}
	for _, raw := range entries {
		e, err := parseEntry(raw)
		if err != nil {
			return nil, err
		}
		switch {
		case e.prefix.IsValid():
			p.prefixes = append(p.prefixes, e.prefix)
			p.entries = append(p.entries, e.prefix.String())
			if e.prefix.IsSingleIP() {
				p.entries[len(p.entries)-1] = e.prefix.Addr().String()
			}
		case e.wildcard:
			p.suffixes = append(p.suffixes, "."+e.name)
			p.entries = append(p.entries, "*."+e.name)
		default:
			p.names[e.name] = true
			p.entries = append(p.entries, e.name)
		}
	}
	return p, nil
}

// Entries are the normalized entries, in the order given.
func (p *Policy) Entries() []string { return append([]string(nil), p.entries...) }

type entry struct {
	name     string
	wildcard bool
	prefix   netip.Prefix
}

func parseEntry(raw string) (entry, error) {
	host := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(raw)), ".")
	bad := func(reason string) (entry, error) { return entry{}, &EntryError{Entry: raw, Reason: reason} }
	if host == "" {
		return bad("empty")
	}
	if strings.Contains(host, "/") {
		pfx, err := netip.ParsePrefix(host)
		if err != nil || strings.Contains(host, "%") {
			return bad("not a hostname, IP address or CIDR range (no URLs, ports or paths)")
		}
		if pfx != pfx.Masked() {
			return bad("the CIDR range has host bits set")
		}
		return entry{prefix: pfx}, nil
	}
	if addr, err := netip.ParseAddr(host); err == nil && !strings.Contains(host, "%") {
		return entry{prefix: netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen())}, nil
	}
	if strings.ContainsAny(host, ":[]") {
		return bad("not a hostname, IP address or CIDR range (no URLs, ports or paths)")
	}
	wildcard := strings.HasPrefix(host, "*.")
	name := strings.TrimPrefix(host, "*.")
	if strings.Contains(name, "*") {
		return bad("a wildcard must be a leading '*.'")
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return bad("a wildcard must cover a hostname, not an IP address")
	}
	if !validHostname(name) {
		return bad("a hostname holds only letters, digits, hyphens and dots, in labels of 1 to 63 characters")
	}
	if labels := strings.Split(name, "."); strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return bad("the last label is numeric, which no top-level domain is")
	}
	if wildcard {
		// A wildcard over a public suffix (*.com, *.github.io) would admit
		// every site registered under it.
		if suffix, _ := publicsuffix.PublicSuffix(name); suffix == name {
			return bad(fmt.Sprintf("%q is a public suffix; a wildcard over it admits every site registered under it", name))
		}
	}
	if !strings.Contains(name, ".") {
		return bad("a bare top-level name is not a host; name the host under it")
	}
	return entry{name: name, wildcard: wildcard}, nil
}

func validHostname(name string) bool {
	if len(name) > 253 {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// AllowsName says whether a hostname is admitted (only in allowlist
// mode; the caller handles the other modes).
func (p *Policy) AllowsName(name string) bool {
	if p == nil || p.Mode != ModeAllowlist {
		return false
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if _, err := netip.ParseAddr(name); err == nil || !validHostname(name) {
		return false
	}
	if p.names[name] {
		return true
	}
	for _, s := range p.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// AllowsAddr says whether an address is listed by an IP or CIDR entry.
func (p *Policy) AllowsAddr(a netip.Addr) bool {
	if p == nil || p.Mode != ModeAllowlist {
		return false
	}
	a = a.Unmap()
	for _, pfx := range p.prefixes {
		if pfx.Contains(a) {
			return true
		}
	}
	return false
}
