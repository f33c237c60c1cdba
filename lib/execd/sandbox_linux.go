package execd

import (
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// closeInherited closes every descriptor above 2 except keep: whatever the
// embedding process left inheritable must not reach commands, nor stay
// reachable through /proc/1/fd.
func closeInherited(keep ...int) {
	keep = slices.DeleteFunc(slices.Clone(keep), func(fd int) bool { return fd < 3 })
	slices.Sort(keep)
	first := 3
	for _, k := range keep {
		if k > first {
			closeRange(first, k-1)
		}
		first = max(first, k+1)
	}
	closeRange(first, -1)
}

// closeRange closes [first, last]; last < 0 means every higher descriptor.
func closeRange(first, last int) {
	hi := uint(last)
	if last < 0 {
		hi = ^uint(0)
	}
	if err := unix.CloseRange(uint(first), hi, 0); err == nil {
		return
	}
	// Kernels before 5.9: close one by one up to the descriptor limit.
	var lim unix.Rlimit
	top := 1 << 16
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) == nil && lim.Cur < uint64(top) {
		top = int(lim.Cur)
	}
	if last >= 0 && last < top {
		top = last + 1
	}
	for fd := first; fd < top; fd++ {
		unix.Close(fd)
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

// warmThreads makes the runtime create spare OS threads now: under a pids
// cgroup a fork bomb can leave no room for the helper to create a thread
// later, and a Go program that cannot create one crashes. Idle threads stay
// parked for reuse.
func warmThreads(n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts := unix.Timespec{Nsec: 20e6}
			unix.Nanosleep(&ts, nil) // a blocking system call hands its P to a new thread
		}()
	}
	wg.Wait()
}

// reaper collects the status of every child of the helper when it is PID 1
// of its sandbox: background jobs whose parent exited are reparented to it
// and would stay zombies otherwise.
type reaper struct {
	mu      sync.Mutex
	waiting map[int]chan syscall.WaitStatus
}

func newReaper() *reaper {
	r := &reaper{waiting: map[int]chan syscall.WaitStatus{}}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGCHLD)
	go func() {
		for range sig {
			r.reap()
		}
	}()
	return r
}

func (r *reaper) reap() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || pid <= 0 {
			return
		}
		if ch, ok := r.waiting[pid]; ok {
			ch <- ws
			delete(r.waiting, pid)
		}
	}
}

// start runs fork and returns the child's pid and a channel that receives
// its status. With a reaper the child is registered under the reaper's
// lock, so that it cannot be reaped before anyone waits for it.
func (r *reaper) start(fork func() (int, error)) (int, <-chan syscall.WaitStatus, error) {
	ch := make(chan syscall.WaitStatus, 1)
	if r == nil {
		pid, err := fork()
		if err != nil {
			return 0, nil, err
		}
		go func() {
			var ws syscall.WaitStatus
			for {
				if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
					break
				}
			}
			ch <- ws
		}()
		return pid, ch, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	pid, err := fork()
	if err != nil {
		return 0, nil, err
	}
	r.waiting[pid] = ch
	return pid, ch, nil
}
