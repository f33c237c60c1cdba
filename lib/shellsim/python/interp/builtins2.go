package interp

import (
	"encoding/hex"
	"math"
	"math/big"
	"strings"
)

func (in *Interp) selfList(v Value) *List {
	switch x := v.(type) {
	case *List:
		return x
	case *Instance:
		if l, ok := x.Base.(*List); ok {
			return l
		}
	}
	in.Raise("TypeError", "descriptor requires a 'list' object but received a '%s'", in.typeName(v))
	return nil
}

func (in *Interp) setupList() {
	c := in.builtinClass("list")
	m := func(name string, fn func(in *Interp, l *List, a []Value, kw []KW) Value) {
		in.method(c, name, func(in *Interp, a []Value, kw []KW) Value {
			return fn(in, in.selfList(a[0]), a[1:], kw)
		})
	}
	m("append", func(in *Interp, l *List, a []Value, kw []KW) Value {
		nargs(in, "list.append", a, 1, 1)
		l.V = append(l.V, a[0])
		in.mem.add(in, 16)
		return None
	})
	m("extend", func(in *Interp, l *List, a []Value, kw []KW) Value {
		items := in.iterToSlice(a[0])
		in.mem.add(in, int64(len(items))*16)
		l.V = append(l.V, items...)
		return None
	})
	m("insert", func(in *Interp, l *List, a []Value, kw []KW) Value {
		nargs(in, "insert", a, 2, 2)
		i := in.toInt64(a[0])
		n := int64(len(l.V))
		if i < 0 {
			i += n
			if i < 0 {
				i = 0
			}
		}
		if i > n {
			i = n
		}
		in.charge(n / 16)
		l.V = append(l.V, nil)
		copy(l.V[i+1:], l.V[i:])
		l.V[i] = a[1]
		return None
	})
	m("remove", func(in *Interp, l *List, a []Value, kw []KW) Value {
		for i, v := range l.V {
			if in.eq(v, a[0]) {
				l.V = append(l.V[:i:i], l.V[i+1:]...)
				return None
			}
		}
		in.Raise("ValueError", "list.remove(x): x not in list")
		return nil
	})
	m("pop", func(in *Interp, l *List, a []Value, kw []KW) Value {
		if len(l.V) == 0 {
			in.Raise("IndexError", "pop from empty list")
		}
		i := len(l.V) - 1
		if len(a) > 0 {
			i = in.seqIndex(a[0], len(l.V), "pop")
		}
		v := l.V[i]
		l.V = append(l.V[:i:i], l.V[i+1:]...)
		return v
	})
	m("clear", func(in *Interp, l *List, a []Value, kw []KW) Value { l.V = []Value{}; return None })
	m("index", func(in *Interp, l *List, a []Value, kw []KW) Value {
		st, en := 0, len(l.V)
		if len(a) > 1 {
			st, en, _ = in.sliceIndices(&Slice{Start: a[1], Stop: argOr(a, 2, None), Step: None}, len(l.V))
		}
		for i := st; i < en && i < len(l.V); i++ {
			if in.eq(l.V[i], a[0]) {
				return int64(i)
			}
		}
		in.Raise("ValueError", "%s is not in list", in.repr(a[0]))
		return nil
	})
	m("count", func(in *Interp, l *List, a []Value, kw []KW) Value {
		n := 0
		for _, v := range l.V {
			if in.eq(v, a[0]) {
				n++
			}
		}
		return int64(n)
	})
	m("sort", func(in *Interp, l *List, a []Value, kw []KW) Value {
		if len(a) > 0 {
			in.Raise("TypeError", "sort() takes no positional arguments")
		}
		a = in.args("sort", nil, kw, []string{"key", "reverse"}, 0)
		in.sortValues(l.V, a[0], a[1] != nil && in.truthy(a[1]))
		return None
	})
	m("reverse", func(in *Interp, l *List, a []Value, kw []KW) Value {
		for i, j := 0, len(l.V)-1; i < j; i, j = i+1, j-1 {
			l.V[i], l.V[j] = l.V[j], l.V[i]
		}
		return None
	})
	m("copy", func(in *Interp, l *List, a []Value, kw []KW) Value { return &List{V: append([]Value{}, l.V...)} })
	m("__len__", func(in *Interp, l *List, a []Value, kw []KW) Value { return int64(len(l.V)) })
	m("__getitem__", func(in *Interp, l *List, a []Value, kw []KW) Value { return in.getItem(l, a[0]) })
	m("__setitem__", func(in *Interp, l *List, a []Value, kw []KW) Value { in.setItem(l, a[0], a[1]); return None })
	m("__delitem__", func(in *Interp, l *List, a []Value, kw []KW) Value { in.delItem(l, a[0]); return None })
	m("__iter__", func(in *Interp, l *List, a []Value, kw []KW) Value { return in.iter(l) })
	m("__contains__", func(in *Interp, l *List, a []Value, kw []KW) Value { return in.contains(l, a[0]) })
	m("__repr__", func(in *Interp, l *List, a []Value, kw []KW) Value { return in.repr(l) })
	m("__eq__", func(in *Interp, l *List, a []Value, kw []KW) Value { return in.eqValue(l, a[0]) })
	m("__add__", func(in *Interp, l *List, a []Value, kw []KW) Value { return in.binop("+", l, a[0]) })

	t := in.builtinClass("tuple")
	in.method(t, "index", func(in *Interp, a []Value, kw []KW) Value {
		for i, v := range a[0].(Tuple) {
			if in.eq(v, a[1]) {
				return int64(i)
			}
		}
		in.Raise("ValueError", "tuple.index(x): x not in tuple")
		return nil
	})
	in.method(t, "count", func(in *Interp, a []Value, kw []KW) Value {
		n := 0
		for _, v := range a[0].(Tuple) {
			if in.eq(v, a[1]) {
				n++
			}
		}
		return int64(n)
	})
	in.method(t, "__len__", func(in *Interp, a []Value, kw []KW) Value { return in.length(a[0]) })
	in.method(t, "__getitem__", func(in *Interp, a []Value, kw []KW) Value {
		if x, ok := a[0].(*Instance); ok {
			return in.getItem(x.Base, a[1])
		}
		return in.getItem(a[0], a[1])
	})
	in.method(t, "__iter__", func(in *Interp, a []Value, kw []KW) Value { return in.iter(unwrapBase(a[0])) })
	in.method(t, "__repr__", func(in *Interp, a []Value, kw []KW) Value { return in.repr(unwrapBase(a[0])) })
	in.method(t, "__eq__", func(in *Interp, a []Value, kw []KW) Value { return in.eqValue(unwrapBase(a[0]), a[1]) })
	in.method(t, "__hash__", func(in *Interp, a []Value, kw []KW) Value { return in.hashKey(unwrapBase(a[0])).i })
	in.method(t, "__lt__", func(in *Interp, a []Value, kw []KW) Value { return in.order("<", unwrapBase(a[0]), unwrapBase(a[1])) })
}

func unwrapBase(v Value) Value {
	if x, ok := v.(*Instance); ok && x.Base != nil {
		return x.Base
	}
	return v
}

func (in *Interp) selfDict(v Value) *Dict {
	if d, ok := in.asDict(v); ok {
		return d
	}
	in.Raise("TypeError", "descriptor requires a 'dict' object but received a '%s'", in.typeName(v))
	return nil
}

func (in *Interp) dictUpdate(d *Dict, src Value) {
	if s, ok := in.asDict(src); ok {
		for _, kv := range s.Items() {
			in.dictSet(d, kv[0], kv[1])
		}
		return
	}
	if _, ok := in.getAttrOpt(src, "keys"); ok {
		if _, isList := src.(*List); !isList {
			for _, kv := range in.mappingItems(src) {
				in.dictSet(d, kv[0], kv[1])
			}
			return
		}
	}
	for i, item := range in.iterToSlice(src) {
		pair := in.iterToSlice(item)
		if len(pair) != 2 {
			in.Raise("ValueError", "dictionary update sequence element #%d has length %d; 2 is required", i, len(pair))
		}
		in.dictSet(d, pair[0], pair[1])
	}
}

func (in *Interp) setupDict() {
	c := in.builtinClass("dict")
	m := func(name string, fn func(in *Interp, d *Dict, a []Value, kw []KW) Value) {
		in.method(c, name, func(in *Interp, a []Value, kw []KW) Value {
			return fn(in, in.selfDict(a[0]), a[1:], kw)
		})
	}
	m("keys", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return &DictView{D: d, Kind: 'k'} })
	m("values", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return &DictView{D: d, Kind: 'v'} })
	m("items", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return &DictView{D: d, Kind: 'i'} })
	m("get", func(in *Interp, d *Dict, a []Value, kw []KW) Value {
		nargs(in, "get", a, 1, 2)
		if v, ok := in.dictGet(d, a[0]); ok {
			return v
		}
		return argOr(a, 1, None)
	})
	m("setdefault", func(in *Interp, d *Dict, a []Value, kw []KW) Value {
		if v, ok := in.dictGet(d, a[0]); ok {
			return v
		}
		v := argOr(a, 1, None)
		in.dictSet(d, a[0], v)
		return v
	})
	m("pop", func(in *Interp, d *Dict, a []Value, kw []KW) Value {
		nargs(in, "pop", a, 1, 2)
		if v, ok := in.dictGet(d, a[0]); ok {
			in.dictDel(d, a[0])
			return v
		}
		if len(a) > 1 {
			return a[1]
		}
		in.raiseKeyError(a[0])
		return nil
	})
	m("popitem", func(in *Interp, d *Dict, a []Value, kw []KW) Value {
		items := d.Items()
		if len(items) == 0 {
			in.Raise("KeyError", "popitem(): dictionary is empty")
		}
		kv := items[len(items)-1]
		if d.Kind == "OrderedDict" && len(kw) > 0 && kw[0].Name == "last" && !in.truthy(kw[0].V) {
			kv = items[0]
		}
		in.dictDel(d, kv[0])
		return Tuple{kv[0], kv[1]}
	})
	m("update", func(in *Interp, d *Dict, a []Value, kw []KW) Value {
		if len(a) > 0 {
			if d.Kind == "Counter" {
				in.counterUpdate(d, a[0], 1)
			} else {
				in.dictUpdate(d, a[0])
			}
		}
		for _, k := range kw {
			d.SetStr(k.Name, k.V)
		}
		return None
	})
	m("clear", func(in *Interp, d *Dict, a []Value, kw []KW) Value { d.clear(); return None })
	m("copy", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return in.dictCopy(d) })
	m("__len__", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return int64(d.live) })
	m("__getitem__", func(in *Interp, d *Dict, a []Value, kw []KW) Value {
		if v, ok := in.dictGet(d, a[0]); ok {
			return v
		}
		return in.dictMissing(d, d, a[0])
	})
	m("__setitem__", func(in *Interp, d *Dict, a []Value, kw []KW) Value { in.dictSet(d, a[0], a[1]); return None })
	m("__delitem__", func(in *Interp, d *Dict, a []Value, kw []KW) Value {
		if !in.dictDel(d, a[0]) {
			in.raiseKeyError(a[0])
		}
		return None
	})
	m("__contains__", func(in *Interp, d *Dict, a []Value, kw []KW) Value { _, ok := in.dictGet(d, a[0]); return ok })
	m("__iter__", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return in.iter(d) })
	m("__repr__", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return in.repr(d) })
	m("__eq__", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return in.eqValue(d, unwrapBase(a[0])) })
	m("__or__", func(in *Interp, d *Dict, a []Value, kw []KW) Value { return in.binop("|", d, a[0]) })
	c.Dict.SetStr("fromkeys", &ClassMethod{Fn: &Builtin{Name: "fromkeys", Fn: func(in *Interp, a []Value, kw []KW) Value {
		d := NewDict()
		for _, k := range in.iterToSlice(a[1]) {
			in.dictSet(d, k, argOr(a, 2, None))
		}
		if cls, ok := a[0].(*Class); ok && cls.Builtin == "" {
			inst := in.call(cls, nil, nil)
			in.dictUpdate(in.selfDict(inst), d)
			return inst
		}
		return d
	}}})
}

func (in *Interp) selfSet(v Value) *Set {
	switch x := v.(type) {
	case *Set:
		return x
	case *Instance:
		if s, ok := x.Base.(*Set); ok {
			return s
		}
	}
	in.Raise("TypeError", "descriptor requires a 'set' object")
	return nil
}

func (in *Interp) toSet(v Value) *Set {
	if s, ok := v.(*Set); ok {
		return s
	}
	s := newSet()
	for _, x := range in.iterToSlice(v) {
		in.dictSet(s.D, x, None)
	}
	return s
}

func (in *Interp) setupSet() {
	for _, name := range []string{"set", "frozenset"} {
		c := in.builtinClass(name)
		frozen := name == "frozenset"
		m := func(mname string, fn func(in *Interp, s *Set, a []Value, kw []KW) Value) {
			in.method(c, mname, func(in *Interp, a []Value, kw []KW) Value {
				return fn(in, in.selfSet(a[0]), a[1:], kw)
			})
		}
		multi := func(mname, op string) {
			m(mname, func(in *Interp, s *Set, a []Value, kw []KW) Value {
				r := &Set{D: in.dictCopy(s.D), Frozen: s.Frozen}
				for _, o := range a {
					r = in.binop(op, r, in.toSet(o)).(*Set)
				}
				r.Frozen = s.Frozen
				return r
			})
		}
		multi("union", "|")
		multi("intersection", "&")
		multi("difference", "-")
		multi("symmetric_difference", "^")
		m("issubset", func(in *Interp, s *Set, a []Value, kw []KW) Value { return in.order("<=", s, in.toSet(a[0])) })
		m("issuperset", func(in *Interp, s *Set, a []Value, kw []KW) Value { return in.order(">=", s, in.toSet(a[0])) })
		m("isdisjoint", func(in *Interp, s *Set, a []Value, kw []KW) Value {
			return in.binop("&", s, in.toSet(a[0])).(*Set).D.live == 0
		})
		m("copy", func(in *Interp, s *Set, a []Value, kw []KW) Value { return &Set{D: in.dictCopy(s.D), Frozen: s.Frozen} })
		m("__len__", func(in *Interp, s *Set, a []Value, kw []KW) Value { return int64(s.D.live) })
		m("__contains__", func(in *Interp, s *Set, a []Value, kw []KW) Value { _, ok := in.dictGet(s.D, a[0]); return ok })
		m("__iter__", func(in *Interp, s *Set, a []Value, kw []KW) Value { return in.iter(s) })
		if frozen {
			continue
		}
		m("add", func(in *Interp, s *Set, a []Value, kw []KW) Value { in.dictSet(s.D, a[0], None); return None })
		m("discard", func(in *Interp, s *Set, a []Value, kw []KW) Value { in.dictDel(s.D, a[0]); return None })
		m("remove", func(in *Interp, s *Set, a []Value, kw []KW) Value {
			if !in.dictDel(s.D, a[0]) {
				in.raiseKeyError(a[0])
			}
			return None
		})
		m("pop", func(in *Interp, s *Set, a []Value, kw []KW) Value {
			keys := s.D.Keys()
			if len(keys) == 0 {
				in.Raise("KeyError", "pop from an empty set")
			}
			in.dictDel(s.D, keys[0])
			return keys[0]
		})
		m("clear", func(in *Interp, s *Set, a []Value, kw []KW) Value { s.D.clear(); return None })
		upd := func(mname, op string) {
			m(mname, func(in *Interp, s *Set, a []Value, kw []KW) Value {
				r := s
				for _, o := range a {
					r = in.binop(op, r, in.toSet(o)).(*Set)
				}
				s.D = r.D
				return None
			})
		}
		upd("update", "|")
		upd("intersection_update", "&")
		upd("difference_update", "-")
		upd("symmetric_difference_update", "^")
	}
}

func (in *Interp) setupNumbers() {
	ic := in.builtinClass("int")
	in.method(ic, "bit_length", func(in *Interp, a []Value, kw []KW) Value {
		return int64(new(big.Int).Abs(toBig(unwrapBase(a[0]))).BitLen())
	})
	in.method(ic, "bit_count", func(in *Interp, a []Value, kw []KW) Value {
		b := new(big.Int).Abs(toBig(unwrapBase(a[0])))
		n := 0
		for _, w := range b.Bits() {
			for ; w != 0; w &= w - 1 {
				n++
			}
		}
		return int64(n)
	})
	in.method(ic, "conjugate", func(in *Interp, a []Value, kw []KW) Value { return a[0] })
	in.method(ic, "is_integer", func(in *Interp, a []Value, kw []KW) Value { return true })
	in.method(ic, "__index__", func(in *Interp, a []Value, kw []KW) Value { return in.toIntValue(a[0]) })
	in.method(ic, "__int__", func(in *Interp, a []Value, kw []KW) Value { return in.toIntValue(a[0]) })
	in.method(ic, "to_bytes", func(in *Interp, a []Value, kw []KW) Value {
		self := toBig(in.toIntValue(unwrapBase(a[0])))
		a = in.args("to_bytes", a[1:], kw, []string{"length", "byteorder", "signed"}, 0)
		n := int64(1)
		if a[0] != nil {
			n = in.toInt64(a[0])
		}
		order := "big"
		if a[1] != nil {
			order = in.str(a[1])
		}
		return Bytes(intToBytes(in, self, n, order, a[2] != nil && in.truthy(a[2])))
	})
	ic.Dict.SetStr("from_bytes", &ClassMethod{Fn: &Builtin{Name: "from_bytes", Fn: func(in *Interp, a []Value, kw []KW) Value {
		a = in.args("from_bytes", a[1:], kw, []string{"bytes", "byteorder", "signed"}, 1)
		b := []byte(in.bytesOf(a[0]))
		if a[1] != nil && in.str(a[1]) == "little" {
			for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
				b[i], b[j] = b[j], b[i]
			}
		}
		r := new(big.Int).SetBytes(b)
		if a[2] != nil && in.truthy(a[2]) && len(b) > 0 && b[0]&0x80 != 0 {
			r.Sub(r, new(big.Int).Lsh(big.NewInt(1), uint(len(b)*8)))
		}
		return normInt(r)
	}}})
	fc := in.builtinClass("float")
	in.method(fc, "is_integer", func(in *Interp, a []Value, kw []KW) Value {
		f := a[0].(float64)
		return f == math.Trunc(f) && !math.IsInf(f, 0)
	})
	in.method(fc, "as_integer_ratio", func(in *Interp, a []Value, kw []KW) Value {
		r, _ := new(big.Rat).SetString(floatRepr(a[0].(float64)))
		if r == nil {
			in.Raise("ValueError", "cannot convert to integer ratio")
		}
		f := new(big.Rat).SetFloat64(a[0].(float64))
		return Tuple{normInt(f.Num()), normInt(f.Denom())}
	})
	in.method(fc, "hex", func(in *Interp, a []Value, kw []KW) Value {
		return strings.Replace(strings.Replace(big.NewFloat(a[0].(float64)).Text('p', -1), "0x", "0x", 1), "p", "p", 1)
	})
	in.method(fc, "conjugate", func(in *Interp, a []Value, kw []KW) Value { return a[0] })
	fc.Dict.SetStr("fromhex", &ClassMethod{Fn: &Builtin{Name: "fromhex", Fn: func(in *Interp, a []Value, kw []KW) Value {
		in.Raise("NotImplementedError", "float.fromhex is not supported")
		return nil
	}}})
}

func intToBytes(in *Interp, v *big.Int, n int64, order string, signed bool) []byte {
	if n > 1<<20 {
		in.Raise("OverflowError", "length too large")
	}
	x := new(big.Int).Set(v)
	if x.Sign() < 0 {
		if !signed {
			in.Raise("OverflowError", "can't convert negative int to unsigned")
		}
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(n*8)))
	}
	b := x.Bytes()
	if int64(len(b)) > n {
		in.Raise("OverflowError", "int too big to convert")
	}
	out := make([]byte, n)
	copy(out[n-int64(len(b)):], b)
	if order == "little" {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

func (in *Interp) bytesOf(v Value) string {
	switch x := v.(type) {
	case Bytes:
		return string(x)
	case *ByteArray:
		return string(x.B)
	case *List, Tuple:
		var b []byte
		for _, e := range in.iterToSlice(x) {
			b = append(b, byte(in.toInt64(e)))
		}
		return string(b)
	}
	in.Raise("TypeError", "a bytes-like object is required, not '%s'", in.typeName(v))
	return ""
}

func (in *Interp) setupBytes() {
	for _, name := range []string{"bytes", "bytearray"} {
		c := in.builtinClass(name)
		isBA := name == "bytearray"
		wrap := func(s string) Value {
			if isBA {
				return &ByteArray{B: []byte(s)}
			}
			return Bytes(s)
		}
		m := func(mname string, fn func(in *Interp, s string, a []Value, kw []KW) Value) {
			in.method(c, mname, func(in *Interp, a []Value, kw []KW) Value {
				return fn(in, in.bytesOf(a[0]), a[1:], kw)
			})
		}
		m("decode", func(in *Interp, s string, a []Value, kw []KW) Value {
			a = in.args("decode", a, kw, []string{"encoding", "errors"}, 0)
			return in.decode(s, a[0], a[1])
		})
		m("hex", func(in *Interp, s string, a []Value, kw []KW) Value { return hex.EncodeToString([]byte(s)) })
		m("startswith", func(in *Interp, s string, a []Value, kw []KW) Value {
			if t, ok := a[0].(Tuple); ok {
				for _, x := range t {
					if strings.HasPrefix(s, in.bytesOf(x)) {
						return true
					}
				}
				return false
			}
			return strings.HasPrefix(s, in.bytesOf(a[0]))
		})
		m("endswith", func(in *Interp, s string, a []Value, kw []KW) Value { return strings.HasSuffix(s, in.bytesOf(a[0])) })
		m("find", func(in *Interp, s string, a []Value, kw []KW) Value {
			if n, ok := a[0].(int64); ok {
				return int64(strings.IndexByte(s, byte(n)))
			}
			return int64(strings.Index(s, in.bytesOf(a[0])))
		})
		m("count", func(in *Interp, s string, a []Value, kw []KW) Value { return int64(strings.Count(s, in.bytesOf(a[0]))) })
		m("replace", func(in *Interp, s string, a []Value, kw []KW) Value {
			return wrap(strings.ReplaceAll(s, in.bytesOf(a[0]), in.bytesOf(a[1])))
		})
		m("strip", func(in *Interp, s string, a []Value, kw []KW) Value {
			if len(a) > 0 && a[0] != None {
				return wrap(strings.Trim(s, in.bytesOf(a[0])))
			}
			return wrap(strings.Trim(s, " \t\n\r\v\f"))
		})
		m("rstrip", func(in *Interp, s string, a []Value, kw []KW) Value {
			if len(a) > 0 && a[0] != None {
				return wrap(strings.TrimRight(s, in.bytesOf(a[0])))
			}
			return wrap(strings.TrimRight(s, " \t\n\r\v\f"))
		})
		m("lstrip", func(in *Interp, s string, a []Value, kw []KW) Value {
			if len(a) > 0 && a[0] != None {
				return wrap(strings.TrimLeft(s, in.bytesOf(a[0])))
			}
			return wrap(strings.TrimLeft(s, " \t\n\r\v\f"))
		})
		m("split", func(in *Interp, s string, a []Value, kw []KW) Value {
			var parts []string
			if len(a) == 0 || a[0] == None {
				parts = strings.Fields(s)
			} else {
				parts = strings.Split(s, in.bytesOf(a[0]))
			}
			out := make([]Value, len(parts))
			for i, p := range parts {
				out[i] = wrap(p)
			}
			return &List{V: out}
		})
		m("splitlines", func(in *Interp, s string, a []Value, kw []KW) Value {
			l := in.call(in.getAttr(s, "splitlines"), a, kw).(*List)
			for i, v := range l.V {
				l.V[i] = wrap(v.(string))
			}
			return l
		})
		m("join", func(in *Interp, s string, a []Value, kw []KW) Value {
			var parts []string
			for _, v := range in.iterToSlice(a[0]) {
				parts = append(parts, in.bytesOf(v))
			}
			return wrap(strings.Join(parts, s))
		})
		m("upper", func(in *Interp, s string, a []Value, kw []KW) Value { return wrap(strings.ToUpper(s)) })
		m("lower", func(in *Interp, s string, a []Value, kw []KW) Value { return wrap(strings.ToLower(s)) })
		m("isdigit", func(in *Interp, s string, a []Value, kw []KW) Value {
			return s != "" && strings.Trim(s, "0123456789") == ""
		})
		m("__len__", func(in *Interp, s string, a []Value, kw []KW) Value { return int64(len(s)) })
		c.Dict.SetStr("fromhex", &ClassMethod{Fn: &Builtin{Name: "fromhex", Fn: func(in *Interp, a []Value, kw []KW) Value {
			b, err := hex.DecodeString(strings.ReplaceAll(in.str(a[1]), " ", ""))
			if err != nil {
				in.Raise("ValueError", "non-hexadecimal number found in fromhex() arg")
			}
			return wrap(string(b))
		}}})
		if isBA {
			in.method(c, "append", func(in *Interp, a []Value, kw []KW) Value {
				x := a[0].(*ByteArray)
				x.B = append(x.B, byte(in.toInt64(a[1])))
				return None
			})
			in.method(c, "extend", func(in *Interp, a []Value, kw []KW) Value {
				x := a[0].(*ByteArray)
				x.B = append(x.B, in.bytesOf(a[1])...)
				return None
			})
		}
	}
}
