package sched

import "time"

// Stepper lets a controller step the machine. Both calls happen on the
// running task's goroutine at deterministic points of the execution (the
// "sync points" a harness can pause at and a replay can count), and either
// may block that goroutine, pausing the whole machine, until the controller
// lets it go on.
type Stepper interface {
	// QuantumDone is called after each quantum of work.
	QuantumDone()
	// Idle is called whenever no task is runnable, before the scheduler
	// acts on it: with a pending timer (hasTimer) it would jump virtual
	// time to deadline, otherwise it would declare a deadlock. Returning
	// false makes the scheduler look at its run queue again (the
	// controller may have made a task runnable meanwhile, e.g. by
	// delivering input or a signal) and ask again if nothing is.
	Idle(deadline time.Duration, hasTimer bool) (proceed bool)
}

// idle consults the stepper; false means "look again".
func (s *Scheduler) idle() bool {
	if s.Stepper == nil {
		return true
	}
	if len(s.timers) > 0 {
		return s.Stepper.Idle(s.timers[0].at, true)
	}
	return s.Stepper.Idle(0, false)
}

func (s *Scheduler) quantumDone() {
	if s.Stepper != nil {
		s.Stepper.QuantumDone()
	}
}
