package sched

import "io"

// Input is a byte stream fed from outside the machine (a harness action's
// streaming stdin). A task reading it while it is empty and open blocks
// (reason input_readable) until the controller writes or closes it; other
// tasks keep running meanwhile. The controller calls Write and Close only
// while the machine is paused (see Stepper), so delivery happens at a
// deterministic point of the execution.
type Input struct {
	s       *Scheduler
	desc    string
	buf     []byte
	closed  bool
	waiters []*Task
}

// NewInput returns an input holding data, closed (EOF after data) or open.
func (s *Scheduler) NewInput(desc string, data []byte, closed bool) *Input {
	return &Input{s: s, desc: desc, buf: append([]byte(nil), data...), closed: closed}
}

func (in *Input) Read(p []byte) (int, error) {
	for len(in.buf) == 0 && !in.closed {
		t := in.s.cur
		if t == nil {
			return 0, io.EOF
		}
		in.waiters = append(in.waiters, t)
		err := t.BlockFor(WaitReason{Kind: WaitInputReadable, Description: in.desc})
		in.drop(t)
		if err != nil {
			return 0, err
		}
	}
	if len(in.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, in.buf)
	in.buf = in.buf[n:]
	return n, nil
}

func (in *Input) drop(t *Task) {
	for i, w := range in.waiters {
		if w == t {
			in.waiters = append(in.waiters[:i], in.waiters[i+1:]...)
			return
		}
	}
}

// Write appends p and wakes the readers. It fails with io.ErrClosedPipe
// once the input is closed.
func (in *Input) Write(p []byte) error {
	if in.closed {
		return io.ErrClosedPipe
	}
	in.buf = append(in.buf, p...)
	in.wake()
	return nil
}

// Close sends EOF after the buffered bytes (idempotent).
func (in *Input) Close() {
	in.closed = true
	in.wake()
}

func (in *Input) wake() {
	for _, t := range in.waiters {
		in.s.Ready(t)
	}
}

// Closed reports whether EOF was sent.
func (in *Input) Closed() bool { return in.closed }

// Awaited reports whether some task is blocked reading the input.
func (in *Input) Awaited() bool {
	for _, t := range in.waiters {
		if t.state == blocked {
			return true
		}
	}
	return false
}
