// Package launcher is the host process that starts a local machine's
// bubblewrap (shellbox-sandboxd launch ...): it closes every descriptor
// the embedding process left inheritable, puts bubblewrap alone into the
// machine's cgroup, reaps every process that is orphaned on its way out
// (as a child subreaper, so that none is left to a host PID 1 that may not
// reap), kills the sandbox when the lifeline breaks, and removes the cgroup
// once everything is gone.
package launcher

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/backends/local/cgroup"
	"github.com/shellbox/shellbox/lib/execd"
)

// Command is the helper's first argument that selects the launcher.
const Command = "launch"

// Descriptors the host passes: 0-2 and the sandbox's own (listening
// socket, readiness pipe, lifeline, and when there are some the cgroup's
// pids.events and pids.current and the files of /etc) go to bubblewrap;
// the machine directory's lock stays here until every process of the
// sandbox is gone.
const (
	firstSandboxFD = 3
	lifelineFD     = 5
	lastSandboxFD  = 8
	lockFD         = 9
)

// Main runs the launcher; args follow Command.
func Main(args []string) int {
	// bubblewrap's --die-with-parent follows the thread that forked it.
	runtime.LockOSThread()
	execd.CloseInherited(3, 4, 5, 6, 7, 8, lockFD)
	fl := flag.NewFlagSet("shellbox-sandboxd launch", flag.ContinueOnError)
	cg := fl.String("cgroup", "", "the machine's cgroup directory (empty: none)")
	home := fl.String("cgroup-home", "", "cgroup v1: the directory this process returns to after starting bubblewrap")
	fuse := fl.String("fuse-overlayfs", "", "without root: the fuse-overlayfs that serves the overlays (userns_overlay_linux.go)")
	var join, overlays []string
	fl.Func("overlay", "lower:upper:work:target, an overlay mounted in a mount namespace of bubblewrap's own before it starts (repeatable)", func(o string) error {
		overlays = append(overlays, o)
		return nil
	})
	fl.Func("join", "a cgroup v1 directory this process joins, with the sandbox, for good (repeatable)", func(d string) error {
		join = append(join, d)
		return nil
	})
	if err := fl.Parse(args); err != nil || fl.NArg() == 0 {
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "shellbox launcher:", err)
		return 1
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fail(fmt.Errorf("subreaper: %w", err))
	}
	unix.CloseOnExec(lockFD)
	// The machine's CPU and memory cgroups (cgroup_parent on v1): joined
	// before bubblewrap is forked, so that nothing of the sandbox starts
	// outside them; the launcher's own share is negligible.
	for _, d := range join {
		if err := cgroup.AddProcess(d, strconv.Itoa(os.Getpid())); err != nil {
			return fail(fmt.Errorf("joining %s: %w", d, err))
		}
	}
	rootless := len(overlays) > 0 && os.Geteuid() != 0
	if !rootless {
		if err := mountOverlays(overlays); err != nil {
			return fail(err)
		}
	}
	var group *cgroup.Group
	if *cg != "" {
		group = cgroup.Open(*cg)
	}
	argv := fl.Args()
	files := []uintptr{0, 1, 2}
	for fd := firstSandboxFD; fd <= lastSandboxFD; fd++ {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil {
			files = append(files, uintptr(fd))
		} else {
			files = append(files, ^uintptr(0)) // closed in bubblewrap
		}
	}
	attr := &syscall.ProcAttr{Env: os.Environ(), Files: files, Sys: &syscall.SysProcAttr{}}
	if rootless {
		argv = startUserNamespaceOverlays(*fuse, overlays, argv, attr)
	}
	pid, err := forkInto(group, *home, argv, attr)
	if err != nil {
		if group != nil {
			group.Remove()
		}
		return fail(err)
	}
	// The readiness pipe must reach end of file when bubblewrap fails;
	// only the lifeline stays.
	for fd := firstSandboxFD; fd <= lastSandboxFD; fd++ {
		if fd != lifelineFD {
			unix.Close(fd)
		}
	}
	go func() {
		var b [1]byte
		for {
			// The host never writes: only end of file (or an error) ends this.
			if n, err := unix.Read(lifelineFD, b[:]); n > 0 || err == unix.EINTR {
				continue
			}
			break
		}
		if group != nil {
			group.Kill()
		}
		syscall.Kill(pid, syscall.SIGKILL)
	}()
	status := 0
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			break // ECHILD: everything is reaped
		}
		if wpid == pid {
			status = ws.ExitStatus()
			if ws.Signaled() {
				status = 128 + int(ws.Signal())
			}
			// Whatever bubblewrap left is the sandbox's: end it.
			if group != nil {
				group.Kill()
			}
		}
	}
	if group != nil {
		if err := group.Remove(); err != nil {
			fmt.Fprintln(os.Stderr, "shellbox launcher:", err)
		}
	}
	return status
}

// forkInto starts argv inside the cgroup: cgroup v2 places the child at
// clone time; v1 has no such call, so this process joins the cgroup for
// the fork and then returns home.
func forkInto(group *cgroup.Group, home string, argv []string, attr *syscall.ProcAttr) (int, error) {
	if group == nil {
		return syscall.ForkExec(argv[0], argv, attr)
	}
	if group.V2() {
		fd, err := unix.Open(group.Dir(), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return 0, err
		}
		defer unix.Close(fd)
		attr.Sys.UseCgroupFD, attr.Sys.CgroupFD = true, fd
		return syscall.ForkExec(argv[0], argv, attr)
	}
	self := strconv.Itoa(os.Getpid())
	if err := cgroup.AddProcess(group.Dir(), self); err != nil {
		return 0, err
	}
	pid, err := syscall.ForkExec(argv[0], argv, attr)
	if herr := cgroup.AddProcess(home, self); herr != nil && err == nil {
		// Staying inside would let the machine's kill take the launcher.
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
		return 0, fmt.Errorf("leaving the machine's cgroup: %w", herr)
	}
	return pid, err
}
