// Package resources meters one ShellSim environment: CPU fuel (1 unit = 1 µs
// of modeled CPU), modeled working-set memory, output bytes, and the typed
// stop reason set when a limit is exhausted.
package resources

import (
	"fmt"
	"runtime"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// CostModelVersion changes whenever a cost below changes.
const CostModelVersion = 1

// Fixed costs in CPU units.
const (
	CostParseByte = 1   // per byte of source parsed
	CostNode      = 2   // per executor node (statement, word, clause)
	CostDispatch  = 100 // launching a registered command
	CostBuiltin   = 5   // running a builtin
	CostFork      = 200 // creating a logical process
	CostExpandB   = 1   // per byte produced by expansion
	MemCommand    = 10 << 10
	MemProcess    = 4 << 10
	MemPipe       = 64 << 10 // pipe buffer capacity (also its reservation)
)

// collectFrom is the reservation size from which Reserve, past half the
// memory limit, runs the garbage collector first.
const collectFrom = 8 << 20

// Limits are the four budgets of an environment.
type Limits struct {
	CPU    int64 `json:"cpu"`
	Memory int64 `json:"memory"`
	Disk   int64 `json:"disk"`
	Output int64 `json:"output"`
}

// DefaultLimits: 10,000,000 CPU units, 64 MiB memory, 64 MiB disk, 4 MiB output.
func DefaultLimits() Limits {
	return Limits{CPU: 10_000_000, Memory: 64 << 20, Disk: 64 << 20, Output: 4 << 20}
}

// StopReason says why an environment stopped; "" means it did not.
type StopReason string

const (
	None                StopReason = ""
	CPUExhausted        StopReason = "cpu_exhausted"
	MemoryExhausted     StopReason = "memory_exhausted"
	OutputLimitExceeded StopReason = "output_limit_exceeded"
)

// Display is the human form ("CPU exhausted").
func (r StopReason) Display() string {
	switch r {
	case CPUExhausted:
		return "CPU exhausted"
	case MemoryExhausted:
		return "memory exhausted"
	case OutputLimitExceeded:
		return "output limit exceeded"
	}
	return string(r)
}

// ExhaustedError is returned once a stop reason is set.
type ExhaustedError struct{ Reason StopReason }

func (e *ExhaustedError) Error() string { return e.Reason.Display() }
func (e *ExhaustedError) Unwrap() error { return command.ErrStopped }

// Meter accounts usage against limits. Not safe for concurrent use: the
// scheduler runs one process at a time.
type Meter struct {
	Limits  Limits
	CPU     int64
	Mem     int64
	MemPeak int64
	Out     int64
	Stop    StopReason
}

// NewMeter returns a meter with the given limits.
func NewMeter(l Limits) *Meter { return &Meter{Limits: l} }

func (m *Meter) stop(r StopReason) error {
	if m.Stop == None {
		m.Stop = r
	}
	return &ExhaustedError{m.Stop}
}

// Err is non-nil once a stop reason is set.
func (m *Meter) Err() error {
	if m.Stop != None {
		return &ExhaustedError{m.Stop}
	}
	return nil
}

// Charge spends n CPU units.
func (m *Meter) Charge(n int64) error {
	if m.Stop != None {
		return &ExhaustedError{m.Stop}
	}
	if n < 0 {
		n = 0
	}
	m.CPU += n
	if m.CPU > m.Limits.CPU {
		m.CPU = m.Limits.CPU
		return m.stop(CPUExhausted)
	}
	return nil
}

// Reserve adds n bytes to the working set; Release gives them back.
func (m *Meter) Reserve(n int64) error {
	if m.Stop != None {
		return &ExhaustedError{m.Stop}
	}
	if n < 0 {
		return fmt.Errorf("negative reservation")
	}
	if m.Mem+n > m.Limits.Memory {
		return m.stop(MemoryExhausted)
	}
	if n >= collectFrom && m.Mem+n > m.Limits.Memory/2 {
		// The host heap may hold as much garbage as live data before Go
		// collects it; near the limit a large allocation first collects,
		// so that the host stays within twice the modeled limit.
		runtime.GC()
	}
	m.Mem += n
	if m.Mem > m.MemPeak {
		m.MemPeak = m.Mem
	}
	return nil
}

// Release returns n bytes to the pool.
func (m *Meter) Release(n int64) {
	m.Mem -= n
	if m.Mem < 0 {
		m.Mem = 0
	}
}

// Output accounts n bytes of materialized output and returns how many may be
// written; over the cap it clamps and sets the stop reason.
func (m *Meter) Output(n int) (int, error) {
	if m.Stop != None {
		return 0, &ExhaustedError{m.Stop}
	}
	if room := m.Limits.Output - m.Out; int64(n) > room {
		m.Out = m.Limits.Output
		return int(max(room, 0)), m.stop(OutputLimitExceeded)
	}
	m.Out += int64(n)
	return n, nil
}
