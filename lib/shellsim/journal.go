package shellsim

import (
	"sync/atomic"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/sched"
	"github.com/shellbox/shellbox/lib/shellsim/shell"
)

// Forking a busy environment by deterministic replay.
//
// Processes are goroutines, and a goroutine cannot be copied. But the
// machine is deterministic: one task runs at a time, the clock is virtual,
// and everything from outside (an action's source and stdin, file
// operations, signals, cancellations, the points where a harness paused
// it) reaches it at numbered sync points (sched.Stepper callbacks). So an
// environment keeps an anchor, an idle copy of itself taken when an action
// starts on an idle machine, and a journal of everything done to it since.
// Duplicate of a busy environment copies the anchor and replays the
// journal into the copy, stopping the live action at the same sync point:
// the copy then has the same files, shell state, processes, scheduler
// queues, timers, pipes and output as the original, and each goes its own
// way afterwards.
//
// The anchor shares file bytes with the environment (copy on write), so it
// costs little. When the environment is idle again and the journal has
// grown, the journal is dropped and the next action re-anchors, which
// bounds how much a fork replays.

const (
	// journalKeep: an idle environment drops its journal once it holds
	// this many entries, journalCPU units of work since the anchor, or
	// journalIdleBytes of sources, stdin and data (so that an idle
	// environment does not hold on to large inputs).
	journalKeep      = 64
	journalCPU       = 2_000_000
	journalIdleBytes = 1 << 20
)

// journalMaxBytes bounds the sources, stdin and data a journal holds; past
// it the history is dropped and a busy environment cannot be forked until
// it is idle again.
var journalMaxBytes int64 = 64 << 20

type journal struct {
	anchor  *Environment
	entries []*entry
	bytes   int64
	cpu0    int64
	broken  bool
}

// entry is one thing done to the environment: an operation (op) or an
// action (act).
type entry struct {
	op  func(*Environment)
	act *actionRecord
}

// actionRecord is what it takes to run an action again identically.
type actionRecord struct {
	spec    execSpec
	stepped bool
	events  []event
}

type eventKind uint8

const (
	evOp       eventKind = iota // an operation on the environment
	evInput                     // bytes written to the streaming stdin
	evClose                     // EOF sent to the streaming stdin
	evCancel                    // the action was cancelled
	evIdlePark                  // the action paused at an Idle sync point
)

// event is something that happened while an action was parked at sync
// point at (-1: before it started).
type event struct {
	at   int64
	kind eventKind
	op   func(*Environment)
	data []byte
}

// execSpec is everything an action is started with.
type execSpec struct {
	source      string
	stdin       []byte
	stream      bool // streaming stdin (sched.Input)
	stdinClosed bool
	fresh       bool
	dir         string
	env         map[string]string
	resetOnExit bool
	params      bool
	arg0        string
	args        []string
}

func (s execSpec) size() int64 {
	n := int64(len(s.source) + len(s.stdin) + len(s.dir) + len(s.arg0))
	for k, v := range s.env {
		n += int64(len(k) + len(v))
	}
	for _, a := range s.args {
		n += int64(len(a))
	}
	return n
}

// idle: no task is alive and no action is active (e.mu held).
func (e *Environment) idle() bool {
	return e.rt.Sched.Live() == 0 && e.active == nil
}

// beginJournal anchors the journal at an idle machine if it has none
// (e.mu held).
func (e *Environment) beginJournal() {
	if e.j != nil || !e.idle() {
		return
	}
	anchor, err := e.copyIdle()
	if err != nil {
		return
	}
	e.j = &journal{anchor: anchor, cpu0: e.rt.Meter.CPU}
}

// settleJournal drops a long journal once the machine is idle (e.mu held).
func (e *Environment) settleJournal() {
	j := e.j
	if j == nil || !e.idle() {
		return
	}
	if j.broken || len(j.entries) >= journalKeep || e.rt.Meter.CPU-j.cpu0 >= journalCPU ||
		j.bytes >= journalIdleBytes || e.terminal {
		e.j = nil
	}
}

func (e *Environment) grow(n int64) {
	j := e.j
	j.bytes += n
	if j.bytes > journalMaxBytes {
		j.broken = true
		j.entries = nil
		j.anchor = nil
	}
}

// note records op, which was just applied to the environment (e.mu held):
// inside the active action's record at the sync point where it is parked,
// or as an entry of its own.
func (e *Environment) note(op func(*Environment), size int) {
	j := e.j
	if j == nil || j.broken {
		return
	}
	if a := e.active; a != nil && a.ctl.rec != nil {
		a.ctl.rec.events = append(a.ctl.rec.events, event{at: a.ctl.pos, kind: evOp, op: op})
	} else {
		j.entries = append(j.entries, &entry{op: op})
	}
	e.grow(int64(size) + 64)
	e.settleJournal()
}

// control is the environment's stepper during one action. It numbers the
// sync points, turns a cancellation request into a cancellation at a sync
// point (so that it happens at the same point when replayed), parks the
// machine for a stepping controller, and records or replays what happened
// at each point.
type control struct {
	e   *Environment
	rec *actionRecord // the journal's record of this action (nil: not journaled)
	n   int64         // sync points so far
	pos int64         // the sync point the action is parked at (-1: not started)

	cancelReq atomic.Bool

	step *stepping    // nil: the action runs freely
	sh   *shell.Shell // the shell running the action

	// Replay: events still to apply, and the sync point to park at
	// (-1: run to the end).
	replaying bool
	replay    []event
	stopAt    int64
}

// stepping is the controller's side of a stepped action.
type stepping struct {
	quanta   int64
	advance  bool
	parkASAP atomic.Bool
	input    *sched.Input
	parked   chan Park
	resume   chan struct{}
}

// Park is where a stepped action paused: Idle when nothing was runnable
// (it waits on a timer, input or a child; see Running.Blocked), otherwise
// its quanta (or the poll's host time) ran out.
type Park struct {
	Idle bool
}

func newControl(e *Environment, rec *actionRecord) *control {
	return &control{e: e, rec: rec, pos: -1, stopAt: -1}
}

func (c *control) QuantumDone() { c.sync(false, false) }

func (c *control) Idle(_ time.Duration, hasTimer bool) bool { return c.sync(true, hasTimer) }

func (c *control) record(ev event) {
	if c.rec != nil && c.e.j != nil && !c.e.j.broken {
		c.rec.events = append(c.rec.events, ev)
	}
}

// checkCancel turns a pending cancellation request into the cancellation
// of the action at sync point k.
func (c *control) checkCancel(k int64) {
	rt := c.e.rt
	if c.cancelReq.Load() && !rt.Cancelled.Load() {
		c.record(event{at: k, kind: evCancel})
		rt.Cancelled.Store(true)
		if c.step != nil && c.step.input != nil {
			c.step.input.Close()
		}
		// KILL the action's process group (its shell and the foreground
		// commands), so that nothing waits for a timer: virtual time does
		// not move for a cancellation. Background jobs in groups of their
		// own are left alone.
		if c.sh != nil && k >= 0 {
			c.sh.Signal(c.sh.PGID(), 9, true)
		}
	}
}

// applyReplay applies the recorded events of sync point k and reports
// whether the original parked there at an Idle point.
func (c *control) applyReplay(k int64) (idlePark bool) {
	for len(c.replay) > 0 && c.replay[0].at == k {
		ev := c.replay[0]
		c.replay = c.replay[1:]
		if ev.kind != evCancel {
			c.record(ev)
		}
		switch ev.kind {
		case evOp:
			ev.op(c.e)
		case evInput:
			_ = c.step.input.Write(ev.data)
		case evClose:
			c.step.input.Close()
		case evCancel:
			c.cancelReq.Store(true)
		case evIdlePark:
			idlePark = true
		}
	}
	return idlePark
}

func (c *control) sync(idle, hasTimer bool) bool {
	k := c.n
	c.n++
	if c.replaying {
		idlePark := c.applyReplay(k)
		c.checkCancel(k)
		if k != c.stopAt {
			return !(idle && idlePark)
		}
		// The original is parked here: park the copy the same way.
		c.replaying = false
		c.replay = nil
		c.pos = k
		c.wait(Park{Idle: idle})
		c.checkCancel(k)
		return !idle
	}
	c.checkCancel(k)
	st := c.step
	if st == nil || c.e.rt.Cancelled.Load() {
		return true
	}
	if idle {
		waiting := hasTimer && !st.advance ||
			!hasTimer && st.input != nil && !st.input.Closed() && st.input.Awaited()
		if !waiting && !st.parkASAP.Load() {
			return true
		}
		c.record(event{at: k, kind: evIdlePark})
	} else {
		st.quanta--
		if st.quanta > 0 && !st.parkASAP.Load() {
			return true
		}
	}
	c.pos = k
	c.wait(Park{Idle: idle})
	c.checkCancel(k)
	return !idle
}

// wait parks the action until the controller resumes it, leaving the
// environment to the controller meanwhile.
func (c *control) wait(p Park) {
	st := c.step
	c.e.mu.Unlock()
	st.parked <- p
	<-st.resume
	c.e.mu.Lock()
}
