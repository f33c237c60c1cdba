package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// PollWait bounds how long poll_action waits (host time) for an action to
// complete or block before reporting it running.
var PollWait = 5 * time.Second

type session struct {
	env      *shellsim.Environment
	baseline *shellsim.Checkpoint
	actions  map[uint64]*action
	nextAct  uint64
}

// action is a retained action: it runs on its own goroutine.
type action struct {
	id      uint64
	step    *stepper
	paused  *pause        // where the action waits for the next poll
	gate    chan struct{} // closed by the first poll: nothing runs before
	started bool
	stdin   *streamIn
	cancel  context.CancelFunc
	done    chan struct{}
	result  shellsim.ActionResult

	mu             sync.Mutex
	stdout, stderr []byte
	outOff, errOff int
}

func (a *action) complete() bool {
	select {
	case <-a.done:
		return true
	default:
		return false
	}
}

type actionWriter struct {
	a   *action
	err bool
}

func (w actionWriter) Write(p []byte) (int, error) {
	w.a.mu.Lock()
	defer w.a.mu.Unlock()
	if w.err {
		w.a.stderr = append(w.a.stderr, p...)
	} else {
		w.a.stdout = append(w.a.stdout, p...)
	}
	return len(p), nil
}

// streamIn is a streaming stdin: reads block until data, EOF or cancel,
// and report when they wait.
//
// Bytes written and an EOF sent between polls are held back until the next
// poll_action (deliver), so that an action only makes progress inside a
// poll and the protocol stays deterministic.
type streamIn struct {
	mu          sync.Mutex
	cond        *sync.Cond
	buf         []byte
	closed      bool
	pending     []byte
	closeQueued bool
	waiting     bool
	notify      chan struct{}
}

func newStreamIn(data []byte, closed bool) *streamIn {
	s := &streamIn{buf: append([]byte(nil), data...), closed: closed, notify: make(chan struct{}, 1)}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *streamIn) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.buf) == 0 && !s.closed {
		s.waiting = true
		select {
		case s.notify <- struct{}{}:
		default:
		}
		s.cond.Wait()
	}
	s.waiting = false
	if len(s.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func (s *streamIn) write(p []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.closeQueued {
		return errors.New("stdin is closed")
	}
	s.pending = append(s.pending, p...)
	return nil
}

// closeLater queues EOF for the next delivery.
func (s *streamIn) closeLater() {
	s.mu.Lock()
	s.closeQueued = true
	s.mu.Unlock()
}

// deliver hands queued bytes and EOF to the action.
func (s *streamIn) deliver() {
	s.mu.Lock()
	s.buf = append(s.buf, s.pending...)
	s.pending = nil
	if s.closeQueued {
		s.closed = true
	}
	s.cond.Broadcast()
	s.mu.Unlock()
}

// close ends the input at once (cancellation).
func (s *streamIn) close() {
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
}

func (s *streamIn) isWaiting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waiting && len(s.buf) == 0 && !s.closed
}

func (s *session) active() *action {
	for _, a := range s.actions {
		if !a.complete() {
			return a
		}
	}
	return nil
}

func (s *session) start(source string, stdin []byte, closed bool) (*action, error) {
	if s.active() != nil {
		return nil, errors.New("session already has an active foreground action")
	}
	if len(s.actions) >= MaxRetainedActions {
		return nil, fmt.Errorf("retained-action limit exceeded (%d)", MaxRetainedActions)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &action{id: s.nextAct, step: newStepper(), gate: make(chan struct{}), stdin: newStreamIn(stdin, closed), cancel: cancel, done: make(chan struct{})}
	s.nextAct++
	s.actions[a.id] = a
	go func() {
		defer close(a.done)
		<-a.gate
		a.result = s.env.Execute(ctx, shellsim.Action{Source: source, StdinReader: a.stdin, Stepper: a.step,
			Stdout: actionWriter{a, false}, Stderr: actionWriter{a, true}}, false)
	}()
	return a, nil
}

// wait lets a run for up to quanta quanta of work (delivering queued
// stdin; letting virtual time jump only with advanceTime) until it
// completes, pauses, waits for more stdin, or PollWait passes.
func (a *action) wait(quanta int64, advanceTime bool) {
	if a.complete() {
		return
	}
	a.step.set(quanta, advanceTime)
	a.stdin.deliver()
	if !a.started {
		a.open()
	} else if a.paused != nil {
		a.paused = nil
		a.step.resume <- struct{}{}
	}
	timer := time.NewTimer(PollWait)
	defer timer.Stop()
	for {
		if a.stdin.isWaiting() {
			return
		}
		select {
		case <-a.done:
			return
		case p := <-a.step.paused:
			a.paused = &p
			return
		case <-a.stdin.notify:
		case <-timer.C:
			return
		case <-time.After(time.Millisecond):
		}
	}
}

// pause is where a stepped action stopped: before a virtual time jump to
// deadline (timer) or after its quanta ran out.
type pause struct {
	timer    bool
	deadline time.Duration
}

// stepper is the harness side of sched.Stepper for one action.
type stepper struct {
	mu        sync.Mutex
	quanta    int64
	advance   bool
	cancelled bool
	paused    chan pause
	resume    chan struct{}
}

func newStepper() *stepper {
	return &stepper{paused: make(chan pause, 1), resume: make(chan struct{})}
}

func (st *stepper) set(quanta int64, advance bool) {
	st.mu.Lock()
	st.quanta, st.advance = quanta, advance
	st.mu.Unlock()
}

// BeforeTimeJump pauses until a poll lets time advance (each resume
// without advance_time pauses again at the same deadline).
func (st *stepper) BeforeTimeJump(deadline time.Duration) {
	for {
		st.mu.Lock()
		free := st.cancelled || st.advance
		st.mu.Unlock()
		if free {
			return
		}
		st.paused <- pause{timer: true, deadline: deadline}
		<-st.resume
	}
}

func (st *stepper) QuantumDone() {
	st.mu.Lock()
	st.quanta--
	free := st.cancelled || st.quanta > 0
	st.mu.Unlock()
	if !free {
		st.paused <- pause{}
		<-st.resume
	}
}

// cancel lets the action run free (to its cancellation).
func (st *stepper) cancel() {
	st.mu.Lock()
	st.cancelled = true
	st.mu.Unlock()
}

func (a *action) open() {
	if !a.started {
		a.started = true
		close(a.gate)
	}
}

func (s *session) action(id *uint64) (*action, error) {
	if id == nil {
		return nil, errors.New("invalid request: missing field `action_id`")
	}
	a, ok := s.actions[*id]
	if !ok {
		return nil, fmt.Errorf("action %d does not exist", *id)
	}
	return a, nil
}

func (s *session) cancelAction(a *action) {
	if a.complete() {
		return
	}
	a.step.cancel()
	a.cancel()
	if a.started {
		s.env.Interrupt()
	}
	a.stdin.close()
	if !a.started {
		a.open()
	} else if a.paused != nil {
		a.paused = nil
		a.step.resume <- struct{}{}
	}
	for {
		select {
		case <-a.done:
			return
		case <-a.step.paused: // raced the cancellation: let it go on
			a.step.resume <- struct{}{}
		}
	}
}

func (s *session) close() {
	for _, a := range s.actions {
		s.cancelAction(a)
	}
	s.env.Close()
}
