package sched

import "time"

// WaitKind names what a blocked task waits for.
type WaitKind string

const (
	WaitNone          WaitKind = ""
	WaitTimer         WaitKind = "timer"
	WaitPipeReadable  WaitKind = "pipe_readable"
	WaitPipeWritable  WaitKind = "pipe_writable"
	WaitChild         WaitKind = "child"
	WaitAnyChild      WaitKind = "any"
	WaitInputReadable WaitKind = "input_readable"
)

// WaitReason is the typed reason a task is blocked: a timer deadline, a
// pipe (by its number), a child task, any of several children, or input
// from outside the machine (Description names it).
type WaitReason struct {
	Kind        WaitKind
	Deadline    time.Duration
	Pipe        int
	Tasks       []*Task
	Description string
}

// Reason is why t is blocked (the zero reason when it is not).
func (t *Task) Reason() WaitReason {
	if t.state != blocked {
		return WaitReason{}
	}
	return t.reason
}

// State is "runnable", "running", "blocked" or "done".
func (t *Task) State() string {
	switch t.state {
	case runnable:
		return "runnable"
	case running:
		return "running"
	case blocked:
		return "blocked"
	}
	return "done"
}

// BlockFor is Block recording why the task waits.
func (t *Task) BlockFor(r WaitReason) error {
	t.reason = r
	err := t.Block()
	t.reason = WaitReason{}
	return err
}

// Root is the root task of the running action (nil between actions).
func (s *Scheduler) Root() *Task { return s.root }

// PIDOf is the PID of the process running t: the lowest, when a shell
// and the command it runs share the task (0 when none does).
func (s *Scheduler) PIDOf(t *Task) int {
	pid := 0
	for _, p := range s.procs {
		if p.Task == t && (pid == 0 || p.PID < pid) {
			pid = p.PID
		}
	}
	return pid
}
