package sched

import "time"

// Stepper lets a harness step an action: BeforeTimeJump is called when
// every task waits and virtual time would jump to deadline (the next
// timer); QuantumDone after each quantum of work. Either may block the
// calling task's goroutine (pausing the whole machine) until the harness
// lets it go on.
type Stepper interface {
	BeforeTimeJump(deadline time.Duration)
	QuantumDone()
}

func (s *Scheduler) gateTime() {
	if s.Stepper != nil && len(s.timers) > 0 {
		s.Stepper.BeforeTimeJump(s.timers[0].at)
	}
}

func (s *Scheduler) quantumDone() {
	if s.Stepper != nil {
		s.Stepper.QuantumDone()
	}
}
