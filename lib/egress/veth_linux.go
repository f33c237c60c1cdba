package egress

import (
	"fmt"
	"net"
	"net/netip"
	"os"
	"runtime"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"
)

// For a machine whose network stack is not the kernel's (gVisor's sentry
// has its own), the filter cannot sit on the machine's loopback. Instead
// the machine's namespace gets one card, a veth whose other end is in a
// namespace of the filter's own that holds nothing but that end and the
// filter's sockets: whatever the guest sends, to any address, arrives
// there and is forwarded nowhere.

// Addresses of the point-to-point link (private to the two namespaces).
const (
	vethFilterAddr = "10.254.254.1"
	vethGuestAddr  = "10.254.254.2"
	vethPrefixLen  = 30
)

// The link's IPv6 addresses (AttachVethIntercepting), from the unique
// local prefix of the intercepting device.
var (
	vethFilterAddr6 = netip.MustParseAddr("fd5b:e9c5:1e5e:1::1")
	vethGuestAddr6  = netip.MustParseAddr("fd5b:e9c5:1e5e:1::2")
)

// AttachVeth links the namespace at nsPath to a new namespace of the
// filter's own and serves the filter there; the machine's end is named
// ifname, with a default route to the filter. The filter's namespace goes
// away when Close closes its sockets.
func (f *Filter) AttachVeth(nsPath, ifname string) (Endpoint, error) {
	return f.attachVeth(nsPath, ifname, false)
}

// AttachVethIntercepting is AttachVeth, and the filter's namespace also
// forwards whatever else the machine sends to an intercepting device
// (Intercept), so that programs that ignore the proxy reach allowed
// names, under the same checks. Forwarding is a setting of that namespace
// alone, whose only other card is the machine's link: nothing is routed
// to the host.
func (f *Filter) AttachVethIntercepting(nsPath, ifname string) (Endpoint, error) {
	return f.attachVeth(nsPath, ifname, true)
}

func (f *Filter) attachVeth(nsPath, ifname string, intercept bool) (Endpoint, error) {
	guestNS, err := netns.GetFromPath(nsPath)
	if err != nil {
		return Endpoint{}, err
	}
	defer guestNS.Close()
	ownNS, err := newNetns()
	if err != nil {
		return Endpoint{}, fmt.Errorf("egress: a namespace for the filter: %w", err)
	}
	defer ownNS.Close() // the sockets and the link keep it alive
	own, err := netlink.NewHandleAt(ownNS)
	if err != nil {
		return Endpoint{}, err
	}
	defer own.Close()
	guest, err := netlink.NewHandleAt(guestNS)
	if err != nil {
		return Endpoint{}, err
	}
	defer guest.Close()

	veth := &netlink.Veth{LinkAttrs: netlink.LinkAttrs{Name: "filter0"}, PeerName: ifname, PeerNamespace: netlink.NsFd(guestNS)}
	if err := own.LinkAdd(veth); err != nil {
		return Endpoint{}, fmt.Errorf("egress: creating the link: %w", err)
	}
	setUp := func(h *netlink.Handle, name, addr string) error {
		link, err := h.LinkByName(name)
		if err != nil {
			return err
		}
		a, err := netlink.ParseAddr(fmt.Sprintf("%s/%d", addr, vethPrefixLen))
		if err != nil {
			return err
		}
		if err := h.AddrAdd(link, a); err != nil {
			return err
		}
		return h.LinkSetUp(link)
	}
	if err := setUp(own, "filter0", vethFilterAddr); err != nil {
		return Endpoint{}, err
	}
	if lo, err := own.LinkByName("lo"); err == nil {
		own.LinkSetUp(lo)
	}
	if err := setUp(guest, ifname, vethGuestAddr); err != nil {
		return Endpoint{}, err
	}
	link, err := guest.LinkByName(ifname)
	if err != nil {
		return Endpoint{}, err
	}
	if err := guest.RouteAdd(&netlink.Route{LinkIndex: link.Attrs().Index, Gw: net.ParseIP(vethFilterAddr)}); err != nil {
		return Endpoint{}, fmt.Errorf("egress: the machine's default route: %w", err)
	}
	ep := VethEndpoint
	ownPath := fmt.Sprintf("/proc/self/fd/%d", int(ownNS))
	if err := f.serveIn(ownPath, ep); err != nil {
		return Endpoint{}, err
	}
	if intercept {
		err := inNetns(ownPath, func() error {
			// /proc/sys/net is the opening thread's namespace's.
			return os.WriteFile("/proc/sys/net/ipv4/ip_forward", []byte("1\n"), 0o644)
		})
		if err != nil {
			return Endpoint{}, fmt.Errorf("egress: forwarding in the filter's namespace: %w", err)
		}
		routeVethIPv6(own, guest, ownPath, nsPath, ifname)
		if err := f.Intercept(ownPath); err != nil {
			return Endpoint{}, err
		}
	}
	return ep, nil
}

// newNetns makes a network namespace and returns a handle to it, leaving
// the calling goroutine's thread in its own.
func newNetns() (netns.NsHandle, error) {
	type result struct {
		ns  netns.NsHandle
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		self, err := netns.Get()
		if err != nil {
			done <- result{err: err}
			return
		}
		defer self.Close()
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			done <- result{err: err}
			return
		}
		ns, err := netns.Get()
		if err := netns.Set(self); err != nil {
			// Left locked: the thread ends with the goroutine.
			done <- result{ns: ns, err: err}
			return
		}
		runtime.UnlockOSThread()
		done <- result{ns: ns, err: err}
	}()
	r := <-done
	if r.err != nil && r.ns.IsOpen() {
		r.ns.Close()
	}
	return r.ns, r.err
}

// routeVethIPv6 gives both ends of the link an IPv6 address and the
// machine an IPv6 default route to the filter's namespace, which forwards
// it to the intercepting device as it does IPv4. Docker disables IPv6 in
// the namespaces of containers without an IPv6 network (the gate's), and
// a card moved there inherits that: the link's ends get IPv6 back, as
// they lead nowhere but to the filter. Where either namespace still
// refuses IPv6, IPv6 keeps no route (closed), so failures are ignored.
func routeVethIPv6(own, guest *netlink.Handle, ownPath, guestPath, ifname string) {
	enable := func(nsPath, name string) error {
		return inNetns(nsPath, func() error {
			return os.WriteFile("/proc/sys/net/ipv6/conf/"+name+"/disable_ipv6", []byte("0\n"), 0o644)
		})
	}
	err := inNetns(ownPath, func() error {
		return os.WriteFile("/proc/sys/net/ipv6/conf/all/forwarding", []byte("1\n"), 0o644)
	})
	if err == nil {
		err = enable(ownPath, "filter0")
	}
	if err == nil {
		err = enable(guestPath, ifname)
	}
	if err != nil {
		return
	}
	add := func(h *netlink.Handle, name string, a netip.Addr) (netlink.Link, error) {
		link, err := h.LinkByName(name)
		if err != nil {
			return nil, err
		}
		// No duplicate to detect on a link of two: usable at once.
		return link, h.AddrAdd(link, &netlink.Addr{IPNet: &net.IPNet{IP: a.AsSlice(), Mask: net.CIDRMask(64, 128)}, Flags: unix.IFA_F_NODAD})
	}
	if _, err := add(own, "filter0", vethFilterAddr6); err != nil {
		return
	}
	link, err := add(guest, ifname, vethGuestAddr6)
	if err != nil {
		return
	}
	guest.RouteAdd(&netlink.Route{LinkIndex: link.Attrs().Index, Family: netlink.FAMILY_V6, Gw: vethFilterAddr6.AsSlice(),
		Dst: &net.IPNet{IP: net.IPv6zero, Mask: net.CIDRMask(0, 128)}})
}
