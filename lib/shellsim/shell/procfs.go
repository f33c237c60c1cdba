package shell

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// procFS generates /proc from the process table on each lookup.
type procFS struct{ rt *Runtime }

func (p *procFS) currentPID() int {
	if t := p.rt.Sched.Current(); t != nil {
		if sh, ok := t.Data.(*Shell); ok && sh != nil {
			if sh.cmdPID != 0 {
				return sh.cmdPID
			}
			return sh.pid
		}
	}
	return p.rt.shellPID
}

func (p *procFS) List(dir string) []string {
	if dir == "." || dir == "" {
		names := []string{"cpuinfo", "meminfo", "mounts", "self", "uptime", "version"}
		for _, pr := range p.rt.Sched.Procs() {
			names = append(names, strconv.Itoa(pr.PID))
		}
		sort.Strings(names)
		return names
	}
	parts := strings.Split(dir, "/")
	if len(parts) == 1 {
		return []string{"cmdline", "cwd", "environ", "fd", "status"}
	}
	if len(parts) == 2 && parts[1] == "fd" {
		return []string{"0", "1", "2"}
	}
	return nil
}

func (p *procFS) Node(rel string) (vfs.ProcNode, bool) {
	rt := p.rt
	switch rel {
	case "self":
		return vfs.ProcNode{Target: strconv.Itoa(p.currentPID())}, true
	case "uptime":
		s := rt.Sched.Now().Seconds()
		return vfs.ProcNode{Data: fmt.Appendf(nil, "%.2f %.2f\n", s, s)}, true
	case "meminfo":
		total := rt.Meter.Limits.Memory / 1024
		free := (rt.Meter.Limits.Memory - rt.Meter.Mem) / 1024
		return vfs.ProcNode{Data: fmt.Appendf(nil, "MemTotal:       %8d kB\nMemFree:        %8d kB\nMemAvailable:   %8d kB\n", total, free, free)}, true
	case "cpuinfo":
		return vfs.ProcNode{Data: []byte("processor\t: 0\nmodel name\t: shellsim virtual CPU\ncpu cores\t: 1\n\n")}, true
	case "version":
		return vfs.ProcNode{Data: []byte("Linux version 6.12.0-shellsim (shellsim) #1 SMP\n")}, true
	case "mounts":
		return vfs.ProcNode{Data: []byte("shellsim / shellsimfs rw 0 0\nproc /proc proc ro 0 0\n")}, true
	}
	parts := strings.Split(rel, "/")
	pid, err := strconv.Atoi(parts[0])
	if err != nil {
		return vfs.ProcNode{}, false
	}
	pr, ok := rt.Sched.Proc(pid)
	if !ok {
		return vfs.ProcNode{}, false
	}
	if len(parts) == 1 {
		return vfs.ProcNode{Dir: true}, true
	}
	switch parts[1] {
	case "cmdline":
		if len(parts) == 2 {
			return vfs.ProcNode{Data: []byte(strings.Join(pr.Args, "\x00") + "\x00")}, true
		}
	case "cwd":
		if len(parts) == 2 {
			return vfs.ProcNode{Target: pr.Dir}, true
		}
	case "environ":
		if len(parts) == 2 {
			return vfs.ProcNode{Data: []byte{}}, true
		}
	case "status":
		if len(parts) == 2 {
			st := "S (sleeping)"
			if pr.Exited {
				st = "Z (zombie)"
			} else if pid == p.currentPID() {
				st = "R (running)"
			}
			name := "bash"
			if len(pr.Args) > 0 {
				name = pr.Args[0]
			}
			return vfs.ProcNode{Data: fmt.Appendf(nil, "Name:\t%s\nState:\t%s\nPid:\t%d\nPPid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n",
				name, st, pr.PID, pr.PPID, pr.PGID, rt.shellPID)}, true
		}
	case "fd":
		if len(parts) == 2 {
			return vfs.ProcNode{Dir: true}, true
		}
		if len(parts) == 3 {
			switch parts[2] {
			case "0", "1", "2":
				return vfs.ProcNode{Target: "/dev/pts/0"}, true
			}
		}
	}
	return vfs.ProcNode{}, false
}
