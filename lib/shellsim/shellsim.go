// Package shellsim is the Go API of ShellSim: a deterministic simulated
// machine (a Bash-like shell, BusyBox-like commands, an in-memory filesystem,
// virtual time and metered CPU, memory, disk and output) that never runs a
// host program. An Environment persists across actions.
package shellsim

import (
	"bytes"
	"context"
	"io/fs"
	"sort"
	"sync"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/sched"
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
	last     Outcome
}

// NewEnvironment boots a fresh machine with the default filesystem layout
// and the shell in /work.
func NewEnvironment(l Limits) *Environment {
	fsys := vfs.NewDefault(vfs.Options{Quota: l.Disk})
	rt := shell.NewRuntime(fsys, l)
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
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.terminal {
		return Result{Outcome: e.last}
	}
	rt := e.rt
	tel := rt.Tel
	cmdStart, unsStart, partStart := len(tel.Commands), len(tel.Unsupported), len(tel.Partials)
	seqStart := 0
	if n := len(tel.Invocations); n > 0 {
		seqStart = tel.Invocations[n-1].Sequence
	}
	var stdout, stderr bytes.Buffer
	ow, ew := &outWriter{m: rt.Meter, buf: &stdout}, &outWriter{m: rt.Meter, buf: &stderr}
	e.sh.SetStreams(bytes.NewReader(stdin), ow, ew)
	if arg0 != "" || args != nil {
		e.sh.SetParams(arg0, args)
	}
	done := make(chan struct{})
	watching := make(chan struct{})
	if ctx != nil && ctx.Done() != nil {
		go func() {
			defer close(watching)
			select {
			case <-ctx.Done():
				rt.Cancelled.Store(true)
			case <-done:
			}
		}()
	}
	status := 0
	rt.Sched.RunRoot(func(t *sched.Task) {
		e.sh.Attach(t)
		status = e.sh.RunSourceGuarded(source, "")
		e.sh.RunExitTrap()
		if e.sh.Terminated() {
			status = e.sh.ExitCode()
		}
		// Let runnable background work finish its current instant.
		for rt.Sched.Runnable() > 0 && rt.Meter.Stop == resources.None && !rt.Cancelled.Load() {
			t.Yield()
		}
	})
	close(done)
	// The watcher may still be choosing between ctx.Done and done: wait for
	// it, so a late cancellation cannot leak into the next action.
	if ctx != nil && ctx.Done() != nil {
		<-watching
	}
	cancelled := rt.Cancelled.Load()
	if rt.Meter.Stop != resources.None {
		status = 137
		e.terminal = true
	} else if cancelled {
		status = 137
		e.sh.ClearExit()
		rt.Cancelled.Store(false)
	} else if e.sh.Terminated() {
		e.terminal = true
	}
	if e.terminal {
		rt.Sched.KillAll(9)
		rt.Sched.Drain()
	}
	res := Result{Outcome: e.outcome(status), Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	res.Commands = append([]string(nil), tel.Commands[cmdStart:]...)
	res.Unsupported = append([]string(nil), tel.Unsupported[unsStart:]...)
	res.Partials = append([]string(nil), tel.Partials[partStart:]...)
	uns, part := map[string]bool{}, map[string]bool{}
	for _, inv := range tel.Invocations {
		if inv.Sequence <= seqStart {
			continue
		}
		res.Invocations = append(res.Invocations, inv)
		switch inv.Trust {
		case string(command.Unsupported):
			uns[inv.Argv[0]] = true
		case string(command.Partial):
			part[inv.Argv[0]] = true
		}
	}
	res.UnsupportedCommands, res.PartialCommands = sortedKeys(uns), sortedKeys(part)
	e.last = res.Outcome
	return res
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

// Close kills background jobs and releases their goroutines.
func (e *Environment) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rt.Sched.KillAll(9)
	e.rt.Sched.Drain()
}

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
	defer e.mu.Unlock()
	a := e.abs(p)
	if err := e.rt.FS.MkdirAll(parent(a), 0o755); err != nil {
		return err
	}
	return e.rt.FS.WriteFile(a, data, perm)
}

// Mkdir creates a directory and its parents.
func (e *Environment) Mkdir(p string, perm fs.FileMode) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt.FS.MkdirAll(e.abs(p), perm)
}

// FS exposes the virtual filesystem (for harnesses and tests).
func (e *Environment) FS() *vfs.FS { return e.rt.FS }

func parent(p string) string {
	for i := len(p) - 1; i > 0; i-- {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return "/"
}
