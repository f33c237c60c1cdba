package harness

import (
	"errors"
	"fmt"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// PollWait bounds how long (host time) poll_action lets an action run:
// past it the action is paused at its next sync point and reported
// running, exactly as if its quanta had run out.
var PollWait = 5 * time.Second

type session struct {
	env      *shellsim.Environment
	baseline *shellsim.Checkpoint
	actions  map[uint64]*action
	nextAct  uint64
}

// action is a retained action record: a stepped shellsim action and the
// cursors of read_action_output.
type action struct {
	id             uint64
	run            *shellsim.Running
	outOff, errOff int
}

func (a *action) complete() bool { return a.run.Complete() }

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
		return nil, shellsim.ErrActionActive
	}
	if len(s.actions) >= MaxRetainedActions {
		return nil, fmt.Errorf("retained-action limit exceeded (%d)", MaxRetainedActions)
	}
	r, err := s.env.Start(source, stdin, closed)
	if err != nil {
		return nil, err
	}
	a := &action{id: s.nextAct, run: r}
	s.nextAct++
	s.actions[a.id] = a
	return a, nil
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

// fork copies the session: its environment (with the active action paused
// at the same point), baseline and action records.
func (s *session) fork() (*session, error) {
	env, err := s.env.Duplicate()
	if err != nil {
		return nil, err
	}
	ns := &session{env: env, baseline: s.baseline, actions: map[uint64]*action{}, nextAct: s.nextAct}
	for id, a := range s.actions {
		if a.complete() {
			ns.actions[id] = &action{id: id, run: a.run, outOff: a.outOff, errOff: a.errOff}
			continue
		}
		r := env.Active()
		if r == nil {
			env.Close()
			return nil, fmt.Errorf("fork: the copy of action %d is missing", id)
		}
		ns.actions[id] = &action{id: id, run: r, outOff: a.outOff, errOff: a.errOff}
	}
	return ns, nil
}

func (s *session) close() {
	for _, a := range s.actions {
		a.run.Cancel()
	}
	s.env.Close()
}
