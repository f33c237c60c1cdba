package execd

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// ServeOptions adjust a server started by ServeConns.
type ServeOptions struct {
	// KeepCapabilities lets commands keep the capabilities of the user they
	// run as. A virtual machine's guest agent sets it: the hypervisor is the
	// boundary there, and root inside the guest is the machine's own root
	// (package managers need to chown and switch users).
	KeepCapabilities bool
	// CommandCgroup, when set, is a cgroup v2 directory every command
	// starts in (CLONE_INTO_CGROUP), and commands get oom_score_adj 0: a
	// guest agent that made itself unkillable by the OOM killer keeps that
	// from its commands, whose memory the cgroup bounds.
	CommandCgroup *os.File
	// KillNote, when set, is asked about each command that died of
	// SIGKILL without a timeout or kill request; a non-empty answer is
	// appended to its stderr (a guest agent names its OOM killer's kills).
	KillNote func() string
}

// ServeConns serves one operation per connection accepted from ln, as Serve
// does for its unix socket, until ln fails. It does not check peers: the
// caller vouches that every connection comes from the host (a guest agent
// accepting streams multiplexed over its virtio-serial port).
func ServeConns(ln net.Listener, opts ServeOptions) error {
	srv, err := NewServer(opts)
	if err != nil {
		return err
	}
	defer srv.Close()
	for {
		c, err := ln.Accept()
		if err != nil {
			return fmt.Errorf("accept: %w", err)
		}
		go srv.Handle(c)
	}
}

// Server serves operations on connections its caller accepts, for a
// caller that already runs a goroutine per connection (a guest agent's
// stream router): handing each one over through a listener would cost a
// goroutine switch more per command.
type Server struct{ s *server }

// NewServer returns a server with the options of ServeConns. It does not
// check peers either.
func NewServer(opts ServeOptions) (*Server, error) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return nil, err
	}
	s := &server{devNull: devNull, execs: map[uint64]*execState{}, killed: map[uint64]struct{}{},
		keepCaps: opts.KeepCapabilities, cgroup: opts.CommandCgroup, killNote: opts.KillNote, procFD: -1}
	if opts.CommandCgroup != nil {
		// Held open: each command's oom_score_adj is then one lookup
		// below it rather than a walk from the root.
		if s.procFD, err = unix.Open("/proc", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
			devNull.Close()
			return nil, fmt.Errorf("opening /proc: %w", err)
		}
	}
	return &Server{s}, nil
}

// Handle serves the one operation of c and closes it.
func (srv *Server) Handle(c net.Conn) { srv.s.handle(c) }

// Close releases the server's descriptors once no Handle runs.
func (srv *Server) Close() {
	srv.s.devNull.Close()
	if srv.s.procFD >= 0 {
		unix.Close(srv.s.procFD)
	}
}

// forkExec starts a command, locking the starting thread down unless the
// server keeps capabilities.
func (s *server) forkExec(prog string, argv []string, attr *syscall.ProcAttr) (int, error) {
	if s.cgroup != nil {
		attr.Sys.UseCgroupFD, attr.Sys.CgroupFD = true, int(s.cgroup.Fd())
		pid, err := syscall.ForkExec(prog, argv, attr)
		if err == nil {
			// The child is waited for only after this returns, so pid
			// still names it.
			s.clearOOMScoreAdj(pid)
		}
		return pid, err
	}
	if s.keepCaps {
		return syscall.ForkExec(prog, argv, attr)
	}
	return forkExec(prog, argv, attr)
}

// clearOOMScoreAdj gives a command the OOM killer's default treatment.
// Plain system calls: os.OpenFile would add an fstat and the poller's
// bookkeeping to every command.
func (s *server) clearOOMScoreAdj(pid int) {
	fd, err := unix.Openat(s.procFD, strconv.Itoa(pid)+"/oom_score_adj", unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	unix.Write(fd, []byte{'0'})
	unix.Close(fd)
}
