package shellsim

import (
	"bytes"
	"context"
	"io"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/sched"
	"github.com/shellbox/shellbox/lib/shellsim/shell"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// Action is one action for Execute.
type Action struct {
	Source string
	Stdin  []byte
	// StdinReader, when set, is the action's stdin instead of Stdin (a
	// streaming input; reads may block the action).
	StdinReader io.Reader
	// Stepper, when set, steps the action (see sched.Stepper): it may pause
	// it before virtual time jumps and after quanta of work.
	Stepper sched.Stepper
	// Stdout and Stderr receive the output as it is produced (after the
	// output cap); nil collects it into the Result.
	Stdout, Stderr io.Writer
	// Fresh runs the action in a new shell with fresh state (no functions,
	// aliases, options or non-exported variables of earlier actions) in Dir
	// with Env exported, over the same files, processes and meters; exit in
	// it ends only that shell. Otherwise the action runs in the persistent
	// main shell, as Run does.
	Fresh bool
	Dir   string
	Env   map[string]string
}

// ActionResult is Result plus what happened to the shell.
type ActionResult struct {
	Result
	// ShellExited: the persistent main shell exited (exit, set -e); with
	// ResetOnExit the environment then has a fresh main shell in /work and
	// stays usable.
	ShellExited bool
	// Cancelled: ctx ended the action (status 137).
	Cancelled bool
}

// Execute runs one action. Unlike Run, an exit of the main shell does not
// end the environment when resetOnExit is set: a new main shell replaces
// it. Resource exhaustion always ends the environment.
func (e *Environment) Execute(ctx context.Context, a Action, resetOnExit bool) ActionResult {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.terminal {
		return ActionResult{Result: Result{Outcome: e.last}}
	}
	rt := e.rt
	tel := rt.Tel
	cmdStart, unsStart, partStart := len(tel.Commands), len(tel.Unsupported), len(tel.Partials)
	seqStart := 0
	if n := len(tel.Invocations); n > 0 {
		seqStart = tel.Invocations[n-1].Sequence
	}
	var stdout, stderr bytes.Buffer
	var ow, ew io.Writer = &outWriter{m: rt.Meter, buf: &stdout}, &outWriter{m: rt.Meter, buf: &stderr}
	if a.Stdout != nil {
		ow = &meteredWriter{m: rt.Meter, w: a.Stdout}
	}
	if a.Stderr != nil {
		ew = &meteredWriter{m: rt.Meter, w: a.Stderr}
	}
	sh := e.sh
	if a.Fresh {
		dir := a.Dir
		if dir == "" {
			dir = "/work"
		}
		fresh, err := e.sh.Fresh(dir, a.Env)
		if err != nil {
			e.terminal = rt.Meter.Stop != resources.None
			res := Result{Outcome: e.outcome(137)}
			e.last = res.Outcome
			return ActionResult{Result: res}
		}
		sh = fresh
	}
	var in io.Reader = bytes.NewReader(a.Stdin)
	if a.StdinReader != nil {
		in = a.StdinReader
	}
	sh.SetStreams(in, ow, ew)
	// A stale flag (a cancellation that raced the end of an earlier action)
	// must not stop this one.
	rt.Cancelled.Store(false)
	done, exited := make(chan struct{}), make(chan struct{})
	if ctx != nil && ctx.Done() != nil {
		go func() {
			defer close(exited)
			select {
			case <-ctx.Done():
				rt.Cancelled.Store(true)
			case <-done:
			}
		}()
	} else {
		close(exited)
	}
	status := 0
	rt.Sched.Stepper = a.Stepper
	rt.Sched.RunRoot(func(t *sched.Task) {
		sh.Attach(t)
		status = sh.RunSourceGuarded(a.Source, "")
		if a.Fresh {
			sh.Finish()
		} else {
			sh.RunExitTrap()
		}
		if sh.Terminated() {
			status = sh.ExitCode()
		}
		for rt.Sched.Runnable() > 0 && rt.Meter.Stop == resources.None && !rt.Cancelled.Load() {
			t.Yield()
		}
	})
	rt.Sched.Stepper = nil
	cancelled := rt.Cancelled.Load()
	close(done)
	<-exited
	rt.Cancelled.Store(false)
	out := ActionResult{}
	if rt.Meter.Stop != resources.None {
		status = 137
		e.terminal = true
	} else if cancelled {
		status = 137
		out.Cancelled = true
		sh.ClearExit()
	} else if !a.Fresh && sh.Terminated() {
		out.ShellExited = true
		if resetOnExit {
			e.sh = shell.New(rt)
		} else {
			e.terminal = true
		}
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
	out.Result = res
	return out
}

// meteredWriter accounts output against the output cap and passes it on.
type meteredWriter struct {
	m *resources.Meter
	w io.Writer
}

func (w *meteredWriter) Write(p []byte) (int, error) {
	n, err := w.m.Output(len(p))
	if n > 0 {
		if _, werr := w.w.Write(p[:n]); werr != nil && err == nil {
			err = werr
		}
	}
	return n, err
}

// StopReason is why the environment ended ("" while it runs).
func (e *Environment) StopReason() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return string(e.rt.Meter.Stop)
}

// Usage is the environment's cumulative resource use.
func (e *Environment) Usage() Usage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.outcome(0).Usage
}

// WithFS runs fn with the environment's filesystem while no action runs
// (the filesystem is not safe for concurrent use).
func (e *Environment) WithFS(fn func(fsys *vfs.FS) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return fn(e.rt.FS)
}

// AddRoute adds a virtual HTTP route that curl, wget and net of this
// environment (and of its forks) reach.
func (e *Environment) AddRoute(r command.Route) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt.Routes().AddRoute(r)
}

// NetworkRequests are the requests commands made, in order, and how many
// were dropped once the record was full.
func (e *Environment) NetworkRequests() ([]command.RequestRecord, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt.Routes().Record()
}

// ProcessInfo is one entry of the process table.
type ProcessInfo struct {
	PID     int      `json:"pid"`
	PPID    int      `json:"ppid"`
	PGID    int      `json:"process_group"`
	Command []string `json:"command"`
	Cwd     string   `json:"cwd"`
	State   string   `json:"state"` // "running", "blocked" or "exited"
	Status  *int     `json:"status,omitempty"`
}

// Snapshot is an inspection of an idle environment.
type Snapshot struct {
	Cwd         string        `json:"cwd"`
	CurrentPID  int           `json:"current_pid"`
	MonotonicNS int64         `json:"monotonic_ns"`
	WallTimeNS  int64         `json:"wall_time_ns"`
	Processes   []ProcessInfo `json:"processes"`
	Outcome     Outcome       `json:"outcome"`
	Terminated  bool          `json:"terminated"`
}

// Inspect describes the environment: cwd, clocks, processes and the
// cumulative outcome (with the last action's status).
func (e *Environment) Inspect() Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	rt := e.rt
	s := Snapshot{Cwd: e.sh.Dir(), CurrentPID: e.sh.PID(), MonotonicNS: int64(rt.Sched.Now()),
		WallTimeNS: rt.Now().UnixNano(), Processes: []ProcessInfo{}, Terminated: e.terminal}
	for _, p := range rt.Sched.Procs() {
		pi := ProcessInfo{PID: p.PID, PPID: p.PPID, PGID: p.PGID, Command: append([]string{}, p.Args...), Cwd: p.Dir, State: "blocked"}
		if p.Exited {
			st := p.Status
			pi.State, pi.Status = "exited", &st
		} else if p.PID == e.sh.PID() {
			pi.State = "running"
		}
		s.Processes = append(s.Processes, pi)
	}
	s.Outcome = e.outcome(e.last.ExitStatus)
	return s
}

// LiveProcesses counts processes that have not exited, the main shell
// excluded.
func (e *Environment) LiveProcesses() int {
	n := 0
	for _, p := range e.Inspect().Processes {
		if p.State != "exited" && p.PID != e.sh.PID() {
			n++
		}
	}
	return n
}

// ResetDirIfGone moves the main shell to /work when its directory no
// longer exists (after ResetWorkspace).
func (e *Environment) ResetDirIfGone() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if fi, err := e.rt.FS.Stat(e.sh.Dir()); err != nil || !fi.IsDir() {
		e.sh.SetDir("/work")
	}
}

// Interrupt stops the running action at once, as a cancelled ctx does
// (safe from any goroutine).
func (e *Environment) Interrupt() { e.rt.Cancelled.Store(true) }

// Limits are the environment's budgets.
func (e *Environment) Limits() Limits {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt.Meter.Limits
}
