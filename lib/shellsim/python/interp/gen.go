package interp

import (
	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

// Generator is a generator object. Its body runs on its own goroutine, but
// only one side ever runs at a time: control passes over unbuffered
// channels exactly where Python would switch, so execution stays
// deterministic.
type Generator struct {
	name    string
	fr      *Frame
	started bool
	done    bool
	running bool
	resume  chan genMsg
	out     chan genMsg
	retVal  Value
}

type genMsg struct {
	v     Value
	exc   *PyError
	panic any
	done  bool
	kill  bool
}

type genKilled struct{}

// maxLiveGenerators bounds parked generator goroutines (each holds host
// stack while suspended).
const maxLiveGenerators = 4096

func (in *Interp) newGenerator(fr *Frame) *Generator {
	g := &Generator{name: fr.Name, fr: fr}
	fr.gen = g
	return g
}

func (in *Interp) genNext(g *Generator, send Value) (Value, bool) {
	return in.genResume(g, genMsg{v: send})
}

func (in *Interp) genResume(g *Generator, msg genMsg) (Value, bool) {
	if g.done {
		if msg.exc != nil {
			panic(msg.exc)
		}
		return nil, false
	}
	if g.running {
		in.Raise("ValueError", "generator already executing")
	}
	if !g.started {
		if msg.exc != nil {
			g.done = true
			panic(msg.exc)
		}
		if msg.v != nil && msg.v != None {
			in.Raise("TypeError", "can't send non-None value to a just-started generator")
		}
		if len(in.gens) >= maxLiveGenerators {
			in.compactGens()
			if len(in.gens) >= maxLiveGenerators {
				in.Raise("MemoryError", "too many suspended generators")
			}
		}
		in.mem.add(in, 4096)
		g.started = true
		g.resume = make(chan genMsg)
		g.out = make(chan genMsg)
		in.gens = append(in.gens, g)
		g.running = true
		go in.genBody(g)
	} else {
		g.running = true
		g.resume <- msg
	}
	r := <-g.out
	g.running = false
	if r.done {
		g.done = true
		if r.panic != nil {
			if pe, ok := r.panic.(*PyError); ok && isSubclass(pe.Exc.Cls, in.builtinClass("StopIteration")) {
				in.Raise("RuntimeError", "generator raised StopIteration")
			}
			panic(r.panic)
		}
		return nil, false
	}
	return r.v, true
}

func (in *Interp) compactGens() {
	live := in.gens[:0]
	for _, g := range in.gens {
		if !g.done {
			live = append(live, g)
		}
	}
	in.gens = live
}

func (in *Interp) genBody(g *Generator) {
	base := len(in.frames)
	depth := in.depth
	defer func() {
		r := recover()
		in.frames = in.frames[:base]
		in.depth = depth
		if _, killed := r.(genKilled); killed {
			g.out <- genMsg{done: true}
			return
		}
		g.out <- genMsg{done: true, panic: r}
	}()
	in.enterCall()
	in.pushFrame(g.fr)
	c := in.execBlock(g.fr, g.fr.Fn.Def.Body)
	if c == cReturn {
		g.retVal = g.fr.retVal
	}
	in.popFrame()
	in.depth--
}

// evalYield suspends the running generator.
func (in *Interp) evalYield(fr *Frame, e *syntax.Yield) Value {
	g := fr.gen
	if g == nil {
		in.Raise("SyntaxError", "'yield' outside function")
	}
	if e.From {
		sub := in.iter(in.eval(fr, e.Value))
		var send Value = None
		for {
			var v Value
			var ok bool
			if sg, isGen := sub.(*Generator); isGen {
				v, ok = in.genNext(sg, send)
				if !ok {
					return orNone(sg.retVal)
				}
			} else {
				v, ok = in.next(sub)
				if !ok {
					return None
				}
			}
			send = in.yieldValue(fr, g, v)
		}
	}
	var v Value = None
	if e.Value != nil {
		v = in.eval(fr, e.Value)
	}
	return in.yieldValue(fr, g, v)
}

func (in *Interp) yieldValue(fr *Frame, g *Generator, v Value) Value {
	base := len(in.frames) - 1
	in.popFrame()
	in.depth--
	g.out <- genMsg{v: v}
	msg := <-g.resume
	in.frames = in.frames[:base]
	in.enterCall()
	in.pushFrame(fr)
	if msg.kill {
		panic(genKilled{})
	}
	if msg.exc != nil {
		msg.exc.Exc.Exc.Traceback = in.traceback()
		panic(msg.exc)
	}
	if msg.v == nil {
		return None
	}
	return msg.v
}

// kill ends a suspended generator's goroutine at interpreter exit.
func (g *Generator) kill() {
	if g.started && !g.done && !g.running {
		g.resume <- genMsg{kill: true}
		<-g.out
		g.done = true
	}
}

func (in *Interp) genClose(g *Generator) {
	if !g.started || g.done {
		g.done = true
		return
	}
	exc := in.newExcErr(in.builtinClass("GeneratorExit"), nil)
	err := in.catch(func() {
		if _, ok := in.genResume(g, genMsg{exc: exc}); ok {
			in.Raise("RuntimeError", "generator ignored GeneratorExit")
		}
	})
	if err != nil && !isSubclass(err.Exc.Cls, in.builtinClass("GeneratorExit")) && !isSubclass(err.Exc.Cls, in.builtinClass("StopIteration")) {
		panic(err)
	}
}

// ---- comprehensions ----

func (in *Interp) compFrame(fr *Frame, c *syntax.Comp) *Frame {
	locals := map[string]bool{}
	var collect func(e syntax.Expr)
	collect = func(e syntax.Expr) {
		switch t := e.(type) {
		case *syntax.NameExpr:
			locals[t.Id] = true
		case *syntax.TupleExpr:
			for _, x := range t.Elts {
				collect(x)
			}
		case *syntax.ListExpr:
			for _, x := range t.Elts {
				collect(x)
			}
		case *syntax.Starred:
			collect(t.Value)
		}
	}
	for _, g := range c.Gens {
		collect(g.Target)
	}
	outer := fr
	for outer != nil && outer.Kind == 'c' {
		outer = outer.Outer
	}
	if outer != nil && outer.Kind == 'm' {
		outer = nil
	}
	return &Frame{Kind: 'k', Locals: map[string]Value{}, Scope: &syntax.Scope{Locals: locals}, Outer: outer,
		Globals: fr.Globals, Name: "<listcomp>", Line: c.Line, Fn: fr.Fn, gen: fr.gen, parent: fr}
}

// compIter iterates the values produced by a comprehension's clauses,
// calling emit in the comprehension frame for each.
func (in *Interp) compIter(k *Frame, c *syntax.Comp, first Value) *Iterator {
	its := make([]Value, len(c.Gens))
	its[0] = in.iter(first)
	level := 0
	return &Iterator{Name: "generator", Next: func() (Value, bool) {
		for level >= 0 {
			v, ok := in.next(its[level])
			if !ok {
				level--
				continue
			}
			g := c.Gens[level]
			in.assign(k, g.Target, v)
			pass := true
			for _, cond := range g.Ifs {
				if !in.truthy(in.eval(k, cond)) {
					pass = false
					break
				}
			}
			if !pass {
				continue
			}
			if level == len(c.Gens)-1 {
				return nil, true
			}
			level++
			its[level] = in.iter(in.eval(k, c.Gens[level].Iter))
		}
		return nil, false
	}}
}

func (in *Interp) evalComp(fr *Frame, c *syntax.Comp) Value {
	first := in.eval(fr, c.Gens[0].Iter)
	k := in.compFrame(fr, c)
	it := in.compIter(k, c, first)
	switch c.Kind {
	case 'g':
		k.Name = "<genexpr>"
		return &Iterator{Name: "generator", Next: func() (Value, bool) {
			if _, ok := it.Next(); !ok {
				return nil, false
			}
			return in.eval(k, c.Elt), true
		}}
	case 'l':
		out := &List{V: []Value{}}
		saved := in.mem.tmp
		for {
			if _, ok := it.Next(); !ok {
				break
			}
			out.V = append(out.V, in.eval(k, c.Elt))
			if len(out.V)%1024 == 0 {
				in.mem.tmp = out.V
				in.mem.add(in, 1024*16)
			}
		}
		in.mem.tmp = saved
		return out
	case 's':
		out := newSet()
		for {
			if _, ok := it.Next(); !ok {
				break
			}
			in.dictSet(out.D, in.eval(k, c.Elt), None)
		}
		return out
	default:
		out := NewDict()
		for {
			if _, ok := it.Next(); !ok {
				break
			}
			key := in.eval(k, c.Elt)
			in.dictSet(out, key, in.eval(k, c.Value))
		}
		return out
	}
}

func newSet() *Set { return &Set{D: NewDict()} }

func (in *Interp) genAttr(g *Generator, name string) (Value, bool) {
	b := func(fn func(a []Value) Value) (Value, bool) {
		return &Builtin{Name: name, Fn: func(in *Interp, a []Value, kw []KW) Value { return fn(a) }}, true
	}
	switch name {
	case "__name__", "__qualname__":
		return g.name, true
	case "gi_frame", "gi_code":
		return None, true
	case "gi_running":
		return g.running, true
	case "send":
		return b(func(a []Value) Value {
			nargs(in, "send", a, 1, 1)
			v, ok := in.genNext(g, a[0])
			if !ok {
				in.raiseExc(in.newExc(in.builtinClass("StopIteration"), stopArgs(g)))
			}
			return v
		})
	case "__next__":
		return b(func(a []Value) Value {
			v, ok := in.genNext(g, None)
			if !ok {
				in.raiseExc(in.newExc(in.builtinClass("StopIteration"), stopArgs(g)))
			}
			return v
		})
	case "__iter__":
		return b(func(a []Value) Value { return g })
	case "throw":
		return b(func(a []Value) Value {
			nargs(in, "throw", a, 1, 3)
			exc := in.toException(a[0])
			if len(a) > 1 && a[1] != None {
				if c, ok := a[0].(*Class); ok {
					exc = in.toException(in.call(c, []Value{a[1]}, nil))
				}
			}
			v, ok := in.genResume(g, genMsg{exc: &PyError{Exc: exc}})
			if !ok {
				in.raiseExc(in.newExc(in.builtinClass("StopIteration"), stopArgs(g)))
			}
			return v
		})
	case "close":
		return b(func(a []Value) Value { in.genClose(g); return None })
	}
	return nil, false
}

func stopArgs(g *Generator) Tuple {
	if g.retVal != nil && g.retVal != None {
		return Tuple{g.retVal}
	}
	return nil
}
