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
	a := &action{id: s.nextAct, gate: make(chan struct{}), stdin: newStreamIn(stdin, closed), cancel: cancel, done: make(chan struct{})}
	s.nextAct++
	s.actions[a.id] = a
	go func() {
		defer close(a.done)
		<-a.gate
		a.result = s.env.Execute(ctx, shellsim.Action{Source: source, StdinReader: a.stdin,
			Stdout: actionWriter{a, false}, Stderr: actionWriter{a, true}}, false)
	}()
	return a, nil
}

// wait lets a run (delivering queued stdin) until it completes, waits
// for more stdin, or PollWait passes.
func (a *action) wait() {
	a.open()
	if a.complete() {
		return
	}
	a.stdin.deliver()
	timer := time.NewTimer(PollWait)
	defer timer.Stop()
	for {
		if a.stdin.isWaiting() {
			return
		}
		select {
		case <-a.done:
			return
		case <-a.stdin.notify:
		case <-timer.C:
			return
		case <-time.After(time.Millisecond):
		}
	}
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
	a.cancel()
	a.stdin.close()
	a.open()
	<-a.done
}

func (s *session) close() {
	for _, a := range s.actions {
		s.cancelAction(a)
	}
	s.env.Close()
}
