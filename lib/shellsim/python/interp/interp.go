package interp

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

// MaxDepth is the Python recursion limit (sys.getrecursionlimit()). Each
// level costs a bounded amount of host stack, so the Go stack stays far
// below its own limit.
const MaxDepth = 1000

// fuelBatch is how many evaluation steps are charged to the System at once.
const fuelBatch = 256

// Config is how one interpreter process is started.
type Config struct {
	Inv  *command.Invocation
	Argv []string // sys.argv
	Path []string // extra sys.path entries after the script directory
}

// Interp is one Python process.
type Interp struct {
	inv         *command.Invocation
	sys         command.System
	Stdout      io.Writer
	Stderr      io.Writer
	Stdin       *bufReader
	fuel        int64
	frames      []*Frame
	depth       int
	modules     map[string]*Module
	loading     map[string]bool
	builtins    *Dict
	argv        []string
	path        *List
	nextID      int64
	mem         memModel
	gens        []*Generator
	excStack    []*Instance // exceptions being handled (sys.exc_info)
	cwd         string
	env         *Dict
	stdoutF     Value
	stderrF     Value
	stdinF      Value
	exitHooks   []Value
	partials    map[string]bool
	unsup       map[string]bool
	hiddenTypes map[string]*Class
	subclasses  map[*Class][]Value
	reprStack   map[any]bool
	openFiles   []*File
	reCache     map[string]*Pattern
	mt          *mt
	addrs       map[any]int64
	nest        int // recursion through containers in repr, ==, hash
	nextAddr    int64
	pytest      bool
	srcLines    map[string][]string
}

// Frame is one activation: module, class body, function or comprehension.
type Frame struct {
	Kind    byte // 'm' module, 'c' class body, 'f' function, 'k' comprehension
	Locals  map[string]Value
	ClsNS   *Dict // class body namespace
	Scope   *syntax.Scope
	Outer   *Frame
	Globals *Module
	Line    int
	Name    string
	Fn      *Function
	retVal  Value
	gen     *Generator
	parent  *Frame // for comprehensions: the frame they were evaluated in
}

// stop is panicked when the System says to stop (fuel, memory, signal); it
// is never visible to Python code.
type stop struct{ err error }

// PyError is a raised Python exception travelling up the Go stack.
type PyError struct{ Exc *Instance }

func (e *PyError) Error() string { return e.Exc.Cls.Name }

// exitError is SystemExit leaving the interpreter.
type exitError struct{ code int }

// New creates an interpreter bound to one command invocation.
func New(cfg Config) *Interp {
	in := &Interp{inv: cfg.Inv, sys: cfg.Inv.Sys, Stdout: cfg.Inv.Stdout, Stderr: cfg.Inv.Stderr,
		modules: map[string]*Module{}, loading: map[string]bool{}, argv: cfg.Argv, cwd: cfg.Inv.Dir,
		partials: map[string]bool{}, unsup: map[string]bool{}, srcLines: map[string][]string{}}
	in.Stdin = newBufReader(cfg.Inv.Stdin)
	in.mem.limit = cfg.Inv.Sys.MemoryLimit()
	in.builtins = in.makeBuiltins()
	in.path = &List{}
	for _, p := range cfg.Path {
		in.path.V = append(in.path.V, p)
	}
	in.path.V = append(in.path.V, "/usr/lib/python3.14", "/usr/lib/python3.14/site-packages")
	return in
}

// step spends one unit of fuel.
func (in *Interp) step() {
	in.fuel++
	if in.fuel >= fuelBatch {
		in.flushFuel()
	}
}

func (in *Interp) charge(n int64) {
	in.fuel += n
	if in.fuel >= fuelBatch {
		in.flushFuel()
	}
}

func (in *Interp) flushFuel() {
	n := in.fuel
	in.fuel = 0
	if err := in.sys.Charge(n); err != nil {
		panic(stop{err})
	}
}

// Partial records use of a partially modeled feature once.
func (in *Interp) Partial(f string) {
	if !in.partials[f] {
		in.partials[f] = true
		in.sys.Partial("python3 " + f)
	}
}

// Unsupported records use of an unsupported feature once.
func (in *Interp) Unsupported(f string) {
	if !in.unsup[f] {
		in.unsup[f] = true
		in.sys.Unsupported("python3 " + f)
	}
}

func (in *Interp) newID() int64 { in.nextID++; return in.nextID }

// ---- exceptions ----

// Raise panics with a new exception of the named builtin class.
func (in *Interp) Raise(cls string, format string, a ...any) {
	msg := format
	if len(a) > 0 {
		msg = fmt.Sprintf(format, a...)
	}
	in.raiseExc(in.newExc(in.builtinClass(cls), Tuple{msg}))
}

// RaiseArgs raises cls(*args).
func (in *Interp) RaiseArgs(cls string, args ...Value) {
	in.raiseExc(in.newExc(in.builtinClass(cls), Tuple(args)))
}

func (in *Interp) newExcErr(cls *Class, args Tuple) *PyError {
	return &PyError{Exc: in.newExc(cls, args)}
}

func (in *Interp) newExc(cls *Class, args Tuple) *Instance {
	inst := &Instance{Cls: cls, Dict: NewDict(), Exc: &ExcInfo{Args: args}, id: in.newID()}
	return inst
}

func (in *Interp) builtinClass(name string) *Class {
	v, ok := in.builtins.GetStr(name)
	if !ok {
		panic("interp: no builtin class " + name)
	}
	return v.(*Class)
}

// raiseExc raises an exception instance, recording the traceback.
func (in *Interp) raiseExc(exc *Instance) {
	if exc.Exc == nil {
		exc.Exc = &ExcInfo{}
	}
	exc.Exc.Traceback = in.traceback()
	if len(in.excStack) > 0 && exc.Exc.Context == nil && in.excStack[len(in.excStack)-1] != exc {
		exc.Exc.Context = in.excStack[len(in.excStack)-1]
	}
	panic(&PyError{Exc: exc})
}

func (in *Interp) traceback() []TBEntry {
	tb := make([]TBEntry, 0, len(in.frames))
	start := 0
	if len(in.frames) > 200 {
		start = len(in.frames) - 200
	}
	for _, f := range in.frames[start:] {
		file := "<string>"
		if f.Globals != nil {
			file = f.Globals.File
		}
		e := TBEntry{File: file, Line: f.Line, Name: f.Name}
		if f.Fn != nil && f.Kind == 'f' {
			e.Def = f.Fn.Def
		}
		tb = append(tb, e)
	}
	return tb
}

// isSubclass reports whether c derives from base.
func isSubclass(c, base *Class) bool {
	for _, m := range c.MRO {
		if m == base {
			return true
		}
	}
	return false
}

// excMatches reports whether exc is an instance of the class (or tuple of
// classes) spec.
func (in *Interp) excMatches(exc *Instance, spec Value) bool {
	switch s := spec.(type) {
	case *Class:
		return isSubclass(exc.Cls, s)
	case Tuple:
		for _, x := range s {
			if in.excMatches(exc, x) {
				return true
			}
		}
		return false
	}
	in.Raise("TypeError", "catching classes that do not inherit from BaseException is not allowed")
	return false
}

// catch runs f and returns the Python exception it raised, if any. Resource
// stops and exits pass through.
func (in *Interp) catch(f func()) (exc *PyError) {
	nframes, depth := len(in.frames), in.depth
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*PyError); ok {
				in.frames = in.frames[:nframes]
				in.depth = depth
				exc = e
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// ---- running ----

// RunMain runs the module source as __main__ and returns the exit status,
// printing an uncaught exception's traceback as CPython does.
func (in *Interp) RunMain(src, file string) (status int) {
	defer in.cleanup()
	defer func() {
		if r := recover(); r != nil {
			status = in.exitStatus(r)
		}
	}()
	in.flushOnExit(func() {
		mod := in.newModule("__main__", file)
		in.modules["__main__"] = mod
		in.execSource(src, file, mod)
	})
	return 0
}

// flushOnExit runs f, then the atexit hooks and flushes.
func (in *Interp) flushOnExit(f func()) {
	defer in.flushAll()
	defer func() {
		r := recover()
		if _, isStop := r.(stop); isStop {
			panic(r)
		}
		for i := len(in.exitHooks) - 1; i >= 0; i-- {
			hook := in.exitHooks[i]
			if err := in.catch(func() { in.call(hook, nil, nil) }); err != nil {
				in.printTraceback(in.Stderr, err.Exc)
			}
		}
		in.exitHooks = nil
		if r != nil {
			panic(r)
		}
	}()
	f()
}

func (in *Interp) cleanup() {
	for _, g := range in.gens {
		g.kill()
	}
	in.gens = nil
	in.mem.releaseAll()
	if in.fuel > 0 {
		n := in.fuel
		in.fuel = 0
		_ = in.sys.Charge(n)
	}
}

// uncaught prints the traceback and returns the exit status (1, or the
// SystemExit code).
func (in *Interp) uncaught(e *PyError) int {
	if isSubclass(e.Exc.Cls, in.builtinClass("SystemExit")) {
		return in.exitCode(e.Exc)
	}
	in.printTraceback(in.Stderr, e.Exc)
	return 1
}

func (in *Interp) exitCode(exc *Instance) int {
	args := exc.Exc.Args
	if len(args) == 0 || args[0] == None {
		return 0
	}
	switch c := args[0].(type) {
	case int64:
		return int(c & 0xff)
	case bool:
		if c {
			return 1
		}
		return 0
	}
	fmt.Fprintln(in.Stderr, in.str(args[0]))
	return 1
}

func (in *Interp) printTraceback(w io.Writer, exc *Instance) {
	var b strings.Builder
	in.formatException(&b, exc, 0)
	io.WriteString(w, b.String())
}

func (in *Interp) formatException(b *strings.Builder, exc *Instance, depth int) {
	if isSubclass(exc.Cls, in.builtinClass("SyntaxError")) {
		if t, ok := exc.Dict.GetStr("_text"); ok {
			fn, _ := exc.Dict.GetStr("filename")
			ln, _ := exc.Dict.GetStr("lineno")
			fmt.Fprintf(b, "  File \"%s\", line %s\n", in.str(fn), in.str(ln))
			if txt := in.str(t); txt != "" {
				fmt.Fprintf(b, "    %s\n    ^\n", txt)
			}
			msg, _ := exc.Dict.GetStr("msg")
			fmt.Fprintf(b, "%s: %s\n", exc.Cls.Name, in.str(msg))
			return
		}
	}
	if depth < 10 && exc.Exc != nil {
		if exc.Exc.Cause != nil {
			in.formatException(b, exc.Exc.Cause, depth+1)
			b.WriteString("\nThe above exception was the direct cause of the following exception:\n\n")
		} else if exc.Exc.Context != nil && !exc.Exc.Suppress {
			in.formatException(b, exc.Exc.Context, depth+1)
			b.WriteString("\nDuring handling of the above exception, another exception occurred:\n\n")
		}
	}
	if exc.Exc != nil && len(exc.Exc.Traceback) > 0 {
		b.WriteString("Traceback (most recent call last):\n")
		for _, t := range exc.Exc.Traceback {
			fmt.Fprintf(b, "  File \"%s\", line %d, in %s\n", t.File, t.Line, t.Name)
			if line := in.sourceLine(t.File, t.Line); line != "" {
				fmt.Fprintf(b, "    %s\n", line)
			}
		}
	}
	b.WriteString(in.excLine(exc))
	b.WriteByte('\n')
}

func (in *Interp) sourceLine(file string, line int) string {
	lines := in.srcLines[file]
	if line >= 1 && line <= len(lines) {
		return strings.TrimSpace(lines[line-1])
	}
	return ""
}

// excLine is the last line of a traceback: "ValueError: msg".
func (in *Interp) excLine(exc *Instance) string {
	name := exc.Cls.Name
	if exc.Cls.Module != "" && exc.Cls.Module != "builtins" && exc.Cls.Module != "__main__" {
		name = exc.Cls.Module + "." + name
	}
	s := in.safeStr(exc)
	if s == "" {
		return name
	}
	return name + ": " + s
}

func (in *Interp) safeStr(v Value) (s string) {
	if err := in.catch(func() { s = in.str(v) }); err != nil {
		return "<exception str() failed>"
	}
	return s
}

// execSource parses and runs src in module mod.
func (in *Interp) execSource(src, file string, mod *Module) {
	in.srcLines[file] = strings.Split(src, "\n")
	if err := command.CheckSyntaxNest(src); err != nil {
		in.raiseSyntax(&syntax.Error{Msg: "too many nested parentheses", Line: 1, Kind: "SyntaxError"}, file)
	}
	in.charge(int64(len(src) / 16))
	m, err := syntax.Parse(src)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			in.raiseSyntax(se, file)
		}
		in.Raise("SyntaxError", "%s", err.Error())
	}
	fr := &Frame{Kind: 'm', Globals: mod, Name: "<module>"}
	in.pushFrame(fr)
	in.execBlock(fr, m.Body)
	in.popFrame()
}

func (in *Interp) raiseSyntax(se *syntax.Error, file string) {
	if strings.Contains(se.Msg, "not supported") {
		// valid Python outside ShellSim's subset: a gap, not a user error
		in.Unsupported("syntax: " + se.Msg)
	}
	kind := se.Kind
	if kind == "" {
		kind = "SyntaxError"
	}
	exc := in.newExc(in.builtinClass(kind), Tuple{se.Msg})
	exc.Dict.SetStr("msg", se.Msg)
	exc.Dict.SetStr("lineno", int64(se.Line))
	exc.Dict.SetStr("filename", file)
	exc.Exc.Traceback = in.traceback()
	exc.Dict.SetStr("_text", in.sourceLine(file, se.Line))
	panic(&PyError{Exc: exc})
}

func (in *Interp) pushFrame(f *Frame) {
	in.frames = append(in.frames, f)
}

func (in *Interp) popFrame() {
	in.frames = in.frames[:len(in.frames)-1]
}

func (in *Interp) newModule(name, file string) *Module {
	m := &Module{Name: name, Dict: NewDict(), File: file}
	m.Dict.SetStr("__name__", name)
	m.Dict.SetStr("__file__", file)
	m.Dict.SetStr("__builtins__", in.builtinsModule())
	m.Dict.SetStr("__doc__", None)
	return m
}

func (in *Interp) builtinsModule() *Module {
	if m, ok := in.modules["builtins"]; ok {
		return m
	}
	m := &Module{Name: "builtins", Dict: in.builtins}
	in.modules["builtins"] = m
	return m
}

// RunModule runs a module by name as __main__ (python3 -m).
func (in *Interp) RunModule(name string) (status int) {
	defer in.cleanup()
	defer func() {
		if r := recover(); r != nil {
			status = in.exitStatus(r)
		}
	}()
	in.flushOnExit(func() {
		src, file, pkg, ok := in.findSource(name, nil)
		if !ok {
			data, err := libFS.ReadFile("lib/" + strings.ReplaceAll(name, ".", "/") + ".py")
			if err != nil {
				fmt.Fprintf(in.Stderr, "%s: No module named %s\n", "/usr/bin/python3", name)
				panic(exitError{code: 1})
			}
			src, file = string(data), "/usr/lib/python3.14/"+name+".py"
		}
		if pkg {
			in.Raise("ImportError", "cannot run a package with -m in ShellSim")
		}
		if len(in.argv) > 0 {
			in.argv[0] = file
		}
		mod := in.newModule("__main__", file)
		in.modules["__main__"] = mod
		in.execSource(src, file, mod)
	})
	return 0
}

// RunPytest runs the pytest runner on args and returns pytest's exit code.
func (in *Interp) RunPytest(args []string) (status int) {
	defer in.cleanup()
	defer func() {
		if r := recover(); r != nil {
			status = in.exitStatus(r)
		}
	}()
	var code Value
	in.flushOnExit(func() {
		main := in.newModule("__main__", "<pytest>")
		in.modules["__main__"] = main
		m := in.importModule("pytest", nil)
		argv := make([]Value, len(args))
		for i, a := range args {
			argv[i] = a
		}
		fr := &Frame{Kind: 'm', Globals: main, Name: "<module>"}
		in.pushFrame(fr)
		code = in.call(in.getAttr(m, "main"), []Value{&List{V: argv}}, nil)
		in.popFrame()
	})
	if n, ok := code.(int64); ok {
		return int(n)
	}
	return 0
}

func (in *Interp) exitStatus(r any) int {
	switch e := r.(type) {
	case stop:
		return 137
	case exitError:
		return e.code
	case *PyError:
		return in.uncaught(e)
	case genKilled:
		panic(r)
	}
	// A bug in the interpreter must not take the embedding process down:
	// report it like CPython's SystemError and fail the command.
	in.Unsupported("internal error")
	fmt.Fprintf(in.Stderr, "SystemError: ShellSim interpreter internal error: %v\n", r)
	return 1
}

// enterNest bounds Go recursion through nested containers (repr, ==,
// hash, ordering) the way CPython's recursion limit does.
func (in *Interp) enterNest(what string) {
	in.nest++
	if in.nest+in.depth > MaxDepth {
		in.nest = 0
		in.Raise("RecursionError", "maximum recursion depth exceeded %s", what)
	}
}

func (in *Interp) leaveNest() {
	if in.nest > 0 {
		in.nest--
	}
}
