package machine

import (
	"fmt"
	"time"
)

// NetworkPolicy says whether a machine may reach the network.
type NetworkPolicy string

const (
	NetworkDeny  NetworkPolicy = "deny"
	NetworkAllow NetworkPolicy = "allow"
	// NetworkAllowlist admits only Spec.AllowedHosts, through the host's
	// egress filter (lib/egress).
	NetworkAllowlist NetworkPolicy = "allowlist"
)

// DefaultOutputLimit is Command.OutputLimit when none is given (1 MiB).
const DefaultOutputLimit = 1_048_576

// Spec is what a factory needs to create one machine.
type Spec struct {
	Source         Source
	Workdir        string // absolute; "" keeps the image's
	Env            map[string]string
	Network        NetworkPolicy
	MemoryMB       *int
	CPUs           *int
	StorageMB      *int
	GPUs           int
	StartupTimeout time.Duration // 0: none
	// AllowedHosts are the egress allowlist's entries (NetworkAllowlist
	// only; none behaves as NetworkDeny).
	AllowedHosts []string
	// EgressLog names the file that receives the egress filter's
	// decision records (JSON lines, appended); "" keeps none.
	EgressLog string
}

// Validate rejects values no backend could honour, the same way for every
// backend (the bridge calls it before a backend sees the spec).
func (s Spec) Validate() error {
	if s.Source == nil {
		return &InvalidSpec{Field: "source", Reason: "a machine needs an image source"}
	}
	if err := validateSource(s.Source); err != nil {
		return err
	}
	if s.Workdir != "" {
		if err := ValidateGuestPath("workdir", s.Workdir); err != nil {
			return err
		}
	}
	size, err := validateEnv("env", s.Env)
	if err != nil {
		return err
	}
	if size > MaxSpecEnvBytes {
		return &InvalidSpec{Field: "env", Reason: fmt.Sprintf("the environment takes %d bytes, over the limit of %d (MaxSpecEnvBytes)", size, MaxSpecEnvBytes)}
	}
	if s.CPUs != nil && *s.CPUs <= 0 {
		return &InvalidSpec{Field: "cpus", Reason: "cpus must be positive"}
	}
	if s.StorageMB != nil && *s.StorageMB <= 0 {
		return &InvalidSpec{Field: "storage_mb", Reason: "storage_mb must be positive"}
	}
	if s.MemoryMB != nil && *s.MemoryMB <= 0 {
		return &InvalidSpec{Field: "memory_mb", Reason: "memory_mb must be positive"}
	}
	if s.GPUs < 0 {
		return &InvalidSpec{Field: "gpus", Reason: "gpus must not be negative"}
	}
	if s.StartupTimeout < 0 {
		return &InvalidSpec{Field: "startup_timeout", Reason: "startup_timeout must be positive"}
	}
	switch s.Network {
	case NetworkDeny, NetworkAllow, NetworkAllowlist:
	default:
		return &InvalidSpec{Field: "network", Reason: fmt.Sprintf("unknown network policy %q", s.Network)}
	}
	return ValidateAllowedHosts(s.Network, s.AllowedHosts)
}

// Command is one program to run in a machine.
type Command struct {
	Argv        []string
	Cwd         string // "": the machine's workdir
	Env         map[string]string
	Stdin       []byte        // the command's standard input
	Timeout     time.Duration // 0: none
	OutputLimit int
	User        string // "": the machine's default user
	// OffHeapOutput lets Run keep output of a large OutputLimit outside
	// the Go heap (see Output); the caller must then call Result.Free
	// once done with Stdout and Stderr. Backends may ignore it.
	OffHeapOutput bool
}

// Validate rejects commands that cannot run anywhere, the same way for
// every backend: the bridge calls it before a backend sees the command.
func (c Command) Validate() error {
	if len(c.Argv) == 0 {
		return &InvalidSpec{Field: "argv", Reason: "a command needs at least one argument"}
	}
	size := 0
	for i, a := range c.Argv {
		if err := checkText("argv", fmt.Sprintf("argument %d", i), a, MaxArgStrlen); err != nil {
			return err
		}
		size += argCost(a)
	}
	if size > MaxArgBytes {
		return &InvalidSpec{Field: "argv", Reason: fmt.Sprintf("the arguments take %d bytes, over the limit of %d (MaxArgBytes, argv and env together)", size, MaxArgBytes)}
	}
	envSize, err := validateEnv("env", c.Env)
	if err != nil {
		return err
	}
	if size+envSize > MaxArgBytes {
		return &InvalidSpec{Field: "env", Reason: fmt.Sprintf("the arguments and environment take %d bytes, over the limit of %d (MaxArgBytes, argv and env together)", size+envSize, MaxArgBytes)}
	}
	if c.Cwd != "" {
		if err := ValidateGuestPath("cwd", c.Cwd); err != nil {
			return err
		}
	}
	if c.User != "" {
		if err := checkText("user", "the user name", c.User, MaxNameBytes); err != nil {
			return err
		}
	}
	if c.OutputLimit < 0 {
		return &InvalidSpec{Field: "output_limit_bytes", Reason: "must not be negative"}
	}
	if c.Timeout < 0 {
		return &InvalidSpec{Field: "timeout", Reason: "must be positive"}
	}
	return nil
}

// ExitReason says why a command ended.
type ExitReason string

const (
	Exited   ExitReason = "exited"
	TimedOut ExitReason = "timed_out"
)

// Result is what a finished command produced. ExitCode is nil only when the
// command did not exit by itself (it timed out and was killed).
type Result struct {
	ExitCode        *int
	Stdout          []byte
	Stderr          []byte
	StdoutTruncated bool
	StderrTruncated bool
	Reason          ExitReason
	// Usage is what the machine used while the command ran, where the
	// backend measures it (a local machine with a cgroup_parent); nil
	// otherwise.
	Usage *ResourceUsage
	// Free, when not nil, returns the memory of Stdout and Stderr at once
	// (they were kept off the heap, see Command.OffHeapOutput); neither
	// may be used afterwards.
	Free func()
}

// ResourceUsage is a command's share of its machine's resources: the CPU
// time the machine's processes used while it ran and the machine's peak
// memory in that time (commands running at once share both).
type ResourceUsage struct {
	CPUTime         time.Duration `json:"-"`
	CPUSeconds      float64       `json:"cpu_seconds"`
	PeakMemoryBytes uint64        `json:"peak_memory_bytes"`
}

// ExitedWith builds the Result of a command that exited with code.
func ExitedWith(code int, stdout, stderr []byte, outTrunc, errTrunc bool) Result {
	return Result{ExitCode: &code, Stdout: stdout, Stderr: stderr,
		StdoutTruncated: outTrunc, StderrTruncated: errTrunc, Reason: Exited}
}
