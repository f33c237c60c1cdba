package interp

import (
	"sort"
)

func init() {
	registerNative("_collections", func(in *Interp, m *Module) {
		dictCls := in.builtinClass("dict")
		mk := func(name string, ctor func(in *Interp, a []Value, kw []KW) Value) *Class {
			c := in.newBuiltinClass(name, dictCls)
			c.Module = "collections"
			c.Dict.SetStr("__call_ctor__", &Builtin{Name: name, Fn: ctor})
			m.Dict.SetStr(name, c)
			return c
		}
		mk("defaultdict", func(in *Interp, a []Value, kw []KW) Value {
			d := NewDict()
			d.Kind = "defaultdict"
			d.Default = None
			if len(a) > 0 {
				if a[0] != None {
					switch a[0].(type) {
					case *Function, *Builtin, *Class, *Method:
					default:
						in.Raise("TypeError", "first argument must be callable or None")
					}
				}
				d.Default = a[0]
				if len(a) > 1 {
					in.dictUpdate(d, a[1])
				}
			}
			for _, k := range kw {
				d.SetStr(k.Name, k.V)
			}
			return d
		})
		od := mk("OrderedDict", func(in *Interp, a []Value, kw []KW) Value {
			d := NewDict()
			d.Kind = "OrderedDict"
			if len(a) > 0 {
				in.dictUpdate(d, a[0])
			}
			for _, k := range kw {
				d.SetStr(k.Name, k.V)
			}
			return d
		})
		in.method(od, "move_to_end", func(in *Interp, a []Value, kw []KW) Value {
			d := in.selfDict(a[0])
			k := a[1]
			last := true
			if len(a) > 2 {
				last = in.truthy(a[2])
			}
			for _, x := range kw {
				if x.Name == "last" {
					last = in.truthy(x.V)
				}
			}
			v, ok := in.dictGet(d, k)
			if !ok {
				in.raiseKeyError(k)
			}
			in.dictDel(d, k)
			if last {
				in.dictSet(d, k, v)
				return None
			}
			items := d.Items()
			d.clear()
			in.dictSet(d, k, v)
			for _, kv := range items {
				in.dictSet(d, kv[0], kv[1])
			}
			return None
		})
		ctr := mk("Counter", func(in *Interp, a []Value, kw []KW) Value {
			d := NewDict()
			d.Kind = "Counter"
			if len(a) > 0 {
				in.counterUpdate(d, a[0], 1)
			}
			for _, k := range kw {
				d.SetStr(k.Name, k.V)
			}
			return d
		})
		in.method(ctr, "most_common", func(in *Interp, a []Value, kw []KW) Value {
			items := in.counterMostCommon(in.selfDict(a[0]))
			n := len(items)
			if len(a) > 1 && a[1] != None {
				n = int(in.toInt64(a[1]))
				if n < 0 {
					n = 0
				}
				if n > len(items) {
					n = len(items)
				}
			}
			out := make([]Value, n)
			for i := 0; i < n; i++ {
				out[i] = Tuple{items[i][0], items[i][1]}
			}
			return &List{V: out}
		})
		in.method(ctr, "elements", func(in *Interp, a []Value, kw []KW) Value {
			var out []Value
			for _, kv := range in.selfDict(a[0]).Items() {
				n := in.toInt64(kv[1])
				for i := int64(0); i < n; i++ {
					out = append(out, kv[0])
				}
			}
			return in.iter(&List{V: orEmpty(out)})
		})
		in.method(ctr, "total", func(in *Interp, a []Value, kw []KW) Value {
			var acc Value = int64(0)
			for _, kv := range in.selfDict(a[0]).Items() {
				acc = in.binop("+", acc, kv[1])
			}
			return acc
		})
		in.method(ctr, "update", func(in *Interp, a []Value, kw []KW) Value {
			d := in.selfDict(a[0])
			if len(a) > 1 {
				in.counterUpdate(d, a[1], 1)
			}
			for _, k := range kw {
				in.counterUpdate(d, &List{V: []Value{}}, 1)
				cur, _ := d.GetStr(k.Name)
				if cur == nil {
					cur = int64(0)
				}
				d.SetStr(k.Name, in.binop("+", cur, k.V))
			}
			return None
		})
		in.method(ctr, "subtract", func(in *Interp, a []Value, kw []KW) Value {
			in.counterUpdate(in.selfDict(a[0]), a[1], -1)
			return None
		})
		arith := func(name, op string) {
			in.method(ctr, name, func(in *Interp, a []Value, kw []KW) Value {
				x, y := in.selfDict(a[0]), in.selfDict(a[1])
				r := NewDict()
				r.Kind = "Counter"
				keys := x.Keys()
				for _, k := range y.Keys() {
					if _, ok := in.dictGet(x, k); !ok {
						keys = append(keys, k)
					}
				}
				for _, k := range keys {
					xv, _ := in.dictGet(x, k)
					yv, _ := in.dictGet(y, k)
					if xv == nil {
						xv = int64(0)
					}
					if yv == nil {
						yv = int64(0)
					}
					var v Value
					switch op {
					case "+":
						v = in.binop("+", xv, yv)
					case "-":
						v = in.binop("-", xv, yv)
					case "&":
						if in.less(xv, yv) {
							v = xv
						} else {
							v = yv
						}
					case "|":
						if in.less(xv, yv) {
							v = yv
						} else {
							v = xv
						}
					}
					if in.less(int64(0), v) {
						in.dictSet(r, k, v)
					}
				}
				return r
			})
		}
		arith("__add__", "+")
		arith("__sub__", "-")
		arith("__and__", "&")
		arith("__or__", "|")
	})
}

// counterUpdate adds (sign=1) or subtracts counts from an iterable or mapping.
func (in *Interp) counterUpdate(d *Dict, src Value, sign int64) {
	add := func(k, n Value) {
		cur, ok := in.dictGet(d, k)
		if !ok {
			cur = int64(0)
		}
		if sign < 0 {
			in.dictSet(d, k, in.binop("-", cur, n))
		} else {
			in.dictSet(d, k, in.binop("+", cur, n))
		}
	}
	if s, ok := in.asDict(src); ok {
		for _, kv := range s.Items() {
			add(kv[0], kv[1])
		}
		return
	}
	it := in.iter(src)
	for {
		v, ok := in.next(it)
		if !ok {
			return
		}
		add(v, int64(1))
	}
}

// counterMostCommon sorts items by count, descending, stable.
func (in *Interp) counterMostCommon(d *Dict) [][2]Value {
	items := d.Items()
	sort.SliceStable(items, func(i, j int) bool { return in.less(items[j][1], items[i][1]) })
	return items
}
