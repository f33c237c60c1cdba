package interp

import (
	"math/big"
)

// memModel charges the live size of Python objects to the System's memory
// meter. Allocations accumulate as pending bytes; past a threshold the
// reachable object graph is measured deterministically (from modules,
// frames, generators and in-flight temporaries) and the reservation is set
// to that size, so garbage is not billed forever and a growing structure
// hits the limit.
type memModel struct {
	limit    int64
	reserved int64
	release  func()
	pending  int64
	tmp      []Value
}

const memMinThreshold = 1 << 20

func (m *memModel) add(in *Interp, n int64) {
	m.pending += n
	if m.pending > memMinThreshold && (m.pending > m.reserved/2 || m.reserved+m.pending > m.limit) {
		in.measure(0)
	}
}

// need is called before allocating n bytes at once.
func (m *memModel) need(in *Interp, n int64) {
	if n < 0 || n > 1<<40 {
		// an overflowed or absurd size: CPython fails such allocations
		// with MemoryError before touching memory
		in.Raise("MemoryError", "")
	}
	if n > m.limit {
		in.reserve(n + m.reserved)
		return
	}
	m.pending += n
	if m.reserved+m.pending > m.limit || m.pending > max(memMinThreshold, m.reserved/2) {
		in.measure(n)
	}
}

func (m *memModel) releaseAll() {
	if m.release != nil {
		m.release()
		m.release = nil
	}
	m.reserved = 0
}

func (in *Interp) reserve(total int64) {
	if in.mem.release != nil {
		in.mem.release()
		in.mem.release = nil
	}
	in.mem.reserved = 0
	rel, err := in.sys.Reserve(total)
	if err != nil {
		panic(stop{err})
	}
	in.mem.release = rel
	in.mem.reserved = total
}

// measure sets the reservation to the live object size plus extra.
func (in *Interp) measure(extra int64) {
	w := &walker{seen: map[any]struct{}{}, budget: in.mem.limit + 1}
	for _, m := range in.modules {
		w.value(m)
	}
	for _, f := range in.frames {
		w.frame(f)
	}
	for _, g := range in.gens {
		if !g.done {
			w.frame(g.fr)
		}
	}
	for _, e := range in.excStack {
		w.value(e)
	}
	w.slice(in.mem.tmp)
	in.mem.pending = 0
	in.reserve(w.size + extra)
}

type walker struct {
	seen   map[any]struct{}
	size   int64
	budget int64
	stack  []any
}

func (w *walker) mark(p any) bool {
	if _, ok := w.seen[p]; ok {
		return false
	}
	w.seen[p] = struct{}{}
	return true
}

func (w *walker) frame(f *Frame) {
	w.push(f)
	w.drain()
}

// push and drain walk the object graph with an explicit stack: nesting
// depth is unbounded in Python data, so recursion would risk the host stack.
func (w *walker) push(v any) { w.stack = append(w.stack, v) }

func (w *walker) slice(v []Value) {
	for _, e := range v {
		w.push(e)
	}
	w.drain()
}

func (w *walker) value(v Value) {
	w.push(v)
	w.drain()
}

func (w *walker) drain() {
	for len(w.stack) > 0 && w.size <= w.budget {
		v := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.visit(v)
	}
	w.stack = w.stack[:0]
}

func (w *walker) visit(v any) {
	switch x := v.(type) {
	case *Frame:
		if x == nil || !w.mark(x) {
			return
		}
		w.size += 200
		for _, e := range x.Locals {
			w.push(e)
		}
		if x.ClsNS != nil {
			w.push(x.ClsNS)
		}
		if x.Globals != nil {
			w.push(x.Globals)
		}
		if x.Outer != nil {
			w.push(x.Outer)
		}
	case string:
		w.size += 49 + int64(len(x))
	case Bytes:
		w.size += 33 + int64(len(x))
	case int64, float64:
		w.size += 24
	case *big.Int:
		w.size += 28 + int64(x.BitLen()/8)
	case *List:
		if w.mark(x) {
			w.size += 56 + 8*int64(cap(x.V))
			for _, e := range x.V {
				w.push(e)
			}
		}
	case Tuple:
		w.size += 40 + 8*int64(len(x))
		for _, e := range x {
			w.push(e)
		}
	case *Dict:
		if w.mark(x) {
			w.size += 64 + 48*int64(len(x.entries))
			for _, e := range x.entries {
				if !e.deleted {
					w.push(e.K)
					w.push(e.V)
				}
			}
		}
	case *Set:
		if w.mark(x) {
			w.push(x.D)
		}
	case *Instance:
		if w.mark(x) {
			w.size += 56
			w.push(x.Dict)
			if x.Base != nil {
				w.push(x.Base)
			}
			if x.Exc != nil {
				for _, e := range x.Exc.Args {
					w.push(e)
				}
			}
		}
	case *Module:
		if w.mark(x) {
			w.push(x.Dict)
		}
	case *Class:
		if w.mark(x) {
			w.size += 400
			w.push(x.Dict)
		}
	case *Function:
		if w.mark(x) {
			w.size += 150
			for _, d := range x.Defaults {
				w.push(d)
			}
			w.push(x.Dict)
			if x.Outer != nil {
				w.push(x.Outer)
			}
		}
	case *Method:
		w.size += 48
		w.push(x.Self)
		w.push(x.Fn)
	case *ByteArray:
		if w.mark(x) {
			w.size += 57 + int64(cap(x.B))
		}
	case *Generator:
		if w.mark(x) {
			w.size += 200
			if x.started && !x.done {
				w.size += 4096
			}
			if x.fr != nil {
				w.push(x.fr)
			}
		}
	case *Iterator:
		w.size += 64
	case *File:
		if w.mark(x) {
			w.size += 200 + int64(len(x.content))
		}
	}
}
