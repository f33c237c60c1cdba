package shellsim

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/sched"
)

var (
	// ErrActionActive: the environment already has an active stepped action.
	ErrActionActive = errors.New("session already has an active foreground action")
	// ErrActionComplete: the action has finished.
	ErrActionComplete = errors.New("action is complete")
	// ErrStdinClosed: EOF was already sent to the action's stdin.
	ErrStdinClosed = errors.New("stdin is closed")
)

// Running is an action started with Start. Nothing runs until the first
// Poll; each Poll runs it for some quanta of work and leaves it paused at
// a sync point, where the environment can be inspected, changed, signalled
// and forked. Its stdin is a stream fed with WriteStdin and CloseStdin.
//
// A Running is driven from one goroutine at a time (a harness's).
type Running struct {
	e       *Environment
	ctl     *control
	spec    execSpec
	gate    chan struct{}
	started bool
	done    chan struct{}
	result  ActionResult
	park    *Park
	rootPID int

	mu             sync.Mutex
	stdout, stderr []byte
}

// Start creates a stepped action: source with stdin (EOF after it when
// stdinClosed, otherwise more may come through WriteStdin). One action may
// be active at a time.
func (e *Environment) Start(source string, stdin []byte, stdinClosed bool) (*Running, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.active != nil {
		return nil, ErrActionActive
	}
	spec := execSpec{source: source, stdin: append([]byte(nil), stdin...), stream: true, stdinClosed: stdinClosed}
	e.beginJournal()
	rec := e.journalAction(spec, true)
	r := e.newRunning(spec, newControl(e, rec))
	return r, nil
}

// journalAction appends an action record to the journal (e.mu held).
func (e *Environment) journalAction(spec execSpec, stepped bool) *actionRecord {
	j := e.j
	if j == nil || j.broken {
		return nil
	}
	rec := &actionRecord{spec: spec, stepped: stepped}
	j.entries = append(j.entries, &entry{act: rec})
	e.grow(spec.size() + 256)
	if j.broken {
		return nil
	}
	return rec
}

// newRunning makes r the environment's active action, its goroutine
// waiting for the first Poll (e.mu held).
func (e *Environment) newRunning(spec execSpec, ctl *control) *Running {
	// A replayed Run or Execute had all its stdin at once.
	closed := spec.stdinClosed || !spec.stream
	ctl.step = &stepping{input: e.rt.Sched.NewInput("stdin", spec.stdin, closed),
		parked: make(chan Park, 1), resume: make(chan struct{})}
	r := &Running{e: e, ctl: ctl, spec: spec, gate: make(chan struct{}), done: make(chan struct{})}
	e.active = r
	go func() {
		defer close(r.done)
		<-r.gate
		e.mu.Lock()
		defer e.mu.Unlock()
		r.result = e.exec(context.Background(), spec, &meteredWriter{m: e.rt.Meter, w: runningWriter{r, false}},
			&meteredWriter{m: e.rt.Meter, w: runningWriter{r, true}}, ctl)
		r.rootPID = e.sh.PID()
		if ctl.sh != nil {
			r.rootPID = ctl.sh.PID()
		}
		e.active = nil
		e.settleJournal()
	}()
	return r
}

type runningWriter struct {
	r   *Running
	err bool
}

func (w runningWriter) Write(p []byte) (int, error) {
	w.r.mu.Lock()
	defer w.r.mu.Unlock()
	if w.err {
		w.r.stderr = append(w.r.stderr, p...)
	} else {
		w.r.stdout = append(w.r.stdout, p...)
	}
	return len(p), nil
}

// Poll lets the action run for up to quanta quanta of work, letting
// virtual time jump to the next timer only with advanceTime, until it
// completes or pauses: its quanta ran out, it waits on a timer without
// advanceTime, or it waits for stdin. After hostWait of host time (0: no
// bound) it is paused at its next sync point instead.
func (r *Running) Poll(quanta int64, advanceTime bool, hostWait time.Duration) {
	if r.Complete() {
		return
	}
	st := r.ctl.step
	st.quanta, st.advance = max(quanta, 1), advanceTime
	st.parkASAP.Store(false)
	r.park = nil
	if !r.started {
		r.started = true
		close(r.gate)
	} else {
		st.resume <- struct{}{}
	}
	r.await(hostWait)
}

func (r *Running) await(hostWait time.Duration) {
	st := r.ctl.step
	var timeout <-chan time.Time
	if hostWait > 0 {
		t := time.NewTimer(hostWait)
		defer t.Stop()
		timeout = t.C
	}
	for {
		select {
		case p := <-st.parked:
			r.park = &p
			return
		case <-r.done:
			return
		case <-timeout:
			st.parkASAP.Store(true)
			timeout = nil
		}
	}
}

// Cancel stops the action: its stdin is closed, its processes stopped
// (status 137) and it runs to its end; the environment stays usable.
func (r *Running) Cancel() {
	if r.Complete() {
		return
	}
	r.ctl.cancelReq.Store(true)
	if !r.started {
		r.started = true
		close(r.gate)
	} else if r.park != nil {
		r.park = nil
		r.ctl.step.resume <- struct{}{}
	}
	for {
		select {
		case <-r.done:
			return
		case <-r.ctl.step.parked: // raced the cancellation: let it go on
			r.ctl.step.resume <- struct{}{}
		}
	}
}

// Complete reports whether the action finished.
func (r *Running) Complete() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// RootPID is the PID of the shell running the action.
func (r *Running) RootPID() int {
	e := r.e
	if r.Complete() {
		return r.rootPID
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if r.ctl.sh != nil {
		return r.ctl.sh.PID()
	}
	return e.sh.PID()
}

// Started reports whether a Poll has run it yet.
func (r *Running) Started() bool { return r.started }

// Result is how the action ended (valid once Complete).
func (r *Running) Result() ActionResult { return r.result }

// Parked is where the action paused (nil before its first Poll, while it
// runs and once it is complete).
func (r *Running) Parked() *Park {
	if r.Complete() {
		return nil
	}
	return r.park
}

// Output returns the stdout and stderr bytes from the given offsets on.
func (r *Running) Output(outOff, errOff int) (stdout, stderr []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if outOff < len(r.stdout) {
		stdout = append([]byte(nil), r.stdout[outOff:]...)
	}
	if errOff < len(r.stderr) {
		stderr = append([]byte(nil), r.stderr[errOff:]...)
	}
	return stdout, stderr
}

// WriteStdin appends bytes to the action's stdin.
func (r *Running) WriteStdin(p []byte) error {
	return r.input(event{kind: evInput, data: append([]byte(nil), p...)})
}

// CloseStdin sends EOF to the action's stdin.
func (r *Running) CloseStdin() error { return r.input(event{kind: evClose}) }

func (r *Running) input(ev event) error {
	if r.Complete() {
		return ErrActionComplete
	}
	e := r.e
	e.mu.Lock()
	defer e.mu.Unlock()
	in := r.ctl.step.input
	if in.Closed() {
		return ErrStdinClosed
	}
	if ev.kind == evInput {
		_ = in.Write(ev.data)
	} else {
		in.Close()
	}
	ev.at = r.ctl.pos
	r.ctl.record(ev)
	if e.j != nil && !e.j.broken {
		e.grow(int64(len(ev.data)) + 32)
	}
	return nil
}

// Reason is why a paused action cannot go on: the wait reason of the
// action's shell, followed down the chain of children it waits for (up
// to 8 levels) to what can wake it. Kind is "timer" (DeadlineNS),
// "pipe_readable" / "pipe_writable" (Pipe), "child" (PID),
// "input_readable" (Description) or "any" (Reasons).
type Reason struct {
	Kind        string   `json:"kind"`
	DeadlineNS  *int64   `json:"deadline_ns,omitempty"`
	Pipe        *int     `json:"pipe,omitempty"`
	PID         *int     `json:"pid,omitempty"`
	Description string   `json:"description,omitempty"`
	Reasons     []Reason `json:"reasons,omitempty"`
}

// Blocked is the reason a paused action waits, or nil when it is not
// blocked (it runs, has quanta to go, or is complete).
func (r *Running) Blocked() *Reason {
	p := r.Parked()
	if p == nil || !p.Idle {
		return nil
	}
	e := r.e
	e.mu.Lock()
	defer e.mu.Unlock()
	root := e.rt.Sched.Root()
	if root == nil {
		return nil
	}
	return e.reasonOf(root, 8)
}

// reasonOf describes why t waits (e.mu held).
func (e *Environment) reasonOf(t *sched.Task, depth int) *Reason {
	wr := t.Reason()
	switch wr.Kind {
	case sched.WaitNone:
		return nil
	case sched.WaitTimer:
		d := int64(wr.Deadline)
		return &Reason{Kind: "timer", DeadlineNS: &d}
	case sched.WaitPipeReadable, sched.WaitPipeWritable:
		p := wr.Pipe
		return &Reason{Kind: string(wr.Kind), Pipe: &p}
	case sched.WaitInputReadable:
		return &Reason{Kind: "input_readable", Description: wr.Description}
	case sched.WaitChild:
		child := wr.Tasks[0]
		if depth > 0 {
			if r := e.reasonOf(child, depth-1); r != nil {
				return r
			}
		}
		pid := e.rt.Sched.PIDOf(child)
		return &Reason{Kind: "child", PID: &pid}
	case sched.WaitAnyChild:
		out := &Reason{Kind: "any"}
		for _, c := range wr.Tasks {
			if c.Done() {
				continue
			}
			if r := e.reasonOf(c, depth-1); depth > 0 && r != nil {
				out.Reasons = append(out.Reasons, *r)
			} else {
				pid := e.rt.Sched.PIDOf(c)
				out.Reasons = append(out.Reasons, Reason{Kind: "child", PID: &pid})
			}
		}
		return out
	}
	return &Reason{Kind: string(wr.Kind)}
}
