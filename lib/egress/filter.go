package egress

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Resolver looks names up on the host (net.DefaultResolver reads
// /etc/hosts first, so local mirrors named there work).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DefaultForbidden are addresses no name may lead to, whatever the policy
// says of the name (a DNS rebinding defence): unspecified, link-local
// (cloud metadata services live there), multicast and reserved ranges.
// An IP or CIDR entry still admits them by address. Loopback and private
// ranges are not forbidden by default: a package mirror named in the
// host's /etc/hosts is a normal allowlist target.
var DefaultForbidden = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("224.0.0.0/4"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("::/128"),
	netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("ff00::/8"),
}

// Config is what a Filter needs; only Policy is required.
type Config struct {
	Machine  string    // named in every record
	Phase    string    // named in every record until SetPolicy changes it
	Policy   *Policy   // nil: deny
	Log      io.Writer // decision records, one JSON line each; nil: none
	Resolver Resolver  // nil: net.DefaultResolver
	// Dial opens upstream connections; nil: a net.Dialer with a 10 s
	// timeout.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
	// Forbidden overrides DefaultForbidden when not nil.
	Forbidden []netip.Prefix
	// HandshakeTimeout bounds how long a client may take to send its
	// request head or TLS ClientHello (default 10 s).
	HandshakeTimeout time.Duration
}

// Filter is the egress filter of one machine. Its Serve methods take
// listeners a backend opened where the guest can reach them; Close stops
// them all and ends every connection.
type Filter struct {
	cfg       Config
	rec       *recorder
	forbidden []netip.Prefix

	mu        sync.Mutex
	policy    *Policy
	phase     string
	resolved  map[string]map[netip.Addr]bool // name -> addresses the filter handed out or dialed for it
	conns     map[*tunnel]struct{}
	listeners map[io.Closer]struct{}
	pool      upstreamPool // plain HTTP's idle upstream connections (forward.go)
	synth     syntheticAddrs
	// intercepting: the guest's DNS gets synthetic addresses (Intercept).
	intercepting atomic.Bool
	closed       bool
	wg           sync.WaitGroup
}

// New returns a filter with the config's policy.
func New(cfg Config) *Filter {
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.Dial == nil {
		d := &net.Dialer{Timeout: 10 * time.Second}
		cfg.Dial = d.DialContext
	}
	if cfg.HandshakeTimeout == 0 {
		cfg.HandshakeTimeout = 10 * time.Second
	}
	p := cfg.Policy
	if p == nil {
		p = &Policy{Mode: ModeDeny}
	}
	forbidden := cfg.Forbidden
	if forbidden == nil {
		forbidden = DefaultForbidden
	}
	f := &Filter{cfg: cfg, rec: newRecorder(cfg.Log), forbidden: forbidden, policy: p, phase: cfg.Phase,
		resolved: map[string]map[netip.Addr]bool{}, conns: map[*tunnel]struct{}{}, listeners: map[io.Closer]struct{}{}}
	return f
}

// Policy is the policy in force.
func (f *Filter) Policy() *Policy {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.policy
}

// SetPolicy changes the policy of a live machine (Harbor switches it
// between the agent and verifier phases) and ends every open connection
// the new policy would not admit; phase names the records from now on.
func (f *Filter) SetPolicy(p *Policy, phase string) {
	if p == nil {
		p = &Policy{Mode: ModeDeny}
	}
	f.mu.Lock()
	f.policy, f.phase = p, phase
	var cut []*tunnel
	for t := range f.conns {
		if !f.stillAdmitted(p, t) {
			cut = append(cut, t)
		}
	}
	f.mu.Unlock()
	// Pooled upstream connections were opened under the old policy.
	f.pool.closeIdle(false)
	for _, t := range cut {
		t.cut("the network policy changed")
	}
}

func (f *Filter) stillAdmitted(p *Policy, t *tunnel) bool {
	switch p.Mode {
	case ModeAllow:
		return true
	case ModeAllowlist:
		if p.AllowsAddr(t.addr.Addr()) {
			return true
		}
		return t.name != "" && p.AllowsName(t.name) && !f.isForbidden(t.addr.Addr())
	}
	return false
}

// Summary counts the decisions so far by host.
func (f *Filter) Summary() Summary { return f.rec.summary() }

// Close stops every Serve method, ends every connection and waits for
// the filter's goroutines.
func (f *Filter) Close() error {
	f.mu.Lock()
	f.closed = true
	var ls []io.Closer
	for l := range f.listeners {
		ls = append(ls, l)
	}
	var ts []*tunnel
	for t := range f.conns {
		ts = append(ts, t)
	}
	f.mu.Unlock()
	for _, l := range ls {
		l.Close()
	}
	for _, t := range ts {
		t.cut("the machine closed")
	}
	f.wg.Wait()
	f.pool.closeIdle(true)
	return nil
}

// track registers a listener or packet conn so that Close stops it; it
// fails once the filter is closed.
func (f *Filter) track(c io.Closer) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		c.Close()
		return net.ErrClosed
	}
	f.listeners[c] = struct{}{}
	return nil
}

func (f *Filter) untrack(c io.Closer) {
	f.mu.Lock()
	delete(f.listeners, c)
	f.mu.Unlock()
}

// goServe runs fn in a goroutine Close waits for.
func (f *Filter) goServe(fn func()) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		fn()
	}()
	return true
}

func (f *Filter) record(r Record) {
	f.mu.Lock()
	r.Phase = f.phase
	f.mu.Unlock()
	r.Time = time.Now().UTC()
	r.Machine = f.cfg.Machine
	f.rec.write(r)
}

func (f *Filter) isForbidden(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range f.forbidden {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// nameVerdict says whether a name may be resolved or connected to under
// policy p, and why not.
func nameVerdict(p *Policy, name string) (bool, string) {
	switch p.Mode {
	case ModeAllow:
		return true, "the network is public"
	case ModeDeny:
		return false, "the network is off"
	}
	if p.AllowsName(name) {
		return true, "the name is on the allowlist"
	}
	return false, "the name is not on the allowlist"
}

// lookup resolves an admitted name on the host, drops forbidden addresses
// and remembers the rest as resolved for the name in this machine.
func (f *Filter) lookup(ctx context.Context, network, name string) ([]netip.Addr, error) {
	addrs, err := f.cfg.Resolver.LookupNetIP(ctx, network, name)
	if err != nil {
		return nil, err
	}
	var ok []netip.Addr
	for _, a := range addrs {
		a = a.Unmap()
		if !f.isForbidden(a) {
			ok = append(ok, a)
		}
	}
	if len(ok) == 0 && len(addrs) > 0 {
		return nil, errForbidden
	}
	f.mu.Lock()
	m := f.resolved[name]
	if m == nil {
		m = map[netip.Addr]bool{}
		f.resolved[name] = m
	}
	for _, a := range ok {
		m[a] = true
	}
	f.mu.Unlock()
	return ok, nil
}

func contextTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

var errForbidden = errors.New("the name resolves only to forbidden addresses")

// unsynthesize turns a target at a synthetic address into one at the
// name it was handed out for.
func (f *Filter) unsynthesize(t target) target {
	if a, err := netip.ParseAddr(t.host); err == nil && syntheticRange.Contains(a.Unmap()) {
		if name, ok := f.synth.nameOf(a); ok {
			t.host = name
		}
	}
	return t
}

// resolvedFor says whether the filter handed out addr for name.
func (f *Filter) resolvedFor(name string, addr netip.Addr) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resolved[name][addr.Unmap()]
}

func canonicalName(s string) string {
	return strings.TrimSuffix(strings.ToLower(s), ".")
}
