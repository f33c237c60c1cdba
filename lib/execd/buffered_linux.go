package execd

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A buffered exec (Run) is waited for on the goroutine that serves it:
// one poll(2) watches the command's two output pipes, a descriptor that
// becomes readable when its main process exits (its pidfd) and, when no
// stdin is fed, the connection (the host going away). The streaming path
// spends a goroutine per pipe, one blocked in wait4 and one reading the
// connection, and a short command then costs the helper a handful of
// thread hand-offs at its end; here it costs one wake-up.

// rawOutputPipe makes an output pipe as two plain descriptors: the read
// end non-blocking and outside the runtime's poller, the write end the
// child's.
func rawOutputPipe() (r, w int, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return -1, -1, err
	}
	// The read end's status flags are O_RDONLY alone: one F_SETFL makes it
	// non-blocking (unix.SetNonblock would read them first).
	if _, err := unix.FcntlInt(uintptr(p[0]), unix.F_SETFL, unix.O_NONBLOCK); err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return -1, -1, err
	}
	return p[0], p[1], nil
}

// output collects one stream of a buffered exec.
type output struct {
	fd        int // -1 at end of file
	buf       []byte
	limit     int
	truncated bool
}

// eventfdOne is an eventfd increment of 1 (little-endian).
var eventfdOne = [8]byte{1}

// readsPerWake bounds the reads of one pipe per wake-up, so that a
// command writing without pause cannot keep the loop from its deadlines.
const readsPerWake = 16

// readAvailable reads what the pipe holds now (up to readsPerWake
// buffers); it closes the descriptor at end of file.
func (o *output) readAvailable(scratch []byte) {
	for range readsPerWake {
		if o.fd < 0 {
			return
		}
		n, err := unix.Read(o.fd, scratch)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil: // EAGAIN: nothing more for now
			return
		case n == 0:
			unix.Close(o.fd)
			o.fd = -1
			return
		}
		keep := min(n, o.limit-len(o.buf))
		if keep > 0 {
			o.buf = append(o.buf, scratch[:keep]...)
		}
		if keep < n {
			o.truncated = true
		}
		if n < len(scratch) {
			return // the pipe is empty now; poll says when there is more
		}
	}
}

// takePending reads what the pipe holds and hands the descriptor to a
// goroutine that drains and drops the rest until end of file, so that a
// background job still writing never blocks on a full pipe.
func (o *output) takePending(scratch []byte) {
	o.readAvailable(scratch)
	if o.fd < 0 {
		return
	}
	f := os.NewFile(uintptr(o.fd), "pipe") // non-blocking: the poller's
	o.fd = -1
	go func() {
		io.Copy(io.Discard, f)
		f.Close()
	}()
}

// connFD is c's descriptor when it is a socket of this process (the
// local helper's unix connections; not a virtual machine's streams).
func connFD(c net.Conn) int {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return -1
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	raw.Control(func(f uintptr) { fd = int(f) })
	return fd
}

// execBuffered runs a command in buffered mode (see exec for what it
// returns). finishEarly reports a command that could not start.
func (s *server) execBuffered(c net.Conn, br *bufio.Reader, bw *bufio.Writer, req *Request, prog, dir string,
	finishEarly func(int, string) error, dirFailure func() error, badDir func() bool) (<-chan *frame, error) {
	outR, outW, err := rawOutputPipe()
	if err != nil {
		s.fail(bw, err)
		return nil, errFailed
	}
	errR, errW, err := rawOutputPipe()
	if err != nil {
		unix.Close(outR)
		unix.Close(outW)
		s.fail(bw, err)
		return nil, errFailed
	}
	in := s.devNull
	var inW *os.File
	if req.Stdin {
		if in, inW, err = inputPipe(); err != nil {
			for _, fd := range []int{outR, outW, errR, errW} {
				unix.Close(fd)
			}
			s.fail(bw, err)
			return nil, errFailed
		}
	}
	sys := &syscall.SysProcAttr{Setpgid: true}
	pidfd := -1
	sys.PidFD = &pidfd
	if req.SwitchUser {
		sys.Credential = &syscall.Credential{Uid: req.UID, Gid: req.GID, Groups: []uint32{}}
	}
	pid, startErr := s.reap.fork(func() (int, error) {
		return s.forkExec(prog, req.Argv, &syscall.ProcAttr{Dir: dir, Env: req.Env,
			Files: []uintptr{in.Fd(), uintptr(outW), uintptr(errW)}, Sys: sys})
	})
	unix.Close(outW)
	unix.Close(errW)
	if in != s.devNull {
		in.Close()
	}
	if startErr != nil {
		unix.Close(outR)
		unix.Close(errR)
		if inW != nil {
			inW.Close()
		}
		if badDir() {
			return nil, dirFailure()
		}
		return nil, finishEarly(startFailure(req.Argv[0], startErr))
	}
	exitFD := pidfd
	if exitFD < 0 {
		// No pidfd (an old kernel): a goroutine waits and signals an
		// eventfd instead.
		if exitFD, err = unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK); err != nil {
			syscall.Kill(-pid, syscall.SIGKILL)
			s.reap.wait(pid)
			unix.Close(outR)
			unix.Close(errR)
			s.fail(bw, err)
			return nil, errFailed
		}
	}
	defer unix.Close(exitFD)
	waited := make(chan syscall.WaitStatus, 1)
	if pidfd < 0 {
		go func() {
			ws := s.reap.wait(pid)
			// Written before the status is handed over: whoever takes
			// it may close exitFD next.
			unix.Write(exitFD, eventfdOne[:])
			waited <- ws
		}()
	}

	st := &execState{pgid: pid, killDone: make(chan struct{})}
	hits, tasks := pidsLimitHits(), pidsTasks()
	defer s.track(req.ID, st)()

	// Whoever reads the connection notices the host going away and stops
	// the command: a goroutine when stdin is fed (or the connection is
	// not a socket of this process), else the poll below.
	var next chan *frame
	finishedCh := make(chan struct{})
	watchConn := -1
	if inW == nil {
		watchConn = connFD(c)
	}
	if watchConn < 0 {
		next = make(chan *frame, 1)
		finished := func() bool {
			select {
			case <-finishedCh:
				return true
			default:
				return false
			}
		}
		go func() { next <- pumpInput(br, inW, false, finished, st.kill) }()
	}

	outs := [2]*output{{fd: outR, limit: req.OutputLimit}, {fd: errR, limit: req.OutputLimit}}
	bp := readBufs.Get().(*[32 << 10]byte)
	defer readBufs.Put(bp)
	scratch := bp[:]
	var exit Exit
	var killErr error
	var ws syscall.WaitStatus
	exited := false
	var deadline, graceEnd time.Time
	if req.TimeoutMS > 0 {
		deadline = time.Now().Add(time.Duration(req.TimeoutMS) * time.Millisecond)
	}
	fds := make([]unix.PollFd, 0, 4)
	for {
		now := time.Now()
		if !exited && !deadline.IsZero() && !exit.TimedOut && !now.Before(deadline) {
			exit.TimedOut = true
			killErr = st.kill()
		}
		if exited && (outs[0].fd < 0 && outs[1].fd < 0 || !now.Before(graceEnd)) {
			break
		}
		fds = fds[:0]
		for _, o := range outs {
			if o.fd >= 0 {
				fds = append(fds, unix.PollFd{Fd: int32(o.fd), Events: unix.POLLIN})
			}
		}
		if !exited {
			fds = append(fds, unix.PollFd{Fd: int32(exitFD), Events: unix.POLLIN})
		}
		if watchConn >= 0 {
			fds = append(fds, unix.PollFd{Fd: int32(watchConn), Events: unix.POLLIN | unix.POLLRDHUP})
		}
		wait := -1
		switch {
		case exited:
			wait = msUntil(now, graceEnd)
		case !deadline.IsZero() && !exit.TimedOut:
			wait = msUntil(now, deadline)
		}
		if _, err := unix.Poll(fds, wait); err != nil && err != unix.EINTR {
			// Cannot happen with valid descriptors; do not spin.
			killErr = errors.Join(killErr, st.kill())
			if !exited {
				if pidfd >= 0 {
					ws = s.reap.wait(pid)
				} else {
					ws = <-waited // the waiting goroutine collects it
				}
				exited = true
			}
			break
		}
		for _, p := range fds {
			if p.Revents == 0 {
				continue
			}
			switch int(p.Fd) {
			case outs[0].fd:
				outs[0].readAvailable(scratch)
			case outs[1].fd:
				outs[1].readAvailable(scratch)
			case exitFD:
				if pidfd >= 0 {
					ws = s.reap.wait(pid)
				} else {
					ws = <-waited
				}
				exited = true
				graceEnd = time.Now().Add(outputGrace)
			case watchConn:
				// The host went away (nothing else comes before the
				// exit frame): stop the command.
				watchConn = -1
				st.kill()
			}
		}
	}
	if st.killed.Load() && !exit.TimedOut {
		exit.Killed = true
		killErr = st.kill()
	}
	close(finishedCh)
	if inW != nil {
		inW.Close() // what the command left unread stays unread
	}
	for _, o := range outs {
		o.takePending(scratch)
	}
	if !exit.TimedOut && !exit.Killed && exhausting(st.pgid, hits, tasks) {
		var timeout <-chan time.Time
		if !deadline.IsZero() {
			t := time.NewTimer(time.Until(deadline))
			defer t.Stop()
			timeout = t.C
		}
		exit.TimedOut, exit.Killed, killErr = holdExhausting(st, timeout)
	}
	if killErr != nil {
		s.fail(bw, &Failure{Kind: KindInfrastructure, Field: "stop", Message: killErr.Error()})
		return nil, errFailed
	}
	if ws.Signaled() {
		exit.Code = 128 + int(ws.Signal())
	} else {
		exit.Code = ws.ExitStatus()
	}
	errBuf := outs[1].buf
	if s.killNote != nil && ws.Signaled() && ws.Signal() == syscall.SIGKILL && !exit.TimedOut && !exit.Killed {
		errBuf = append(errBuf, s.killNote()...)
	}
	exit.StdoutTruncated, exit.StderrTruncated = outs[0].truncated, outs[1].truncated
	// Large frames let the host keep each stream in one allocation.
	if len(errBuf) > 0 {
		writeChunksOf(bw, FrameStderr, errBuf, MaxFrame)
	}
	if len(outs[0].buf) > 0 {
		writeChunksOf(bw, FrameStdout, outs[0].buf, MaxFrame)
	}
	writeFrame(bw, FrameExit, mustJSON(exit))
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	if next == nil {
		return nil, nil
	}
	return next, nil
}

// msUntil is poll's timeout for t: whole milliseconds, rounded up.
func msUntil(now, t time.Time) int {
	d := t.Sub(now)
	if d <= 0 {
		return 0
	}
	return int((d + time.Millisecond - 1) / time.Millisecond)
}
