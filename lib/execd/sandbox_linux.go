package execd

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// CloseInherited closes every descriptor above 2 that came through exec
// (it is not close-on-exec), except keep: whatever the embedding process
// left inheritable must not reach commands, nor stay reachable through
// /proc/1/fd. Descriptors the Go runtime opened before main (it keeps
// cgroup files open to follow CPU limits) are close-on-exec and stay.
func CloseInherited(keep ...int) {
	dir, err := unix.Open("/proc/self/fd", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		// Without /proc, at least keep them from the next program.
		first := 3
		for _, k := range slices.Sorted(slices.Values(keep)) {
			if k >= first {
				unix.CloseRange(uint(first), uint(k-1), unix.CLOSE_RANGE_CLOEXEC)
				first = k + 1
			}
		}
		unix.CloseRange(uint(first), ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
		return
	}
	var fds []int
	buf := make([]byte, 4096)
	for {
		n, err := unix.ReadDirent(dir, buf)
		if err != nil || n <= 0 {
			break
		}
		_, _, names := unix.ParseDirent(buf[:n], -1, nil)
		for _, name := range names {
			if fd, err := strconv.Atoi(name); err == nil {
				fds = append(fds, fd)
			}
		}
	}
	unix.Close(dir)
	for _, fd := range fds {
		if fd < 3 || fd == dir || slices.Contains(keep, fd) {
			continue
		}
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
			unix.Close(fd)
		}
	}
}

// setLimits fixes resource limits (soft and hard, so commands cannot raise
// them) for the helper and everything it starts; a negative value leaves a
// limit alone.
func setLimits(fileSize, core, processes int64) error {
	for _, l := range []struct {
		res int
		v   int64
	}{{unix.RLIMIT_FSIZE, fileSize}, {unix.RLIMIT_CORE, core}, {unix.RLIMIT_NPROC, processes}} {
		if l.v < 0 {
			continue
		}
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: uint64(l.v), Max: uint64(l.v)}); err != nil {
			return err
		}
	}
	return nil
}

// reaper collects the status of every child of the helper when it is PID 1
// of its sandbox: background jobs whose parent exited are reparented to it
// and would stay zombies otherwise.
type reaper struct {
	mu sync.Mutex
	// owned are the children whose starters wait for them themselves.
	owned map[int]bool
	sig   chan os.Signal
}

func newReaper() *reaper {
	r := &reaper{owned: map[int]bool{}, sig: make(chan os.Signal, 1)}
	signal.Notify(r.sig, syscall.SIGCHLD)
	go func() {
		for range r.sig {
			r.reap()
		}
	}()
	return r
}

// stop ends reaping on SIGCHLD (a test's reaper must not collect the
// children of later tests in the same process).
func (r *reaper) stop() { signal.Stop(r.sig) }

// reap collects the exited children nobody waits for (orphans the helper
// inherited as PID 1). It looks before it reaps (WNOWAIT): the kernel
// names the first exited child, and when that is an owned one reap stops
// there; its owner calls reap again once it has collected it.
func (r *reaper) reap() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err == syscall.EINTR {
			continue
		}
		pid := siginfoPid(&info)
		if err != nil || pid <= 0 || r.owned[pid] {
			return
		}
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	}
}

// siginfoPid is si_pid of a waitid result (x/sys/unix leaves the union
// opaque): an int32 after si_signo, si_errno, si_code and padding.
func siginfoPid(info *unix.Siginfo) int {
	return int(*(*int32)(unsafe.Add(unsafe.Pointer(info), 16)))
}

// fork runs fork and marks the child owned (see start); the caller
// collects it with wait.
func (r *reaper) fork(fork func() (int, error)) (int, error) {
	if r == nil {
		return fork()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	pid, err := fork()
	if err == nil {
		r.owned[pid] = true
	}
	return pid, err
}

// wait collects a child started with fork, blocking until it exits.
func (r *reaper) wait(pid int) syscall.WaitStatus {
	var ws syscall.WaitStatus
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			break
		}
	}
	if r != nil {
		r.mu.Lock()
		delete(r.owned, pid)
		r.mu.Unlock()
		// Orphans that exited behind this child are the reaper's.
		r.reap()
	}
	return ws
}

// start runs fork and returns the child's pid and a channel that receives
// its status. A goroutine blocked in wait4 on the child gets the status
// straight from the kernel (no SIGCHLD and reaper in between); with a
// reaper the child is marked owned under the reaper's lock, so that the
// reaper never collects it.
func (r *reaper) start(fork func() (int, error)) (int, <-chan syscall.WaitStatus, error) {
	if r != nil {
		r.mu.Lock()
	}
	pid, err := fork()
	if r != nil {
		if err == nil {
			r.owned[pid] = true
		}
		r.mu.Unlock()
	}
	if err != nil {
		return 0, nil, err
	}
	ch := make(chan syscall.WaitStatus, 1)
	go func() {
		var ws syscall.WaitStatus
		for {
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
				break
			}
		}
		ch <- ws
		if r != nil {
			r.mu.Lock()
			delete(r.owned, pid)
			r.mu.Unlock()
			// Orphans that exited behind this child are the reaper's.
			r.reap()
		}
	}()
	return pid, ch, nil
}

// pidsEvents and pidsCurrent are the sandbox cgroup's pids.events and
// pids.current, when the host passed them.
var pidsEvents, pidsCurrent *os.File

// bombGrowth is how many tasks a command's background jobs may have added
// to the machine by the time the command returns before it counts as a
// fork bomb (the pids limit may not be reached yet).
const bombGrowth = 128

// exhausting says whether a command whose main process exited left jobs
// that run the machine out of processes: its process group lives on and,
// since the command started, a fork failed at the pids limit or the
// machine gained more than bombGrowth tasks.
func exhausting(pgid int, hits, tasks int64) bool {
	if pidsEvents == nil || errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
		return false
	}
	return pidsLimitHits() > hits || pidsTasks()-tasks > bombGrowth
}

// pidsTasks is the number of tasks in the sandbox's cgroup (0 when unknown).
func pidsTasks() int64 {
	if pidsCurrent == nil {
		return 0
	}
	var buf [32]byte
	n := preadOnce(pidsCurrent, buf[:])
	v, _ := strconv.ParseInt(strings.TrimSpace(string(buf[:n])), 10, 64)
	return v
}

// preadOnce reads a cgroup file from its start with one pread: the kernel
// hands over the whole (short) file at once, and os.File.ReadAt would
// spend a second call on every command to see its end.
func preadOnce(f *os.File, buf []byte) int {
	n, err := syscall.Pread(int(f.Fd()), buf, 0)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// pidsLimitHits is how often a fork in the sandbox failed at its cgroup's
// pids limit (0 when unknown).
func pidsLimitHits() int64 {
	if pidsEvents == nil {
		return 0
	}
	var buf [128]byte
	n := preadOnce(pidsEvents, buf[:])
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		if v, ok := strings.CutPrefix(line, "max "); ok {
			hits, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return hits
		}
	}
	return 0
}

// holdExhausting handles a command that ran the machine out of processes
// and whose jobs live on (a fork bomb's first process returns at once):
// instead of returning while the bomb keeps the machine full, the command
// counts as running until its process group is gone, its timeout (then it
// is stopped and timed out) or a kill request. Without a timeout it is
// stopped at once.
func holdExhausting(st *execState, timeout <-chan time.Time) (timedOut, killed bool, err error) {
	if timeout == nil {
		return false, true, st.kill()
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-timeout:
			return true, false, st.kill()
		case <-st.killDone:
			return false, true, st.killErr
		case <-tick.C:
			if errors.Is(syscall.Kill(-st.pgid, 0), syscall.ESRCH) {
				return false, false, nil
			}
		}
	}
}

// FileEntry is one file, directory or symbolic link the helper writes at
// startup (a HostImage machine's private /etc, which the host sends once
// per factory in a sealed memfd instead of writing it to disk per machine).
type FileEntry struct {
	Path string      `json:"path"` // relative to the root it is written under
	Mode fs.FileMode `json:"mode"`
	Data []byte      `json:"data,omitempty"`
	Link string      `json:"link,omitempty"`
}

// writeFiles reads a JSON list of FileEntry from fd and creates it under
// root; directories that exist already (mount points) are kept.
func writeFiles(fd int, root string) error {
	f := os.NewFile(uintptr(fd), "files")
	defer f.Close()
	data, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<30))
	if err != nil {
		return err
	}
	var entries []FileEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return err
	}
	for _, e := range entries {
		p := path.Join(root, path.Clean("/"+e.Path))
		switch {
		case e.Mode.IsDir():
			if err := os.Mkdir(p, e.Mode.Perm()); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
		case e.Mode&fs.ModeSymlink != 0:
			if err := os.Symlink(e.Link, p); err != nil {
				return err
			}
		default:
			if err := os.WriteFile(p, e.Data, e.Mode.Perm()); err != nil {
				return err
			}
		}
	}
	return nil
}
