package machine

import (
	"context"
	"io"
)

// Machine is one writable environment. Files persist until Close.
type Machine interface {
	// Run executes a command and waits for it. A timeout is not an error: the
	// Result says TimedOut. Cancelling ctx stops the command's process group
	// and returns ctx's error once the stop is confirmed.
	Run(ctx context.Context, cmd Command) (Result, error)
	// Upload copies a host file or directory to target inside the machine.
	Upload(ctx context.Context, source, target string) error
	// Download copies a file or directory from the machine to the host.
	Download(ctx context.Context, source, target string, opts DownloadOptions) error
	// Close releases everything the machine holds; calling it again is a no-op.
	Close(ctx context.Context) error
}

// DownloadOptions bound a download.
type DownloadOptions struct {
	// MaxBytes, when positive, bounds the total bytes of the files a
	// download writes (a file, or every file of a tree); more gives
	// DownloadLimitExceeded and leaves the target untouched. A negative
	// value is a bound of zero bytes (a caller's max_bytes=0); zero means no
	// bound, though the host's disk reserve still applies (lib/transfer).
	MaxBytes int64
}

// ProcessMachine can also start a long-lived process with raw pipes.
type ProcessMachine interface {
	Machine
	OpenProcess(ctx context.Context, cmd Command) (Process, error)
}

// Process is a running command with incremental binary I/O.
type Process interface {
	// Stdin receives the process's input; Close it to send EOF.
	Stdin() io.WriteCloser
	// Stdout is the process's output; it reaches io.EOF when the process
	// closes it.
	Stdout() io.Reader
	// Wait blocks until the process exits and reports its status and the
	// first Command.OutputLimit bytes of stderr.
	Wait(ctx context.Context) (ProcessExit, error)
	// Close kills the process group if it is still running and releases it.
	Close(ctx context.Context) error
}

// ProcessExit is how a process ended.
type ProcessExit struct {
	ExitCode        int
	Stderr          []byte
	StderrTruncated bool
}

// Requirements is what a task needs, as Harbor-facing code declares it.
type Requirements struct {
	CommandSemantics string // "linux_process" | "shell_simulator" | ""
	Capabilities     []string
	DockerImage      string
}

// Factory creates machines of one backend.
type Factory interface {
	// Backend is the backend's name, e.g. "local".
	Backend() string
	// CheckEnvironment rejects, without acquiring anything, what the backend
	// cannot do, with an *UnsupportedSpec naming the field.
	CheckEnvironment(req Requirements, spec Spec) error
	// Create starts a fresh machine.
	Create(ctx context.Context, spec Spec) (Machine, error)
}
