package local

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/backends/local/cgroup"
	"github.com/shellbox/shellbox/lib/backends/local/launcher"
	"github.com/shellbox/shellbox/lib/execd"
	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// hostSystemDirs are the host directories a HostImage machine sees
// read-only at their own paths. /etc is the machine's own copy of the
// runtime configuration (see etc.go); /opt and the rest of the root belong
// to the machine.
var hostSystemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}

// procAndSys mounts the sandbox's /proc with every host-global knob
// read-only or hidden (as Docker does: a root guest must not write
// core_pattern, modprobe, binfmt_misc or sysrq-trigger, which act on the
// host), and /sys as an empty read-only tmpfs. bubblewrap itself covers
// /proc/irq and /proc/bus only. The /proc/sys bound here is the host's,
// which shows the same values: its namespaced parts (net, hostname) follow
// the reader's namespaces.
func procAndSys() []string {
	args := []string{"--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys",
		"--tmpfs", "/proc/sys/fs/binfmt_misc", "--remount-ro", "/proc/sys/fs/binfmt_misc"}
	// bubblewrap cannot create a mount point in /proc: cover only what
	// this kernel has.
	for _, p := range []string{"/proc/sysrq-trigger", "/proc/fs"} {
		if _, err := os.Lstat(p); err == nil {
			args = append(args, "--ro-bind", p, p)
		}
	}
	for _, p := range []string{"/proc/kcore", "/proc/keys", "/proc/timer_list", "/proc/sched_debug", "/proc/latency_stats"} {
		if _, err := os.Lstat(p); err == nil {
			args = append(args, "--ro-bind", "/dev/null", p)
		}
	}
	return append(args, "--perms", "0555", "--tmpfs", "/sys", "--remount-ro", "/sys")
}

// Limits of every command (and of the helper, which passes them on).
const (
	fileSizeLimit = 1 << 30
	// processHeadroom is what a non-root machine may add to its user's
	// host task count (RLIMIT_NPROC).
	processHeadroom = 256
	// pidsLimit is a machine's default cgroup pids.max: its tasks, threads
	// included, however many users run them.
	pidsLimit = 1024
)

// helperPath is where the helper binary appears inside the sandbox.
const helperPath = "/.shellbox/shellbox-sandboxd"

// defaultStartupTimeout bounds Create when the spec gives no timeout.
const defaultStartupTimeout = 30 * time.Second

// layoutPlan is what a machine's sandbox looks like.
type layoutPlan struct {
	dir      string   // per-machine host directory (0700)
	files    *os.File // entries the helper writes into /etc (HostImage)
	lock     *os.File // dir, locked while the machine may use it
	mounts   []string // bwrap filesystem arguments
	readOnly []string // guest path prefixes that are read-only
	links    []string // guest symbolic links transfers may pass through
	direct   bool     // single files may move straight to and from dir/root (direct_linux.go)
	overlays []string // copy-on-write overlays for the launcher to mount (lower:upper:work:target)
	overlaid []string // the guest directories they cover
	workdir  string
	baseEnv  map[string]string
	users    userDB
	defUser  *ident // default user for commands; nil: the helper's own
	// userns maps sandboxUID/sandboxGID to the caller in a new user
	// namespace (a non-root host with an image).
	userns     bool
	sandboxUID uint32 // the helper's uid inside the sandbox
	sandboxGID uint32
	// netns, when set, is a task group's network namespace that the
	// sandbox joins instead of getting its own (task_linux.go).
	netns *os.File
	// image is what an image's config starts by itself (task_linux.go).
	image task.ImageService
}

// hostSystemArgs binds the host's system directories read-only, as
// symbolic links where the host has merged-/usr links.
func hostSystemArgs() []string {
	var args []string
	for _, d := range hostSystemDirs {
		st, err := os.Lstat(d)
		if err != nil {
			continue
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			if target, err := os.Readlink(d); err == nil {
				args = append(args, "--symlink", target, d)
			}
			continue
		}
		args = append(args, "--ro-bind-try", d, d)
	}
	return args
}

func hostSystemLinks() []string {
	var links []string
	for _, d := range hostSystemDirs {
		if st, err := os.Lstat(d); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			links = append(links, d)
		}
	}
	return links
}

// namespaceArgs are the isolation flags common to every sandbox.
func (f *Factory) namespaceArgs(network machine.NetworkPolicy, userns bool) []string {
	// The helper is the sandbox's PID 1 (and reaps its orphans), so the
	// guest's /proc/1/cmdline is the helper's, not bubblewrap's with host
	// paths.
	args := []string{"--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--hostname", "shellbox", "--as-pid-1"}
	if network != machine.NetworkAllow {
		args = append(args, "--unshare-net")
	}
	if userns || !f.root {
		args = append(args, "--unshare-user")
	}
	args = append(args, "--cap-drop", "ALL")
	if f.root {
		// The helper keeps what it needs to switch users, stop other
		// users' processes and write transfers; it empties its bounding
		// set so that no command gets any capability.
		for _, c := range []string{"CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_SETPCAP", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_CHOWN"} {
			args = append(args, "--cap-add", c)
		}
	}
	return args
}

func underAny(p string, prefixes []string) bool {
	for _, pre := range prefixes {
		if p == pre || strings.HasPrefix(p, strings.TrimSuffix(pre, "/")+"/") {
			return true
		}
	}
	return false
}

func mkdirMode(p string, mode fs.FileMode) error {
	if err := os.MkdirAll(p, 0o755); err != nil {
		return err
	}
	return os.Chmod(p, mode)
}

func (f *Factory) hostLayout(src machine.HostImage, spec machine.Spec) (*layoutPlan, error) {
	readOnly, err := absDirs("source", src.ReadOnly)
	if err != nil {
		return nil, err
	}
	binDirs, err := absDirs("source", src.BinDirs)
	if err != nil {
		return nil, err
	}
	readOnly = append(append(readOnly, f.opts.ReadOnly...), binDirs...)
	readOnly = append(readOnly, f.opts.BinDirs...)
	mountArgs, guests, err := hostMounts(src.Mounts)
	if err != nil {
		return nil, err
	}
	cow := f.opts.SystemDirectories == "copy_on_write"
	var overlaid []string // copy-on-write: the real directories among hostSystemDirs
	if cow {
		overlaid = overlaidDirs()
	}
	system := append(append(append([]string{}, hostSystemDirs...), readOnly...), guests...)
	if cow {
		system = append(append([]string{}, readOnly...), guests...)
	}
	workdir := spec.Workdir
	if workdir == "" {
		workdir = "/"
	}
	workdir = path.Clean(workdir)
	if workdir != "/" && (underAny(workdir, system) || underAny(workdir, []string{"/proc", "/dev", "/.shellbox"})) {
		return nil, &machine.UnsupportedSpec{Backend: Name, Field: "workdir", Reason: fmt.Sprintf("%s is inside a read-only directory", workdir)}
	}
	dir, root, lock, err := newMachineDir()
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*layoutPlan, error) {
		removeTree(dir)
		lock.Close()
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	if err := mkdirMode(filepath.Join(root, "tmp"), fs.ModeSticky|0o777); err != nil {
		return fail(err)
	}
	if err := mkdirMode(filepath.Join(root, "home", "shellbox"), fs.ModeSticky|0o777); err != nil {
		return fail(err)
	}
	if err := os.Mkdir(filepath.Join(root, "opt"), 0o755); err != nil {
		return fail(err)
	}
	workdirAt := filepath.Join(root, workdir)
	var overlays []string
	for _, d := range overlaid {
		layer := filepath.Join(dir, "layers", strings.TrimPrefix(d, "/"))
		for _, sub := range []string{"upper", "work"} {
			if err := os.MkdirAll(filepath.Join(layer, sub), 0o755); err != nil {
				return fail(err)
			}
		}
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return fail(err)
		}
		// lower:upper:work:target, mounted by the launcher (overlay_linux.go).
		overlays = append(overlays, strings.Join([]string{d, filepath.Join(layer, "upper"), filepath.Join(layer, "work"), filepath.Join(root, d)}, ":"))
		if rel, err := filepath.Rel(d, workdir); err == nil && !strings.HasPrefix(rel, "..") {
			// A workdir in an overlaid directory is made in its layer.
			workdirAt = filepath.Join(layer, "upper", rel)
		}
	}
	if err := os.MkdirAll(workdirAt, 0o755); err != nil {
		return fail(err)
	}
	mounts := []string{"--bind", root, "/"}
	if cow {
		mounts = append(mounts, overlayArgs(root, overlaid)...)
	} else {
		mounts = append(mounts, hostSystemArgs()...)
	}
	mounts = append(mounts, f.etc.etcArgs()...)
	mounts = append(mounts, "--dev", "/dev")
	mounts = append(mounts, procAndSys()...)
	mounts = append(mounts, "--perms", "1777", "--tmpfs", "/dev/shm")
	seen := map[string]bool{}
	for _, d := range readOnly {
		if seen[d] || underAny(d, hostSystemDirs) {
			continue
		}
		seen[d] = true
		mounts = append(mounts, "--ro-bind", d, d)
	}
	mounts = append(mounts, mountArgs...)
	pathDirs := append(append([]string{}, binDirs...), f.opts.BinDirs...)
	pathDirs = append(pathDirs, defaultPath)
	env := map[string]string{"PATH": strings.Join(pathDirs, ":"), "HOME": "/home/shellbox", "LANG": "C.UTF-8"}
	if f.opts.HashSeed != nil {
		env["PYTHONHASHSEED"] = *f.opts.HashSeed
	}
	return &layoutPlan{dir: dir, lock: lock, files: f.etcFiles, mounts: mounts, readOnly: system, links: hostSystemLinks(),
		workdir: workdir, baseEnv: env, users: userDB{passwd: "/etc/passwd", group: "/etc/group"},
		sandboxUID: uint32(f.uid), sandboxGID: uint32(f.gid), direct: true, overlays: overlays, overlaid: overlaid}, nil
}

// start launches bwrap with the helper and waits until it is ready.
func (f *Factory) start(ctx context.Context, spec machine.Spec, plan *layoutPlan) (m *Machine, err error) {
	var group *cgroup.Group
	var limits *cgroup.LimitGroup
	defer func() {
		if err != nil {
			if group != nil {
				group.Kill()
				group.Remove()
			}
			if limits != nil {
				limits.Kill()
				limits.Remove()
			}
			removeTree(plan.dir)
			plan.lock.Close()
		}
	}()
	startErr := func(err error) error { return &machine.StartupError{Backend: Name, Err: err} }
	helper, err := helpers.Path("shellbox-sandboxd")
	if err != nil {
		return nil, startErr(err)
	}
	sock := filepath.Join(plan.dir, "ctl.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		return nil, startErr(err)
	}
	ln.SetUnlinkOnClose(false)
	lnFile, err := ln.File()
	ln.Close()
	if err != nil {
		return nil, startErr(err)
	}
	defer lnFile.Close()
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return nil, startErr(err)
	}
	defer readyR.Close()
	// The helper exits when the lifeline's write end closes: on Close, or
	// when this process dies, however it dies.
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		readyW.Close()
		return nil, startErr(err)
	}
	defer lifeR.Close()

	// The launcher (the helper binary's "launch" mode) runs bubblewrap:
	// it passes on only descriptors 0-5, puts bubblewrap into the
	// machine's cgroup, reaps every orphan and holds the directory's lock
	// until the sandbox is gone.
	launch := []string{launcher.Command}
	var pidsEvents, pidsCurrent *os.File // read by the helper: see execd's exhausting
	if f.limits != nil {
		cpus, mem := 0, 0
		if spec.CPUs != nil {
			cpus = *spec.CPUs
		}
		if spec.MemoryMB != nil {
			mem = *spec.MemoryMB
		}
		pids := 0
		if f.limits.V2 {
			pids = f.opts.PidsLimit
		}
		if limits, err = f.limits.Create(filepath.Base(plan.dir), cpus, mem, pids); err != nil {
			return nil, startErr(err)
		}
		if f.limits.V2 {
			// One v2 cgroup does it all: it is also the pids cgroup below.
			group = cgroup.Open(limits.Dirs()[0])
		} else {
			for _, d := range limits.Dirs() {
				launch = append(launch, "--join", d)
			}
		}
	}
	if group == nil && f.cgroups.Available() {
		group, err = f.cgroups.Create(filepath.Base(plan.dir), f.opts.PidsLimit)
		if err != nil {
			return nil, startErr(err)
		}
	}
	if group != nil {
		if pidsEvents, err = os.Open(filepath.Join(group.Dir(), "pids.events")); err != nil {
			return nil, startErr(err)
		}
		defer pidsEvents.Close()
		if pidsCurrent, err = os.Open(filepath.Join(group.Dir(), "pids.current")); err != nil {
			return nil, startErr(err)
		}
		defer pidsCurrent.Close()
		launch = append(launch, "--cgroup", group.Dir())
		if !group.V2() && f.cgroups.Home() != "" {
			launch = append(launch, "--cgroup-home", f.cgroups.Home())
		}
	}
	for _, o := range plan.overlays {
		launch = append(launch, "--overlay", o)
	}
	if len(plan.overlays) > 0 && f.fuseOverlayfs != "" {
		launch = append(launch, "--fuse-overlayfs", f.fuseOverlayfs)
	}
	launch = append(launch, "--", f.bwrap)
	network := spec.Network
	if plan.netns != nil {
		network = machine.NetworkAllow // no namespace of its own: it runs in plan.netns
	}
	launch = append(launch, f.namespaceArgs(network, plan.userns)...)
	if plan.userns {
		launch = append(launch, "--uid", fmt.Sprint(plan.sandboxUID), "--gid", fmt.Sprint(plan.sandboxGID))
	}
	launch = append(launch, plan.mounts...)
	launch = append(launch, "--ro-bind", helper, helperPath, "--chdir", "/", "--",
		helperPath, "--listen-fd", "3", "--ready-fd", "4", "--lifeline-fd", "5",
		"--file-size-limit", fmt.Sprint(fileSizeLimit), "--core-limit", "0")
	if pidsEvents != nil {
		launch = append(launch, "--pids-events-fd", "6", "--pids-current-fd", "7")
	}
	if plan.files != nil {
		launch = append(launch, "--files-fd", "8", "--files-root", "/etc")
	}
	if f.uid != 0 {
		launch = append(launch, "--process-limit", fmt.Sprint(userTasks(f.uid)+processHeadroom))
	}
	cmd := exec.Command(helper, launch...)
	cmd.Env = []string{}
	stderr := &boundedBuffer{limit: 64 << 10}
	cmd.Stderr = stderr
	cmd.ExtraFiles = []*os.File{lnFile, readyW, lifeR, pidsEvents, pidsCurrent, plan.files, plan.lock}
	if err := startIn(plan.netns, cmd); err != nil {
		readyW.Close()
		lifeW.Close()
		return nil, startErr(err)
	}
	readyW.Close()
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	m = &Machine{f: f, dir: plan.dir, lock: plan.lock, group: group, limits: limits, cmd: cmd, exited: exited, stderr: stderr, lifeline: lifeW,
		client: execd.NewClient(sock), plan: plan, spec: spec}
	m.procs.OpError = m.opError

	ready := make(chan error, 1)
	go func() {
		var b [1]byte
		_, err := io.ReadFull(readyR, b[:])
		ready <- err
	}()
	timeout := spec.StartupTimeout
	if timeout <= 0 {
		timeout = defaultStartupTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err := <-ready:
		if err == nil && spec.Network == machine.NetworkAllowlist {
			if err := m.startEgress(spec.Network, spec.AllowedHosts, ""); err != nil {
				m.stop()
				return nil, startErr(fmt.Errorf("the egress filter: %w", err))
			}
		}
		if err == nil {
			if ttl := f.opts.TTL; ttl != nil {
				m.mu.Lock()
				m.ttl = time.AfterFunc(time.Duration(*ttl*float64(time.Second)), m.expire)
				m.mu.Unlock()
			}
			return m, nil
		}
		m.stop()
		return nil, startErr(fmt.Errorf("bubblewrap failed: %s", strings.TrimSpace(stderr.String())))
	case <-timer.C:
		m.stop()
		return nil, startErr(fmt.Errorf("the sandbox was not ready within %v", timeout))
	case <-ctx.Done():
		m.stop()
		return nil, ctx.Err()
	}
}

// boundedBuffer keeps the first limit bytes written to it.
type boundedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.limit - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// envList overlays the layers and returns KEY=VALUE pairs in key order.
func envList(layers ...map[string]string) []string {
	merged := map[string]string{}
	for _, l := range layers {
		for k, v := range l {
			merged[k] = v
		}
	}
	keys := make([]string, 0, len(merged))
	for k := range merged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+merged[k])
	}
	return out
}

var errNoUser = errors.New("unknown user")

// userTasks counts the host tasks (threads included, as RLIMIT_NPROC
// does) whose real uid is uid.
func userTasks(uid int) int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		var real, threads int = -1, 0
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				if f := strings.Fields(v); len(f) > 0 {
					real, _ = strconv.Atoi(f[0])
				}
			} else if v, ok := strings.CutPrefix(line, "Threads:"); ok {
				threads, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if real == uid {
			n += threads
		}
	}
	return n
}

// hostMounts checks a HostImage's mounts and returns their bubblewrap
// arguments and guest paths. A guest path may not lie in a system or
// private directory (bubblewrap cannot make a mount point inside a
// read-only bind) nor inside another mount.
func hostMounts(ms []machine.Mount) (args, guests []string, err error) {
	reserved := append(append([]string{}, hostSystemDirs...), "/etc", "/proc", "/dev", "/sys", "/.shellbox")
	for i, m := range ms {
		field := fmt.Sprintf("source.mounts[%d]", i)
		host, err := filepath.Abs(m.Host)
		if err != nil {
			return nil, nil, &machine.InvalidSpec{Field: field, Reason: err.Error()}
		}
		if _, err := os.Stat(host); err != nil {
			return nil, nil, &machine.InvalidSpec{Field: field, Reason: fmt.Sprintf("host path %s does not exist", host)}
		}
		guest := path.Clean(m.Guest)
		if !path.IsAbs(m.Guest) || guest == "/" {
			return nil, nil, &machine.UnsupportedSpec{Backend: Name, Field: field, Reason: fmt.Sprintf("guest path %q must be an absolute path other than /", m.Guest)}
		}
		if underAny(guest, reserved) {
			return nil, nil, &machine.UnsupportedSpec{Backend: Name, Field: field, Reason: fmt.Sprintf("guest path %s is inside a system directory", guest)}
		}
		for _, g := range guests {
			if underAny(guest, []string{g}) || underAny(g, []string{guest}) {
				return nil, nil, &machine.UnsupportedSpec{Backend: Name, Field: field, Reason: fmt.Sprintf("guest path %s overlaps the mount at %s", guest, g)}
			}
		}
		guests = append(guests, guest)
		args = append(args, "--ro-bind", host, guest)
	}
	return args, guests, nil
}

// overlaidDirs are the host system directories a copy-on-write machine
// overlays: the real directories among hostSystemDirs (on a merged-/usr
// host /bin and /lib are links into /usr, which stay links).
func overlaidDirs() []string {
	var out []string
	for _, d := range hostSystemDirs {
		if st, err := os.Lstat(d); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// overlayArgs shows each overlaid directory (mounted on root's copy of it
// by the launcher) at its own path, the other system directories as
// hostSystemArgs does, and the host's mounts inside the overlaid
// directories read-only again: an overlay shows only its lower directory's
// own file system.
func overlayArgs(root string, overlaid []string) []string {
	var args []string
	for _, d := range hostSystemDirs {
		st, err := os.Lstat(d)
		switch {
		case err != nil:
		case st.Mode()&fs.ModeSymlink != 0:
			if target, err := os.Readlink(d); err == nil {
				args = append(args, "--symlink", target, d)
			}
		case underAny(d, overlaid):
			args = append(args, "--bind", filepath.Join(root, d), d)
		}
	}
	for _, p := range nestedMounts(overlaid) {
		args = append(args, "--ro-bind", p, p)
	}
	return args
}

// nestedMounts are the host's mount points strictly inside dirs, parents
// first.
func nestedMounts(dirs []string) []string {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 5 {
			continue
		}
		p := unescapeMount(fields[4])
		for _, d := range dirs {
			if p != d && underAny(p, []string{d}) {
				out = append(out, p)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.Count(out[i], "/") < strings.Count(out[j], "/") })
	return out
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
