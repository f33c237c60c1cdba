package egress

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

// ServeDNS answers the guest's DNS over UDP on pc until Close: allowed
// names resolve with the host's resolver, every other name gets NXDOMAIN.
func (f *Filter) ServeDNS(pc net.PacketConn) error {
	if err := f.track(pc); err != nil {
		return err
	}
	defer f.untrack(pc)
	buf := make([]byte, 65535)
	for {
		n, from, err := pc.ReadFrom(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		query := append([]byte(nil), buf[:n]...)
		f.goServe(func() {
			if resp := f.answer(query, 512, ""); resp != nil {
				pc.WriteTo(resp, from)
			}
		})
	}
}

// ServeDNSStream answers DNS over TCP (length-prefixed messages) on l
// until Close.
func (f *Filter) ServeDNSStream(l net.Listener) error {
	return f.serveListener(l, func(c net.Conn) { f.serveDNSConn(c, "") })
}

// serveDNSConn answers the length-prefixed queries of one connection.
func (f *Filter) serveDNSConn(c net.Conn, via string) {
	defer c.Close()
	for {
		c.SetDeadline(time.Now().Add(f.cfg.HandshakeTimeout))
		var size [2]byte
		if _, err := io.ReadFull(c, size[:]); err != nil {
			return
		}
		query := make([]byte, binary.BigEndian.Uint16(size[:]))
		if _, err := io.ReadFull(c, query); err != nil {
			return
		}
		resp := f.answer(query, 65535, via)
		if resp == nil {
			return
		}
		out := binary.BigEndian.AppendUint16(nil, uint16(len(resp)))
		if _, err := c.Write(append(out, resp...)); err != nil {
			return
		}
	}
}

// answer builds the response to one query, or nil for garbage; via says
// how the query came when not to the filter's own resolver address.
func (f *Filter) answer(query []byte, limit int, via string) []byte {
	var p dnsmessage.Parser
	hdr, err := p.Start(query)
	if err != nil || hdr.Response {
		return nil
	}
	q, err := p.Question()
	if err != nil {
		return nil
	}
	rh := dnsmessage.Header{ID: hdr.ID, Response: true, OpCode: hdr.OpCode, RecursionDesired: hdr.RecursionDesired,
		RecursionAvailable: true, Authoritative: false}
	name := canonicalName(q.Name.String())
	policy := f.Policy()
	ok, reason := nameVerdict(policy, name)
	var addrs, answers []netip.Addr
	if hdr.OpCode != 0 || q.Class != dnsmessage.ClassINET {
		ok, reason = false, "only standard queries of class IN are answered"
	}
	if ok && (q.Type == dnsmessage.TypeA || q.Type == dnsmessage.TypeAAAA) {
		network := "ip4"
		if q.Type == dnsmessage.TypeAAAA {
			network = "ip6"
		}
		synthetic := f.intercepting.Load()
		if synthetic {
			network = "ip" // the guest gets a synthetic IPv4 address for any
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		addrs, err = f.lookup(ctx, network, name)
		cancel()
		var dnsErr *net.DNSError
		switch {
		case errors.Is(err, errForbidden):
			ok, reason = false, err.Error()
		case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
			// The name exists for other types (or not at all): NODATA
			// keeps the guest from caching a refusal we did not make.
			addrs, reason = nil, "allowed; the host has no address of this type"
		case err != nil:
			rh.RCode = dnsmessage.RCodeServerFailure
			reason = "the host's resolver failed: " + err.Error()
		case synthetic && q.Type == dnsmessage.TypeA:
			answers = []netip.Addr{f.synth.addrFor(name)}
			reason = "the name is on the allowlist; handed out as " + answers[0].String()
		case synthetic:
			// Empty (NOERROR): the guest uses the synthetic IPv4 address,
			// which names the host (IPv6 literals on the allowlist are
			// routed all the same).
			reason = "the name is on the allowlist; the guest gets its synthetic IPv4 address only"
		default:
			answers = addrs
			reason = "the name is on the allowlist"
		}
	}
	if !ok {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(make([]byte, 0, 512), rh)
	b.EnableCompression()
	b.StartQuestions()
	b.Question(q)
	b.StartAnswers()
	if ok && rh.RCode == dnsmessage.RCodeSuccess {
		for _, a := range answers {
			res := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 30}
			if a.Is4() && q.Type == dnsmessage.TypeA {
				b.AResource(res, dnsmessage.AResource{A: a.As4()})
			} else if a.Is6() && q.Type == dnsmessage.TypeAAAA {
				b.AAAAResource(res, dnsmessage.AAAAResource{AAAA: a.As16()})
			}
		}
	}
	resp, err := b.Finish()
	if err != nil {
		return nil
	}
	if len(resp) > limit {
		// Too large for UDP: the truncated header tells the guest to ask
		// again over TCP.
		rh.Truncated = true
		b = dnsmessage.NewBuilder(make([]byte, 0, 512), rh)
		b.StartQuestions()
		b.Question(q)
		resp, _ = b.Finish()
	}
	verdict := Block
	if ok {
		verdict = Allow
	}
	addr := ""
	if len(addrs) > 0 {
		addr = addrs[0].String()
	}
	f.record(Record{Event: EventDecision, Protocol: "dns", Name: name, Address: addr, Port: 53, Via: via,
		Verdict: verdict, Reason: reason + " (" + q.Type.String() + ")"})
	return resp
}
