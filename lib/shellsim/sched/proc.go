package sched

import (
	"sort"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Proc is one logical process record.
type Proc struct {
	PID, PPID, PGID int
	Args            []string
	Dir             string
	Start           time.Duration
	CPU             int64 // CPU units
	Exited          bool
	Status          int
	Task            *Task
}

// NewProc allocates the next PID (deterministic, counting up) and records it.
func (s *Scheduler) NewProc(ppid, pgid int, args []string, dir string) *Proc {
	if s.procs == nil {
		s.procs = map[int]*Proc{}
	}
	pid := s.nextPID
	s.nextPID++
	if pgid == 0 {
		pgid = pid
	}
	p := &Proc{PID: pid, PPID: ppid, PGID: pgid, Args: args, Dir: dir, Start: s.now}
	s.procs[pid] = p
	return p
}

// Exit marks p exited with status; Reap forgets it.
func (s *Scheduler) Exit(p *Proc, status int) { p.Exited, p.Status = true, status }

// Reap removes p from the table.
func (s *Scheduler) Reap(p *Proc) { delete(s.procs, p.PID) }

// Proc finds a live or zombie process.
func (s *Scheduler) Proc(pid int) (*Proc, bool) {
	p, ok := s.procs[pid]
	return p, ok
}

// Procs lists processes by PID.
func (s *Scheduler) Procs() []*Proc {
	out := make([]*Proc, 0, len(s.procs))
	for _, p := range s.procs {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// Processes describes the table for ps.
func (s *Scheduler) Processes() []command.Process {
	var out []command.Process
	for _, p := range s.Procs() {
		st := "S"
		switch {
		case p.Exited:
			st = "Z"
		case p.Task != nil && p.Task == s.cur:
			st = "R"
		}
		out = append(out, command.Process{PID: p.PID, PPID: p.PPID, PGID: p.PGID, State: st,
			Cmdline: p.Args, Start: p.Start, CPU: time.Duration(p.CPU) * time.Microsecond})
	}
	return out
}

// SetNextPID sets the next PID to allocate.
func (s *Scheduler) SetNextPID(pid int) { s.nextPID = pid }
