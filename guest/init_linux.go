package guest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ModuleOrder is the initramfs file listing the kernel modules to load, one
// path per line, dependencies first.
const ModuleOrder = "/lib/modules/shellbox.order"

// newRoot is where the image's root filesystem is mounted before the switch.
const newRoot = "/newroot"

// rootWait bounds the wait for the root block device to appear.
const rootWait = 10 * time.Second

// Main is the guest program's main. As PID 1 it prepares the machine and
// supervises the agent; with the argument "agent" it is the agent.
func Main(args []string) int {
	if len(args) > 0 && args[0] == "agent" {
		if err := serveAgent(portName(readCmdline())); err != nil {
			fmt.Fprintln(os.Stderr, "shellbox-guest agent:", err)
			return 1
		}
		return 0
	}
	if os.Getpid() != 1 {
		fmt.Fprintln(os.Stderr, "shellbox-guest: must run as the init of a shellbox microVM")
		return 2
	}
	if err := initMachine(); err != nil {
		fatal(err)
	}
	supervise()
	return 0 // not reached: supervise powers off
}

// fatal reports on the console and powers off; the host sees QEMU exit and
// reports the console's tail.
func fatal(err error) {
	fmt.Fprintln(os.Stderr, "shellbox-guest: fatal:", err)
	powerOff()
}

func powerOff() {
	unix.Sync()
	cmd := unix.LINUX_REBOOT_CMD_POWER_OFF
	if _, err := os.Stat("/sys/firmware/acpi"); err != nil {
		// Without ACPI (shellbox's own kernel on microvm) there is no way
		// to power off, and the kernel would only halt the CPU, leaving
		// QEMU running; a reset ends QEMU just as well (-no-reboot).
		cmd = unix.LINUX_REBOOT_CMD_RESTART
	}
	unix.Reboot(cmd)
	os.Exit(1) // the kernel panics on init's exit, which also stops QEMU (-no-reboot)
}

// readCmdline parses shellbox.* parameters from /proc/cmdline.
func readCmdline() map[string]string {
	params := map[string]string{}
	b, err := os.ReadFile("/proc/cmdline")
	if err != nil {
		return params
	}
	for _, f := range strings.Fields(string(b)) {
		if k, v, ok := strings.Cut(f, "="); ok && strings.HasPrefix(k, "shellbox.") {
			params[strings.TrimPrefix(k, "shellbox.")] = v
		}
	}
	return params
}

func portName(params map[string]string) string {
	if p := params["port"]; p != "" {
		return p
	}
	return "shellbox"
}

func mount(source, target, fstype string, flags uintptr, data string) error {
	if err := os.MkdirAll(target, 0o755); err != nil {
		return err
	}
	if err := unix.Mount(source, target, fstype, flags, data); err != nil {
		return fmt.Errorf("mounting %s on %s: %w", fstype, target, err)
	}
	return nil
}

// initMachine mounts, loads modules, switches root and sets the clock.
func initMachine() error {
	if err := mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return err
	}
	if err := mount("sysfs", "/sys", "sysfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return err
	}
	if err := mount("devtmpfs", "/dev", "devtmpfs", unix.MS_NOSUID, "mode=0755"); err != nil {
		return err
	}
	// The kernel found no /dev/console before devtmpfs was mounted when the
	// initramfs lacks one; give init its console now.
	// Raw descriptors: with 0-2 closed, the console itself becomes one.
	if fd, err := unix.Open("/dev/console", unix.O_RDWR, 0); err == nil {
		for std := 0; std <= 2; std++ {
			if std != fd {
				unix.Dup3(fd, std, 0)
			}
		}
		if fd > 2 {
			unix.Close(fd)
		}
	}
	params := readCmdline()
	if err := loadModules(ModuleOrder, params["net"] == "user"); err != nil {
		return err
	}
	if root := params["root"]; root != "" {
		if err := switchRoot(root); err != nil {
			return err
		}
	}
	if err := finishMounts(); err != nil {
		return err
	}
	if err := protectMemory(); err != nil {
		return fmt.Errorf("memory protection: %w", err)
	}
	if ms, err := strconv.ParseInt(params["time"], 10, 64); err == nil {
		setClock(ms)
	}
	unix.Sethostname([]byte("shellbox"))
	if err := linkUp("lo"); err != nil {
		return err
	}
	if params["net"] == "user" {
		if err := configureUserNet(); err != nil {
			return fmt.Errorf("network: %w", err)
		}
		if params["root"] != "" {
			if err := writeResolvConf(); err != nil {
				return fmt.Errorf("network: %w", err)
			}
		}
	}
	return nil
}

// loadModules loads the listed modules with finit_module, wave after
// wave (see boot.ModuleOrder): the modules of one wave at the same time,
// so that one device's probe (the disk reads its partition table) does
// not hold up the next module; the network card's only when the machine
// has a network.
func loadModules(order string, net bool) error {
	b, err := os.ReadFile(order)
	if errors.Is(err, os.ErrNotExist) {
		return nil // a kernel with everything built in
	}
	if err != nil {
		return err
	}
	var wave []string
	for _, l := range append(strings.Split(string(b), "\n"), "-") {
		p, tag, _ := strings.Cut(strings.TrimSpace(l), " ")
		switch {
		case p == "":
		case p == "-":
			if err := loadWave(wave); err != nil {
				return err
			}
			wave = wave[:0]
		case tag != "net" || net:
			wave = append(wave, p)
		}
	}
	return nil
}

// loadWave loads modules that do not depend on each other, concurrently.
func loadWave(paths []string) error {
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = loadModule(p)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func loadModule(p string) error {
	m, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("module %s: %w", p, err)
	}
	defer m.Close()
	if err := unix.FinitModule(int(m.Fd()), "", 0); err != nil && !errors.Is(err, unix.EEXIST) {
		return fmt.Errorf("loading module %s: %w", p, err)
	}
	return nil
}

// switchRoot mounts the image's ext4 root and makes it the root of this
// process (and so of everything it starts), as switch_root does: the
// kernel filesystems move along, and the initramfs stays underneath,
// unreachable.
func switchRoot(dev string) error {
	deadline := time.Now().Add(rootWait)
	for {
		if _, err := os.Stat(dev); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the root device %s did not appear within %v", dev, rootWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// noinit_itable: zeroing inode tables would only grow the overlay.
	if err := mount(dev, newRoot, "ext4", 0, "noinit_itable"); err != nil {
		return err
	}
	for _, d := range []string{"/dev", "/proc", "/sys"} {
		if err := os.MkdirAll(newRoot+d, 0o755); err != nil {
			return err
		}
		if err := unix.Mount(d, newRoot+d, "", unix.MS_MOVE, ""); err != nil {
			return fmt.Errorf("moving %s into the root: %w", d, err)
		}
	}
	if err := unix.Chdir(newRoot); err != nil {
		return err
	}
	if err := unix.Mount(".", "/", "", unix.MS_MOVE, ""); err != nil {
		return fmt.Errorf("moving the root: %w", err)
	}
	if err := unix.Chroot("."); err != nil {
		return err
	}
	return unix.Chdir("/")
}

// finishMounts provides what programs expect beyond the kernel
// filesystems: terminals, /dev/fd, shared memory and a private /tmp.
func finishMounts() error {
	if err := mount("devpts", "/dev/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620,gid=5"); err != nil {
		return err
	}
	if _, err := os.Lstat("/dev/ptmx"); err != nil {
		os.Symlink("pts/ptmx", "/dev/ptmx")
	}
	// devtmpfs does not provide these; Bash's process substitution needs them.
	for link, target := range map[string]string{"/dev/fd": "/proc/self/fd", "/dev/stdin": "/proc/self/fd/0",
		"/dev/stdout": "/proc/self/fd/1", "/dev/stderr": "/proc/self/fd/2"} {
		if _, err := os.Lstat(link); err != nil {
			os.Symlink(target, link)
		}
	}
	if err := mount("shm", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return err
	}
	if err := mount("tmpfs", "/tmp", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return err
	}
	return nil
}

// setClock sets the wall clock from the host's launch time plus the time
// the guest has been up (a microVM has no RTC the kernel reads).
func setClock(hostMS int64) {
	var up unix.Timespec
	unix.ClockGettime(unix.CLOCK_BOOTTIME, &up)
	now := time.UnixMilli(hostMS).Add(time.Duration(up.Nano()))
	tv := unix.NsecToTimeval(now.UnixNano())
	unix.Settimeofday(&tv)
}

// supervise starts the agent and reaps every orphan until the agent ends,
// then powers off.
func supervise() {
	// After the root switch the initramfs path is unreachable; the magic
	// link still names the running program.
	agent, err := syscall.ForkExec("/proc/self/exe", []string{"shellbox-guest", "agent"}, &syscall.ProcAttr{
		Dir:   "/",
		Env:   []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
		Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		fatal(fmt.Errorf("starting the agent: %w", err))
	}
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil || pid == agent {
			if pid == agent {
				fmt.Fprintf(os.Stderr, "shellbox-guest: agent ended (status %v); powering off\n", ws)
			}
			powerOff()
		}
	}
}
