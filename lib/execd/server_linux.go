package execd

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/transfer"
)

// outputGrace is how long the helper keeps collecting output after a
// command's main process exits while a background process still holds its
// pipes.
const outputGrace = 50 * time.Millisecond

// killConfirmTimeout bounds how long the helper waits for a killed process
// group to disappear.
const killConfirmTimeout = 5 * time.Second

// Main is shellbox-sandboxd's main: it serves the inherited listening socket
// until a shutdown request and returns the process exit status.
func Main(args []string) int {
	fl := flag.NewFlagSet("shellbox-sandboxd", flag.ContinueOnError)
	listenFD := fl.Int("listen-fd", 3, "inherited listening unix socket")
	readyFD := fl.Int("ready-fd", 4, "inherited descriptor to write one byte to when ready (-1: none)")
	lifelineFD := fl.Int("lifeline-fd", -1, "inherited pipe whose end of file means the host is gone (-1: none)")
	fileSize := fl.Int64("file-size-limit", -1, "RLIMIT_FSIZE of the helper and every command (-1: unchanged)")
	core := fl.Int64("core-limit", -1, "RLIMIT_CORE of the helper and every command (-1: unchanged)")
	processes := fl.Int64("process-limit", -1, "RLIMIT_NPROC of the helper and every command (-1: unchanged)")
	pidsEventsFD := fl.Int("pids-events-fd", -1, "inherited read-only pids.events of the sandbox's cgroup (-1: none)")
	pidsCurrentFD := fl.Int("pids-current-fd", -1, "inherited read-only pids.current of the sandbox's cgroup (-1: none)")
	filesFD := fl.Int("files-fd", -1, "inherited descriptor holding a JSON list of FileEntry to write under --files-root at startup (-1: none)")
	filesRoot := fl.String("files-root", "/etc", "where --files-fd's entries go")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		// Not this binary's protocol (a launcher argument reaching an old
		// helper, say): serving here would serve on the host.
		fmt.Fprintln(os.Stderr, "shellbox-sandboxd: unexpected arguments", fl.Args())
		return 2
	}
	CloseInherited(*listenFD, *readyFD, *lifelineFD, *pidsEventsFD, *pidsCurrentFD, *filesFD)
	if *filesFD >= 0 {
		if err := writeFiles(*filesFD, *filesRoot); err != nil {
			fmt.Fprintln(os.Stderr, "shellbox-sandboxd: writing", *filesRoot+":", err)
			return 1
		}
	}
	if *pidsEventsFD >= 0 && *pidsCurrentFD >= 0 {
		unix.CloseOnExec(*pidsEventsFD)
		unix.CloseOnExec(*pidsCurrentFD)
		pidsEvents = os.NewFile(uintptr(*pidsEventsFD), "pids.events")
		pidsCurrent = os.NewFile(uintptr(*pidsCurrentFD), "pids.current")
	}
	if err := setLimits(*fileSize, *core, *processes); err != nil {
		fmt.Fprintln(os.Stderr, "shellbox-sandboxd: limits:", err)
		return 1
	}
	if *lifelineFD >= 0 {
		watchLifeline(*lifelineFD)
	}
	if err := Serve(*listenFD, *readyFD); err != nil {
		fmt.Fprintln(os.Stderr, "shellbox-sandboxd:", err)
		return 1
	}
	return 0
}

// watchLifeline exits the helper, which ends the sandbox, when the host
// closes its end of the lifeline pipe (on Close, or because it died).
func watchLifeline(fd int) {
	unix.CloseOnExec(fd)
	f := os.NewFile(uintptr(fd), "lifeline")
	go func() {
		var b [1]byte
		for {
			if _, err := f.Read(b[:]); err != nil {
				os.Exit(0)
			}
		}
	}()
}

// Serve runs the helper on the given descriptors.
func Serve(listenFD, readyFD int) error {
	unix.CloseOnExec(listenFD)
	if readyFD >= 0 {
		unix.CloseOnExec(readyFD)
	}
	lf := os.NewFile(uintptr(listenFD), "listener")
	ln, err := net.FileListener(lf)
	lf.Close()
	if err != nil {
		return fmt.Errorf("listener: %w", err)
	}
	if readyFD >= 0 {
		rf := os.NewFile(uintptr(readyFD), "ready")
		if _, err := rf.Write([]byte{1}); err != nil {
			return fmt.Errorf("signalling readiness: %w", err)
		}
		rf.Close()
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	s := &server{devNull: devNull, execs: map[uint64]*execState{}, killed: map[uint64]struct{}{}, procFD: -1}
	if os.Getpid() == 1 {
		s.reap = newReaper()
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			return fmt.Errorf("accept: %w", err)
		}
		uc := c.(*net.UnixConn)
		if !fromOutside(uc) {
			uc.Close()
			continue
		}
		go s.handle(uc)
	}
}

// forkExec starts a command from a thread that gives away what commands
// must not get: capabilities are per thread, so each thread that starts a
// command first empties its own bounding set and drops its ambient and
// inheritable capabilities (once; a single prctl tells whether it has),
// while keeping what the helper itself needs to switch users and stop
// other users' processes. Changing one thread is cheap; changing every
// thread of a Go process at once is not.
func forkExec(prog string, argv []string, attr *syscall.ProcAttr) (int, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if held, _ := unix.PrctlRetInt(unix.PR_CAPBSET_READ, unix.CAP_SETUID, 0, 0, 0); held == 1 {
		if err := lockDownThread(); err != nil {
			return 0, err
		}
	}
	return syscall.ForkExec(prog, argv, attr)
}

// lockDownThread restricts the calling thread, whose children inherit it.
func lockDownThread() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	if data[0].Permitted == 0 && data[1].Permitted == 0 {
		return nil // nothing to give away (a user namespace without capabilities)
	}
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != syscall.EINVAL {
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != syscall.EINVAL {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	data[0].Inheritable, data[1].Inheritable = 0, 0
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}

// fromOutside says whether the peer lives outside the helper's PID
// namespace (the host), where the kernel reports its pid as 0.
func fromOutside(c *net.UnixConn) bool {
	raw, err := c.SyscallConn()
	if err != nil {
		return false
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || cerr != nil {
		return false
	}
	return cred.Pid == 0
}

type server struct {
	devNull *os.File
	reap    *reaper // set when the helper is PID 1 and must reap orphans
	mu      sync.Mutex
	execs   map[uint64]*execState
	killed  map[uint64]struct{}
	// keepCaps: see ServeOptions.KeepCapabilities.
	keepCaps bool
	// cgroup and killNote: see ServeOptions.
	cgroup   *os.File
	killNote func() string
	// procFD is /proc, held open when commands get their oom_score_adj
	// reset (-1 otherwise).
	procFD int
}

// handle serves the operations of one connection, one after another,
// until the host closes it or an operation fails.
func (s *server) handle(c net.Conn) {
	br := bufio.NewReaderSize(c, 16<<10)
	// The writer is recycled (writers, client.go): nothing writes through
	// it once an operation has returned (an exec's output senders are
	// detached by then). The reader is not: an exec's connection reader
	// may still be in it until the connection closes.
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(c)
	defer func() {
		c.Close()
		bw.Reset(nil)
		writers.Put(bw)
	}()
	var next <-chan *frame // where an exec's reader hands over the frame after it
	for {
		var typ byte
		var payload []byte
		var err error
		if next != nil {
			f := <-next
			typ, payload, err = f.typ, f.payload, f.err
		} else {
			typ, payload, err = readFrame(br, nil)
		}
		// Stdin for an exec that ended before reading it is dropped.
		for err == nil && (typ == FrameStdin || typ == FrameStdinEOF) {
			typ, payload, err = readFrame(br, payload[:0])
		}
		if err != nil || typ != FrameRequest {
			return
		}
		var req Request
		if err := jsonUnmarshal(payload, &req); err != nil {
			s.fail(bw, err)
			return
		}
		if next, err = s.serve(c, br, bw, &req); err != nil {
			return
		}
	}
}

// frame is one frame read from a connection.
type frame struct {
	typ     byte
	payload []byte
	err     error
}

// errFailed ends a connection after an operation that did not end
// cleanly (its failure frame is sent).
var errFailed = errors.New("operation failed")

// serve runs one operation. A nil error means it ended cleanly and the
// connection carries on; when next is not nil, the operation's own reader
// goroutine still reads the connection and sends the frame after the
// operation there.
func (s *server) serve(c net.Conn, br *bufio.Reader, bw *bufio.Writer, req *Request) (next <-chan *frame, err error) {
	switch req.Op {
	case OpExec:
		return s.exec(c, br, bw, req)
	case OpKill:
		s.mu.Lock()
		st := s.execs[req.ID]
		if st == nil {
			// The exec has not registered yet (or has ended): leave a
			// tombstone so that it stops itself as soon as it starts.
			s.killed[req.ID] = struct{}{}
		}
		s.mu.Unlock()
		if st != nil {
			if err := st.kill(); err != nil {
				s.fail(bw, &Failure{Kind: KindInfrastructure, Field: "stop", Message: err.Error()})
				return nil, errFailed
			}
		}
		return nil, s.ok(bw, Ack{})
	case OpUpload:
		if err := upload(br, req); err != nil {
			s.fail(bw, err)
			return nil, errFailed
		}
		return nil, s.ok(bw, Ack{})
	case OpDownload:
		if err := download(bw, req); err != nil {
			s.fail(bw, err)
			return nil, errFailed
		}
		return nil, nil
	case OpShutdown:
		s.ok(bw, Ack{})
		os.Exit(0)
	}
	s.fail(bw, fmt.Errorf("unknown operation %q", req.Op))
	return nil, errFailed
}

func (s *server) ok(bw *bufio.Writer, a Ack) error {
	writeFrame(bw, FrameOK, mustJSON(a))
	return bw.Flush()
}

func (s *server) fail(bw *bufio.Writer, err error) {
	writeFrame(bw, FrameFailure, mustJSON(failureOf(err)))
	bw.Flush()
}

// execState is a running command that a kill request may stop.
type execState struct {
	pgid     int
	killOnce sync.Once
	killDone chan struct{}
	killErr  error
	killed   atomic.Bool
}

// kill stops the process group and waits until it has no live member.
func (e *execState) kill() error {
	e.killOnce.Do(func() {
		e.killed.Store(true)
		e.killErr = killGroup(e.pgid)
		close(e.killDone)
	})
	<-e.killDone
	return e.killErr
}

// killGroup SIGKILLs a process group until no member other than zombies
// remains.
func killGroup(pgid int) error {
	deadline := time.Now().Add(killConfirmTimeout)
	pause := 100 * time.Microsecond
	for i := 0; ; i++ {
		err := syscall.Kill(-pgid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		// Scanning /proc is slow when a fork bomb fills it and starves
		// the helper: first let the killed die, and count zombies only
		// now and then.
		live, scanErr := 1, error(nil)
		if i%8 == 7 {
			live, scanErr = liveMembers(pgid)
		}
		if scanErr == nil && live == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			if scanErr != nil {
				return fmt.Errorf("process group %d: %w", pgid, scanErr)
			}
			if err != nil {
				return fmt.Errorf("process group %d: %d live members remain after SIGKILL: %w", pgid, live, err)
			}
			return fmt.Errorf("process group %d: %d live members remain after SIGKILL", pgid, live)
		}
		time.Sleep(pause)
		pause = min(2*pause, 20*time.Millisecond)
	}
}

// liveMembers counts the processes of a group that are not zombies.
func liveMembers(pgid int) (int, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return 0, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return 0, err
	}
	live := 0
	buf := make([]byte, 512)
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		f, err := os.Open("/proc/" + n + "/stat")
		if err != nil {
			continue // gone
		}
		k, _ := f.Read(buf)
		f.Close()
		state, pgrp, ok := parseStat(buf[:k])
		if ok && pgrp == pgid && state != 'Z' && state != 'X' {
			live++
		}
	}
	return live, nil
}

// parseStat reads the state and process group from /proc/<pid>/stat.
func parseStat(b []byte) (byte, int, bool) {
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return 0, 0, false
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 3 {
		return 0, 0, false
	}
	pgrp := 0
	for _, c := range f[2] {
		if c < '0' || c > '9' {
			return 0, 0, false
		}
		pgrp = pgrp*10 + int(c-'0')
	}
	return f[0][0], pgrp, true
}

// stream collects one output stream of a command.
type stream struct {
	mu        sync.Mutex
	buf       []byte
	limit     int
	truncated bool
	detached  bool
	done      chan struct{} // the pipe reached end of file
	settled   chan struct{} // collection stopped after a deadline
	f         *os.File
	// send, when set, forwards chunks (streaming stdout) instead of
	// buffering them.
	send func([]byte) error
}

// readBufs recycles the output readers' buffers: a command's cost should
// not include clearing fresh ones.
var readBufs = sync.Pool{New: func() any { return new([32 << 10]byte) }}

func newStream(f *os.File, limit int) *stream {
	return &stream{f: f, limit: limit, done: make(chan struct{}), settled: make(chan struct{})}
}

func (st *stream) keep(p []byte) {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.detached:
	case st.send != nil:
		if st.send(p) != nil {
			st.detached = true
		}
	default:
		keep := min(len(p), st.limit-len(st.buf))
		if keep > 0 {
			st.buf = append(st.buf, p[:keep]...)
		}
		if keep < len(p) {
			st.truncated = true
		}
	}
}

// read collects the stream until end of file. When the read deadline set
// by stopAfter passes, it first takes everything already in the pipe (a
// busy host may run this goroutine late), then stops collecting and keeps
// draining and discarding until end of file.
func (st *stream) read() {
	defer close(st.done)
	defer st.f.Close()
	bp := readBufs.Get().(*[32 << 10]byte)
	defer readBufs.Put(bp)
	b := bp[:]
	for {
		n, err := st.f.Read(b)
		if n > 0 {
			st.keep(b[:n])
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			st.f.SetReadDeadline(time.Time{})
			raw, rerr := st.f.SyscallConn()
			for rerr == nil {
				pending := 0
				raw.Control(func(fd uintptr) { pending, rerr = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
				if rerr != nil || pending <= 0 {
					break
				}
				n, rerr = st.f.Read(b[:min(pending, len(b))])
				if n > 0 {
					st.keep(b[:n])
				}
			}
			st.mu.Lock()
			st.detached = true
			st.mu.Unlock()
			close(st.settled)
			continue
		}
		if err != nil {
			return
		}
	}
}

// stopAfter makes the reader stop collecting after d unless end of file
// comes first.
func (st *stream) stopAfter(d time.Duration) {
	select {
	case <-st.done: // usual: the command's pipes closed as it exited
	default:
		st.f.SetReadDeadline(time.Now().Add(d))
	}
}

// wait returns once the stream reached end of file or stopped collecting.
func (st *stream) wait() {
	select {
	case <-st.done:
	case <-st.settled:
	}
}

// finish freezes what was collected; later output is drained and dropped.
func (st *stream) finish() ([]byte, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.detached = true
	return st.buf, st.truncated
}

// exec runs a command (see serve for what it returns).
func (s *server) exec(c net.Conn, br *bufio.Reader, bw *bufio.Writer, req *Request) (<-chan *frame, error) {
	var wmu sync.Mutex
	send := func(typ byte, p []byte) error {
		wmu.Lock()
		defer wmu.Unlock()
		for {
			chunk := p[:min(len(p), chunkSize)]
			if err := writeFrame(bw, typ, chunk); err != nil {
				return err
			}
			p = p[len(chunk):]
			if len(p) == 0 {
				break
			}
		}
		return bw.Flush()
	}
	finishEarly := func(code int, msg string) error {
		wmu.Lock()
		defer wmu.Unlock()
		writeFrame(bw, FrameStderr, []byte(msg)[:min(len(msg), req.OutputLimit)])
		writeFrame(bw, FrameExit, mustJSON(Exit{Code: code, StderrTruncated: len(msg) > req.OutputLimit}))
		return bw.Flush()
	}
	if len(req.Argv) == 0 {
		s.fail(bw, errors.New("empty argv"))
		return nil, errFailed
	}
	dir := req.Dir
	if dir == "" {
		dir = "/"
	}
	// The child changes to dir; only a failure looks at dir here, so
	// that a missing directory is reported as such, before what it made
	// fail (a command looked up relative to it, or starting it).
	badDir := func() bool {
		st, err := os.Stat(dir)
		return err != nil || !st.IsDir()
	}
	dirFailure := func() error {
		return finishEarly(2, fmt.Sprintf("shellbox: cannot change directory to %s: not a directory\n", dir))
	}
	prog, code, err := lookPath(req.Argv[0], req.Env, dir)
	if err != nil {
		if badDir() {
			return nil, dirFailure()
		}
		return nil, finishEarly(code, err.Error()+"\n")
	}
	if req.TTY && !req.Stream {
		s.fail(bw, errors.New("a terminal needs stream mode"))
		return nil, errFailed
	}
	if !req.Stream {
		return s.execBuffered(c, br, bw, req, prog, dir, finishEarly, dirFailure, badDir)
	}
	files, err := s.commandFiles(req)
	if err != nil {
		s.fail(bw, err)
		return nil, errFailed
	}
	outR, errR, inW := files.outR, files.errR, files.inW
	var stdinW *os.File // closed when the command ends (not a terminal's master, which is also its output)
	if !req.TTY {
		stdinW = inW
	}
	sys := &syscall.SysProcAttr{Setpgid: true}
	if req.TTY {
		// A session leader with the terminal as its controlling tty: its
		// process group is its pid, like Setpgid, and Ctrl-C on the
		// terminal reaches its foreground job.
		sys = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	}
	if req.SwitchUser {
		sys.Credential = &syscall.Credential{Uid: req.UID, Gid: req.GID, Groups: []uint32{}}
	}
	pid, waitDone, startErr := s.reap.start(func() (int, error) {
		return s.forkExec(prog, req.Argv, &syscall.ProcAttr{Dir: dir, Env: req.Env,
			Files: []uintptr{files.in.Fd(), files.out.Fd(), files.err.Fd()}, Sys: sys})
	})
	files.closeChildEnds(s.devNull)
	if startErr != nil {
		outR.Close()
		errR.Close()
		if inW != nil {
			inW.Close()
		}
		if badDir() {
			return nil, dirFailure()
		}
		return nil, finishEarly(startFailure(req.Argv[0], startErr))
	}
	st := &execState{pgid: pid, killDone: make(chan struct{})}
	hits, tasks := pidsLimitHits(), pidsTasks()
	defer s.track(req.ID, st)()

	stdout := newStream(outR, req.OutputLimit)
	stderr := newStream(errR, req.OutputLimit)
	if req.Stream {
		stdout.send = func(p []byte) error { return send(FrameStdout, p) }
	}
	go stdout.read()
	go stderr.read()

	// The connection reader feeds stdin and notices when the host goes
	// away, which stops the command. It ends at the next request (the
	// host sends one only once it has this exec's exit), which it hands
	// back through next.
	var finished atomic.Bool
	next := make(chan *frame, 1)
	go func() { next <- pumpInput(br, inW, req.TTY, finished.Load, st.kill) }()

	var timeout <-chan time.Time
	if req.TimeoutMS > 0 {
		t := time.NewTimer(time.Duration(req.TimeoutMS) * time.Millisecond)
		defer t.Stop()
		timeout = t.C
	}
	var exit Exit
	var killErr error
	var ws syscall.WaitStatus
	select {
	case ws = <-waitDone:
	case <-timeout:
		exit.TimedOut = true
		killErr = st.kill()
		ws = <-waitDone
	case <-st.killDone:
		killErr = st.killErr
		ws = <-waitDone
	}
	if st.killed.Load() && !exit.TimedOut {
		exit.Killed = true
		killErr = st.kill()
	}
	finished.Store(true)
	if stdinW != nil {
		// What the command left unread stays unread: a background job
		// holding its stdin cannot block the connection's reader (the
		// write end is the poller's, so closing it ends a pending write).
		stdinW.Close()
	}
	// Collect until both pipes reach end of file, or, when a background
	// process keeps one open, for a short grace.
	if req.Stream && !req.TTY {
		<-stdout.done
	} else {
		// A job left on the terminal keeps it open: collect for a grace.
		stdout.stopAfter(outputGrace)
	}
	stderr.stopAfter(outputGrace)
	stdout.wait()
	stderr.wait()
	if !exit.TimedOut && !exit.Killed && exhausting(st.pgid, hits, tasks) {
		exit.TimedOut, exit.Killed, killErr = holdExhausting(st, timeout)
	}
	if killErr != nil {
		s.fail(bw, &Failure{Kind: KindInfrastructure, Field: "stop", Message: killErr.Error()})
		return nil, errFailed
	}
	switch {
	case ws.Signaled():
		exit.Code = 128 + int(ws.Signal())
	default:
		exit.Code = ws.ExitStatus()
	}
	outBuf, outTrunc := stdout.finish()
	errBuf, errTrunc := stderr.finish()
	if s.killNote != nil && ws.Signaled() && ws.Signal() == syscall.SIGKILL && !exit.TimedOut && !exit.Killed {
		errBuf = append(errBuf, s.killNote()...)
	}
	exit.StdoutTruncated, exit.StderrTruncated = outTrunc, errTrunc
	wmu.Lock()
	defer wmu.Unlock()
	// Large frames let the host keep each stream in one allocation.
	if len(errBuf) > 0 {
		writeChunksOf(bw, FrameStderr, errBuf, MaxFrame)
	}
	if len(outBuf) > 0 && !req.Stream {
		writeChunksOf(bw, FrameStdout, outBuf, MaxFrame)
	}
	writeFrame(bw, FrameExit, mustJSON(exit))
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return next, nil
}

func writeChunks(w io.Writer, typ byte, p []byte) error {
	return writeChunksOf(w, typ, p, chunkSize)
}

func writeChunksOf(w io.Writer, typ byte, p []byte, size int) error {
	for len(p) > 0 {
		c := min(len(p), size)
		if err := writeFrame(w, typ, p[:c]); err != nil {
			return err
		}
		p = p[c:]
	}
	return nil
}

// lookPath finds a program the way a shell would, with the command's PATH;
// the code is the shell's exit status for a failure (127 missing, 126 not
// executable).
func lookPath(file string, env []string, dir string) (string, int, error) {
	check := func(p string) (bool, error) {
		st, err := os.Stat(p)
		if err != nil {
			return false, nil
		}
		if st.IsDir() || st.Mode()&0o111 == 0 {
			return true, fmt.Errorf("shellbox: %s: permission denied", file)
		}
		return true, nil
	}
	if strings.Contains(file, "/") {
		p := file
		if !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		found, err := check(p)
		if !found {
			return "", 127, fmt.Errorf("shellbox: %s: no such file or directory", file)
		}
		if err != nil {
			return "", 126, err
		}
		return p, 0, nil
	}
	pathVar := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathVar = v
		}
	}
	var denied error
	for _, d := range strings.Split(pathVar, ":") {
		if d == "" {
			d = "."
		}
		p := path.Join(d, file)
		if !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		found, err := check(p)
		if found && err == nil {
			return p, 0, nil
		}
		if found && denied == nil {
			denied = err
		}
	}
	if denied != nil {
		return "", 126, denied
	}
	return "", 127, fmt.Errorf("shellbox: %s: command not found", file)
}

// checkGuestPath refuses a transfer path that is not absolute and clean or
// that passes through a symbolic link other than the allowed ones.
func checkGuestPath(op, p string, allowed []string) error {
	if !path.IsAbs(p) || path.Clean(p) != p {
		return &machine.PathError{Op: op, Path: p, Reason: "must be an absolute, normalized path"}
	}
	cur := "/"
	for _, part := range strings.Split(p[1:], "/") {
		if part == "" {
			continue
		}
		cur = path.Join(cur, part)
		st, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return &machine.PathError{Op: op, Path: p, Reason: err.Error()}
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			ok := false
			for _, a := range allowed {
				ok = ok || a == cur
			}
			if !ok || cur == p {
				return &machine.PathError{Op: op, Path: p, Reason: fmt.Sprintf("refusing to follow the symbolic link %s", cur)}
			}
		}
	}
	return nil
}

func upload(br *bufio.Reader, req *Request) error {
	if err := checkGuestPath("upload", req.Path, req.AllowedLinks); err != nil {
		return err
	}
	dr := &dataReader{r: br}
	if err := transfer.Extract(context.Background(), dr, req.Path, transfer.UploadOptions); err != nil {
		return err
	}
	return dr.drain()
}

func download(bw *bufio.Writer, req *Request) error {
	if err := checkGuestPath("download", req.Path, req.AllowedLinks); err != nil {
		return err
	}
	// Byte limits are the host's to apply while it extracts; it stops
	// reading (and this write fails) as soon as a header is too large.
	if err := transfer.WriteTar(context.Background(), dataWriter{bw}, req.Path); err != nil {
		return err
	}
	writeFrame(bw, FrameDataEnd, nil)
	writeFrame(bw, FrameOK, mustJSON(Ack{}))
	return bw.Flush()
}

// track registers a running exec under its id, so that a kill request
// finds it; a kill that came before the exec started (its tombstone)
// takes effect at once. The returned function forgets the exec.
func (s *server) track(id uint64, st *execState) (untrack func()) {
	s.mu.Lock()
	s.execs[id] = st
	_, tomb := s.killed[id]
	delete(s.killed, id)
	s.mu.Unlock()
	if tomb {
		go st.kill()
	}
	return func() {
		s.mu.Lock()
		delete(s.execs, id)
		s.mu.Unlock()
	}
}

// pumpInput reads the connection while an exec runs: it feeds the
// command's stdin (nil when it has none) and returns the frame that ends
// the exec's part of the exchange: the host's next request (sent only
// once it has this exec's exit) or a read error. Either one before the
// exec finished stops the command. On a terminal, end of input is its EOF
// character: the master is also the output and is not closed.
func pumpInput(br *bufio.Reader, stdin *os.File, tty bool, finished func() bool, kill func() error) *frame {
	var buf []byte
	for {
		typ, payload, err := readFrame(br, buf)
		if err != nil || typ == FrameRequest {
			if stdin != nil {
				stdin.Close()
			}
			if !finished() {
				kill()
				if err == nil {
					err = errors.New("a request during an exec")
				}
			}
			return &frame{typ: typ, payload: payload, err: err}
		}
		buf = payload[:0]
		switch typ {
		case FrameStdin:
			if stdin != nil {
				if _, err := stdin.Write(payload); err != nil {
					stdin.Close()
					stdin = nil
				}
			}
		case FrameStdinEOF:
			if stdin != nil && tty {
				stdin.Write([]byte{4})
			} else if stdin != nil {
				stdin.Close()
				stdin = nil
			}
		}
	}
}

// startFailure is the status and message of a command that could not be
// started: 127 when its program does not exist, else 126, as a shell
// reports them.
func startFailure(program string, err error) (int, string) {
	code := 126
	if errors.Is(err, fs.ErrNotExist) {
		code = 127
	}
	return code, fmt.Sprintf("shellbox: %s: %v\n", program, err)
}
