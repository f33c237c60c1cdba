package shell

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/sched"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

func fsMode(m int) fs.FileMode { return fs.FileMode(m) }

// binDirs are the directories where registered commands "live".
var binDirs = map[string]bool{"/bin": true, "/usr/bin": true, "/usr/local/bin": true, "/sbin": true, "/usr/sbin": true}

func (sh *Shell) call(c *syntax.CallExpr, redirs []*syntax.Redirect) {
	mark := len(sh.psubs)
	defer func() {
		if len(sh.psubs) > mark {
			sh.closeProcSubs(mark)
		}
	}()
	sh.substRan = false
	var args []string
	if len(c.Args) > 0 {
		var err error
		args, err = sh.fields(c.Args...)
		if err != nil {
			sh.wordError(err)
			return
		}
	}
	if len(args) == 0 {
		for _, as := range c.Assigns {
			if err := sh.assign(as, false); err != nil {
				sh.assignError(err)
				return
			}
			if sh.opts.xtrace {
				// bash traces each assignment as it is made
				sh.traceAssigns([]*syntax.Assign{as})
			}
		}
		st := 0
		if sh.substRan {
			st = sh.substSt
		}
		if len(redirs) > 0 {
			saved := sh.fds
			cleanup, err := sh.redirect(redirs)
			sh.fds = saved
			cleanup()
			if err != nil {
				st = sh.redirStatus(err)
			}
		}
		sh.status = st
		return
	}
	var env []string
	for _, as := range c.Assigns {
		if as.Index != nil {
			if se, ok := expand.BadSubscript(as.Index).(expand.SubscriptError); ok {
				sh.errf("`%s': not a valid identifier", se.Text)
			}
		}
		if as.Array != nil || as.Index != nil {
			continue
		}
		if old := sh.lookup(as.Name.Value); old != nil && old.ReadOnly {
			// bash reports it and runs the command without the assignment.
			sh.errf("%v", errReadonly(as.Name.Value))
			continue
		}
		v, err := sh.literal(as.Value)
		if err != nil {
			sh.wordError(err)
			return
		}
		if as.Append {
			cur, _ := sh.getVar(as.Name.Value)
			v = cur + v
		}
		env = append(env, as.Name.Value+"="+v)
	}
	if sh.opts.xtrace {
		sh.trace(env, args)
	}
	if len(redirs) == 0 {
		sh.runArgs(args, env)
		return
	}
	saved := sh.fds
	sh.persist = false
	cleanup, err := sh.redirect(redirs)
	if err != nil {
		sh.fds = saved
		cleanup()
		if !sh.exiting {
			sh.status = sh.redirStatus(err)
		}
		return
	}
	sh.runArgs(args, env)
	if sh.persist {
		sh.persist = false
		return
	}
	sh.fds = saved
	cleanup()
}

// builtinAssignError reports a failed assignment by a builtin (read,
// printf -v, mapfile): in bash a readonly target fails the builtin, not the shell.
func (sh *Shell) builtinAssignError(err error) {
	var ro errReadonly
	if errors.As(err, &ro) {
		sh.errf("%v", err)
		return
	}
	sh.assignError(err)
}

func (sh *Shell) assignError(err error) {
	var ro errReadonly
	if errors.As(err, &ro) {
		sh.errf("%v", err)
		// bash: assigning a readonly variable abandons the command line
		sh.discard()
		return
	}
	sh.wordError(err)
}

func (sh *Shell) trace(env, args []string) {
	var b strings.Builder
	b.WriteString(sh.ps4())
	for i, a := range append(append([]string(nil), env...), args...) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(traceQuote(a))
	}
	b.WriteByte('\n')
	io.WriteString(sh.stderr(), b.String())
}

func (sh *Shell) traceAssigns(as []*syntax.Assign) {
	var env []string
	for _, a := range as {
		if a.Name == nil {
			continue
		}
		if a.Array != nil {
			// bash shows an array assignment as written
			sh.traceLine(printNode(a))
			continue
		}
		v, _ := sh.getVar(a.Name.Value)
		env = append(env, a.Name.Value+"="+v)
	}
	// bash traces each assignment of an assignment-only command on its own line
	var b strings.Builder
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		b.WriteString(sh.ps4() + k + "=" + traceQuote(v) + "\n")
	}
	io.WriteString(sh.stderr(), b.String())
}

func traceQuote(s string) string {
	if s == "" {
		return "''"
	}
	if strings.ContainsAny(s, " \t\n'\"\\$`|&;<>(){}*?[]!#~") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// assign performs one assignment (x=v, x+=v, a[i]=v, a=(...)).
func (sh *Shell) assign(as *syntax.Assign, local bool) error {
	name := as.Name.Value
	if as.Array != nil {
		return sh.assignArray(name, as.Array, as.Append, local, expand.Unknown)
	}
	val, err := sh.literal(as.Value)
	if err != nil {
		return err
	}
	if as.Index != nil {
		key, err := sh.indexKey(name, as.Index)
		if err != nil {
			return err
		}
		return sh.setIndex(name, key, val, as.Append)
	}
	if as.Append {
		v := sh.lookup(sh.resolveRef(name))
		if v != nil && v.Kind == expand.Indexed {
			return sh.setIndex(name, fmt.Sprint(maxIndex(v)+1), val, false)
		}
		if v != nil && v.Integer {
			cur, _ := sh.getVar(name)
			val = cur + "+(" + val + ")"
		} else {
			cur, _ := sh.getVar(name)
			val = cur + val
		}
	}
	if local {
		nv := &Var{Variable: expand.Variable{Set: true, Kind: expand.String, Str: val}}
		return sh.setLocal(name, nv)
	}
	return sh.SetVar(name, val)
}

// indexKey expands an array subscript: literal for associative arrays,
// arithmetic for indexed ones.
func (sh *Shell) indexKey(name string, idx syntax.ArithmExpr) (string, error) {
	if err := expand.BadSubscript(idx); err != nil {
		return "", err
	}
	v := sh.lookup(sh.resolveRef(name))
	if v != nil && v.Kind == expand.Associative {
		return expand.AssocIndex(sh.ecfg(), idx)
	}
	n, err := sh.arithTop(idx, syntax.Pos{}, "")
	if err != nil {
		return "", expand.MarkSubscript(err)
	}
	return fmt.Sprint(n), nil
}

func (sh *Shell) assignArray(name string, arr *syntax.ArrayExpr, appendVals, local bool, kind expand.ValueKind) error {
	old := sh.lookup(sh.resolveRef(name))
	nv := &Var{}
	if kind == expand.Unknown {
		kind = expand.Indexed
		if old != nil && old.Kind == expand.Associative {
			kind = expand.Associative
		}
	}
	if old != nil && (appendVals || !local) {
		nv.Exported, nv.Integer, nv.Lower, nv.Upper = old.Exported, old.Integer, old.Lower, old.Upper
		nv.ReadOnly = old.ReadOnly
		if appendVals {
			nv = cloneVar(old)
			if nv.Kind == expand.String {
				nv.List = []string{nv.Str}
				nv.Str = ""
			}
		}
	}
	if nv.ReadOnly {
		return errReadonly(name)
	}
	nv.Set, nv.Kind = true, kind
	if kind == expand.Associative {
		if nv.Map == nil || !appendVals {
			nv.Map = map[string]string{}
		}
		for _, el := range arr.Elems {
			if el.Index == nil {
				return fmt.Errorf("%s: must use subscript when assigning associative array", name)
			}
			k, err := expand.AssocIndex(sh.ecfg(), el.Index)
			if err != nil {
				return err
			}
			v, err := sh.literal(el.Value)
			if err != nil {
				return err
			}
			nv.Map[k] = v
		}
	} else {
		if !appendVals {
			nv.List, nv.Indexes = nil, nil
		}
		next := maxIndex(nv) + 1
		for _, el := range arr.Elems {
			if el.Index != nil {
				i, err := sh.arithTop(el.Index, syntax.Pos{}, "")
				if err != nil {
					return expand.MarkSubscript(err)
				}
				v, err := sh.literal(el.Value)
				if err != nil {
					return err
				}
				indexSet(nv, i, v)
				next = i + 1
				continue
			}
			vals, err := sh.fields(el.Value)
			if err != nil {
				return err
			}
			for _, v := range vals {
				indexSet(nv, next, v)
				next++
			}
		}
	}
	if local {
		return sh.setLocal(name, nv)
	}
	return sh.store(name, nv)
}

// runArgs dispatches expanded arguments: function, builtin, or command.
func (sh *Shell) runArgs(args []string, env []string) {
	name := args[0]
	if a, ok := sh.aliases[name]; ok && sh.opts.expandAliases && sh.aliasDepth < 8 {
		if fields := strings.Fields(a); len(fields) > 0 {
			sh.aliasDepth++
			sh.runArgs(append(fields, args[1:]...), env)
			sh.aliasDepth--
			return
		}
	}
	if body, ok := sh.funcs[name]; ok {
		restore := sh.tempEnv(env)
		sh.callFunc(name, body, args[1:])
		restore()
		return
	}
	if b, ok := sh.builtin(name); ok {
		restore := sh.tempEnv(env)
		sh.runBuiltin(name, b, args)
		restore()
		return
	}
	sh.status = sh.external(args, env, sh.fds)
}

// tempEnv applies prefix assignments for a function or builtin and returns
// the undo.
func (sh *Shell) tempEnv(env []string) func() {
	if len(env) == 0 {
		return func() {}
	}
	type saved struct {
		name string
		v    *Var
	}
	var olds []saved
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		var old *Var
		if o := sh.lookup(k); o != nil {
			old = cloneVar(o)
		}
		olds = append(olds, saved{k, old})
		nv := &Var{Variable: expand.Variable{Set: true, Kind: expand.String, Str: v, Exported: true}}
		sh.store(k, nv)
	}
	return func() {
		for i := len(olds) - 1; i >= 0; i-- {
			o := olds[i]
			if o.v == nil {
				sh.unsetVar(o.name)
			} else {
				sh.store(o.name, o.v)
			}
		}
	}
}

func (sh *Shell) callFunc(name string, body *syntax.Stmt, args []string) {
	if sh.charge(resources.CostBuiltin) != nil {
		return
	}
	if limit := sh.funcNest(); len(sh.funcNames) >= limit {
		// bash's wording; like bash -c, the shell gives up with status 1.
		sh.errf("%s: maximum function nesting level exceeded (%d)", name, limit)
		sh.exit(1)
		return
	}
	if !sh.enter() {
		return
	}
	defer sh.leave()
	oldParams := sh.params
	sh.params = args
	sh.scopes = append(sh.scopes, map[string]*Var{})
	sh.funcNames = append(sh.funcNames, name)
	oldLoop := sh.loopDepth
	sh.loopDepth = 0
	o, hasOrigin := sh.funcOrigin[body]
	caller := origin{sh.lineBase, sh.lineSkew, sh.name}
	src := sh.name
	if hasOrigin {
		src = o.name
	}
	sh.frames = append(sh.frames, frame{name, sh.sourceName(src), sh.lineno})
	if hasOrigin {
		sh.lineBase, sh.lineSkew, sh.name = o.base, o.skew, o.name
	}
	// a function inherits the RETURN trap only under set -T or declare
	// -t; one it sets stays set when it returns
	saved, hadTrap := sh.traps["RETURN"]
	traced := sh.opts.functrace || sh.tracedFuncs[name]
	if hadTrap && !traced {
		delete(sh.traps, "RETURN")
	}
	sh.stmt(body)
	returned := sh.returning
	sh.returning = false
	sh.runReturnTrap(returned)
	if _, set := sh.traps["RETURN"]; hadTrap && !traced && !set {
		sh.traps["RETURN"] = saved
	}
	sh.frames = sh.frames[:len(sh.frames)-1]
	if hasOrigin {
		sh.lineBase, sh.lineSkew, sh.name = caller.base, caller.skew, caller.name
	}
	sh.loopDepth = oldLoop
	top := sh.scopes[len(sh.scopes)-1]
	for _, v := range top {
		sh.account(v, nil)
	}
	sh.scopes = sh.scopes[:len(sh.scopes)-1]
	sh.funcNames = sh.funcNames[:len(sh.funcNames)-1]
	sh.params = oldParams
	if sh.returning {
		sh.returning = false
	}
	sh.brk, sh.cont = 0, 0
}

func (sh *Shell) runBuiltin(name string, b builtinFunc, args []string) {
	if sh.charge(resources.CostBuiltin) != nil {
		return
	}
	if len(sh.rt.Tel.Commands) < telemetryCap {
		sh.rt.Tel.Commands = append(sh.rt.Tel.Commands, name)
	} else {
		sh.rt.Tel.DroppedCommands++
	}
	prev := sh.curBuiltin
	sh.curBuiltin = name
	sh.status = b(sh, args)
	sh.curBuiltin = prev
	if sh.task != nil && sh.task.Killed() != 0 && !sh.exiting {
		sh.fatal(sched.ErrKilled)
	}
}

// resolved says what a command name refers to.
type resolved struct {
	kind  int // 0 none, 1 registered command, 2 script file, 3 shell, 4 builtin
	entry command.Entry
	path  string
	err   string
	code  int
}

const (
	resNone = iota
	resCommand
	resScript
	resShell
	resBuiltin
)

func isShellName(n string) bool { return n == "sh" || n == "bash" || n == "dash" || n == "zsh" }

// resolve finds a command the way execve+PATH would in the simulated machine.
func (sh *Shell) resolve(name string) resolved {
	if strings.Contains(name, "/") {
		p := command.Join(sh.dir, name)
		fi, err := sh.rt.FS.Stat(p)
		base := path.Base(p)
		if err != nil && binDirs[path.Dir(p)] {
			if isShellName(base) {
				return resolved{kind: resShell, path: p}
			}
			if e, ok := sh.rt.Commands.Lookup(base); ok {
				return resolved{kind: resCommand, entry: e, path: p}
			}
			if _, ok := builtins[base]; ok && standaloneBuiltins[base] {
				return resolved{kind: resBuiltin, path: p}
			}
		}
		if err != nil {
			return resolved{err: command.Message(err), code: 127}
		}
		if fi.IsDir() {
			return resolved{err: "Is a directory", code: 126}
		}
		if fi.Mode&0o111 == 0 {
			return resolved{err: "Permission denied", code: 126}
		}
		return resolved{kind: resScript, path: p}
	}
	pathVar, ok := sh.getVar("PATH")
	if isShellName(name) {
		// found where PATH first reaches a bin directory (/usr/bin on a
		// merged-/usr system such as Debian's)
		for _, d := range strings.Split(pathVar, ":") {
			if binDirs[command.Join("/", d)] {
				return resolved{kind: resShell, path: "/usr/bin/" + name}
			}
		}
		return resolved{kind: resShell, path: "/bin/" + name}
	}
	if !ok {
		pathVar = ""
		if sh.execLookup {
			// execvp's default search path when PATH is unset
			pathVar, ok = "/bin:/usr/bin", true
		}
	}
	e, registered := sh.rt.Commands.Lookup(name)
	for _, d := range strings.Split(pathVar, ":") {
		if d == "" {
			d = "."
		}
		p := command.Join(sh.dir, d+"/"+name)
		fi, err := sh.rt.FS.Stat(p)
		if err == nil && fi.Mode.IsRegular() && fi.Mode&0o111 != 0 {
			return resolved{kind: resScript, path: p}
		}
		if registered && err != nil && binDirs[command.Join("/", d)] {
			return resolved{kind: resCommand, entry: e, path: "/usr/bin/" + name}
		}
		if !registered && standaloneBuiltins[name] && err != nil && binDirs[command.Join("/", d)] {
			// /usr/bin/echo and the like, run by their builtin's code
			// (reached when enable -n turned the builtin off)
			return resolved{kind: resBuiltin, path: "/usr/bin/" + name}
		}
	}
	if !ok {
		return resolved{err: "No such file or directory", code: 127}
	}
	return resolved{err: "command not found", code: 127}
}

// virtualBinary reports a path in a bin directory naming a program the
// simulation provides (a shell, a registered command, a standalone
// builtin) with no file of its own: test and [ see it as an executable.
func (sh *Shell) virtualBinary(p string) bool {
	if !binDirs[path.Dir(p)] {
		return false
	}
	base := path.Base(p)
	if isShellName(base) || standaloneBuiltins[base] {
		return true
	}
	_, ok := sh.rt.Commands.Lookup(base)
	return ok
}

// standaloneBuiltins also exist as /usr/bin programs (for env, xargs, find -exec).
var standaloneBuiltins = map[string]bool{"echo": true, "printf": true, "test": true, "[": true, "true": true,
	"false": true, "kill": true, "pwd": true, "sleep": false}

// external runs a non-builtin command with the given descriptors; it
// returns the exit status.
func (sh *Shell) external(args []string, env []string, fds [10]*fdesc) int {
	name := args[0]
	r := sh.resolve(name)
	switch r.kind {
	case resCommand:
		return sh.runEntry(r.entry, args, env, fds)
	case resShell:
		return sh.runShellCommand(args, env, fds)
	case resScript:
		return sh.runScript(r.path, args, env, fds)
	case resBuiltin:
		b := builtins[path.Base(name)]
		c := sh.fork()
		if c == nil {
			return 137
		}
		c.fds = fds
		c.runBuiltin(path.Base(name), b, append([]string{path.Base(name)}, args[1:]...))
		return sh.join(c)
	}
	if r.code == 127 && r.err == "command not found" {
		sh.rt.Tel.unsupported("command:" + name)
		seq := sh.rt.Tel.start(0, args, string(command.Unsupported))
		st := 127
		sh.rt.Tel.finish(seq, st, 0, 0)
		sh.rt.Tel.setReason(seq, "command not found")
	}
	fmt.Fprintf(writerOf(fds, 2), "%s: line %d: %s: %s\n", sh.errName(), sh.lineno, name, r.err)
	return r.code
}

func writerOf(fds [10]*fdesc, n int) io.Writer {
	if fds[n] != nil && fds[n].w != nil {
		return fds[n].w
	}
	return badFD{}
}

func readerOf(fds [10]*fdesc) io.Reader {
	if fds[0] != nil && fds[0].r != nil {
		return fds[0].r
	}
	return strings.NewReader("")
}

// processEnv builds a child's environment: exported variables plus prefix
// assignments.
func (sh *Shell) processEnv(extra []string) envList {
	base := sh.exportedEnv()
	if len(extra) == 0 {
		return envList(base)
	}
	m := map[string]string{}
	for _, kv := range base {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	for _, kv := range extra {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return envList(out)
}

// envList implements command.Env over sorted NAME=value pairs.
type envList []string

func (e envList) Get(name string) (string, bool) {
	for _, kv := range e {
		if len(kv) > len(name) && kv[len(name)] == '=' && kv[:len(name)] == name {
			return kv[len(name)+1:], true
		}
	}
	return "", false
}
func (e envList) Environ() []string { return []string(e) }

// argMax is the simulated execve limit on argument and environment bytes.
const argMax = 2097152

// runEntry runs a registered command as a child process.
func (sh *Shell) runEntry(e command.Entry, args []string, env []string, fds [10]*fdesc) int {
	rt := sh.rt
	size := 0
	for _, a := range args {
		size += len(a) + 1
	}
	if size > argMax {
		fmt.Fprintf(writerOf(fds, 2), "%s: line %d: %s: Argument list too long\n", sh.name, sh.lineno, args[0])
		return 126
	}
	if sh.charge(resources.CostDispatch) != nil {
		return sh.exitCode
	}
	if err := rt.Meter.Reserve(resources.MemCommand); err != nil {
		sh.fatal(err)
		return 137
	}
	defer rt.Meter.Release(resources.MemCommand)
	proc := rt.Sched.NewProc(sh.pid, sh.pgid, args, sh.dir)
	proc.Task = sh.task
	defer rt.Sched.Reap(proc)
	seq := rt.Tel.start(proc.PID, args, string(e.Trust))
	if e.Trust == command.Unsupported {
		rt.Tel.unsupported(args[0] + ": not implemented in shellsim")
		rt.Tel.setReason(seq, "not implemented in shellsim")
	}
	cpu0 := rt.Meter.CPU
	_, disk0, _ := rt.FS.Usage()
	stdin, stdout, stderr := readerOf(fds), writerOf(fds, 1), writerOf(fds, 2)
	sys := &sysImpl{sh: sh, proc: proc, seq: seq}
	inv := &command.Invocation{Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr, Dir: sh.dir,
		Env: sh.processEnv(env), Sys: sys,
		FS: &vfs.View{FS: rt.FS, Streams: vfs.Streams{Stdin: stdin, Stdout: stdout, Stderr: stderr}, Pipes: sh.procPipes()}}
	prevCmd := sh.cmdPID
	sh.cmdPID = proc.PID
	st := safeRun(e, inv)
	sh.cmdPID = prevCmd
	if t := sh.task; t != nil && t.Killed() != 0 {
		st = 128 + t.Killed()
	}
	if rt.Meter.Stop != resources.None || rt.Cancelled.Load() {
		st = 137
	}
	_, disk1, _ := rt.FS.Usage()
	rt.Tel.finish(seq, st, rt.Meter.CPU-cpu0, disk1-disk0)
	if st == 137 && (rt.Meter.Stop != resources.None || rt.Cancelled.Load()) {
		sh.fatal(rt.Meter.Err())
		if rt.Cancelled.Load() {
			sh.fatal(ErrCancelled)
		}
	} else if t := sh.task; t != nil && t.Killed() != 0 {
		sh.fatal(sched.ErrKilled)
	}
	return st
}

func safeRun(e command.Entry, inv *command.Invocation) (st int) {
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); ok && errors.Is(err, command.ErrStopped) {
				st = 1
				return
			}
			fmt.Fprintf(inv.Stderr, "%s: internal error: %v\n", inv.Args[0], r)
			st = 2
		}
	}()
	return e.Run(inv)
}

// newProcessShell makes a fresh shell process (for scripts and sh -c): only
// exported variables survive, functions do not.
func (sh *Shell) newProcessShell(env []string, fds [10]*fdesc) *Shell {
	if sh.nest >= MaxNest {
		sh.nestError()
		return nil
	}
	if sh.charge(resources.CostFork) != nil {
		return nil
	}
	if err := sh.rt.Meter.Reserve(resources.MemProcess + frameMem); err != nil {
		sh.fatal(err)
		return nil
	}
	// procMem (the frame) is released by finish, MemProcess by endProcessShell.
	c := &Shell{rt: sh.rt, scopes: []map[string]*Var{{}}, funcs: map[string]*syntax.Stmt{},
		dir: sh.dir, arg0: "bash", name: "bash", umask: sh.umask, task: sh.task, fds: fds,
		nest: sh.nest + 1, procMem: frameMem}
	for _, kv := range sh.processEnv(env) {
		k, v, _ := strings.Cut(kv, "=")
		c.scopes[0][k] = &Var{Variable: expand.Variable{Set: true, Kind: expand.String, Str: v, Exported: true}}
	}
	for name := range sh.expFuncs {
		if body, ok := sh.funcs[name]; ok {
			c.funcs[name] = body
			if c.expFuncs == nil {
				c.expFuncs = map[string]bool{}
			}
			c.expFuncs[name] = true
		}
	}
	for _, k := range []string{"IFS", "OPTIND", "PS4", "BASH_VERSION", "BASH_VERSINFO", "UID", "EUID", "HOSTTYPE", "OSTYPE", "MACHTYPE", "BASH"} {
		if v := sh.scopes[0][k]; v != nil && !v.Exported {
			c.scopes[0][k] = cloneVar(v)
		}
	}
	if v, ok := c.getVar("IFS"); !ok || v == "" {
		c.scopes[0]["IFS"] = &Var{Variable: strVar(" \t\n")}
	}
	if lvl, ok := c.getVar("SHLVL"); ok {
		n, _ := sh.arithString(lvl)
		c.scopes[0]["SHLVL"] = &Var{Variable: expand.Variable{Set: true, Kind: expand.String, Str: fmt.Sprint(n + 1), Exported: true}}
	}
	p := sh.rt.Sched.NewProc(sh.pid, sh.pgid, []string{"bash"}, sh.dir)
	p.Task = sh.task
	c.pid, c.ppid, c.pgid = p.PID, sh.pid, sh.pgid
	c.topPID = c.pid
	return c
}

// runChild runs f for the new shell process c in its own task, so that it
// can be signalled on its own, and waits for it.
func (sh *Shell) runChild(c *Shell, f func() int) int {
	st := 0
	t := sh.rt.Sched.Spawn(func(t *sched.Task) {
		c.task = t
		t.Data = c
		if p, ok := sh.rt.Sched.Proc(c.pid); ok {
			p.Task = t
		}
		c.guard(func() { st = f() })
		if c.exiting {
			st = c.exitCode
		}
		if k := t.Killed(); k != 0 {
			st = 128 + k
		}
	})
	if err := sh.task.Wait(t); err != nil {
		t.Signal(9, true)
		sh.fatal(err)
		return 128 + 9
	}
	if k := t.Killed(); k != 0 {
		c.exiting, c.exitCode = true, st
		sh.signaled = signaled{sig: k, pid: c.pid}
	}
	return st
}

func (sh *Shell) endProcessShell(c *Shell) int {
	c.finish()
	sh.rt.Meter.Release(resources.MemProcess)
	st := c.status
	if c.exiting {
		st = c.exitCode
	}
	if sh.rt.Meter.Stop != resources.None {
		sh.fatal(sh.rt.Meter.Err())
		return 137
	}
	if sh.rt.Cancelled.Load() {
		sh.fatal(ErrCancelled)
		return 137
	}
	return st
}

// runShellCommand implements sh/bash [-eux] [-o opt] [-c SRC [ARG0 ARGS]] [SCRIPT ARGS].
func (sh *Shell) runShellCommand(args []string, env []string, fds [10]*fdesc) int {
	seq := sh.rt.Tel.start(0, args, string(command.Real))
	c := sh.newProcessShell(env, fds)
	if c == nil {
		return 137
	}
	var src, script string
	haveC, readStdin, noexec := false, false, false
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if a == "-c" {
			haveC = true
			continue
		}
		if a == "-o" && i+1 < len(args) {
			if !c.setOption(args[i+1], true) {
				fmt.Fprintf(writerOf(fds, 2), "%s: %s: invalid option name\n", args[0], args[i+1])
				return sh.finishShellCmd(seq, c, 2)
			}
			i++
			continue
		}
		if len(a) > 1 && (a[0] == '-' || a[0] == '+') && !strings.HasPrefix(a, "--") {
			for _, f := range a[1:] {
				switch f {
				case 'c':
					haveC = true
				case 's':
					readStdin = true
				case 'n':
					noexec = true
				case 'i', 'l':
				default:
					if !c.setFlag(f, a[0] == '-') {
						fmt.Fprintf(writerOf(fds, 2), "%s: -%c: invalid option\n", args[0], f)
						return sh.finishShellCmd(seq, c, 2)
					}
				}
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			switch a {
			case "--norc", "--noprofile", "--posix", "--login":
				continue
			}
			fmt.Fprintf(writerOf(fds, 2), "%s: %s: invalid option\n", args[0], a)
			return sh.finishShellCmd(seq, c, 2)
		}
		break
	}
	rest := args[i:]
	if haveC {
		if len(rest) == 0 {
			fmt.Fprintf(writerOf(fds, 2), "%s: -c: option requires an argument\n", args[0])
			return sh.finishShellCmd(seq, c, 2)
		}
		src = rest[0]
		rest = rest[1:]
		if len(rest) > 0 {
			c.arg0 = rest[0]
			rest = rest[1:]
		} else {
			c.arg0 = args[0]
		}
		c.name = c.arg0
		c.params = rest
		c.cmdString, c.modeFlag = true, "c"
		return sh.finishShellCmd(seq, c, sh.runChild(c, func() int { return c.runMaybe(src, "", noexec) }))
	}
	if len(rest) == 0 || readStdin {
		b, _ := io.ReadAll(readerOf(fds))
		c.fds[0] = &fdesc{r: strings.NewReader("")}
		c.arg0, c.modeFlag = args[0], "s"
		c.params = rest
		return sh.finishShellCmd(seq, c, sh.runChild(c, func() int { return c.runMaybe(string(b), "", noexec) }))
	}
	script = rest[0]
	b, err := sh.readFile(script)
	if err != nil {
		fmt.Fprintf(writerOf(fds, 2), "%s: %s: %s\n", args[0], script, command.Message(err))
		return sh.finishShellCmd(seq, c, 127)
	}
	c.arg0, c.name, c.params = script, script, rest[1:]
	c.frames = []frame{{"main", script, 0}}
	return sh.finishShellCmd(seq, c, sh.runChild(c, func() int { return c.runMaybe(string(b), script, noexec) }))
}

// runMaybe runs src, or only parses it for bash -n.
func (sh *Shell) runMaybe(src, name string, noexec bool) int {
	if noexec {
		if _, err := sh.Parse(src, name); err != nil {
			if sh.exiting {
				return sh.exitCode
			}
			var pe syntax.ParseError
			if !errors.As(err, &pe) {
				io.WriteString(sh.stderr(), ParseErrorText(sh.name, err))
				return 2
			}
			prefix := sh.name
			if sh.cmdString {
				prefix += ": -c"
			}
			return sh.reportSyntaxError(src, pe, prefix)
		}
		return 0
	}
	return sh.RunSource(src, name)
}

func (sh *Shell) finishShellCmd(seq int, c *Shell, st int) int {
	cpu0 := int64(0)
	if c.exiting {
		st = c.exitCode
	} else {
		c.status = st
	}
	r := sh.endProcessShell(c)
	if r == 137 {
		st = 137
	}
	sh.rt.Tel.finish(seq, st, cpu0, 0)
	return st
}

// runScript executes a VFS file: shell scripts in a new shell process,
// other interpreters through their registered command.
func (sh *Shell) runScript(p string, args []string, env []string, fds [10]*fdesc) int {
	b, err := sh.rt.FS.ReadFile(p)
	if err != nil {
		fmt.Fprintf(writerOf(fds, 2), "%s: line %d: %s: %s\n", sh.name, sh.lineno, args[0], command.Message(err))
		return 126
	}
	interp := ""
	var iargs []string
	if len(b) > 2 && b[0] == '#' && b[1] == '!' {
		line, _, _ := strings.Cut(string(b[2:]), "\n")
		f := strings.Fields(line)
		if len(f) > 0 {
			interp = f[0]
			iargs = f[1:]
			if path.Base(interp) == "env" && len(iargs) > 0 {
				if iargs[0] == "-S" {
					iargs = iargs[1:]
				}
				if len(iargs) > 0 {
					interp, iargs = iargs[0], iargs[1:]
				}
			}
		}
	}
	base := path.Base(interp)
	if interp == "" || isShellName(base) {
		c := sh.newProcessShell(env, fds)
		if c == nil {
			return 137
		}
		seq := sh.rt.Tel.start(c.pid, args, string(command.Real))
		for _, a := range iargs {
			if strings.HasPrefix(a, "-") {
				for _, f := range a[1:] {
					c.setFlag(f, true)
				}
			}
		}
		c.arg0, c.name, c.params = args[0], args[0], args[1:]
		c.frames = []frame{{"main", args[0], 0}} // as bash FILE: BASH_SOURCE names the script
		return sh.finishShellCmd(seq, c, sh.runChild(c, func() int { return c.RunSource(string(b), args[0]) }))
	}
	if e, ok := sh.rt.Commands.Lookup(base); ok {
		full := append([]string{base}, iargs...)
		full = append(full, args[0])
		full = append(full, args[1:]...)
		return sh.runEntry(e, full, env, fds)
	}
	fmt.Fprintf(writerOf(fds, 2), "%s: line %d: %s: %s: bad interpreter: No such file or directory\n", sh.name, sh.lineno, args[0], interp)
	sh.rt.Tel.unsupported("interpreter:" + interp)
	return 126
}

// sysImpl is the command.System one command process sees.
type sysImpl struct {
	sh   *Shell
	proc *sched.Proc
	seq  int
}

func (s *sysImpl) Charge(n int64) error {
	s.proc.CPU += n
	return s.sh.rt.charge(n)
}

func (s *sysImpl) Reserve(n int64) (func(), error) { return s.sh.rt.reserve(n) }
func (s *sysImpl) Now() time.Time                  { return s.sh.rt.Now() }
func (s *sysImpl) Uptime() time.Duration           { return s.sh.rt.Sched.Now() }
func (s *sysImpl) Sleep(d time.Duration) error {
	if err := s.sh.rt.charge(10); err != nil {
		return err
	}
	t := s.sh.rt.Sched.Current()
	if t == nil {
		s.sh.rt.Sched.Advance(d)
		return nil
	}
	return t.Sleep(d)
}
func (s *sysImpl) Partial(f string) {
	s.sh.rt.Tel.Partials = append(s.sh.rt.Tel.Partials, f)
	s.sh.rt.Tel.setReason(s.seq, f)
}
func (s *sysImpl) Unsupported(f string) {
	s.sh.rt.Tel.unsupported(f)
	s.sh.rt.Tel.setReason(s.seq, f)
}
func (s *sysImpl) Processes() []command.Process { return s.sh.rt.Sched.Processes() }
func (s *sysImpl) PID() int                     { return s.proc.PID }
func (s *sysImpl) PPID() int                    { return s.proc.PPID }
func (s *sysImpl) Hostname() string             { return s.sh.rt.Hostname }
func (s *sysImpl) Users() command.Users         { return s.sh.rt.Users }
func (s *sysImpl) MemoryLimit() int64           { return s.sh.rt.Meter.Limits.Memory }
func (s *sysImpl) Disk() (int64, int64) {
	q, u, _ := s.sh.rt.FS.Usage()
	return q, u
}

// Exec runs a child for xargs, env, find -exec, timeout, nice.
func (s *sysImpl) Exec(req command.ExecRequest) (int, error) {
	sh := s.sh
	if len(req.Args) == 0 {
		return 0, errors.New("exec: empty command")
	}
	c := sh.newProcessShell(nil, sh.fds)
	if c == nil {
		return 137, sh.rt.Meter.Err()
	}
	if req.Env != nil {
		c.scopes[0] = map[string]*Var{}
		for _, kv := range req.Env {
			k, v, _ := strings.Cut(kv, "=")
			c.scopes[0][k] = &Var{Variable: expand.Variable{Set: true, Kind: expand.String, Str: v, Exported: true}}
		}
		c.scopes[0]["IFS"] = &Var{Variable: strVar(" \t\n")}
	}
	c.execLookup = true
	if req.Dir != "" {
		c.dir = req.Dir
	} else {
		c.dir = s.proc.Dir
	}
	var fds [10]*fdesc
	fds[0] = &fdesc{r: orReader(req.Stdin)}
	fds[1] = &fdesc{w: orWriter(req.Stdout)}
	fds[2] = &fdesc{w: orWriter(req.Stderr)}
	c.fds = fds
	run := func() int {
		name := req.Args[0]
		if b, ok := builtins[name]; ok && standaloneBuiltins[name] {
			if _, reg := s.sh.rt.Commands.Lookup(name); !reg {
				c.runBuiltin(name, b, req.Args)
				return c.status
			}
		}
		r := c.resolve(name)
		if r.kind == resNone {
			msg := strings.Replace(r.err, "command not found", "No such file or directory", 1)
			switch caller := s.proc.Args[0]; caller {
			case "env":
				fmt.Fprintf(fds[2].w, "env: '%s': %s\n", name, msg)
			case "timeout":
				fmt.Fprintf(fds[2].w, "timeout: failed to run command '%s': %s\n", name, msg)
			default:
				fmt.Fprintf(fds[2].w, "%s: %s: %s\n", caller, name, msg)
			}
			sh.rt.Tel.unsupported("command:" + name)
			return r.code
		}
		return c.external(req.Args, nil, fds)
	}
	if req.Timeout <= 0 {
		st := run()
		r := sh.endProcessShell(c)
		if r == 137 {
			return 137, sh.rt.Meter.Err()
		}
		if st == 127 && c.resolve(req.Args[0]).kind == resNone {
			return st, command.ErrNotFound
		}
		return st, nil
	}
	// With a timeout the child runs as its own task; we wait for it or the
	// deadline, whichever comes first.
	st := 0
	child := sh.rt.Sched.Spawn(func(t *sched.Task) {
		c.task = t
		t.Data = c
		c.guard(func() { st = run() })
		if k := t.Killed(); k != 0 {
			st = 128 + k
		}
	})
	sig := req.Signal
	if sig == 0 {
		sig = 15
	}
	fired := false
	timer := sh.rt.Sched.Spawn(func(t *sched.Task) {
		if t.Sleep(req.Timeout) == nil && !child.Done() {
			fired = true
			child.Signal(sig, true)
		}
	})
	self := sh.rt.Sched.Current()
	err := self.Wait(child)
	if !timer.Done() {
		timer.Signal(9, true)
	}
	if err != nil {
		child.Signal(9, true)
		self.Wait(child)
		sh.endProcessShell(c)
		return 137, err
	}
	sh.endProcessShell(c)
	if fired {
		return 128 + sig, command.ErrTimedOut
	}
	return st, nil
}

func orReader(r io.Reader) io.Reader {
	if r == nil {
		return strings.NewReader("")
	}
	return r
}

func orWriter(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
