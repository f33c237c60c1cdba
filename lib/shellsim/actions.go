package shellsim

import (
	"bytes"
	"context"
	"fmt"
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
	spec := execSpec{source: a.Source, stdin: a.Stdin, fresh: a.Fresh, dir: a.Dir, env: a.Env, resetOnExit: resetOnExit}
	return e.runSync(ctx, spec, a.Stdout, a.Stderr)
}

// runSync runs an action to its end on the calling goroutine.
func (e *Environment) runSync(ctx context.Context, spec execSpec, stdout, stderr io.Writer) ActionResult {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.active != nil {
		msg := "shellsim: " + ErrActionActive.Error() + "\n"
		return ActionResult{Result: Result{Outcome: e.outcome(1), Stderr: []byte(msg)}}
	}
	e.beginJournal()
	ctl := newControl(e, e.journalAction(spec, false))
	var outBuf, errBuf *bytes.Buffer
	var ow, ew io.Writer
	if stdout != nil {
		ow = &meteredWriter{m: e.rt.Meter, w: stdout}
	} else {
		outBuf = &bytes.Buffer{}
		ow = &outWriter{m: e.rt.Meter, buf: outBuf}
	}
	if stderr != nil {
		ew = &meteredWriter{m: e.rt.Meter, w: stderr}
	} else {
		errBuf = &bytes.Buffer{}
		ew = &outWriter{m: e.rt.Meter, buf: errBuf}
	}
	res := e.exec(ctx, spec, ow, ew, ctl)
	if outBuf != nil {
		res.Stdout = outBuf.Bytes()
	}
	if errBuf != nil {
		res.Stderr = errBuf.Bytes()
	}
	e.settleJournal()
	return res
}

// exec runs one action with ctl as the scheduler's stepper (e.mu held).
// Every way of running an action (Run, Execute, Start, and the replay of
// any of them in a fork) goes through here, so that a replay runs exactly
// the same code as the original.
func (e *Environment) exec(ctx context.Context, spec execSpec, ow, ew io.Writer, ctl *control) ActionResult {
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
	sh := e.sh
	if spec.fresh {
		dir := spec.dir
		if dir == "" {
			dir = "/work"
		}
		fresh, err := e.sh.Fresh(dir, spec.env)
		if err != nil {
			e.terminal = rt.Meter.Stop != resources.None
			res := Result{Outcome: e.outcome(137)}
			e.last = res.Outcome
			return ActionResult{Result: res}
		}
		sh = fresh
	}
	var in io.Reader
	if ctl.step != nil {
		in = ctl.step.input
	} else {
		in = bytes.NewReader(spec.stdin)
	}
	sh.SetStreams(in, ow, ew)
	ctl.sh = sh
	if spec.params {
		sh.SetParams(spec.arg0, spec.args)
	}
	// A stale flag (a cancellation that raced the end of an earlier action)
	// must not stop this one.
	rt.Cancelled.Store(false)
	e.cur.Store(ctl)
	if ctl.replaying {
		ctl.applyReplay(-1)
	}
	ctl.checkCancel(-1)
	done, exited := make(chan struct{}), make(chan struct{})
	if ctx != nil && ctx.Done() != nil {
		go func() {
			defer close(exited)
			select {
			case <-ctx.Done():
				ctl.cancelReq.Store(true)
			case <-done:
			}
		}()
	} else {
		close(exited)
	}
	status := 0
	rt.Sched.Stepper = ctl
	rt.Sched.RunRoot(func(t *sched.Task) {
		sh.Attach(t)
		status = sh.RunSourceGuarded(spec.source, "")
		if spec.fresh {
			sh.Finish()
		} else {
			sh.RunExitTrap()
		}
		if sh.Terminated() {
			status = sh.ExitCode()
		}
		// Let runnable background work finish its current instant.
		for rt.Sched.Runnable() > 0 && rt.Meter.Stop == resources.None && !rt.Cancelled.Load() {
			t.Yield()
		}
	})
	rt.Sched.Stepper = nil
	close(done)
	// The watcher may still be choosing between ctx.Done and done: wait for
	// it, so a late cancellation cannot leak into the next action.
	<-exited
	e.cur.Store(nil)
	cancelled := rt.Cancelled.Load()
	rt.Cancelled.Store(false)
	out := ActionResult{}
	if rt.Meter.Stop != resources.None {
		status = 137
		e.terminal = true
	} else if cancelled {
		status = 137
		out.Cancelled = true
		sh.ClearExit()
	} else if !spec.fresh && sh.Terminated() {
		out.ShellExited = true
		if spec.resetOnExit {
			e.sh = shell.New(rt)
		} else {
			e.terminal = true
		}
	}
	if e.terminal {
		rt.Sched.KillAll(9)
		rt.Sched.Drain()
	}
	res := Result{Outcome: e.outcome(status)}
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
// (the filesystem is not safe for concurrent use). fn must only read it:
// changes go through ChangeFS.
func (e *Environment) WithFS(fn func(fsys *vfs.FS) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return fn(e.rt.FS)
}

// ChangeFS runs fn to change the environment's filesystem while no action
// runs (or while the active one is paused). fn is kept in the
// environment's journal and runs again when a fork replays it, so it must
// depend only on what it captured (size: roughly how many bytes that is).
func (e *Environment) ChangeFS(fn func(fsys *vfs.FS) error, size int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	err := fn(e.rt.FS)
	e.note(func(c *Environment) { _ = fn(c.rt.FS) }, size)
	return err
}

// AddRoute adds a virtual HTTP route that curl, wget and net of this
// environment (and of its forks) reach.
func (e *Environment) AddRoute(r command.Route) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	err := e.rt.Routes().AddRoute(r)
	e.note(func(c *Environment) { _ = c.rt.Routes().AddRoute(r) }, len(r.Body)+len(r.Pattern))
	return err
}

// RemoveServedRoute removes the routes with a Serve function whose
// pattern is pattern (AddRoute added them).
func (e *Environment) RemoveServedRoute(pattern string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.rt.Routes().RemoveServed(pattern)
	e.note(func(c *Environment) { c.rt.Routes().RemoveServed(pattern) }, len(pattern))
}

// Signal sends signal sig (a number) to process pid, or to process group
// pid when group is set, as kill does; it fails when no such process is
// alive.
func (e *Environment) Signal(pid, sig int, group bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	ok := e.sh.Signal(pid, sig, group)
	e.note(func(c *Environment) { c.sh.Signal(pid, sig, group) }, 16)
	if !ok {
		return fmt.Errorf("(%d) - No such process", pid)
	}
	return nil
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
	PID     int        `json:"pid"`
	PPID    int        `json:"ppid"`
	PGID    int        `json:"process_group"`
	Command []string   `json:"command"`
	Cwd     string     `json:"cwd"`
	Status  ProcStatus `json:"status"`
}

// ProcStatus is a process's state: "runnable", "running", "blocked"
// (with the Reason it waits for) or "exited" (with its exit Status).
type ProcStatus struct {
	State  string  `json:"state"`
	Reason *Reason `json:"reason,omitempty"`
	Status *int    `json:"status,omitempty"`
}

// Snapshot is an inspection of an environment.
type Snapshot struct {
	Cwd         string        `json:"cwd"`
	CurrentPID  int           `json:"current_pid"`
	MonotonicNS int64         `json:"monotonic_ns"`
	WallTimeNS  int64         `json:"wall_time_ns"`
	Processes   []ProcessInfo `json:"processes"`
	Outcome     Outcome       `json:"outcome"`
	Terminated  bool          `json:"terminated"`
}

// Inspect describes the environment: cwd, clocks, processes (with what
// each blocked one waits for) and the cumulative outcome (with the last
// action's status). It may be called while a stepped action is paused.
func (e *Environment) Inspect() Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	rt := e.rt
	s := Snapshot{Cwd: e.sh.Dir(), CurrentPID: e.sh.PID(), MonotonicNS: int64(rt.Sched.Now()),
		WallTimeNS: rt.Now().UnixNano(), Processes: []ProcessInfo{}, Terminated: e.terminal}
	for _, p := range rt.Sched.Procs() {
		pi := ProcessInfo{PID: p.PID, PPID: p.PPID, PGID: p.PGID, Command: append([]string{}, p.Args...), Cwd: p.Dir}
		switch {
		case p.Exited:
			st := p.Status
			pi.Status = ProcStatus{State: "exited", Status: &st}
		case p.Task == nil || p.Task.Done():
			// The main shell between actions waits for the next one.
			pi.Status = ProcStatus{State: "blocked", Reason: &Reason{Kind: "shell_session", PID: &pi.PID}}
		default:
			pi.Status = ProcStatus{State: p.Task.State()}
			if pi.Status.State == "blocked" {
				pi.Status.Reason = e.reasonOf(p.Task, 0)
			}
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
		if p.Status.State != "exited" && p.PID != e.sh.PID() {
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
	op := func(c *Environment) {
		if fi, err := c.rt.FS.Stat(c.sh.Dir()); err != nil || !fi.IsDir() {
			c.sh.SetDir("/work")
		}
	}
	op(e)
	e.note(op, 0)
}

// Interrupt stops the running action at its next sync point, as a
// cancelled ctx does (safe from any goroutine).
func (e *Environment) Interrupt() {
	if c := e.cur.Load(); c != nil {
		c.cancelReq.Store(true)
	}
}

// Limits are the environment's budgets.
func (e *Environment) Limits() Limits {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt.Meter.Limits
}
