package launcher

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// OverlayCommand is the helper's first argument that selects the
// copy-on-write stage of a launcher without root (OverlayMain).
const OverlayCommand = "overlay"

// Why fuse-overlayfs and not the kernel's overlayfs, which a user
// namespace may mount since Linux 5.11 (and bubblewrap 0.11's --overlay
// uses): the host's /usr belongs to the host's root, a user id that no
// namespace of an unprivileged user can map, so the kernel refuses every
// write below the overlay's top directory (no capability applies to an
// inode whose owner is unmapped, and a copy-up cannot give the copy that
// owner). fuse-overlayfs (rootless Podman's) serves the same layers with
// every file owned by the machine's user (squash_to_uid), so the sandbox
// can change anything, and the copies it makes belong to that user on
// the host.

// startUserNamespaceOverlays re-executes the helper as OverlayMain in a
// new user and mount namespace that maps the caller's user and group to
// themselves, holding CAP_SYS_ADMIN there (ambient, so it survives the
// exec) to mount the overlays; that stage then runs argv (bubblewrap)
// with no capability. It replaces argv: the launcher waits for the stage
// as it would for bubblewrap.
func startUserNamespaceOverlays(fuse string, overlays, argv []string, attr *syscall.ProcAttr) []string {
	uid, gid := os.Getuid(), os.Getgid()
	attr.Sys.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	attr.Sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	attr.Sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	attr.Sys.GidMappingsEnableSetgroups = false
	attr.Sys.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
	// Its end ends bubblewrap (--die-with-parent) and the overlays.
	attr.Sys.Pdeathsig = syscall.SIGKILL
	stage := []string{"/proc/self/exe", OverlayCommand, "--fuse-overlayfs", fuse}
	for _, o := range overlays {
		stage = append(stage, "--overlay", o)
	}
	return append(append(stage, "--"), argv...)
}

// OverlayMain mounts each --overlay (lower:upper:work:target) with
// fuse-overlayfs in this process's mount namespace, runs the command
// after "--" without capabilities, passing on descriptors 0-8, and when
// it ends stops the file systems' servers and exits with its status.
func OverlayMain(args []string) int {
	// bubblewrap's --die-with-parent and the servers' parent-death
	// signal follow the thread that forked them.
	runtime.LockOSThread()
	fl := flag.NewFlagSet("shellbox-sandboxd overlay", flag.ContinueOnError)
	fuse := fl.String("fuse-overlayfs", "fuse-overlayfs", "the fuse-overlayfs program")
	var overlays []string
	fl.Func("overlay", "lower:upper:work:target (repeatable)", func(o string) error {
		overlays = append(overlays, o)
		return nil
	})
	if err := fl.Parse(args); err != nil || fl.NArg() == 0 {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "shellbox launcher:", err)
		return 1
	}
	var servers []int
	defer func() {
		for _, pid := range servers {
			syscall.Kill(pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil)
		}
	}()
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fail(fmt.Errorf("making the mounts private: %w", err))
	}
	for _, o := range overlays {
		pid, err := mountFuseOverlay(*fuse, o)
		if pid > 0 {
			servers = append(servers, pid)
		}
		if err != nil {
			return fail(err)
		}
	}
	// bubblewrap and the sandbox get no capability of this namespace.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fail(fmt.Errorf("dropping the ambient capabilities: %w", err))
	}
	files := []uintptr{0, 1, 2}
	for fd := firstSandboxFD; fd <= lastSandboxFD; fd++ {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
			files = append(files, uintptr(fd))
		} else {
			files = append(files, ^uintptr(0))
		}
	}
	argv := fl.Args()
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: os.Environ(), Files: files})
	for fd := firstSandboxFD; fd <= lastSandboxFD; fd++ {
		unix.Close(fd)
	}
	if err != nil {
		return fail(err)
	}
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fail(err)
		}
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
}

// mountFuseOverlay starts fuse-overlayfs in the foreground (so that it
// gets this thread's parent-death signal) and waits until its file system
// is on the target; it returns the server's pid.
func mountFuseOverlay(fuse, o string) (int, error) {
	parts := strings.Split(o, ":")
	if len(parts) != 4 {
		return 0, fmt.Errorf("overlay %q is not lower:upper:work:target", o)
	}
	for _, p := range parts {
		if strings.ContainsAny(p, ",") {
			return 0, fmt.Errorf("overlay path %q has a comma, which mount options cannot carry", p)
		}
	}
	opts := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s,squash_to_uid=%d,squash_to_gid=%d",
		parts[0], parts[1], parts[2], os.Getuid(), os.Getgid())
	null, err := os.Open(os.DevNull)
	if err != nil {
		return 0, err
	}
	defer null.Close()
	// Its complaints are kept for the error, not sent to the host's stderr.
	errR, errW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	argv := []string{fuse, "-f", "-o", opts, parts[3]}
	pid, err := syscall.ForkExec(fuse, argv, &syscall.ProcAttr{Env: os.Environ(),
		Files: []uintptr{null.Fd(), null.Fd(), errW.Fd()}, Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}})
	errW.Close()
	if err != nil {
		errR.Close()
		return 0, fmt.Errorf("starting %s: %w", fuse, err)
	}
	var stderr bytes.Buffer
	done := make(chan struct{})
	// Drained for as long as the server lives (a closed pipe would kill it).
	go func() {
		defer errR.Close()
		io.Copy(&stderr, io.LimitReader(errR, 4096))
		close(done)
		io.Copy(io.Discard, errR)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for delay := 100 * time.Microsecond; ; delay = min(2*delay, 10*time.Millisecond) {
		var st unix.Statfs_t
		if unix.Statfs(parts[3], &st) == nil && st.Type == unix.FUSE_SUPER_MAGIC {
			return pid, nil
		}
		var ws syscall.WaitStatus
		if wpid, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); wpid == pid {
			<-done
			return 0, fmt.Errorf("fuse-overlayfs of %s on %s exited (%v): %s", parts[0], parts[3], ws, strings.TrimSpace(stderr.String()))
		}
		if time.Now().After(deadline) {
			return pid, fmt.Errorf("fuse-overlayfs of %s on %s did not mount within 30 s", parts[0], parts[3])
		}
		time.Sleep(delay)
	}
}
