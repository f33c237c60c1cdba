package execd

import (
	"fmt"
	"net"
	"os"
	"syscall"
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
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer devNull.Close()
	s := &server{devNull: devNull, execs: map[uint64]*execState{}, killed: map[uint64]struct{}{},
		keepCaps: opts.KeepCapabilities, cgroup: opts.CommandCgroup, killNote: opts.KillNote}
	for {
		c, err := ln.Accept()
		if err != nil {
			return fmt.Errorf("accept: %w", err)
		}
		go s.handle(c)
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
			os.WriteFile(fmt.Sprintf("/proc/%d/oom_score_adj", pid), []byte("0"), 0)
		}
		return pid, err
	}
	if s.keepCaps {
		return syscall.ForkExec(prog, argv, attr)
	}
	return forkExec(prog, argv, attr)
}
