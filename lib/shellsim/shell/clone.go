package shell

import (
	"maps"

	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
	"mvdan.cc/sh/v3/syntax"
)

// Fresh returns a new shell process with fresh state, as if the
// environment's init had just started bash: the default variables, no
// functions, aliases, options or traps. It runs in dir with env exported,
// is a child of sh's process in its own process group, and does not
// become the environment's main shell. It shares sh's runtime (files,
// scheduler, meters). End it with Finish.
func (sh *Shell) Fresh(dir string, env map[string]string) (*Shell, error) {
	rt := sh.rt
	if err := rt.Meter.Reserve(resources.MemProcess); err != nil {
		return nil, err
	}
	c := &Shell{rt: rt, scopes: []map[string]*Var{maps.Clone(initialVars(rt.Hostname))},
		funcs: map[string]*syntax.Stmt{}, dir: dir, arg0: "bash", name: "bash", umask: 0o022,
		procMem: resources.MemProcess}
	exported := func(k, v string) {
		c.scopes[0][k] = &Var{Variable: expand.Variable{Set: true, Kind: expand.String, Str: v, Exported: true}}
	}
	exported("PWD", dir)
	for k, v := range env {
		exported(k, v)
	}
	p := rt.Sched.NewProc(sh.pid, 0, []string{"bash"}, dir)
	c.pid, c.ppid, c.pgid = p.PID, sh.pid, p.PID
	return c, nil
}

// Finish ends a shell made by Fresh: it runs its EXIT trap, reaps its
// process and releases its memory.
func (sh *Shell) Finish() { sh.finish() }

// PGID is the shell's process group.
func (sh *Shell) PGID() int { return sh.pgid }

// CopyIdle returns an independent copy of an idle runtime: files, processes,
// clock, meters, telemetry and routes. It fails while tasks are alive (see
// sched.ErrLiveTasks).
func (rt *Runtime) CopyIdle() (*Runtime, error) {
	s, err := rt.Sched.CopyIdle()
	if err != nil {
		return nil, err
	}
	m := *rt.Meter
	n := &Runtime{FS: rt.FS.CloneShared(), Sched: s, Meter: &m, Tel: rt.Tel.copyAll(), Hostname: rt.Hostname,
		Users: rt.Users, Commands: rt.Commands, Terminal: rt.Terminal, shellPID: rt.shellPID, rand: rt.rand}
	if rt.Net != nil {
		n.Net = rt.Net.Clone()
	}
	n.FS.SetClock(n.FileNow)
	n.FS.SetProc(&procFS{rt: n})
	return n, nil
}

// copyAll copies the telemetry of an idle runtime. The logs are
// append-only and an idle runtime has no invocation in flight (finish only
// touches those), so the copy shares their backing arrays: capping each
// slice at its length makes the next append of either side reallocate
// rather than write into what the other sees.
func (t *Telemetry) copyAll() *Telemetry {
	c := *t
	c.Invocations = t.Invocations[:len(t.Invocations):len(t.Invocations)]
	c.Commands = t.Commands[:len(t.Commands):len(t.Commands)]
	c.Unsupported = t.Unsupported[:len(t.Unsupported):len(t.Unsupported)]
	c.Partials = t.Partials[:len(t.Partials):len(t.Partials)]
	if t.Usage != nil {
		c.Usage = make(map[string]*CommandUsage, len(t.Usage))
		for k, u := range t.Usage {
			v := *u
			c.Usage[k] = &v
		}
	}
	return &c
}

// ErrOpenDescriptor: a shell holding descriptors opened by exec (3-9)
// cannot be copied, since they refer to the original's files.
type ErrOpenDescriptor int

func (e ErrOpenDescriptor) Error() string {
	return "descriptor " + string(rune('0'+int(e))) + " is open (exec " + string(rune('0'+int(e))) + ">...); close it first"
}

// CloneTo returns a copy of the idle main shell sh running on rt (a clone
// of sh's runtime): variables, functions, aliases, options, traps, the
// directory stack and finished jobs, with the same PID.
func (sh *Shell) CloneTo(rt *Runtime) (*Shell, error) {
	for i := 3; i < len(sh.fds); i++ {
		if sh.fds[i] != nil {
			return nil, ErrOpenDescriptor(i)
		}
	}
	c := *sh
	c.rt = rt
	c.scopes = make([]map[string]*Var, len(sh.scopes))
	for i, s := range sh.scopes {
		m := make(map[string]*Var, len(s))
		for k, v := range s {
			m[k] = cloneVar(v)
		}
		c.scopes[i] = m
	}
	c.cfg, c.cfgDepth, c.readDirFn, c.task = nil, 0, nil, nil
	c.funcs = maps.Clone(sh.funcs)
	c.funcOrigin = maps.Clone(sh.funcOrigin)
	c.disabled = maps.Clone(sh.disabled)
	c.aliases = maps.Clone(sh.aliases)
	c.traps = maps.Clone(sh.traps)
	c.jobs = nil
	for _, j := range sh.jobs {
		k := *j
		c.jobs = append(c.jobs, &k)
	}
	c.funcNames = append([]string(nil), sh.funcNames...)
	c.frames = append([]frame(nil), sh.frames...)
	c.params = append([]string(nil), sh.params...)
	c.dirs = append([]string(nil), sh.dirs...)
	c.fds = [10]*fdesc{}
	return &c, nil
}

// ResetFS points the runtime's filesystem hooks (proc, clock, quota) at
// fsys after it replaced rt.FS.
func (rt *Runtime) ResetFS(fsys *vfs.FS) {
	rt.FS = fsys
	fsys.SetClock(rt.FileNow)
	fsys.SetQuota(rt.Meter.Limits.Disk)
	fsys.SetProc(&procFS{rt: rt})
}

// SetDir changes the shell's working directory (and $PWD) without checks.
func (sh *Shell) SetDir(dir string) {
	sh.dir = dir
	if v := sh.lookup("PWD"); v == nil || !v.ReadOnly {
		sh.SetVar("PWD", dir)
	}
}

// PID is the shell's process id.
func (sh *Shell) PID() int { return sh.pid }

// Drop forgets the shell's variables, functions and cached state, for a
// closed environment: the process table may still reference the shell.
func (sh *Shell) Drop() {
	sh.scopes = []map[string]*Var{{}}
	sh.funcs, sh.funcOrigin = map[string]*syntax.Stmt{}, nil
	sh.aliases, sh.traps, sh.jobs, sh.params, sh.dirs = nil, nil, nil, nil, nil
	sh.cfg, sh.readDirFn, sh.psubs = nil, nil, nil
}
