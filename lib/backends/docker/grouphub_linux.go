package docker

import (
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"
)

// groupHub is the private network of a gVisor task group: a network
// namespace of its own, held only by a descriptor of this process, with a
// bridge that has no address and one veth per member whose other end is a
// card of that member's gate. Nothing else is in the namespace, so frames
// go from member to member and nowhere else, whatever the guests send.
// When the descriptor closes (Close, or this process ending) the namespace
// goes away with its links, and the kernel removes their other ends from
// the gates.
type groupHub struct {
	mu     sync.Mutex
	ns     netns.NsHandle
	bridge netlink.Link
}

// hubBridge is the bridge's name inside the hub's namespace.
const hubBridge = "hub"

func newGroupHub() (*groupHub, error) {
	ns, err := newHubNetns()
	if err != nil {
		return nil, fmt.Errorf("a network namespace for the group: %w", err)
	}
	h := &groupHub{ns: ns}
	hh, err := netlink.NewHandleAt(ns)
	if err != nil {
		h.close()
		return nil, err
	}
	defer hh.Close()
	br := &netlink.Bridge{LinkAttrs: netlink.LinkAttrs{Name: hubBridge}}
	if err := hh.LinkAdd(br); err != nil {
		h.close()
		return nil, fmt.Errorf("creating the group's bridge: %w", err)
	}
	if err := hh.LinkSetUp(br); err != nil {
		h.close()
		return nil, err
	}
	h.bridge = br
	return h, nil
}

// attach plugs the namespace of process pid, the main process of container
// id (a gate), into the hub: a veth named ifname there, with addr/prefix,
// its peer on the bridge.
func (h *groupHub) attach(id string, pid, member int, ifname, addr string, prefix int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.ns.IsOpen() {
		return net.ErrClosed
	}
	gateNS, err := netns.GetFromPid(pid)
	if err != nil {
		return err
	}
	defer gateNS.Close()
	// The daemon's process ids are ours only when it runs on this host;
	// a remote daemon's would name some unrelated local process.
	cg, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil || !strings.Contains(string(cg), id) {
		return fmt.Errorf("process %d is not the gate's: a gVisor task group needs the Docker daemon on this host", pid)
	}
	hh, err := netlink.NewHandleAt(h.ns)
	if err != nil {
		return err
	}
	defer hh.Close()
	gh, err := netlink.NewHandleAt(gateNS)
	if err != nil {
		return err
	}
	defer gh.Close()
	port := fmt.Sprintf("m%d", member)
	veth := &netlink.Veth{LinkAttrs: netlink.LinkAttrs{Name: port, MasterIndex: h.bridge.Attrs().Index}, PeerName: ifname, PeerNamespace: netlink.NsFd(gateNS)}
	if err := hh.LinkAdd(veth); err != nil {
		return fmt.Errorf("creating the link of member %d: %w", member, err)
	}
	if err := hh.LinkSetUp(veth); err != nil {
		return err
	}
	link, err := gh.LinkByName(ifname)
	if err != nil {
		return err
	}
	a, err := netlink.ParseAddr(fmt.Sprintf("%s/%d", addr, prefix))
	if err != nil {
		return err
	}
	if err := gh.AddrAdd(link, a); err != nil {
		return err
	}
	return gh.LinkSetUp(link)
}

// close releases the namespace and with it every link of the group.
func (h *groupHub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ns.IsOpen() {
		h.ns.Close()
		h.ns = netns.None()
	}
}

// hubSupported says whether this host can make hubs.
func hubSupported() error { return nil }

// newHubNetns makes a network namespace and returns a handle to it,
// leaving the calling goroutine's thread in its own (netns.New switches
// the thread into the new one).
func newHubNetns() (netns.NsHandle, error) {
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
		ns, err := netns.New()
		if err != nil {
			done <- result{err: err}
			return
		}
		if err := netns.Set(self); err != nil {
			// Left locked: the thread ends with the goroutine.
			ns.Close()
			done <- result{err: err}
			return
		}
		runtime.UnlockOSThread()
		done <- result{ns: ns}
	}()
	r := <-done
	return r.ns, r.err
}
