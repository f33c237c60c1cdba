package shellsim

import (
	"errors"
	"fmt"

	"github.com/shellbox/shellbox/lib/shellsim/shell"
)

// ErrForkBusy: a busy environment whose history is not kept cannot be
// duplicated.
var ErrForkBusy = errors.New("fork: processes are running and the history needed to copy them is not kept " +
	"(it outgrew the journal limit, or the shell held descriptors opened by exec when they started); wait for them or kill them first")

// ErrForkDiverged: replaying the history into the copy did not reproduce
// the environment (a bug: the machine is meant to be deterministic).
var ErrForkDiverged = errors.New("fork: replaying the environment's history did not reproduce it")

// Duplicate returns a deep copy of the environment: files, shell state
// (variables, functions, options, cwd, traps), processes, the scheduler's
// queues and timers, pipes and their contents, the clock, meters and usage,
// telemetry and HTTP routes, and the active stepped action (paused at the
// same point, with the same output). The two are independent afterwards.
//
// An idle environment is copied directly. A busy one (background jobs, a
// paused action) is copied by replaying its journal into a copy of its
// anchor (see journal.go); the copy's action is then Active().
func (e *Environment) Duplicate() (*Environment, error) {
	e.mu.Lock()
	if e.idle() {
		c, err := e.copyIdle()
		if err == nil || e.j == nil {
			e.mu.Unlock()
			return c, err
		}
	}
	j := e.j
	if j == nil || j.broken || j.anchor == nil {
		e.mu.Unlock()
		return nil, ErrForkBusy
	}
	plan := make([]entry, len(j.entries))
	for i, en := range j.entries {
		plan[i] = entry{op: en.op}
		if en.act != nil {
			rec := *en.act
			rec.events = append([]event(nil), en.act.events...)
			plan[i].act = &rec
		}
	}
	var live *Running
	var outLen, errLen int
	if a := e.active; a != nil && a.ctl.rec != nil && len(plan) > 0 && plan[len(plan)-1].act != nil {
		live = a
		a.mu.Lock()
		outLen, errLen = len(a.stdout), len(a.stderr)
		a.mu.Unlock()
	}
	livePos, liveStarted := int64(-1), false
	if live != nil {
		livePos, liveStarted = live.ctl.pos, live.started
	}
	want := e.fingerprint()
	bytes := j.bytes
	anchor := j.anchor
	e.mu.Unlock()

	c, err := anchor.Duplicate()
	if err != nil {
		return nil, err
	}
	c.j = &journal{anchor: anchor, cpu0: anchor.rt.Meter.CPU, bytes: bytes}
	for i, en := range plan {
		if en.op != nil {
			c.mu.Lock()
			en.op(c)
			if c.j != nil {
				c.j.entries = append(c.j.entries, &entry{op: en.op})
			}
			c.mu.Unlock()
			continue
		}
		isLive := live != nil && i == len(plan)-1
		c.mu.Lock()
		c.beginJournal() // as the original did when it started the action
		c.mu.Unlock()
		r := c.replayAction(en.act, isLive, livePos, liveStarted)
		if isLive {
			r.mu.Lock()
			ok := len(r.stdout) == outLen && len(r.stderr) == errLen
			r.mu.Unlock()
			if !ok {
				c.Close()
				return nil, ErrForkDiverged
			}
		}
	}
	c.mu.Lock()
	got := c.fingerprint()
	c.mu.Unlock()
	if got != want {
		c.Close()
		return nil, fmt.Errorf("%w (copy %+v, original %+v)", ErrForkDiverged, got, want)
	}
	return c, nil
}

// replayAction runs rec again in c: to its end, or, for the original's
// live action, up to the sync point where the original is paused.
func (c *Environment) replayAction(rec *actionRecord, live bool, pos int64, started bool) *Running {
	c.mu.Lock()
	nrec := c.journalAction(rec.spec, rec.stepped)
	ctl := newControl(c, nrec)
	ctl.replaying, ctl.replay = true, rec.events
	if live {
		ctl.stopAt = pos
	}
	r := c.newRunning(rec.spec, ctl)
	// What was done before the action started happened at once.
	ctl.applyReplay(-1)
	if live && !started {
		// Paused before its start, like the original: it is live from here.
		ctl.replaying, ctl.replay = false, nil
		c.mu.Unlock()
		return r
	}
	c.mu.Unlock()
	r.started = true
	close(r.gate)
	if live {
		select {
		case p := <-ctl.step.parked:
			r.park = &p
		case <-r.done:
		}
		return r
	}
	<-r.done
	return r
}

// Active is the environment's stepped action (nil when none is active):
// in a copy made by Duplicate, the copy of the original's.
func (e *Environment) Active() *Running {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.active
}

type fingerprint struct {
	CPU, Mem, Out, Disk int64
	Now                 int64
	Procs, Live         int
}

// fingerprint summarises the state a replay must reproduce (e.mu held).
func (e *Environment) fingerprint() fingerprint {
	_, disk, _ := e.rt.FS.Usage()
	return fingerprint{CPU: e.rt.Meter.CPU, Mem: e.rt.Meter.Mem, Out: e.rt.Meter.Out, Disk: disk,
		Now: int64(e.rt.Sched.Now()), Procs: len(e.rt.Sched.Procs()), Live: e.rt.Sched.Live()}
}

// copyIdle copies an idle environment (e.mu held).
func (e *Environment) copyIdle() (*Environment, error) {
	rt, err := e.rt.CopyIdle()
	if err != nil {
		return nil, err
	}
	sh, err := e.sh.CloneTo(rt)
	if err != nil {
		return nil, fmt.Errorf("fork: %w", err)
	}
	c := &Environment{rt: rt, sh: sh, terminal: e.terminal, last: e.last}
	c.last.CommandUsage = append([]shell.CommandUsage(nil), e.last.CommandUsage...)
	return c, nil
}
