package wire

// ErrorKind is the class of a failed call; the Python package raises the
// exception of the same name (Cancelled: asyncio.CancelledError).
type ErrorKind string

const (
	KindValueError                 ErrorKind = "ValueError"
	KindUnsupportedMachineSpec     ErrorKind = "UnsupportedMachineSpec"
	KindSandboxUnavailable         ErrorKind = "SandboxUnavailable"
	KindMachineStartupError        ErrorKind = "MachineStartupError"
	KindMachineTerminated          ErrorKind = "MachineTerminated"
	KindMachineInfrastructureError ErrorKind = "MachineInfrastructureError"
	KindDownloadLimitExceeded      ErrorKind = "DownloadLimitExceeded"
	KindFileNotFoundError          ErrorKind = "FileNotFoundError"
	KindPermissionError            ErrorKind = "PermissionError"
	KindMachineClosed              ErrorKind = "MachineClosed"
	KindCancelled                  ErrorKind = "Cancelled"
	KindRuntimeError               ErrorKind = "RuntimeError"
)

// Error is the header of a failed call (status 1).
type Error struct {
	Kind    ErrorKind `json:"kind"`
	Message string    `json:"message"`
	// Field names the request field a ValueError or UnsupportedMachineSpec
	// is about.
	Field string `json:"field,omitempty"`
	// Candidates are SandboxUnavailable's candidates and why each failed.
	Candidates []Candidate `json:"candidates,omitempty"`
	// StopReason is, for MachineTerminated, the resource whose exhaustion
	// ended a ShellSim machine.
	StopReason StopReason `json:"stop_reason,omitempty"`
}

// Candidate is why one sandbox candidate (a binary, a runtime) failed.
type Candidate struct {
	Candidate string `json:"candidate"`
	Error     string `json:"error"`
}

// StopReason is the budget whose exhaustion stopped a ShellSim machine or
// environment.
type StopReason string

const (
	CPUExhausted        StopReason = "cpu_exhausted"
	MemoryExhausted     StopReason = "memory_exhausted"
	OutputLimitExceeded StopReason = "output_limit_exceeded"
)

// ExitReason says why a command ended.
type ExitReason string

const (
	Exited   ExitReason = "exited"
	TimedOut ExitReason = "timed_out"
)
