package guest

import (
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
)

// linkUp sets an interface's IFF_UP flag (the loopback interface starts
// down, and programs expect 127.0.0.1 to work even without a network).
func linkUp(name string) error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bringing %s up: %w", name, err)
	}
	return nil
}

// User-mode networking (QEMU's slirp) addresses: the guest, the gateway
// (which also reaches the host's loopback) and the DNS forwarder.
const (
	userNetAddr = "10.0.2.15/24"
	userNetGW   = "10.0.2.2"
	userNetDNS  = "10.0.2.3"
)

// configureUserNet brings up the first network card with slirp's fixed
// addresses and a default route (no DHCP client in the guest).
func configureUserNet() error {
	links, err := netlink.LinkList()
	if err != nil {
		return err
	}
	for _, l := range links {
		if l.Type() != "device" || l.Attrs().Flags&net.FlagLoopback != 0 {
			continue
		}
		addr, err := netlink.ParseAddr(userNetAddr)
		if err != nil {
			return err
		}
		if err := netlink.AddrAdd(l, addr); err != nil {
			return fmt.Errorf("%s: %w", l.Attrs().Name, err)
		}
		if err := netlink.LinkSetUp(l); err != nil {
			return fmt.Errorf("%s up: %w", l.Attrs().Name, err)
		}
		gw := net.ParseIP(userNetGW)
		if err := netlink.RouteAdd(&netlink.Route{LinkIndex: l.Attrs().Index, Gw: gw}); err != nil {
			return fmt.Errorf("default route: %w", err)
		}
		return nil
	}
	return errors.New("no network card found")
}

// writeResolvConf points the image's resolver at slirp's DNS forwarder
// (replacing a link, which would lead out of the image's own files).
func writeResolvConf() error {
	os.Remove("/etc/resolv.conf")
	os.MkdirAll("/etc", 0o755)
	return os.WriteFile("/etc/resolv.conf", []byte("nameserver "+userNetDNS+"\n"), 0o644)
}
