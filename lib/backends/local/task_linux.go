package local

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

var _ task.Host = (*Factory)(nil)

// NewGroup makes a task group's network: one fresh network namespace with
// only a loopback interface, which every member's sandbox joins (members
// keep their own mount, PID, IPC and UTS namespaces). Member names resolve
// to 127.0.0.1 through each member's /etc/hosts. The namespace lives while
// the group holds its descriptor or a member runs in it; nothing is
// mounted, so nothing outlives the group.
func (f *Factory) NewGroup(ctx context.Context, names []string, network machine.NetworkPolicy) (task.Group, error) {
	if err := f.CheckGroup(network); err != nil {
		return nil, err
	}
	ns, err := newLoopbackNetns()
	if err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: fmt.Errorf("creating the group's network namespace: %w", err)}
	}
	hosts := "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.0.1\t" + strings.Join(names, " ") + "\n"
	return &group{f: f, netns: ns, hosts: hosts}, nil
}

// CheckGroup refuses groups on a host process that is not root: joining
// a namespace needs CAP_SYS_ADMIN over it, and an unprivileged host's
// sandboxes each own a user namespace. The namespace has loopback only,
// so a group with a route out (NetworkPolicy.ALLOW) is refused.
func (f *Factory) CheckGroup(network machine.NetworkPolicy) error {
	if network != machine.NetworkDeny {
		return &machine.UnsupportedSpec{Backend: Name, Field: "network",
			Reason: "a local task group has only its private loopback; a group with a route out (NetworkPolicy.ALLOW) runs on docker or gvisor"}
	}
	if !f.root {
		return &machine.UnsupportedSpec{Backend: Name, Field: "containers",
			Reason: "a local task group of several containers needs a host process running as root (members join one network namespace)"}
	}
	return nil
}

type group struct {
	f     *Factory
	netns *os.File
	hosts string
}

// Start creates a member inside the group's namespace.
func (g *group) Start(ctx context.Context, c task.Container) (machine.Machine, task.ImageService, error) {
	spec := c.Machine
	if err := spec.Validate(); err != nil {
		return nil, task.ImageService{}, err
	}
	if err := g.f.checkSpec(spec); err != nil {
		return nil, task.ImageService{}, err
	}
	var plan *layoutPlan
	var err error
	switch src := spec.Source.(type) {
	case machine.HostImage:
		plan, err = g.f.hostLayout(src, spec)
	case *machine.HostImage:
		plan, err = g.f.hostLayout(*src, spec)
	case machine.PreparedImage:
		plan, err = g.f.imageLayout(ctx, src, spec)
	case *machine.PreparedImage:
		plan, err = g.f.imageLayout(ctx, *src, spec)
	}
	if err != nil {
		return nil, task.ImageService{}, err
	}
	plan.netns = g.netns
	etcImage, err := g.imageHosts(plan)
	if err != nil {
		removeTree(plan.dir)
		plan.lock.Close()
		return nil, task.ImageService{}, &machine.StartupError{Backend: Name, Err: fmt.Errorf("writing member %q's /etc/hosts: %w", c.Name, err)}
	}
	m, err := g.f.start(ctx, spec, plan)
	if err != nil {
		return nil, task.ImageService{}, err
	}
	if etcImage {
		return m, plan.image, nil
	}
	if err := g.writeHosts(ctx, m); err != nil {
		m.Close(context.Background())
		return nil, task.ImageService{}, &machine.StartupError{Backend: Name, Err: fmt.Errorf("writing member %q's /etc/hosts: %w", c.Name, err)}
	}
	return m, plan.image, nil
}

// imageHosts gives an image member (whose /etc is the image's, bound
// read-only) a private copy of that /etc with the group's hosts file.
func (g *group) imageHosts(plan *layoutPlan) (bool, error) {
	for i := 0; i+2 < len(plan.mounts); i++ {
		if plan.mounts[i] != "--ro-bind" || plan.mounts[i+2] != "/etc" {
			continue
		}
		etc := filepath.Join(plan.dir, "etc")
		if err := copyTree(plan.mounts[i+1], etc); err != nil {
			return true, err
		}
		os.Remove(filepath.Join(etc, "hosts"))
		if err := os.WriteFile(filepath.Join(etc, "hosts"), []byte(g.hosts), 0o644); err != nil {
			return true, err
		}
		plan.mounts[i+1] = etc
		return true, nil
	}
	return false, nil
}

// writeHosts puts the group's names into the member's own /etc/hosts.
func (g *group) writeHosts(ctx context.Context, m *Machine) error {
	dir, err := os.MkdirTemp(m.dir, "hosts-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "hosts")
	if err := os.WriteFile(file, []byte(g.hosts), 0o644); err != nil {
		return err
	}
	return m.Upload(ctx, file, "/etc/hosts")
}

// ImageCommand is what the machine's image starts by itself: an image's
// entrypoint and command in its working directory; nothing for HostImage.
func (m *Machine) ImageCommand(context.Context) (task.ImageService, error) {
	return m.plan.image, nil
}

// Close drops the group's hold on the namespace.
func (g *group) Close(context.Context) error { return g.netns.Close() }

// newLoopbackNetns creates a network namespace with loopback up and
// returns a descriptor of it. The work happens on a thread of its own,
// which is discarded afterwards (it stays locked), so no other goroutine
// ever runs in the new namespace.
func newLoopbackNetns() (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			done <- result{err: err}
			return
		}
		f, err := os.Open(fmt.Sprintf("/proc/self/task/%d/ns/net", unix.Gettid()))
		if err != nil {
			done <- result{err: err}
			return
		}
		if err := loopbackUp(); err != nil {
			f.Close()
			done <- result{err: fmt.Errorf("bringing up lo: %w", err)}
			return
		}
		done <- result{f: f}
	}()
	r := <-done
	return r.f, r.err
}

// loopbackUp sets lo up in the calling thread's network namespace.
func loopbackUp() error {
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
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// startIn starts cmd, inside the network namespace netns when it is not
// nil: a child inherits the namespaces of the thread that forks it, so the
// fork happens on a locked thread that joined netns and is discarded after.
func startIn(netns *os.File, cmd *exec.Cmd) error {
	if netns == nil {
		return cmd.Start()
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		if err := unix.Setns(int(netns.Fd()), unix.CLONE_NEWNET); err != nil {
			done <- fmt.Errorf("joining the group's network namespace: %w", err)
			return
		}
		done <- cmd.Start()
	}()
	return <-done
}
