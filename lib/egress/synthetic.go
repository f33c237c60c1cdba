package egress

import (
	"net/netip"
	"sync"
)

// An intercepting filter (Intercept) answers the guest's DNS with
// synthetic addresses, one per allowed name, from the benchmarking range
// 198.18.0.0/15 (RFC 2544: never a real host's). A connection to one of
// them names the host it is for, whatever the guest's program sends,
// and it reaches the filter even where the real address could not be
// routed from the guest's namespace (a mirror on the host's loopback).
// The filter still resolves the name itself, at every connection, and
// dials what it found: a name that later resolves to a forbidden
// address is refused then (DNS rebinding).

var (
	syntheticRange = netip.MustParsePrefix("198.18.0.0/15")
	// interceptGuestAddr is the guest's own address on the intercepting
	// link; no name gets it.
	interceptGuestAddr = netip.MustParseAddr("198.19.255.254")
)

// syntheticAddrs hands out the synthetic addresses of one filter.
type syntheticAddrs struct {
	mu     sync.Mutex
	byName map[string]netip.Addr
	byAddr map[netip.Addr]string
	next   netip.Addr
}

// addrFor is the synthetic address of name, the same for the filter's
// lifetime unless the range is used up (then the oldest goes first).
func (s *syntheticAddrs) addrFor(name string) netip.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.byName[name]; ok {
		return a
	}
	if s.byName == nil {
		s.byName, s.byAddr = map[string]netip.Addr{}, map[netip.Addr]string{}
	}
	for {
		if !s.next.IsValid() || !syntheticRange.Contains(s.next) {
			s.next = syntheticRange.Addr().Next() // .0 is the network's
		}
		a := s.next
		s.next = a.Next()
		if a == interceptGuestAddr || a == netip.MustParseAddr("198.19.255.255") {
			continue
		}
		if old, ok := s.byAddr[a]; ok {
			delete(s.byName, old)
		}
		s.byName[name], s.byAddr[a] = a, name
		return a
	}
}

// nameOf is the name a synthetic address was handed out for.
func (s *syntheticAddrs) nameOf(a netip.Addr) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.byAddr[a.Unmap()]
	return n, ok
}
