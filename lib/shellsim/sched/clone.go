package sched

import "errors"

// ErrLiveTasks: a scheduler cannot be copied while tasks (background jobs,
// an action) are alive, since their goroutines cannot be duplicated.
var ErrLiveTasks = errors.New("processes are still running (background jobs or an action)")

// CopyIdle returns an independent copy of an idle scheduler: the clock, the
// process table and the PID counter. It fails with ErrLiveTasks while any
// task is alive.
func (s *Scheduler) CopyIdle() (*Scheduler, error) {
	if s.live > 0 || len(s.runq) > 0 || len(s.blocked) > 0 || s.cur != nil {
		return nil, ErrLiveTasks
	}
	for _, tm := range s.timers {
		// Timers of finished tasks are stale: they would wake nobody.
		if tm.t.state != done && tm.t.timerID == tm.seq {
			return nil, ErrLiveTasks
		}
	}
	c := &Scheduler{now: s.now, seq: s.seq, blocked: map[*Task]struct{}{}, nextPID: s.nextPID, pipes: s.pipes}
	if s.procs != nil {
		c.procs = make(map[int]*Proc, len(s.procs))
		for pid, p := range s.procs {
			q := *p
			q.Args = append([]string(nil), p.Args...)
			q.Task = nil
			c.procs[pid] = &q
		}
	}
	return c, nil
}
