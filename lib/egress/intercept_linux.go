package egress

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"sync"
	"time"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
	"gvisor.dev/gvisor/pkg/buffer"
	"gvisor.dev/gvisor/pkg/tcpip"
	"gvisor.dev/gvisor/pkg/tcpip/adapters/gonet"
	"gvisor.dev/gvisor/pkg/tcpip/header"
	"gvisor.dev/gvisor/pkg/tcpip/link/channel"
	"gvisor.dev/gvisor/pkg/tcpip/network/ipv4"
	"gvisor.dev/gvisor/pkg/tcpip/network/ipv6"
	"gvisor.dev/gvisor/pkg/tcpip/stack"
	"gvisor.dev/gvisor/pkg/tcpip/transport/tcp"
	"gvisor.dev/gvisor/pkg/tcpip/transport/udp"
	"gvisor.dev/gvisor/pkg/waiter"
)

// Programs that ignore the proxy variables connect to an address
// themselves. Intercept gives the machine's namespace a TUN device as its
// default route; the device's other end is this process, where gVisor's
// user-space TCP/IP stack (netstack, as a library) terminates every
// connection the guest opens, whatever its address. A connection is
// accepted only to an address the filter handed out for an allowed name
// (synthetic.go) or one on the allowlist, and then served like a CONNECT
// tunnel to that name: the TLS SNI or each HTTP request's Host must match.
// Everything else is answered with a reset (TCP), a port unreachable
// (UDP), or nothing (ICMP), and recorded. DNS to any resolver is answered
// by the filter. Nothing is routed: the device, its address and route
// live in the machine's namespace, no host firewall rule is involved, and
// closing the device's descriptor removes it.
//
// IPv6 takes the same way: the device also gets an IPv6 address and the
// namespace's IPv6 default route, so that an IPv6 literal or CIDR on the
// allowlist is reached (the filter dials it from the host, where it may
// or may not have a route) and every other IPv6 destination gets a reset
// like an IPv4 one. Names never lead there: the filter's DNS answers AAAA
// queries for allowed names with no address (NOERROR, empty), so clients
// use the synthetic IPv4 address, the one that names the host. Where the
// namespace refuses IPv6 (disabled by a sysctl), it stays without a route
// and so without a way out.

const (
	interceptIfname = "egress0"
	interceptMTU    = 65520 // large segments: fewer packets through the user-space stack
)

// interceptGuestAddr6 is the guest's IPv6 address on the intercepting
// link, from a unique local prefix (RFC 4193) of its own, so that it is
// no real host's.
var interceptGuestAddr6 = netip.MustParseAddr("fd5b:e9c5:1e5e::2")

// interceptor is the TUN device and user-space stack of one namespace.
type interceptor struct {
	f      *Filter
	tun    *os.File
	link   *channel.Endpoint
	stack  *stack.Stack
	ctx    context.Context
	cancel context.CancelFunc
	once   sync.Once

	mu      sync.Mutex
	blocked map[string]bool // recorded refusals of UDP and ICMP, once per destination
}

// Intercept gives the namespace at nsPath (where Attach opened the
// filter's DNS and proxy) a TUN device as its default route, served by
// the filter until Close; the filter's DNS hands out synthetic addresses
// from then on.
func (f *Filter) Intercept(nsPath string) error {
	var tun *os.File
	err := inNetns(nsPath, func() error {
		var err error
		if tun, err = openTUN(interceptIfname); err != nil {
			return fmt.Errorf("creating %s: %w", interceptIfname, err)
		}
		return configureTUN(interceptIfname)
	})
	if err != nil {
		if tun != nil {
			tun.Close()
		}
		return fmt.Errorf("egress: the intercepting device in %s: %w", nsPath, err)
	}
	ix := &interceptor{f: f, tun: tun, blocked: map[string]bool{}}
	ix.ctx, ix.cancel = context.WithCancel(context.Background())
	if err := ix.start(); err != nil {
		ix.Close()
		return err
	}
	if err := f.track(ix); err != nil {
		return err
	}
	for _, pump := range []func(){ix.fromGuest, ix.toGuest} {
		if !f.goServe(pump) {
			ix.Close()
			return net.ErrClosed
		}
	}
	f.intercepting.Store(true)
	return nil
}

// openTUN creates a TUN device in the calling thread's namespace; it
// lives as long as the descriptor.
func openTUN(name string) (*os.File, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("TUNSETIFF: %w", err)
	}
	// Non-blocking: reads wait in Go's poller, and Close ends them.
	return os.NewFile(uintptr(fd), "/dev/net/tun"), nil
}

// configureTUN gives the device the guest's address and makes it the
// default route of the calling thread's namespace.
func configureTUN(name string) error {
	h, err := netlink.NewHandle() // its socket is in this thread's namespace
	if err != nil {
		return err
	}
	defer h.Close()
	link, err := h.LinkByName(name)
	if err != nil {
		return err
	}
	if err := h.LinkSetMTU(link, interceptMTU); err != nil {
		return fmt.Errorf("its MTU: %w", err)
	}
	addr := &netlink.Addr{IPNet: &net.IPNet{IP: interceptGuestAddr.AsSlice(), Mask: net.CIDRMask(32, 32)}}
	if err := h.AddrAdd(link, addr); err != nil {
		return fmt.Errorf("its address: %w", err)
	}
	if err := h.LinkSetUp(link); err != nil {
		return fmt.Errorf("setting it up: %w", err)
	}
	if err := h.RouteAdd(&netlink.Route{LinkIndex: link.Attrs().Index, Scope: netlink.SCOPE_LINK,
		Dst: &net.IPNet{IP: net.IPv4zero.To4(), Mask: net.CIDRMask(0, 32)}}); err != nil {
		return fmt.Errorf("the default route through it: %w", err)
	}
	configureTUN6(h, link)
	return nil
}

// configureTUN6 gives the device an IPv6 address and makes it the IPv6
// default route too, where the namespace has IPv6. Without it IPv6 simply
// has no route (the guest's connections fail at once), which is closed,
// not open: so a failure here is no failure of the filter.
func configureTUN6(h *netlink.Handle, link netlink.Link) {
	// (The kernel's own chatter on the link, router solicitations and
	// multicast reports, is dropped by fromGuest.)
	os.WriteFile("/proc/sys/net/ipv6/conf/"+interceptIfname+"/disable_ipv6", []byte("0\n"), 0o644)
	addr := &netlink.Addr{IPNet: &net.IPNet{IP: interceptGuestAddr6.AsSlice(), Mask: net.CIDRMask(128, 128)},
		Flags: unix.IFA_F_NODAD} // no duplicate to detect on a link of two: usable at once
	if err := h.AddrAdd(link, addr); err != nil {
		return
	}
	h.RouteAdd(&netlink.Route{LinkIndex: link.Attrs().Index, Family: netlink.FAMILY_V6,
		Dst: &net.IPNet{IP: net.IPv6zero, Mask: net.CIDRMask(0, 128)}})
}

func (ix *interceptor) start() error {
	s := stack.New(stack.Options{
		NetworkProtocols:   []stack.NetworkProtocolFactory{ipv4.NewProtocol, ipv6.NewProtocol},
		TransportProtocols: []stack.TransportProtocolFactory{tcp.NewProtocol, udp.NewProtocol},
	})
	ix.stack = s
	ix.link = channel.New(512, interceptMTU, "")
	if err := s.CreateNIC(1, ix.link); err != nil {
		return fmt.Errorf("egress: netstack NIC: %s", err)
	}
	// Every address is the stack's own: it answers for whichever host
	// the guest dials.
	s.SetPromiscuousMode(1, true)
	s.SetSpoofing(1, true)
	s.SetRouteTable([]tcpip.Route{{Destination: header.IPv4EmptySubnet, NIC: 1}, {Destination: header.IPv6EmptySubnet, NIC: 1}})
	sack := tcpip.TCPSACKEnabled(true)
	s.SetTransportProtocolOption(tcp.ProtocolNumber, &sack)
	// The link is a device in this host, where no old segment lingers:
	// a closed connection need not hold its ports (and memory) for the
	// default minute, in which the guest may well reuse them.
	tw := tcpip.TCPTimeWaitTimeoutOption(time.Second)
	s.SetTransportProtocolOption(tcp.ProtocolNumber, &tw)
	s.SetTransportProtocolHandler(tcp.ProtocolNumber, tcp.NewForwarder(s, 0, 1024, ix.acceptTCP).HandlePacket)
	s.SetTransportProtocolHandler(udp.ProtocolNumber, udp.NewForwarder(s, ix.acceptUDP).HandlePacket)
	return nil
}

// Close removes the device and stops the stack (Filter.Close calls it).
func (ix *interceptor) Close() error {
	ix.once.Do(func() {
		ix.tun.Close()
		ix.cancel()
		if ix.stack != nil {
			ix.stack.Close()
			ix.stack.Wait()
		}
	})
	return nil
}

// fromGuest passes the guest's TCP and UDP packets (IPv4 and IPv6) to
// the stack; ICMP and other protocols end here.
func (ix *interceptor) fromGuest() {
	buf := make([]byte, interceptMTU+4)
	for {
		n, err := ix.tun.Read(buf)
		if err != nil {
			return
		}
		p := buf[:n]
		var dst netip.Addr
		var proto uint8
		var netProto tcpip.NetworkProtocolNumber
		switch {
		case n >= header.IPv4MinimumSize && p[0]>>4 == 4:
			dst, proto, netProto = netip.AddrFrom4([4]byte(p[16:20])), p[9], ipv4.ProtocolNumber
		case n >= header.IPv6MinimumSize && p[0]>>4 == 6:
			dst, proto, netProto = netip.AddrFrom16([16]byte(p[24:40])), p[6], ipv6.ProtocolNumber
			if dst.IsMulticast() || dst.IsLinkLocalUnicast() {
				// The link's own traffic (neighbour and router discovery,
				// multicast listener reports), which leads nowhere.
				continue
			}
		default:
			continue
		}
		switch proto {
		case uint8(header.TCPProtocolNumber), uint8(header.UDPProtocolNumber):
		case uint8(header.ICMPv4ProtocolNumber), uint8(header.ICMPv6ProtocolNumber):
			ix.blockOnce("icmp", dst, 0, "only TCP to allowed hosts and DNS leave the machine")
			continue
		default:
			// (An IPv6 extension header in front of TCP or UDP ends here too.)
			ix.blockOnce(fmt.Sprintf("ip-proto-%d", proto), dst, 0, "only TCP to allowed hosts and DNS leave the machine")
			continue
		}
		pkt := stack.NewPacketBuffer(stack.PacketBufferOptions{Payload: buffer.MakeWithData(p)})
		ix.link.InjectInbound(netProto, pkt)
		pkt.DecRef()
	}
}

// toGuest writes the stack's packets to the device.
func (ix *interceptor) toGuest() {
	for {
		pkt := ix.link.ReadContext(ix.ctx)
		if pkt == nil {
			return
		}
		v := pkt.ToView()
		_, err := ix.tun.Write(v.AsSlice())
		v.Release()
		pkt.DecRef()
		if err != nil && ix.ctx.Err() != nil {
			return
		}
	}
}

// blockOnce records a refused packet the first time its destination is
// seen (a flood of them is one line each, not one per packet).
func (ix *interceptor) blockOnce(proto string, dst netip.Addr, port int, why string) {
	key := fmt.Sprintf("%s %s %d", proto, dst, port)
	ix.mu.Lock()
	seen := ix.blocked[key]
	if !seen && len(ix.blocked) < 4096 {
		ix.blocked[key] = true
	}
	ix.mu.Unlock()
	if seen {
		return
	}
	rec := Record{Event: EventDecision, Protocol: proto, Address: dst.String(), Port: port, Via: ViaIntercept, Verdict: Block, Reason: why}
	if name, ok := ix.f.synth.nameOf(dst); ok {
		rec.Name = name
	}
	ix.f.record(rec)
}

func endpointAddr(id stack.TransportEndpointID) netip.Addr {
	a, _ := netip.AddrFromSlice(id.LocalAddress.AsSlice())
	return a.Unmap()
}

// acceptTCP decides on a connection when its SYN arrives: a reset for an
// address that leads nowhere allowed, else the handshake completes and
// the connection is served like a CONNECT tunnel.
func (ix *interceptor) acceptTCP(r *tcp.ForwarderRequest) {
	f := ix.f
	id := r.ID()
	dst := endpointAddr(id)
	t := f.unsynthesize(target{host: dst.String(), port: int(id.LocalPort), via: ViaIntercept})
	var addrs []netip.Addr
	why := ""
	if id.LocalPort != 53 {
		if t.host == dst.String() {
			// The guest never learnt a real address from the filter: only
			// a listed one (or any, under the public policy) is admitted.
			if p := f.Policy(); p.Mode == ModeAllowlist && !p.AllowsAddr(dst) {
				why = "the address was not handed out by the filter for an allowed name and is not on the allowlist"
			}
		}
		if why == "" {
			addrs, why = f.admitTarget(t)
		}
		if addrs == nil {
			r.Complete(true)
			rec := Record{Event: EventDecision, Protocol: "tcp", Address: dst.String(), Port: t.port, Via: ViaIntercept, Verdict: Block, Reason: why}
			if t.host != dst.String() {
				rec.Name = t.host
			}
			f.record(rec)
			return
		}
	}
	var wq waiter.Queue
	ep, err := r.CreateEndpoint(&wq)
	if err != nil {
		r.Complete(true)
		return
	}
	r.Complete(false)
	c := gonet.NewTCPConn(&wq, ep)
	// The first bytes (a ClientHello or a request head) must come in
	// time, as on the proxy.
	c.SetReadDeadline(time.Now().Add(f.cfg.HandshakeTimeout))
	serve := func() { f.serveTunnel(newGuestStream(c), t, addrs) }
	if id.LocalPort == 53 { // DNS over TCP, to whichever resolver
		serve = func() { f.serveDNSConn(c, ViaIntercept) }
	}
	if !f.goServe(serve) {
		c.Close()
	}
}

// acceptUDP answers DNS sent to any resolver; every other datagram is
// refused (the stack answers port unreachable).
func (ix *interceptor) acceptUDP(r *udp.ForwarderRequest) bool {
	f := ix.f
	id := r.ID()
	if id.LocalPort != 53 {
		ix.blockOnce("udp", endpointAddr(id), int(id.LocalPort), "UDP leaves the machine only as DNS, which the filter answers")
		return false
	}
	var wq waiter.Queue
	ep, err := r.CreateEndpoint(&wq)
	if err != nil {
		return true
	}
	c := gonet.NewUDPConn(&wq, ep)
	if !f.goServe(func() {
		defer c.Close()
		buf := make([]byte, 65535)
		for {
			c.SetReadDeadline(time.Now().Add(f.cfg.HandshakeTimeout))
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			if resp := f.answer(buf[:n], 512, ViaIntercept); resp != nil {
				c.Write(resp)
			}
		}
	}) {
		c.Close()
	}
	return true
}
