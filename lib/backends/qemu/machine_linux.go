package qemu

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/yamux"
	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/guest/channel"
	"github.com/shellbox/shellbox/lib/egress"
	"github.com/shellbox/shellbox/lib/execd"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machinedir"
)

// consoleTail is how much of the guest console a startup failure carries.
const consoleTail = 8 << 10

// defaultPath is PATH when neither the image nor the spec sets one.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// Machine is one QEMU microVM.
type Machine struct {
	f       *Factory
	spec    machine.Spec
	dir     string   // runtime directory: sockets, QEMU's overlay
	dirLock *os.File // held while dir is in use (see machinedir)
	cmd     *exec.Cmd
	exited  chan struct{}
	console *tailBuffer
	conn    net.Conn
	session *yamux.Session
	streams *streamPool // the session's spare streams
	client  *execd.Client
	meta    imageMeta
	workdir string
	accel   Acceleration
	// deadline bounds the start; cmdline is the kernel command line.
	deadline time.Time
	cmdline  string
	restored bool
	// ramFromFile: restoring a state whose RAM is a file (see snapshot.go).
	ramFromFile bool

	procs execd.ProcessSet // open processes, aborted by Close
	// uses are the use locks of the cache entries QEMU reads (the disk,
	// the saved state), released once it exited.
	uses holds

	egress *egress.Guard // the filter of an allowlisted machine (egress_linux.go)

	mu        sync.Mutex
	closed    bool
	closeDone chan struct{}
	closeErr  error
}

var (
	_ machine.Machine         = (*Machine)(nil)
	_ machine.ProcessMachine  = (*Machine)(nil)
	_ machine.NetworkSwitcher = (*Machine)(nil)
)

// Acceleration is the accelerator the machine runs with.
func (m *Machine) Acceleration() Acceleration { return m.accel }

// createMachine boots a fresh machine from the spec's image (Create adds
// the egress filter's setup, egress_linux.go).
func (f *Factory) createMachine(ctx context.Context, spec machine.Spec) (*Machine, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if err := f.checkSpec(spec); err != nil {
		return nil, err
	}
	assets, err := f.bootAssets()
	if err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	// The cache entries this machine uses stay held until it closes.
	var uses holds
	m, err := f.create(ctx, spec, assets, &uses)
	if err != nil {
		uses.release()
		return nil, err
	}
	m.uses = uses
	if f.grew.Swap(false) {
		f.evict()
	}
	return m, nil
}

func (f *Factory) create(ctx context.Context, spec machine.Spec, assets *bootAssets, uses *holds) (*Machine, error) {
	var disk *stagedDisk
	src, layoutUse, err := f.prepare(ctx, spec.Source)
	if err != nil {
		return nil, err
	}
	spec.Source = src
	if layoutUse != nil {
		defer layoutUse.Close() // needed only to stage the disk
	}
	switch src := spec.Source.(type) {
	case machine.PreparedImage:
		size := f.opts.DiskSizeMB
		if spec.StorageMB != nil {
			size = *spec.StorageMB
		}
		d, use, err := f.stageImage(ctx, src, size)
		if err != nil {
			return nil, err
		}
		disk, *uses = d, append(*uses, use)
	case machine.QemuBundle:
		if disk, err = loadDisk(src.Path); err != nil {
			return nil, &machine.InvalidSpec{Field: "source", Reason: fmt.Sprintf("QemuBundle %s: %v", src.Path, err)}
		}
	}
	accel, err := f.acceleration(ctx, assets)
	if err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	if !f.opts.restoreEnabled() {
		return f.boot(ctx, spec, assets, disk, accel)
	}
	if _, err := qemuImg(f.qemu); disk != nil && err != nil {
		return f.boot(ctx, spec, assets, disk, accel) // no saved states without qemu-img
	}
	st, use, err := f.savedStateFor(ctx, spec, assets, disk, accel)
	if use != nil {
		*uses = append(*uses, use)
	}
	if err != nil {
		// Saving is a boot: its failure is this machine's.
		var se *machine.StartupError
		if errors.As(err, &se) || ctx.Err() != nil {
			return nil, err
		}
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	m, err := f.startSynced(ctx, spec, assets, disk, accel, launch{restore: st})
	if err == nil {
		m.restored = true
		return m, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	// A state that does not restore is dropped (the next create saves a
	// new one); this machine boots cold.
	f.dropState(st)
	return f.boot(ctx, spec, assets, disk, accel)
}

// Restored says whether the machine was restored from a saved state.
func (m *Machine) Restored() bool { return m.restored }

// launch says how a machine starts: a cold boot (the zero value), a
// template that writes to a qcow2 overlay, or a restore of a saved state.
type launch struct {
	overlay string      // a template's writable qcow2 overlay
	ram     string      // a template's RAM file (shared mapping)
	restore *savedState // restore this state instead of booting
}

// boot starts a machine by booting the kernel, and syncs its guest.
func (f *Factory) boot(ctx context.Context, spec machine.Spec, assets *bootAssets, disk *stagedDisk, accel Acceleration) (*Machine, error) {
	return f.startSynced(ctx, spec, assets, disk, accel, launch{})
}

// startSynced starts a machine and sends it the sync request.
func (f *Factory) startSynced(ctx context.Context, spec machine.Spec, assets *bootAssets, disk *stagedDisk, accel Acceleration, how launch) (*Machine, error) {
	m, err := f.start(ctx, spec, assets, disk, accel, how)
	if err != nil {
		return nil, err
	}
	if err := m.sync(m.deadline); err != nil {
		return m.failStart(err)
	}
	return m, nil
}

// failStart stops a machine that did not start and reports why, with the
// console's tail.
func (m *Machine) failStart(err error) (*Machine, error) {
	m.kill()
	tail := strings.TrimSpace(m.console.String())
	if tail != "" {
		err = fmt.Errorf("%w\nconsole (last %d bytes):\n%s", err, consoleTail, tail)
	}
	return nil, &machine.StartupError{Backend: Name, Err: err}
}

// start launches QEMU and connects to the guest agent: after a boot, once
// it announced readiness; after a restore, once the state is loaded and
// the machine continued.
func (f *Factory) start(ctx context.Context, spec machine.Spec, assets *bootAssets, disk *stagedDisk, accel Acceleration, how launch) (*Machine, error) {
	m := &Machine{f: f, spec: spec, exited: make(chan struct{}), console: newTailBuffer(consoleTail), accel: accel}
	m.procs.OpError = m.opError
	if disk != nil {
		m.meta = disk.meta
	}
	m.workdir = spec.Workdir
	if m.workdir == "" {
		m.workdir = m.meta.Cwd
	}
	if m.workdir == "" {
		m.workdir = "/"
	}
	m.workdir = path.Clean(m.workdir)
	timeout := spec.StartupTimeout
	if timeout <= 0 {
		timeout = defaultStartupTimeout
	}
	m.deadline = time.Now().Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(m.deadline) {
		m.deadline = d
	}
	var err error
	if m.dir, m.dirLock, err = machinedir.Create(machineDirPrefix); err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	m.cmd = exec.Command(f.qemu, f.qemuArgs(m, spec, assets, disk, accel, how)...)
	m.cmd.Stdout, m.cmd.Stderr = m.console, m.console
	// QEMU writes snapshot=on's overlay to TMPDIR: keep it in the runtime
	// directory, removed at Close.
	m.cmd.Env = append(os.Environ(), "TMPDIR="+m.dir)
	m.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if spec.Network == machine.NetworkAllowlist {
		// QEMU's user-mode network then reaches only the egress filter on
		// that namespace's loopback (egress_linux.go).
		m.cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWNET
	}
	m.ramFromFile = how.restore != nil && how.restore.ram != ""
	var mon net.Conn // a restoring QEMU's monitor
	// The guest channel is a socket pair whose far end QEMU gets as
	// descriptor 3 (a connected client chardev): the host is connected
	// before the guest runs, with no socket to wait for and dial.
	conn, qemuEnd, err := channelPair()
	if err != nil {
		m.removeDir()
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	defer qemuEnd.Close() // QEMU holds its own copy
	m.cmd.ExtraFiles = []*os.File{qemuEnd}
	if how.restore != nil {
		state, err := os.Open(how.restore.state)
		if err != nil {
			conn.Close()
			m.removeDir()
			return nil, &machine.StartupError{Backend: Name, Err: err}
		}
		defer state.Close()
		monConn, monEnd, err := channelPair()
		if err != nil {
			conn.Close()
			m.removeDir()
			return nil, &machine.StartupError{Backend: Name, Err: err}
		}
		defer monConn.Close() // needed only to resume
		defer monEnd.Close()
		mon = monConn
		m.cmd.ExtraFiles = append(m.cmd.ExtraFiles, state, monEnd) // descriptors 4 and qmpFD
	}
	if err := startFromSpawner(m.cmd); err != nil {
		conn.Close()
		m.removeDir()
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	go func() {
		m.cmd.Wait()
		close(m.exited)
	}()
	if err := m.startEgress(); err != nil {
		conn.Close()
		return m.failStart(err)
	}
	if how.restore != nil {
		err = m.resume(ctx, mon)
	} else {
		err = m.awaitAgent(ctx, conn, m.deadline)
	}
	if err != nil {
		conn.Close()
		return m.failStart(err)
	}
	m.conn = conn
	if m.session, err = yamux.Client(channel.Coalesce(conn), channel.Config()); err != nil {
		return m.failStart(err)
	}
	m.streams = newStreamPool(m.session)
	m.client = execd.NewDialerClient(m.streams.open)
	return m, nil
}

// resume has a restoring QEMU load the saved state and continue the
// machine once it is loaded (cont during an incoming migration sets the
// machine to start when the migration ends, so nothing is polled), over
// the monitor socket pair mon (see pipelineQMP). The guest channel is
// connected from QEMU's start, so the agent never sees the host gone.
func (m *Machine) resume(ctx context.Context, mon net.Conn) error {
	var cmds []string
	if m.ramFromFile {
		cmds = append(cmds, ignoreSharedRAM, `{"execute":"migrate-incoming","arguments":{"uri":"fd:4"}}`)
	}
	cmds = append(cmds, `{"execute":"cont"}`)
	if err := m.pipelineQMP(ctx, mon, m.deadline, cmds...); err != nil {
		return fmt.Errorf("restoring the saved state: %w", err)
	}
	return nil
}

// channelPair makes the guest channel: the host's end and QEMU's.
func channelPair() (net.Conn, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("the guest channel: %w", err)
	}
	host := os.NewFile(uintptr(fds[0]), "guest-channel")
	defer host.Close() // FileConn holds a duplicate
	conn, err := net.FileConn(host)
	if err != nil {
		unix.Close(fds[1])
		return nil, nil, fmt.Errorf("the guest channel: %w", err)
	}
	return conn, os.NewFile(uintptr(fds[1]), "guest-channel-qemu"), nil
}

// sync gives the guest this machine's clock, fresh randomness and its
// working directory (see channel.OpSync).
func (m *Machine) sync(deadline time.Time) error {
	req := channel.SyncRequest{Op: channel.OpSync, UnixNano: time.Now().UnixNano(), Entropy: make([]byte, 64), Workdir: m.workdir}
	if _, err := rand.Read(req.Entropy); err != nil {
		return err
	}
	c, err := m.session.Open()
	if err != nil {
		return fmt.Errorf("opening the sync stream: %w", err)
	}
	defer c.Close()
	c.SetDeadline(deadline)
	payload, _ := json.Marshal(req)
	if err := channel.WriteFrame(c, channel.FrameRequest, payload); err != nil {
		return fmt.Errorf("syncing the guest: %w", err)
	}
	typ, reply, err := channel.ReadFrame(c)
	if err != nil {
		return fmt.Errorf("syncing the guest: %w", err)
	}
	if typ != channel.FrameOK {
		return fmt.Errorf("syncing the guest: %s", reply)
	}
	return nil
}

// cutShort moves a deadline (set) to now once QEMU exits or ctx ends,
// so that a read waiting on QEMU fails at once; the returned stop ends the
// watch.
func (m *Machine) cutShort(ctx context.Context, set func(time.Time) error) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-m.exited:
		case <-ctx.Done():
		case <-done:
			return
		}
		set(time.Now())
	}()
	return func() { close(done) }
}

// exitedWithin says whether QEMU has exited or exits within wait. A
// QEMU that has exited is seen as such even with no wait (a select over
// the exit and an expired timer would pick either at random: cutShort
// ends a read when QEMU exits, and the deadline it sets is then the cause
// of the read's error).
func (m *Machine) exitedWithin(wait time.Duration) bool {
	select {
	case <-m.exited:
		return true
	default:
	}
	if wait <= 0 {
		return false
	}
	select {
	case <-m.exited:
		return true
	case <-time.After(wait):
		return false
	}
}

// awaitAgent reads the agent's channel up to its readiness line, failing
// when QEMU exits, the deadline passes or ctx ends.
func (m *Machine) awaitAgent(ctx context.Context, conn net.Conn, deadline time.Time) error {
	conn.SetReadDeadline(deadline)
	defer m.cutShort(ctx, conn.SetReadDeadline)()
	// One byte at a time: what follows the line is the multiplexer's.
	var seen []byte
	var b [1]byte
	for !strings.HasSuffix(string(seen), channel.ReadyLine) {
		if _, err := conn.Read(b[:]); err != nil {
			wait := time.Duration(0)
			if errors.Is(err, io.EOF) {
				wait = 2 * time.Second // QEMU's end closes as it exits
			}
			if m.exitedWithin(wait) {
				return fmt.Errorf("QEMU exited before the guest was ready (%s)", m.cmd.ProcessState)
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return errors.New("the guest was not ready within the startup timeout")
			}
			return fmt.Errorf("reading the guest channel: %w", err)
		}
		seen = append(seen, b[0])
		if len(seen) > 4096 {
			seen = seen[len(seen)-len(channel.ReadyLine):]
		}
	}
	conn.SetReadDeadline(time.Time{})
	return nil
}

// qemuArgs is QEMU's command line for a machine.
func (f *Factory) qemuArgs(m *Machine, spec machine.Spec, assets *bootAssets, disk *stagedDisk, accel Acceleration, how launch) []string {
	mem, cpus := resources(spec)
	// cryptomgr.notests: the self-tests of the kernel's own crypto code
	// (the same on every boot of the image) take about half a second of a
	// boot under TCG.
	cmdline := []string{"console=ttyS0", "quiet", "panic=-1", "rdinit=/init", "cryptomgr.notests",
		"shellbox.time=" + strconv.FormatInt(time.Now().UnixMilli(), 10)}
	if khz := tscKHz(); khz > 0 {
		// Without it about one boot in ten hangs calibrating the TSC.
		cmdline = append(cmdline, "tsc_early_khz="+strconv.Itoa(khz))
	}
	if accel == AccelTCG {
		// TCG's TSC is the host's, but timer interrupts come late, and
		// the clocksource watchdog would then switch the guest to jiffies:
		// a clock of 4 ms resolution that the vDSO cannot read (a system
		// call on every clock read). High-resolution timers stay off (the
		// CPU model has no always-running APIC timer): measured, their
		// timer reprogramming costs about 40% more guest time per
		// command under TCG than the periodic tick.
		cmdline = append(cmdline, "tsc=reliable")
		if cpus == 1 && assets.cmdlineDevices {
			// The timer tick from the PIT rather than the local APIC
			// timer: the kernel then skips calibrating the APIC timer
			// against the PIT (TSC-deadline mode, which needs none, TCG
			// does not offer), about 0.2 s of a boot. One CPU only: with
			// more the PIT's tick would be broadcast to the others. Only
			// shellbox's own kernel (microvm without ACPI, its PIT in the
			// MP table): Debian's cloud kernel, booted with ACPI, hangs
			// after its PCI probe with it (TestDebianKernelLoadsModules).
			cmdline = append(cmdline, "noapictimer")
		}
	}
	// Work no guest of ours uses, which costs each new QEMU process the
	// translation of its code on hot paths (scheduler, exec, open): no
	// pressure-stall accounting, no lockup detector (TCG's stalls would
	// only make it report false lockups), and of the security modules
	// only Landlock (AppArmor and TOMOYO enforce nothing without the
	// policies no guest loads; capabilities are always on). Measured:
	// about 3% fewer translated blocks to a restored machine's first
	// result. (Not noreplace-smp: it saves about a fifth of a bare
	// boot's CPU time, but TCG runs every locked instruction it keeps
	// through an out-of-line helper, on every path after the boot.)
	cmdline = append(cmdline, "psi=0", "nowatchdog", "lsm=landlock")
	if assets.cmdlineDevices {
		// No ACPI to reset the machine through: a reboot (a panic, or the
		// guest's power-off) goes straight to a triple fault, which QEMU
		// (-no-reboot) ends on, rather than first trying the keyboard
		// controller microvm does not have.
		cmdline = append(cmdline, "reboot=t")
	}
	if disk != nil {
		cmdline = append(cmdline, "shellbox.root=/dev/vda")
	}
	if usesUserNet(spec) {
		cmdline = append(cmdline, "shellbox.net=user")
	}
	m.cmdline = strings.Join(cmdline, " ")
	if how.restore != nil {
		// The same machine as the template's, down to the command line.
		m.cmdline = how.restore.cmdline
	}
	machineOpt, ramFile, share := "microvm", how.ram, "on"
	if assets.cmdlineDevices {
		// A kernel that takes its virtio-mmio devices from the command
		// line (see boot.ParsesCmdlineDevices) boots without ACPI: QEMU
		// then adds virtio_mmio.device= for each device to the command
		// line and the kernel parses no ACPI tables.
		machineOpt += ",acpi=off"
	}
	if how.restore != nil && how.restore.ram != "" {
		// A private mapping: pages shared with the page cache until written.
		ramFile, share = how.restore.ram, "off"
	}
	var ramArgs []string
	if ramFile != "" {
		machineOpt += ",memory-backend=ram"
		ramArgs = []string{"-object", "memory-backend-file,id=ram,size=" + strconv.Itoa(mem) + "M,mem-path=" + qemuEscape(ramFile) + ",share=" + share}
	}
	args := []string{
		"-machine", machineOpt, "-accel", string(accel),
		"-m", strconv.Itoa(mem) + "M", "-smp", strconv.Itoa(cpus),
		"-nodefaults", "-no-user-config", "-no-reboot", "-display", "none",
		"-serial", "stdio",
		"-device", "virtio-serial-device",
		"-chardev", "socket,id=agent,fd=3", // see channelPair
		"-device", "virtserialport,chardev=agent,name=" + channel.PortName,
		"-device", "virtio-rng-device",
	}
	if how.restore != nil {
		// The monitor is a connected socket pair (see pipelineQMP).
		args = append(args, "-chardev", "socket,id=mon,fd="+strconv.Itoa(qmpFD), "-mon", "chardev=mon,mode=control")
	} else {
		args = append(args, "-qmp", "unix:"+filepath.Join(m.dir, "qmp.sock")+",server=on,wait=off")
	}
	args = append(args, ramArgs...)
	if how.restore == nil {
		// A restored guest's memory comes from the state: QEMU need not
		// read the kernel and the initramfs (it would not write them into
		// the guest's memory during an incoming migration anyway).
		args = append(args, "-kernel", assets.vmlinux, "-initrd", assets.initramfs, "-append", m.cmdline)
	}
	if accel == AccelKVM {
		args = append(args, "-cpu", "host")
	}

	switch {
	case disk == nil:
	case how.overlay != "":
		args = append(args, "-drive", "file="+qemuEscape(how.overlay)+",if=none,format=qcow2,id=root")
	case how.restore != nil:
		args = append(args, "-drive", "file="+qemuEscape(how.restore.disk)+",if=none,format=qcow2,id=root,snapshot=on")
	default:
		args = append(args, "-drive", "file="+qemuEscape(disk.path)+",if=none,format=raw,id=root,snapshot=on")
	}
	if disk != nil {
		args = append(args, "-device", "virtio-blk-device,drive=root")
	}
	if how.restore != nil {
		// Paused after loading until resume continues it. The state
		// arrives on descriptor 4 (see start); with a RAM file the
		// migration capability that leaves RAM out of the stream is set
		// first, over QMP (see resume).
		incoming := "fd:4"
		if how.restore.ram != "" {
			incoming = "defer"
		}
		args = append(args, "-S", "-incoming", incoming)
	}
	if usesUserNet(spec) {
		// User-mode networking: outbound connections through QEMU, nothing
		// listens in the guest for the outside.
		args = append(args, "-netdev", "user,id=net0", "-device", "virtio-net-device,netdev=net0")
	} else {
		args = append(args, "-nic", "none")
	}
	return args
}

// qemuEscape doubles commas, QEMU's option separator.
func qemuEscape(s string) string { return strings.ReplaceAll(s, ",", ",,") }

// tscKHz is the host TSC frequency from /proc/cpuinfo (0: unknown).
func tscKHz() int {
	tscOnce.Do(func() {
		b, err := os.ReadFile("/proc/cpuinfo")
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(l, ":")
			if ok && strings.TrimSpace(k) == "cpu MHz" {
				if mhz, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					tscValue = int(mhz * 1000)
				}
				return
			}
		}
	})
	return tscValue
}

var (
	tscOnce  sync.Once
	tscValue int
)

func (m *Machine) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// request builds the exec request of a command.
func (m *Machine) request(cmd machine.Command) (execd.Request, error) {
	if err := cmd.Validate(); err != nil {
		return execd.Request{}, err
	}
	req := execd.Request{Argv: cmd.Argv, Dir: cmd.Cwd, OutputLimit: cmd.OutputLimit,
		TimeoutMS: cmd.Timeout.Milliseconds()}
	if cmd.Timeout > 0 && req.TimeoutMS == 0 {
		req.TimeoutMS = 1
	}
	if req.Dir == "" {
		req.Dir = m.workdir
	}
	env := map[string]string{"PATH": defaultPath, "HOME": "/root"}
	for _, kv := range m.meta.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	user := cmd.User
	if user == "" {
		user = m.meta.User
	}
	if user != "" && user != "root" && user != "0" && user != "0:0" {
		u, err := m.lookupUser(user)
		if err != nil {
			return req, &machine.UnsupportedSpec{Backend: Name, Field: "user", Reason: err.Error()}
		}
		req.SwitchUser, req.UID, req.GID = true, u.UID, u.GID
		if u.Home != "" {
			env["HOME"] = u.Home
		}
	}
	for k, v := range m.spec.Env {
		env[k] = v
	}
	for k, v := range cmd.Env {
		env[k] = v
	}
	for k, v := range env {
		req.Env = append(req.Env, k+"="+v)
	}
	return req, nil
}

// lookupUser resolves "name", "uid" or "uid:gid" against the image's
// accounts.
func (m *Machine) lookupUser(s string) (userInfo, error) {
	name, group, hasGroup := strings.Cut(s, ":")
	u, ok := m.meta.Users[name]
	if !ok {
		uid, err := strconv.ParseUint(name, 10, 32)
		if err != nil {
			return userInfo{}, fmt.Errorf("no user %q in the image", name)
		}
		u = userInfo{UID: uint32(uid), GID: uint32(uid)}
		for _, acct := range m.meta.Users {
			if acct.UID == u.UID {
				u = acct
				break
			}
		}
	}
	if hasGroup {
		gid, err := strconv.ParseUint(group, 10, 32)
		if err != nil {
			return userInfo{}, fmt.Errorf("group %q must be numeric", group)
		}
		u.GID = uint32(gid)
	}
	return u, nil
}

// Run executes a command in the guest.
func (m *Machine) Run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	if m.isClosed() {
		return machine.Result{}, machine.ErrClosed
	}
	req, err := m.request(cmd)
	if err != nil {
		return machine.Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return machine.Result{}, err
	}
	if err := m.alive(); err != nil {
		return machine.Result{}, err
	}
	res, err := m.client.Exec(ctx, req, cmd.Stdin)
	if err != nil {
		return machine.Result{}, m.opError(ctx, err)
	}
	if res.TimedOut {
		return machine.Result{Stdout: res.Stdout, Stderr: res.Stderr, StdoutTruncated: res.StdoutTruncated,
			StderrTruncated: res.StderrTruncated, Reason: machine.TimedOut}, nil
	}
	return machine.ExitedWith(res.Code, res.Stdout, res.Stderr, res.StdoutTruncated, res.StderrTruncated), nil
}

// alive reports a machine whose QEMU has exited.
func (m *Machine) alive() error {
	select {
	case <-m.exited:
		return m.terminated()
	default:
	}
	if m.session.IsClosed() {
		return m.terminated()
	}
	return nil
}

func (m *Machine) terminated() error {
	state := "QEMU exited"
	select {
	case <-m.exited:
		state = fmt.Sprintf("QEMU exited (%s)", m.cmd.ProcessState)
	default:
		state = "the guest channel closed"
	}
	tail := strings.TrimSpace(m.console.String())
	if len(tail) > 2048 {
		tail = tail[len(tail)-2048:]
	}
	if tail != "" {
		state += "; console: " + tail
	}
	return &machine.TerminatedError{Reason: state}
}

// opError maps a client error onto the machine contract.
func (m *Machine) opError(ctx context.Context, err error) error {
	var stop *execd.StopError
	var conn *execd.ConnError
	var fail *execd.Failure
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &conn) || errors.As(err, &stop):
		if m.isClosed() {
			return machine.ErrClosed
		}
		select {
		case <-m.exited:
			return m.terminated()
		case <-m.session.CloseChan():
			return m.terminated()
		case <-time.After(100 * time.Millisecond):
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if stop != nil {
			m.Close(context.Background())
			return &machine.InfrastructureError{Op: "stopping a command", Err: err}
		}
		return err
	case errors.As(err, &fail):
		return fail.Err(Name)
	}
	return err
}

// checkGuest refuses, before any I/O, a guest path that is not absolute
// or that has ".." components (a guest path names one place).
func checkGuest(field, p string) error {
	if !path.IsAbs(p) {
		return &machine.InvalidSpec{Field: field, Reason: fmt.Sprintf("must be an absolute path, got %q", p)}
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return &machine.InvalidSpec{Field: field, Reason: fmt.Sprintf("must not contain \"..\" components, got %q", p)}
		}
	}
	return nil
}

// Upload copies a host file or directory into the guest; the agent
// extracts the tar stream itself.
func (m *Machine) Upload(ctx context.Context, source, target string) error {
	if m.isClosed() {
		return machine.ErrClosed
	}
	if err := checkGuest("target", target); err != nil {
		return err
	}
	if err := m.alive(); err != nil {
		return err
	}
	if err := m.client.Upload(ctx, source, path.Clean(target), nil); err != nil {
		return m.opError(ctx, err)
	}
	return nil
}

// Download copies a file or directory out of the guest.
func (m *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	if m.isClosed() {
		return machine.ErrClosed
	}
	if err := checkGuest("source", source); err != nil {
		return err
	}
	if err := m.alive(); err != nil {
		return err
	}
	if err := m.client.Download(ctx, path.Clean(source), target, nil, opts.MaxBytes); err != nil {
		return m.opError(ctx, err)
	}
	return nil
}

// OpenProcess starts a command with raw pipes in the guest.
func (m *Machine) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	return m.start(ctx, cmd, false)
}

// OpenTerminal starts a command on a fresh pseudo-terminal in the guest
// (allocated by the agent with creack/pty); it makes Machine a
// shell.Terminal.
func (m *Machine) OpenTerminal(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	return m.start(ctx, cmd, true)
}

func (m *Machine) start(ctx context.Context, cmd machine.Command, tty bool) (machine.Process, error) {
	if m.isClosed() {
		return nil, machine.ErrClosed
	}
	req, err := m.request(cmd)
	if err != nil {
		return nil, err
	}
	if err := m.alive(); err != nil {
		return nil, err
	}
	req.TTY = tty
	p, err := m.client.Start(ctx, req)
	if err != nil {
		return nil, m.opError(ctx, err)
	}
	return m.procs.Add(p)
}

// killWait bounds the wait for QEMU to exit after SIGKILL.
const killWait = 10 * time.Second

// Close kills QEMU and removes the runtime directory (with the disk
// overlay).
func (m *Machine) Close(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		done := m.closeDone
		m.mu.Unlock()
		<-done
		return m.closeErr
	}
	m.closed = true
	m.closeDone = make(chan struct{})
	m.mu.Unlock()
	m.procs.Close()
	defer close(m.closeDone)
	if err := m.kill(); err != nil {
		m.closeErr = err
	}
	return m.closeErr
}

// kill stops QEMU, releases the channel and removes the runtime directory.
func (m *Machine) kill() error {
	m.closeEgress()
	if m.client != nil {
		m.client.Close()
	}
	if m.session != nil {
		m.session.Close()
	}
	if m.conn != nil {
		m.conn.Close()
	}
	if m.cmd != nil && m.cmd.Process != nil {
		syscall.Kill(-m.cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-m.exited:
		case <-time.After(killWait):
			return &machine.InfrastructureError{Op: "stopping QEMU", Err: errors.New("QEMU did not exit after SIGKILL")}
		}
	}
	m.uses.release()
	if err := m.removeDir(); err != nil {
		return &machine.InfrastructureError{Op: "removing the machine directory", Err: err}
	}
	return nil
}

// machineDirPrefix names the machines' runtime directories in the
// temporary directory; New removes those of owners that died without
// closing their machines (machinedir.Sweep).
const machineDirPrefix = "shellbox-qemu-vm-"

// removeDir removes the runtime directory, then releases its lock.
func (m *Machine) removeDir() error {
	err := os.RemoveAll(m.dir)
	if m.dirLock != nil {
		m.dirLock.Close()
		m.dirLock = nil
	}
	return err
}

// tailBuffer keeps the last bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// The parent-death signal is sent when the thread that forked the child
// exits, not the process: QEMU is started from one goroutine locked to its
// thread for the life of the process, so that QEMU is killed exactly when
// the host process dies (a caller's thread, say a Python worker, may end
// any time).
var (
	spawnOnce sync.Once
	spawns    chan spawnRequest
)

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

func startFromSpawner(cmd *exec.Cmd) error {
	spawnOnce.Do(func() {
		spawns = make(chan spawnRequest)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for r := range spawns {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawns <- spawnRequest{cmd, done}
	return <-done
}
