package shellsimbackend

import (
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// ShellSim has no network, only virtual HTTP routes. An allowlisted
// machine gets the routes of allowed hosts only (a request to any other
// host finds no route: unreachable), and the requests its commands made
// become decision records in the egress log, as the filter writes them.

// egressLog records the requests of an allowlisted machine.
type egressLog struct {
	policy *egress.Policy
	mu     sync.Mutex
	file   *os.File
	w      *egress.RecordWriter
	seen   int // requests already recorded
}

func newEgressLog(spec machine.Spec, id string) (*egressLog, error) {
	p, err := egress.Parse(egress.ModeAllowlist, spec.AllowedHosts)
	if err != nil {
		return nil, err
	}
	l := &egressLog{policy: p}
	if spec.EgressLog != "" {
		if l.file, err = os.OpenFile(spec.EgressLog, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err != nil {
			return nil, err
		}
		l.w = egress.NewRecordWriter(l.file, id)
	}
	return l, nil
}

// allowsRoute says whether a route's host is admitted; a route whose host
// is a glob is kept only when the allowlist has that very wildcard.
func (l *egressLog) allowsRoute(r command.Route) bool {
	u, err := url.Parse(r.Pattern)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if strings.ContainsAny(host, "*?[") {
		for _, e := range l.policy.Entries() {
			if e == strings.ToLower(host) {
				return true
			}
		}
		return false
	}
	return l.allowsHost(host)
}

func (l *egressLog) allowsHost(host string) bool {
	if a, err := netip.ParseAddr(host); err == nil {
		return l.policy.AllowsAddr(a)
	}
	return l.policy.AllowsName(host)
}

// record writes the requests made since the last call.
func (l *egressLog) record(requests []command.RequestRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil || len(requests) <= l.seen {
		return
	}
	for _, req := range requests[l.seen:] {
		rec := egress.Record{Event: egress.EventDecision, Protocol: "http"}
		if u, err := url.Parse(req.URL); err == nil {
			rec.Name = strings.ToLower(u.Hostname())
			rec.Protocol = u.Scheme
			if p, err := strconv.Atoi(u.Port()); err == nil {
				rec.Port = p
			}
		}
		switch {
		case !l.allowsHost(rec.Name):
			rec.Verdict, rec.Reason = egress.Block, "the host is not on the allowlist (unreachable)"
		case req.Matched:
			rec.Verdict, rec.Reason = egress.Allow, "the host is on the allowlist (virtual route, status "+strconv.Itoa(req.Status)+")"
		default:
			rec.Verdict, rec.Reason = egress.Allow, "the host is on the allowlist, but no virtual route answers it"
		}
		l.w.Write(rec)
	}
	l.seen = len(requests)
}

func (l *egressLog) close() {
	if l != nil && l.file != nil {
		l.file.Close()
	}
}

// recordEgress writes the decision records of the requests made so far.
func (m *Machine) recordEgress() {
	if m.egress == nil {
		return
	}
	requests, _ := m.env.NetworkRequests()
	m.egress.record(requests)
}
