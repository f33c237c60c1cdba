// Package shellsim is the Go API of ShellSim: a deterministic simulated
// machine (a Bash-like shell, BusyBox-like commands, an in-memory filesystem,
// virtual time and metered CPU, memory, disk and output) that never runs a
// host program. An Environment persists across actions.
package shellsim

import (
	"bytes"
	"context"
	"io/fs"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/commands/all"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/shell"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// Limits are the budgets of an environment (CPU units, bytes).
type Limits = resources.Limits

// DefaultLimits: 10,000,000 CPU units, 64 MiB memory, 64 MiB disk, 4 MiB output.
func DefaultLimits() Limits { return resources.DefaultLimits() }

// CostModelVersion identifies the cost table used for usage numbers.
const CostModelVersion = resources.CostModelVersion

// Usage is the cumulative resource use of an environment.
type Usage struct {
	CPUUsed       int64 `json:"cpu_used"`
	MemoryCurrent int64 `json:"memory_current"`
	MemoryPeak    int64 `json:"memory_peak"`
	DiskCurrent   int64 `json:"disk_current"`
	DiskPeak      int64 `json:"disk_peak"`
	OutputBytes   int64 `json:"output_bytes"`
}

// Outcome is how an action ended.
type Outcome struct {
	ExitStatus       int                  `json:"exit_status"`
	StopReason       *string              `json:"stop_reason"`
	Limits           Limits               `json:"limits"`
	Usage            Usage                `json:"usage"`
	CommandUsage     []shell.CommandUsage `json:"command_usage"`
	CostModelVersion int                  `json:"cost_model_version"`
}

// Invocation is one command run, with its trust level.
type Invocation = shell.Invocation

// Result is everything one action produced.
type Result struct {
	Outcome             Outcome
	Stdout, Stderr      []byte
	Commands            []string
	Invocations         []Invocation
	Unsupported         []string
	UnsupportedCommands []string
	PartialCommands     []string
	Partials            []string
}

// Environment is one simulated machine, persistent across actions.
type Environment struct {
	mu       sync.Mutex
	rt       *shell.Runtime
	sh       *shell.Shell
	terminal bool
	closed   bool
	last     Outcome

	active *Running                // the stepped action, if any
	cur    atomic.Pointer[control] // the running action's control
	j      *journal                // history since the anchor (see journal.go)
}

// Option configures an Environment at construction, the way
// mvdan.cc/sh/v3/interp takes its handlers: the machine's outside edges
// (its programs, its filesystem) are given, not looked up in globals.
type Option func(*envConfig)

// defaultCommands is built once and shared: tables are only read.
var defaultCommands = sync.OnceValue(all.Commands)

type envConfig struct {
	commands *command.Table
	fs       *vfs.FS
}

// WithCommands sets the programs the machine has (default: every built-in
// command, commands/all.Commands()). The table is only read, so one table
// may serve many environments.
func WithCommands(t *command.Table) Option { return func(c *envConfig) { c.commands = t } }

// WithFS boots the machine on fsys instead of a fresh default layout
// (vfs.NewDefault); the environment takes it over: its clock, quota (the
// limits' Disk) and /proc become the machine's.
func WithFS(fsys *vfs.FS) Option { return func(c *envConfig) { c.fs = fsys } }

// NewEnvironment boots a fresh machine with the default filesystem layout
// and the shell in /work.
func NewEnvironment(l Limits, opts ...Option) *Environment {
	var c envConfig
	for _, o := range opts {
		o(&c)
	}
	if c.commands == nil {
		c.commands = defaultCommands()
	}
	if c.fs == nil {
		c.fs = vfs.NewDefault(vfs.Options{Quota: l.Disk})
	}
	rt := shell.NewRuntime(c.fs, l, shell.WithCommands(c.commands))
	return &Environment{rt: rt, sh: shell.New(rt)}
}

// Terminated reports whether the session is over (exit, set -e failure or
// exhaustion); later actions return the same outcome without running.
func (e *Environment) Terminated() bool { return e.terminal }

// outWriter accounts action output against the output cap.
type outWriter struct {
	m   *resources.Meter
	buf *bytes.Buffer
}

func (w *outWriter) Write(p []byte) (int, error) {
	n, err := w.m.Output(len(p))
	w.buf.Write(p[:n])
	if err != nil {
		return n, err
	}
	return n, nil
}

// Run executes one action: source with stdin. ctx cancellation stops it
// (status 137).
func (e *Environment) Run(ctx context.Context, source string, stdin []byte) Result {
	return e.RunArgs(ctx, source, stdin, "", nil)
}

// RunArgs is Run with $0 and positional parameters.
func (e *Environment) RunArgs(ctx context.Context, source string, stdin []byte, arg0 string, args []string) Result {
	spec := execSpec{source: source, stdin: stdin}
	if arg0 != "" || args != nil {
		spec.params, spec.arg0, spec.args = true, arg0, append([]string(nil), args...)
	}
	return e.runSync(ctx, spec, nil, nil).Result
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (e *Environment) outcome(status int) Outcome {
	rt := e.rt
	_, disk, diskPeak := rt.FS.Usage()
	o := Outcome{ExitStatus: status, Limits: rt.Meter.Limits, CostModelVersion: CostModelVersion,
		Usage: Usage{CPUUsed: rt.Meter.CPU, MemoryCurrent: rt.Meter.Mem, MemoryPeak: rt.Meter.MemPeak,
			DiskCurrent: disk, DiskPeak: diskPeak, OutputBytes: rt.Meter.Out},
		CommandUsage: rt.Tel.CommandUsageList()}
	if rt.Meter.Stop != resources.None {
		r := string(rt.Meter.Stop)
		o.StopReason = &r
		o.ExitStatus = 137
	}
	return o
}

// Close cancels the active stepped action, kills background jobs and
// releases their goroutines.
func (e *Environment) Close() {
	if a := e.Active(); a != nil {
		a.Cancel()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.j = nil
	e.rt.Sched.KillAll(9)
	e.rt.Sched.Drain()
	// The host memory of a large simulation goes back to the OS now rather
	// than whenever the caller drops the environment and the runtime
	// scavenges: its files and shell state are dropped here.
	_, _, diskPeak := e.rt.FS.Usage()
	if e.rt.Meter.MemPeak+diskPeak >= returnMemoryFrom && !e.closed {
		e.rt.FS.Clear()
		e.sh.Drop()
		e.terminal = true
		debug.FreeOSMemory()
	}
	e.closed = true
}

// returnMemoryFrom is the modeled memory and disk peak from which Close
// returns host memory to the OS (a forced GC costs milliseconds).
const returnMemoryFrom = 64 << 20

// Dir is the shell's working directory.
func (e *Environment) Dir() string { return e.sh.Dir() }

func (e *Environment) abs(p string) string { return command.Join(e.sh.Dir(), p) }

// ReadFile reads a file of the virtual filesystem (relative to the cwd).
func (e *Environment) ReadFile(p string) ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt.FS.ReadFile(e.abs(p))
}

// WriteFile writes a file (creating parent directories).
func (e *Environment) WriteFile(p string, data []byte, perm fs.FileMode) error {
	e.mu.Lock()
	a := e.abs(p)
	e.mu.Unlock()
	data = append([]byte(nil), data...)
	return e.ChangeFS(func(fsys *vfs.FS) error {
		if err := fsys.MkdirAll(parent(a), 0o755); err != nil {
			return err
		}
		return fsys.WriteFile(a, data, perm)
	}, len(data))
}

// Mkdir creates a directory and its parents.
func (e *Environment) Mkdir(p string, perm fs.FileMode) error {
	e.mu.Lock()
	a := e.abs(p)
	e.mu.Unlock()
	return e.ChangeFS(func(fsys *vfs.FS) error { return fsys.MkdirAll(a, perm) }, len(a))
}

func parent(p string) string {
	for i := len(p) - 1; i > 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return "/"
}
