package interp

import (
	"math/big"
	"strings"
	"unicode/utf8"
)

// call calls any callable.
func (in *Interp) call(fn Value, args []Value, kw []KW) Value {
	switch f := fn.(type) {
	case *Function:
		return in.callFunction(f, args, kw)
	case *Builtin:
		in.step()
		if f.Self != nil {
			a := make([]Value, 0, len(args)+1)
			a = append(a, f.Self)
			a = append(a, args...)
			return f.Fn(in, a, kw)
		}
		return f.Fn(in, args, kw)
	case *Method:
		a := make([]Value, 0, len(args)+1)
		a = append(a, f.Self)
		a = append(a, args...)
		return in.call(f.Fn, a, kw)
	case *Class:
		if f.Builtin != "" && !isSubclass(f, in.builtinClass("BaseException")) {
			if ctor, ok := f.Dict.GetStr("__call_ctor__"); ok {
				return ctor.(*Builtin).Fn(in, args, kw)
			}
		}
		return in.instantiate(f, args, kw)
	case *Instance:
		if c := in.lookupClassAttr(f.Cls, "__call__"); c != nil {
			return in.call(in.bindAttr(f, c, f.Cls), args, kw)
		}
	case *StaticMethod:
		return in.call(f.Fn, args, kw)
	}
	in.Raise("TypeError", "'%s' object is not callable", in.typeName(fn))
	return nil
}

// ---- arguments of builtins ----

// argParse binds builtin arguments by position and keyword.
func (in *Interp) args(name string, args []Value, kw []KW, names []string, required int) []Value {
	out := make([]Value, len(names))
	if len(args) > len(names) {
		in.Raise("TypeError", "%s() takes at most %d arguments (%d given)", name, len(names), len(args))
	}
	copy(out, args)
	for _, k := range kw {
		found := false
		for i, n := range names {
			if strings.TrimPrefix(n, "*") == k.Name {
				if out[i] != nil {
					in.Raise("TypeError", "%s() got multiple values for argument '%s'", name, k.Name)
				}
				out[i] = k.V
				found = true
			}
		}
		if !found {
			in.Raise("TypeError", "%s() got an unexpected keyword argument '%s'", name, k.Name)
		}
	}
	for i := 0; i < required; i++ {
		if out[i] == nil {
			in.Raise("TypeError", "%s() missing required argument '%s' (pos %d)", name, names[i], i+1)
		}
	}
	return out
}

func noKw(in *Interp, name string, kw []KW) {
	if len(kw) > 0 {
		in.Raise("TypeError", "%s() takes no keyword arguments", name)
	}
}

func nargs(in *Interp, name string, args []Value, lo, hi int) {
	if len(args) < lo || len(args) > hi {
		if lo == hi {
			in.Raise("TypeError", "%s() takes exactly %d argument%s (%d given)", name, lo, plural(lo), len(args))
		}
		if len(args) < lo {
			in.Raise("TypeError", "%s expected at least %d argument%s, got %d", name, lo, plural(lo), len(args))
		}
		in.Raise("TypeError", "%s expected at most %d argument%s, got %d", name, hi, plural(hi), len(args))
	}
}

// ---- items ----

func (in *Interp) asDict(v Value) (*Dict, bool) {
	switch x := v.(type) {
	case *Dict:
		return x, true
	case *Instance:
		if d, ok := x.Base.(*Dict); ok {
			return d, true
		}
	}
	return nil, false
}

func (in *Interp) getItem(obj, idx Value) Value {
	in.step()
	switch x := obj.(type) {
	case *List:
		if sl, ok := idx.(*Slice); ok {
			return &List{V: in.sliceValues(x.V, sl)}
		}
		return x.V[in.seqIndex(idx, len(x.V), "list")]
	case Tuple:
		if sl, ok := idx.(*Slice); ok {
			return Tuple(in.sliceValues(x, sl))
		}
		return x[in.seqIndex(idx, len(x), "tuple")]
	case string:
		return in.strIndex(x, idx)
	case Bytes:
		if sl, ok := idx.(*Slice); ok {
			return Bytes(in.sliceBytes(string(x), sl))
		}
		return int64(x[in.seqIndex(idx, len(x), "index")])
	case *ByteArray:
		if sl, ok := idx.(*Slice); ok {
			return &ByteArray{B: []byte(in.sliceBytes(string(x.B), sl))}
		}
		return int64(x.B[in.seqIndex(idx, len(x.B), "bytearray")])
	case *Dict:
		if v, ok := in.dictGet(x, idx); ok {
			return v
		}
		return in.dictMissing(x, obj, idx)
	case *Range:
		if sl, ok := idx.(*Slice); ok {
			start, stop, step := in.sliceIndices(sl, int(rangeLen(x)))
			return &Range{Start: x.Start + int64(start)*x.Step, Stop: x.Start + int64(stop)*x.Step, Step: x.Step * int64(step)}
		}
		n := rangeLen(x)
		i := in.seqIndex(idx, int(n), "range object")
		return x.Start + int64(i)*x.Step
	case *Instance:
		if f := in.lookupClassAttr(x.Cls, "__getitem__"); f != nil && !isBuiltinAttr(f) {
			return in.call(in.bindAttr(x, f, x.Cls), []Value{idx}, nil)
		}
		if x.Base != nil {
			if d, ok := x.Base.(*Dict); ok {
				if v, ok := in.dictGet(d, idx); ok {
					return v
				}
				if m := in.lookupClassAttr(x.Cls, "__missing__"); m != nil {
					return in.call(in.bindAttr(x, m, x.Cls), []Value{idx}, nil)
				}
				in.raiseKeyError(idx)
			}
			return in.getItem(x.Base, idx)
		}
	case *Class:
		if f := in.lookupClassAttr(x, "__class_getitem__"); f != nil {
			if cm, ok := f.(*ClassMethod); ok {
				return in.call(cm.Fn, []Value{x, idx}, nil)
			}
		}
		return x // list[int] and friends: generic aliases are the class
	case *Match:
		return x.group(idx)
	}
	in.Raise("TypeError", "'%s' object is not subscriptable", in.typeName(obj))
	return nil
}

func (in *Interp) raiseKeyError(k Value) {
	in.raiseExc(in.newExc(in.builtinClass("KeyError"), Tuple{k}))
}

func (in *Interp) dictMissing(d *Dict, obj, k Value) Value {
	switch d.Kind {
	case "defaultdict":
		if d.Default != nil && d.Default != None {
			v := in.call(d.Default, nil, nil)
			in.dictSet(d, k, v)
			return v
		}
	case "Counter":
		return int64(0)
	}
	in.raiseKeyError(k)
	return nil
}

func (in *Interp) strIndex(s string, idx Value) Value {
	ascii := isASCII(s)
	if sl, ok := idx.(*Slice); ok {
		if ascii {
			return in.sliceBytes(s, sl)
		}
		r := []rune(s)
		start, stop, step := in.sliceIndices(sl, len(r))
		if step == 1 {
			if start >= stop {
				return ""
			}
			return string(r[start:stop])
		}
		var b strings.Builder
		for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
			b.WriteRune(r[i])
		}
		return b.String()
	}
	if ascii {
		i := in.seqIndex(idx, len(s), "string")
		return s[i : i+1]
	}
	r := []rune(s)
	i := in.seqIndex(idx, len(r), "string")
	return string(r[i])
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (in *Interp) seqIndex(idx Value, n int, what string) int {
	var i int64
	switch x := idx.(type) {
	case int64:
		i = x
	case bool:
		i = boolInt(x)
	case *big.Int:
		in.Raise("IndexError", "cannot fit 'int' into an index-sized integer")
	case *Instance:
		i = in.toInt64(x)
	default:
		in.Raise("TypeError", "%s indices must be integers or slices, not %s", strings.TrimSuffix(what, " object"), in.typeName(idx))
	}
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		in.Raise("IndexError", "%s index out of range", what)
	}
	return int(i)
}

// sliceIndices resolves a slice against a length, as slice.indices.
func (in *Interp) sliceIndices(sl *Slice, n int) (start, stop, step int) {
	step = 1
	if sl.Step != None {
		step = int(in.toInt64(sl.Step))
		if step == 0 {
			in.Raise("ValueError", "slice step cannot be zero")
		}
	}
	clamp := func(v Value, def int) int {
		if v == None {
			return def
		}
		var i int64
		if b, ok := v.(*big.Int); ok {
			if b.Sign() < 0 {
				i = -int64(n) - 1
			} else {
				i = int64(n) + 1
			}
		} else {
			i = in.toInt64(v)
		}
		if i < 0 {
			i += int64(n)
			if i < 0 {
				if step < 0 {
					return -1
				}
				return 0
			}
		}
		if i >= int64(n) {
			if step < 0 {
				return n - 1
			}
			return n
		}
		return int(i)
	}
	if step > 0 {
		start, stop = clamp(sl.Start, 0), clamp(sl.Stop, n)
	} else {
		start, stop = clamp(sl.Start, n-1), clamp(sl.Stop, -1)
	}
	return
}

func (in *Interp) sliceValues(v []Value, sl *Slice) []Value {
	start, stop, step := in.sliceIndices(sl, len(v))
	if step == 1 {
		if start >= stop {
			return []Value{}
		}
		return append([]Value(nil), v[start:stop]...)
	}
	var out []Value
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		out = append(out, v[i])
	}
	if out == nil {
		out = []Value{}
	}
	return out
}

func (in *Interp) sliceBytes(s string, sl *Slice) string {
	start, stop, step := in.sliceIndices(sl, len(s))
	if step == 1 {
		if start >= stop {
			return ""
		}
		return s[start:stop]
	}
	var b strings.Builder
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		b.WriteByte(s[i])
	}
	return b.String()
}

func (in *Interp) setItem(obj, idx, v Value) {
	in.step()
	switch x := obj.(type) {
	case *List:
		if sl, ok := idx.(*Slice); ok {
			items := in.iterToSlice(v)
			start, stop, step := in.sliceIndices(sl, len(x.V))
			if step == 1 {
				if stop < start {
					stop = start
				}
				nv := make([]Value, 0, len(x.V)-(stop-start)+len(items))
				nv = append(nv, x.V[:start]...)
				nv = append(nv, items...)
				nv = append(nv, x.V[stop:]...)
				x.V = nv
				return
			}
			var idxs []int
			for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
				idxs = append(idxs, i)
			}
			if len(idxs) != len(items) {
				in.Raise("ValueError", "attempt to assign sequence of size %d to extended slice of size %d", len(items), len(idxs))
			}
			for j, i := range idxs {
				x.V[i] = items[j]
			}
			return
		}
		x.V[in.seqIndex(idx, len(x.V), "list assignment")] = v
		return
	case *Dict:
		in.dictSet(x, idx, v)
		return
	case *ByteArray:
		x.B[in.seqIndex(idx, len(x.B), "bytearray")] = byte(in.toInt64(v))
		return
	case *Instance:
		if f := in.lookupClassAttr(x.Cls, "__setitem__"); f != nil && !isBuiltinAttr(f) {
			in.call(in.bindAttr(x, f, x.Cls), []Value{idx, v}, nil)
			return
		}
		if x.Base != nil {
			in.setItem(x.Base, idx, v)
			return
		}
	}
	in.Raise("TypeError", "'%s' object does not support item assignment", in.typeName(obj))
}

func (in *Interp) delItem(obj, idx Value) {
	switch x := obj.(type) {
	case *List:
		if sl, ok := idx.(*Slice); ok {
			start, stop, step := in.sliceIndices(sl, len(x.V))
			del := map[int]bool{}
			for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
				del[i] = true
			}
			nv := x.V[:0:0]
			for i, e := range x.V {
				if !del[i] {
					nv = append(nv, e)
				}
			}
			x.V = nv
			return
		}
		i := in.seqIndex(idx, len(x.V), "list assignment")
		x.V = append(x.V[:i:i], x.V[i+1:]...)
		return
	case *Dict:
		if !in.dictDel(x, idx) {
			in.raiseKeyError(idx)
		}
		return
	case *Instance:
		if f := in.lookupClassAttr(x.Cls, "__delitem__"); f != nil && !isBuiltinAttr(f) {
			in.call(in.bindAttr(x, f, x.Cls), []Value{idx}, nil)
			return
		}
		if x.Base != nil {
			in.delItem(x.Base, idx)
			return
		}
	}
	in.Raise("TypeError", "'%s' object doesn't support item deletion", in.typeName(obj))
}

// ---- length ----

func (in *Interp) length(v Value) int64 {
	switch x := v.(type) {
	case string:
		if isASCII(x) {
			return int64(len(x))
		}
		return int64(utf8.RuneCountInString(x))
	case *List:
		return int64(len(x.V))
	case Tuple:
		return int64(len(x))
	case *Dict:
		return int64(x.live)
	case *DictView:
		return int64(x.D.live)
	case *Set:
		return int64(x.D.live)
	case Bytes:
		return int64(len(x))
	case *ByteArray:
		return int64(len(x.B))
	case *Range:
		return rangeLen(x)
	case *Class:
		if mm, ok := in.lookupClassAttr(x, "_member_map_").(*Dict); ok {
			return int64(mm.live)
		}
	case *Instance:
		if f := in.lookupClassAttr(x.Cls, "__len__"); f != nil && !isBuiltinAttr(f) {
			n := in.toInt64(in.call(in.bindAttr(x, f, x.Cls), nil, nil))
			if n < 0 {
				in.Raise("ValueError", "__len__() should return >= 0")
			}
			return n
		}
		if x.Base != nil {
			return in.length(x.Base)
		}
	}
	in.Raise("TypeError", "object of type '%s' has no len()", in.typeName(v))
	return 0
}

func rangeLen(r *Range) int64 {
	if r.Step > 0 && r.Start < r.Stop {
		return (r.Stop - r.Start + r.Step - 1) / r.Step
	}
	if r.Step < 0 && r.Start > r.Stop {
		return (r.Start - r.Stop - r.Step - 1) / (-r.Step)
	}
	return 0
}

// ---- iteration ----

// iter returns an iterator for v: a *Iterator, *Generator or an instance
// with __next__.
func (in *Interp) iter(v Value) Value {
	switch x := v.(type) {
	case *List:
		i := 0
		return &Iterator{Name: "list_iterator", Next: func() (Value, bool) {
			if i < len(x.V) {
				i++
				return x.V[i-1], true
			}
			i = len(x.V) + 1
			return nil, false
		}}
	case Tuple:
		i := 0
		return &Iterator{Name: "tuple_iterator", Next: func() (Value, bool) {
			if i < len(x) {
				i++
				return x[i-1], true
			}
			return nil, false
		}}
	case string:
		i := 0
		return &Iterator{Name: "str_ascii_iterator", Next: func() (Value, bool) {
			if i >= len(x) {
				return nil, false
			}
			r, n := utf8.DecodeRuneInString(x[i:])
			i += n
			if r == utf8.RuneError && n == 1 {
				return x[i-1 : i], true
			}
			return string(r), true
		}}
	case Bytes:
		i := 0
		return &Iterator{Name: "bytes_iterator", Next: func() (Value, bool) {
			if i < len(x) {
				i++
				return int64(x[i-1]), true
			}
			return nil, false
		}}
	case *ByteArray:
		i := 0
		return &Iterator{Name: "bytearray_iterator", Next: func() (Value, bool) {
			if i < len(x.B) {
				i++
				return int64(x.B[i-1]), true
			}
			return nil, false
		}}
	case *Dict:
		return in.dictIter(x, 'k')
	case *DictView:
		return in.dictIter(x.D, x.Kind)
	case *Set:
		return in.dictIter(x.D, 'k')
	case *Range:
		cur, n := x.Start, rangeLen(x)
		var i int64
		return &Iterator{Name: "range_iterator", Next: func() (Value, bool) {
			if i >= n {
				return nil, false
			}
			v := cur
			cur += x.Step
			i++
			return v, true
		}}
	case *Iterator, *Generator:
		return x
	case *File:
		return x
	case *Class:
		if mm, ok := in.lookupClassAttr(x, "_member_map_").(*Dict); ok {
			return in.dictIter(mm, 'v')
		}
	case *Instance:
		if f := in.lookupClassAttr(x.Cls, "__iter__"); f != nil && !isBuiltinAttr(f) {
			return in.call(in.bindAttr(x, f, x.Cls), nil, nil)
		}
		if f := in.lookupClassAttr(x.Cls, "__getitem__"); f != nil && !isBuiltinAttr(f) {
			i := int64(0)
			return &Iterator{Name: "iterator", Next: func() (Value, bool) {
				var v Value
				exc := in.catch(func() { v = in.call(in.bindAttr(x, f, x.Cls), []Value{i}, nil) })
				if exc != nil {
					if isSubclass(exc.Exc.Cls, in.builtinClass("IndexError")) || isSubclass(exc.Exc.Cls, in.builtinClass("StopIteration")) {
						return nil, false
					}
					panic(exc)
				}
				i++
				return v, true
			}}
		}
		if x.Base != nil {
			return in.iter(x.Base)
		}
	}
	in.Raise("TypeError", "'%s' object is not iterable", in.typeName(v))
	return nil
}

func (in *Interp) dictIter(d *Dict, kind byte) *Iterator {
	i := 0
	live := d.live
	entries := &d.entries
	return &Iterator{Name: "dict_keyiterator", Next: func() (Value, bool) {
		if d.live != live {
			in.Raise("RuntimeError", "dictionary changed size during iteration")
		}
		for i < len(*entries) {
			e := (*entries)[i]
			i++
			if e.deleted {
				continue
			}
			switch kind {
			case 'v':
				return e.V, true
			case 'i':
				return Tuple{e.K, e.V}, true
			}
			return e.K, true
		}
		return nil, false
	}}
}

// next advances an iterator; ok is false at exhaustion.
func (in *Interp) next(it Value) (Value, bool) {
	in.step()
	switch x := it.(type) {
	case *Iterator:
		return x.Next()
	case *Generator:
		return in.genNext(x, None)
	case *File:
		line := in.fileReadline(x, -1)
		if s, ok := line.(string); ok && s == "" {
			return nil, false
		}
		if b, ok := line.(Bytes); ok && len(b) == 0 {
			return nil, false
		}
		return line, true
	case *Instance:
		f := in.lookupClassAttr(x.Cls, "__next__")
		if f == nil {
			in.Raise("TypeError", "'%s' object is not an iterator", x.Cls.Name)
		}
		var v Value
		exc := in.catch(func() { v = in.call(in.bindAttr(x, f, x.Cls), nil, nil) })
		if exc != nil {
			if isSubclass(exc.Exc.Cls, in.builtinClass("StopIteration")) {
				return nil, false
			}
			panic(exc)
		}
		return v, true
	}
	in.Raise("TypeError", "'%s' object is not an iterator", in.typeName(it))
	return nil, false
}

func (in *Interp) iterToSlice(v Value) []Value {
	switch x := v.(type) {
	case *List:
		return append([]Value(nil), x.V...)
	case Tuple:
		return append([]Value(nil), x...)
	}
	it := in.iter(v)
	var out []Value
	n := 0
	for {
		e, ok := in.next(it)
		if !ok {
			return out
		}
		out = append(out, e)
		n++
		if n%1024 == 0 {
			in.mem.add(in, 1024*16)
			in.mem.tmp = out
		}
	}
}
