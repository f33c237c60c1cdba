package shell

import (
	"maps"

	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
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
		funcs: map[string]*syntax.Stmt{}, dir: dir, arg0: "bash", name: "bash", umask: 0o022}
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
