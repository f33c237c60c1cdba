package egress

import (
	"fmt"
	"net"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// Attach opens the filter's sockets inside the network namespace at
// nsPath (for example /proc/PID/ns/net of the machine's first process)
// and serves them until Close. The namespace must hold only loopback:
// these sockets are then the guest's only way out.
func (f *Filter) Attach(nsPath string) (Endpoint, error) {
	if err := f.serveIn(nsPath, GuestEndpoint); err != nil {
		return Endpoint{}, err
	}
	return GuestEndpoint, nil
}

// serveIn opens the filter's sockets at ep inside the namespace at nsPath
// and serves them until Close.
func (f *Filter) serveIn(nsPath string, ep Endpoint) error {
	var udp net.PacketConn
	var dnsTCP, proxy net.Listener
	err := inNetns(nsPath, func() error {
		var err error
		if err = setLoopbackUp(); err != nil {
			return err
		}
		if udp, err = net.ListenPacket("udp4", ep.DNS); err != nil {
			return err
		}
		if dnsTCP, err = net.Listen("tcp4", ep.DNS); err != nil {
			return err
		}
		proxy, err = net.Listen("tcp4", ep.Proxy)
		return err
	})
	if err != nil {
		if udp != nil {
			udp.Close()
		}
		if dnsTCP != nil {
			dnsTCP.Close()
		}
		if proxy != nil {
			proxy.Close()
		}
		return fmt.Errorf("egress: opening the filter in %s: %w", nsPath, err)
	}
	for _, serve := range []func(){
		func() { f.ServeDNS(udp) },
		func() { f.ServeDNSStream(dnsTCP) },
		func() { f.ServeProxy(proxy) },
	} {
		if !f.goServe(serve) {
			udp.Close()
			dnsTCP.Close()
			proxy.Close()
			return net.ErrClosed
		}
	}
	return nil
}

// ServeDNSIn answers DNS (UDP and TCP) at addr inside the namespace at
// nsPath too, until Close. It is for a resolver address that a program in
// the namespace forwards the guest's queries to: QEMU's user-mode DNS
// forwarder sends to the host's resolv.conf resolver, which may be a
// loopback stub (127.0.0.53) and so is the namespace's own loopback.
func (f *Filter) ServeDNSIn(nsPath, addr string) error {
	var udp net.PacketConn
	var tcp net.Listener
	err := inNetns(nsPath, func() error {
		var err error
		if udp, err = net.ListenPacket("udp4", addr); err != nil {
			return err
		}
		tcp, err = net.Listen("tcp4", addr)
		return err
	})
	if err != nil {
		if udp != nil {
			udp.Close()
		}
		return fmt.Errorf("egress: DNS at %s in %s: %w", addr, nsPath, err)
	}
	if !f.goServe(func() { f.ServeDNS(udp) }) {
		udp.Close()
		tcp.Close()
		return net.ErrClosed
	}
	if !f.goServe(func() { f.ServeDNSStream(tcp) }) {
		tcp.Close()
		return net.ErrClosed
	}
	return nil
}

// inNetns runs fn on an OS thread moved into the namespace at nsPath;
// sockets created there stay in that namespace. The thread goes back to
// its own namespace afterwards, or is retired if it cannot.
func inNetns(nsPath string, fn func() error) error {
	target, err := os.Open(nsPath)
	if err != nil {
		return err
	}
	defer target.Close()
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		self, err := os.Open(fmt.Sprintf("/proc/self/task/%d/ns/net", unix.Gettid()))
		if err != nil {
			errc <- err
			return
		}
		defer self.Close()
		if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("setns: %w", err)
			return
		}
		ferr := fn()
		if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
			// Locked and never unlocked: the runtime ends this thread with
			// the goroutine instead of reusing it in the wrong namespace.
			errc <- ferr
			return
		}
		runtime.UnlockOSThread()
		errc <- ferr
	}()
	return <-errc
}

// setLoopbackUp brings lo up in the current thread's namespace (Docker's
// "none" network and bubblewrap already do; a bare namespace does not).
func setLoopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	if ifr.Uint16()&unix.IFF_UP != 0 {
		return nil
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
