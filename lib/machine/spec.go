package machine

import (
	"encoding/json"
	"fmt"
	"path"
	"time"
)

// NetworkPolicy says whether a machine may reach the network.
type NetworkPolicy string

const (
	NetworkDeny  NetworkPolicy = "deny"
	NetworkAllow NetworkPolicy = "allow"
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
}

// Validate rejects values no backend could honour; the Python MachineSpec
// runs the same checks at construction.
func (s Spec) Validate() error {
	if s.Source == nil {
		return &InvalidSpec{Field: "source", Reason: "a machine needs an image source"}
	}
	if s.Workdir != "" && !path.IsAbs(s.Workdir) {
		return &InvalidSpec{Field: "workdir", Reason: fmt.Sprintf("must be an absolute path, got %q", s.Workdir)}
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
	switch s.Network {
	case NetworkDeny, NetworkAllow:
	default:
		return &InvalidSpec{Field: "network", Reason: fmt.Sprintf("unknown network policy %q", s.Network)}
	}
	return nil
}

// specWire is the JSON form of Spec, as the Python MachineSpec sends it.
type specWire struct {
	Source         json.RawMessage   `json:"source"`
	Workdir        *string           `json:"workdir"`
	Env            map[string]string `json:"env"`
	Network        NetworkPolicy     `json:"network"`
	MemoryMB       *int              `json:"memory_mb"`
	CPUs           *int              `json:"cpus"`
	StorageMB      *int              `json:"storage_mb"`
	GPUs           int               `json:"gpus"`
	StartupTimeout *float64          `json:"startup_timeout"`
}

// UnmarshalJSON reads a spec with the defaults of the Python MachineSpec
// (workdir "/workspace", network deny).
func (s *Spec) UnmarshalJSON(data []byte) error {
	var w specWire
	if err := json.Unmarshal(data, &w); err != nil {
		return &InvalidSpec{Field: "spec", Reason: err.Error()}
	}
	src, err := DecodeSource(w.Source)
	if err != nil {
		return err
	}
	*s = Spec{Source: src, Workdir: "/workspace", Env: w.Env, Network: w.Network,
		MemoryMB: w.MemoryMB, CPUs: w.CPUs, StorageMB: w.StorageMB, GPUs: w.GPUs}
	if w.Workdir != nil {
		s.Workdir = *w.Workdir
	}
	if s.Network == "" {
		s.Network = NetworkDeny
	}
	if w.StartupTimeout != nil {
		s.StartupTimeout = time.Duration(*w.StartupTimeout * float64(time.Second))
	}
	return s.Validate()
}

// Command is one program to run in a machine.
type Command struct {
	Argv        []string          `json:"argv"`
	Cwd         string            `json:"cwd,omitempty"` // "": the machine's workdir
	Env         map[string]string `json:"env,omitempty"`
	Stdin       []byte            `json:"-"` // crosses the C ABI as the payload
	Timeout     time.Duration     `json:"-"` // 0: none
	OutputLimit int               `json:"output_limit_bytes"`
	User        string            `json:"user,omitempty"` // "": the machine's default user
}

// Validate rejects commands that cannot run anywhere.
func (c Command) Validate() error {
	if len(c.Argv) == 0 {
		return &InvalidSpec{Field: "argv", Reason: "a command needs at least one argument"}
	}
	if c.Cwd != "" && !path.IsAbs(c.Cwd) {
		return &InvalidSpec{Field: "cwd", Reason: fmt.Sprintf("must be an absolute path, got %q", c.Cwd)}
	}
	if c.OutputLimit < 0 {
		return &InvalidSpec{Field: "output_limit_bytes", Reason: "must not be negative"}
	}
	if c.Timeout < 0 {
		return &InvalidSpec{Field: "timeout", Reason: "must not be negative"}
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
}

// ExitedWith builds the Result of a command that exited with code.
func ExitedWith(code int, stdout, stderr []byte, outTrunc, errTrunc bool) Result {
	return Result{ExitCode: &code, Stdout: stdout, Stderr: stderr,
		StdoutTruncated: outTrunc, StderrTruncated: errTrunc, Reason: Exited}
}
