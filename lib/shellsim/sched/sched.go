package sched

import (
	"container/heap"
	"errors"
	"fmt"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

var (
	// ErrKilled: the task received a terminating signal.
	ErrKilled = fmt.Errorf("%w: killed", command.ErrStopped)
	// ErrInterrupted: a trapped signal is pending; the shell runs its handler.
	ErrInterrupted = errors.New("interrupted by signal")
	// ErrDeadlock: every task is blocked and no timer is pending.
	ErrDeadlock = fmt.Errorf("%w: deadlock: every process is blocked", command.ErrStopped)
	// ErrBrokenPipe: write to a pipe with no reader (SIGPIPE).
	ErrBrokenPipe = fmt.Errorf("%w: broken pipe", command.ErrStopped)
)

// Quantum is how many CPU units a task may spend before yielding to other
// runnable tasks.
const Quantum = 20000

type taskState uint8

const (
	runnable taskState = iota
	running
	blocked
	done
)

// Scheduler runs tasks one at a time in a deterministic order.
type Scheduler struct {
	now     time.Duration
	runq    []*Task
	timers  timerHeap
	seq     uint64
	blocked map[*Task]struct{}
	cur     *Task
	root    *Task
	live    int

	procs   map[int]*Proc
	nextPID int
	pipes   int

	// Stepper, when set, is consulted before virtual time jumps and after
	// each quantum (see stepper.go).
	Stepper Stepper
}

// New returns an idle scheduler at virtual time 0.
func New() *Scheduler {
	return &Scheduler{blocked: map[*Task]struct{}{}, nextPID: 1}
}

// Now is the virtual monotonic time.
func (s *Scheduler) Now() time.Duration { return s.now }

// Advance moves virtual time forward (used to model CPU time passing).
func (s *Scheduler) Advance(d time.Duration) {
	if d > 0 {
		s.now += d
	}
}

// Current is the running task (nil outside any task).
func (s *Scheduler) Current() *Task { return s.cur }

// Live counts unfinished tasks.
func (s *Scheduler) Live() int { return s.live }

// Task is one logical thread of execution.
type Task struct {
	s        *Scheduler
	wake     chan struct{}
	state    taskState
	killed   int
	pending  []int
	deadlock bool
	waiters  []*Task
	timerID  uint64
	fired    bool
	slice    int64
	blockSeq uint64
	stopErrs int
	reason   WaitReason
	// SigPipe records that a write hit a pipe with no reader.
	SigPipe bool
	// Interruptible makes blocking calls fail with ErrInterrupted while a
	// trapped signal is pending (the wait builtin).
	Interruptible bool
	// Data is owner-attached state (the process).
	Data any
}

// Spawn creates a runnable task running fn.
func (s *Scheduler) Spawn(fn func(t *Task)) *Task {
	t := &Task{s: s, wake: make(chan struct{}, 1), state: runnable}
	s.live++
	s.runq = append(s.runq, t)
	go func() {
		<-t.wake
		s.cur = t
		t.state = running
		fn(t)
		t.finish()
	}()
	return t
}

// RunRoot runs fn as the root task of an action on the calling goroutine
// and returns when it finishes. Other tasks run only while the root blocks
// or yields, and stay parked afterwards until the next call.
func (s *Scheduler) RunRoot(fn func(t *Task)) {
	t := &Task{s: s, wake: make(chan struct{}, 1), state: running}
	s.live++
	s.root = t
	s.cur = t
	defer func() {
		t.state = done
		s.live--
		for _, w := range t.waiters {
			s.Ready(w)
		}
		t.waiters = nil
		s.root = nil
		s.cur = nil
	}()
	fn(t)
}

func (t *Task) finish() {
	s := t.s
	t.state = done
	s.live--
	for _, w := range t.waiters {
		s.Ready(w)
	}
	t.waiters = nil
	s.next()
}

// next hands the baton to the next runnable task, advancing virtual time to
// the earliest timer when nothing is runnable.
func (s *Scheduler) next() {
	for len(s.runq) == 0 {
		if !s.idle() {
			continue
		}
		if len(s.timers) > 0 {
			s.fireTimers()
			continue
		}
		if len(s.blocked) == 0 {
			return
		}
		// Deadlock: wake every blocked task with an error, in a
		// deterministic order (by creation order of their blocking).
		ts := make([]*Task, 0, len(s.blocked))
		for t := range s.blocked {
			ts = append(ts, t)
		}
		sortTasks(ts)
		for _, t := range ts {
			t.deadlock = true
			s.Ready(t)
		}
	}
	t := s.runq[0]
	s.runq[0] = nil
	s.runq = s.runq[1:]
	s.cur = t
	t.wake <- struct{}{}
}

// Ready makes a blocked task runnable.
func (s *Scheduler) Ready(t *Task) {
	if t.state != blocked {
		return
	}
	delete(s.blocked, t)
	t.state = runnable
	s.runq = append(s.runq, t)
}

// maxStopErrors bounds how often a stopped task may keep calling blocking
// operations after being told to stop; past it the call panics with the stop
// error so that a command ignoring errors cannot spin forever.
const maxStopErrors = 100000

func (t *Task) err() error {
	switch {
	case t.killed != 0:
		t.stopErrs++
		if t.stopErrs > maxStopErrors {
			panic(ErrKilled)
		}
		return ErrKilled
	case t.deadlock:
		// Sticky: a deadlocked task stays stopped.
		t.stopErrs++
		if t.stopErrs > maxStopErrors {
			panic(ErrDeadlock)
		}
		return ErrDeadlock
	case len(t.pending) > 0 && t.Interruptible:
		return ErrInterrupted
	}
	return nil
}

// Block parks t until someone readies it. Callers register t as a waiter
// first and re-check their condition afterwards. The error is non-nil when
// the task was killed, signalled or deadlocked.
func (t *Task) Block() error {
	if err := t.err(); err != nil {
		return err
	}
	s := t.s
	t.state = blocked
	t.blockSeq = s.seq
	s.seq++
	s.blocked[t] = struct{}{}
	s.next()
	<-t.wake
	s.cur = t
	t.state = running
	return t.err()
}

// Yield lets other runnable tasks run.
func (t *Task) Yield() {
	s := t.s
	t.slice = 0
	if len(s.runq) == 0 {
		return
	}
	t.state = blocked
	s.blocked[t] = struct{}{}
	s.Ready(t)
	s.next()
	<-t.wake
	s.cur = t
	t.state = running
}

// Tick accounts CPU units spent and yields once a quantum is used up.
func (t *Task) Tick(units int64) {
	t.slice += units
	if t.slice >= Quantum {
		t.s.quantumDone()
		t.Yield()
	}
}

// Done reports whether the task finished.
func (t *Task) Done() bool { return t.state == done }

// Wait blocks until other finishes.
func (t *Task) Wait(other *Task) error {
	for other.state != done {
		other.waiters = append(other.waiters, t)
		if err := t.BlockFor(WaitReason{Kind: WaitChild, Tasks: []*Task{other}}); err != nil {
			other.removeWaiter(t)
			return err
		}
	}
	return nil
}

// WaitAny blocks until one of others finishes.
func (t *Task) WaitAny(others []*Task) error {
	for {
		for _, o := range others {
			if o.state == done {
				return nil
			}
		}
		for _, o := range others {
			o.waiters = append(o.waiters, t)
		}
		err := t.BlockFor(WaitReason{Kind: WaitAnyChild, Tasks: others})
		for _, o := range others {
			o.removeWaiter(t)
		}
		if err != nil {
			return err
		}
	}
}

func (t *Task) removeWaiter(w *Task) {
	for i, x := range t.waiters {
		if x == w {
			t.waiters = append(t.waiters[:i], t.waiters[i+1:]...)
			return
		}
	}
}

// Sleep blocks t for d of virtual time.
func (t *Task) Sleep(d time.Duration) error {
	if err := t.err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	s := t.s
	s.seq++
	t.timerID = s.seq
	t.fired = false
	at := s.now + d
	heap.Push(&s.timers, timer{at: at, seq: s.seq, t: t})
	for !t.fired {
		if err := t.BlockFor(WaitReason{Kind: WaitTimer, Deadline: at}); err != nil {
			t.timerID = 0
			return err
		}
	}
	return nil
}

// Signal delivers sig. A terminating signal kills the task (its blocking
// calls fail with ErrKilled); otherwise the signal is queued for the shell's
// trap handler (blocking calls fail with ErrInterrupted).
func (t *Task) Signal(sig int, terminate bool) {
	if t.state == done {
		return
	}
	if terminate {
		if t.killed == 0 {
			t.killed = sig
		}
	} else {
		t.pending = append(t.pending, sig)
	}
	t.s.Ready(t)
}

// Pending reports whether trapped signals wait for their handler.
func (t *Task) Pending() bool { return len(t.pending) > 0 }

// Killed is the terminating signal received, or 0.
func (t *Task) Killed() int { return t.killed }

// TakeSignals returns and clears the pending trapped signals.
func (t *Task) TakeSignals() []int {
	p := t.pending
	t.pending = nil
	return p
}

// KillAll kills every unfinished task (environment shutdown).
func (s *Scheduler) KillAll(sig int) {
	var ts []*Task
	for t := range s.blocked {
		ts = append(ts, t)
	}
	sortTasks(ts)
	for _, t := range ts {
		t.Signal(sig, true)
	}
	for _, t := range s.runq {
		if t.killed == 0 {
			t.killed = sig
		}
	}
}

// Runnable counts tasks waiting for the baton.
func (s *Scheduler) Runnable() int { return len(s.runq) }

// Drain kills and runs the remaining tasks until all finish, so that no
// goroutine outlives a terminated environment.
func (s *Scheduler) Drain() {
	if s.live == 0 {
		return
	}
	s.RunRoot(func(t *Task) {
		for s.live > 1 {
			ts := make([]*Task, 0, len(s.blocked))
			for b := range s.blocked {
				ts = append(ts, b)
			}
			sortTasks(ts)
			for _, b := range ts {
				if b.killed == 0 {
					b.killed = 9
				}
				s.Ready(b)
			}
			for _, b := range s.runq {
				if b.killed == 0 {
					b.killed = 9
				}
			}
			if len(s.runq) == 0 {
				return
			}
			t.Yield()
		}
	})
}

type timer struct {
	at  time.Duration
	seq uint64
	t   *Task
}

type timerHeap []timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(timer)) }
func (h *timerHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (s *Scheduler) fireTimers() {
	at := s.timers[0].at
	if at > s.now {
		s.now = at
	}
	for len(s.timers) > 0 && s.timers[0].at <= s.now {
		tm := heap.Pop(&s.timers).(timer)
		if tm.t.timerID == tm.seq && tm.t.state != done {
			tm.t.fired = true
			tm.t.timerID = 0
			s.Ready(tm.t)
		}
	}
}

func sortTasks(ts []*Task) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].blockSeq < ts[j-1].blockSeq; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}
