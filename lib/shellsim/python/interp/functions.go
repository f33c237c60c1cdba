package interp

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

func (in *Interp) setupFunctions(b *Dict) {
	in.def(b, "print", func(in *Interp, a []Value, kw []KW) Value {
		sep, end := " ", "\n"
		var file Value
		flush := false
		for _, k := range kw {
			switch k.Name {
			case "sep":
				if k.V != None {
					sep = in.argStr(k.V, "sep must be None or a string, not "+in.typeName(k.V))
				}
			case "end":
				if k.V != None {
					end = in.argStr(k.V, "end must be None or a string, not "+in.typeName(k.V))
				}
			case "file":
				if k.V != None {
					file = k.V
				}
			case "flush":
				flush = in.truthy(k.V)
			default:
				in.Raise("TypeError", "'%s' is an invalid keyword argument for print()", k.Name)
			}
		}
		var sb strings.Builder
		for i, v := range a {
			if i > 0 {
				sb.WriteString(sep)
			}
			sb.WriteString(in.str(v))
		}
		sb.WriteString(end)
		if file == nil {
			file = in.sysStream("stdout")
		}
		in.call(in.getAttr(file, "write"), []Value{sb.String()}, nil)
		if flush {
			if f, ok := in.getAttrOpt(file, "flush"); ok {
				in.call(f, nil, nil)
			}
		}
		return None
	})
	in.def(b, "len", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "len", a, 1, 1)
		return in.length(a[0])
	})
	in.def(b, "repr", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "repr", a, 1, 1)
		return in.repr(a[0])
	})
	in.def(b, "ascii", func(in *Interp, a []Value, kw []KW) Value { return asciiRepr(in.repr(a[0])) })
	in.def(b, "isinstance", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "isinstance", a, 2, 2)
		return in.isinstance(a[0], a[1])
	})
	in.def(b, "issubclass", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "issubclass", a, 2, 2)
		c, ok := a[0].(*Class)
		if !ok {
			in.Raise("TypeError", "issubclass() arg 1 must be a class")
		}
		return in.classMatches(c, a[1])
	})
	in.def(b, "hasattr", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "hasattr", a, 2, 2)
		name := in.argStr(a[1], "attribute name must be string")
		var ok bool
		exc := in.catch(func() { _, ok = in.getAttrOpt(a[0], name) })
		if exc != nil {
			if isSubclass(exc.Exc.Cls, in.builtinClass("AttributeError")) {
				return false
			}
			panic(exc)
		}
		return ok
	})
	in.def(b, "getattr", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "getattr", a, 2, 3)
		name := in.argStr(a[1], "attribute name must be string, not '"+in.typeName(a[1])+"'")
		if len(a) == 3 {
			var v Value
			var ok bool
			exc := in.catch(func() { v, ok = in.getAttrOpt(a[0], name) })
			if exc != nil {
				if isSubclass(exc.Exc.Cls, in.builtinClass("AttributeError")) {
					return a[2]
				}
				panic(exc)
			}
			if !ok {
				return a[2]
			}
			return v
		}
		return in.getAttr(a[0], name)
	})
	in.def(b, "setattr", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "setattr", a, 3, 3)
		in.setAttr(a[0], in.argStr(a[1], "attribute name must be string"), a[2])
		return None
	})
	in.def(b, "delattr", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "delattr", a, 2, 2)
		in.delAttr(a[0], in.argStr(a[1], "attribute name must be string"))
		return None
	})
	in.def(b, "abs", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "abs", a, 1, 1)
		switch x := a[0].(type) {
		case int64:
			if x < 0 {
				return in.unary("-", x)
			}
			return x
		case bool:
			return boolInt(x)
		case float64:
			return math.Abs(x)
		case *big.Int:
			return normInt(new(big.Int).Abs(x))
		case *Instance:
			if f := in.lookupClassAttr(x.Cls, "__abs__"); f != nil {
				return in.call(in.bindAttr(x, f, x.Cls), nil, nil)
			}
		}
		in.Raise("TypeError", "bad operand type for abs(): '%s'", in.typeName(a[0]))
		return nil
	})
	minmax := func(name string, wantLess bool) {
		in.def(b, name, func(in *Interp, a []Value, kw []KW) Value {
			var key, def Value
			for _, k := range kw {
				switch k.Name {
				case "key":
					key = k.V
				case "default":
					def = k.V
				default:
					in.Raise("TypeError", "%s() got an unexpected keyword argument '%s'", name, k.Name)
				}
			}
			if len(a) == 0 {
				in.Raise("TypeError", "%s expected at least 1 argument, got 0", name)
			}
			items := a
			if len(a) == 1 {
				items = in.iterToSlice(a[0])
			}
			if len(items) == 0 {
				if def != nil {
					return def
				}
				in.Raise("ValueError", "%s() iterable argument is empty", name)
			}
			best := items[0]
			var bestKey Value = best
			if key != nil && key != None {
				bestKey = in.call(key, []Value{best}, nil)
			}
			for _, v := range items[1:] {
				k := v
				if key != nil && key != None {
					k = in.call(key, []Value{v}, nil)
				}
				if wantLess && in.less(k, bestKey) || !wantLess && in.less(bestKey, k) {
					best, bestKey = v, k
				}
			}
			return best
		})
	}
	minmax("min", true)
	minmax("max", false)
	in.def(b, "sum", func(in *Interp, a []Value, kw []KW) Value {
		a = in.args("sum", a, kw, []string{"iterable", "start"}, 1)
		var acc Value = int64(0)
		if a[1] != nil {
			acc = a[1]
		}
		if _, ok := acc.(string); ok {
			in.Raise("TypeError", "sum() can't sum strings [use ''.join(seq) instead]")
		}
		it := in.iter(a[0])
		fsum := false
		var comp float64
		for {
			v, ok := in.next(it)
			if !ok {
				break
			}
			if f, isF := v.(float64); isF {
				if af, aok := acc.(float64); aok || isInt(acc) {
					if !aok {
						af, _ = numFloat(acc)
					}
					// Neumaier summation, as CPython 3.12+ sum() of floats
					t := af + f
					if math.Abs(af) >= math.Abs(f) {
						comp += (af - t) + f
					} else {
						comp += (f - t) + af
					}
					acc = t
					fsum = true
					continue
				}
			}
			if fsum {
				if iv, ok := numFloat(v); ok && isInt(v) {
					f := iv
					af := acc.(float64)
					t := af + f
					if math.Abs(af) >= math.Abs(f) {
						comp += (af - t) + f
					} else {
						comp += (f - t) + af
					}
					acc = t
					continue
				}
				acc = acc.(float64) + comp
				comp, fsum = 0, false
			}
			acc = in.binop("+", acc, v)
		}
		if fsum && comp != 0 && !math.IsInf(comp, 0) && !math.IsNaN(comp) {
			acc = acc.(float64) + comp
		}
		return acc
	})
	in.def(b, "sorted", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "sorted", a, 1, 1)
		o := in.args("sorted", nil, kw, []string{"key", "reverse"}, 0)
		v := in.iterToSlice(a[0])
		if v == nil {
			v = []Value{}
		}
		in.sortValues(v, o[0], o[1] != nil && in.truthy(o[1]))
		return &List{V: v}
	})
	in.def(b, "reversed", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "reversed", a, 1, 1)
		if x, ok := a[0].(*Instance); ok {
			if f := in.lookupClassAttr(x.Cls, "__reversed__"); f != nil {
				return in.call(in.bindAttr(x, f, x.Cls), nil, nil)
			}
		}
		var v []Value
		switch x := a[0].(type) {
		case *Dict, *DictView:
			v = in.iterToSlice(x)
		case *Set:
			in.Raise("TypeError", "'set' object is not reversible")
		default:
			v = in.iterToSlice(x)
		}
		i := len(v)
		return &Iterator{Name: "list_reverseiterator", Next: func() (Value, bool) {
			if i == 0 {
				return nil, false
			}
			i--
			return v[i], true
		}}
	})
	in.def(b, "enumerate", func(in *Interp, a []Value, kw []KW) Value {
		a = in.args("enumerate", a, kw, []string{"iterable", "start"}, 1)
		it := in.iter(a[0])
		var n Value = int64(0)
		if a[1] != nil {
			n = a[1]
		}
		return &Iterator{Name: "enumerate", Next: func() (Value, bool) {
			v, ok := in.next(it)
			if !ok {
				return nil, false
			}
			r := Tuple{n, v}
			n = in.binop("+", n, int64(1))
			return r, true
		}}
	})
	in.def(b, "zip", func(in *Interp, a []Value, kw []KW) Value {
		strict := false
		for _, k := range kw {
			if k.Name == "strict" {
				strict = in.truthy(k.V)
			}
		}
		its := make([]Value, len(a))
		for i, x := range a {
			its[i] = in.iter(x)
		}
		done := false
		return &Iterator{Name: "zip", Next: func() (Value, bool) {
			if len(its) == 0 || done {
				return nil, false
			}
			t := make(Tuple, len(its))
			for i, it := range its {
				v, ok := in.next(it)
				if !ok {
					done = true
					if strict && i > 0 {
						in.Raise("ValueError", "zip() argument %d is shorter than argument 1", i+1)
					}
					if strict && i == 0 {
						for j := 1; j < len(its); j++ {
							if _, ok := in.next(its[j]); ok {
								in.Raise("ValueError", "zip() argument %d is longer than argument 1", j+1)
							}
						}
					}
					return nil, false
				}
				t[i] = v
			}
			return t, true
		}}
	})
	in.def(b, "map", func(in *Interp, a []Value, kw []KW) Value {
		if len(a) < 2 {
			in.Raise("TypeError", "map() must have at least two arguments.")
		}
		fn := a[0]
		its := make([]Value, len(a)-1)
		for i, x := range a[1:] {
			its[i] = in.iter(x)
		}
		return &Iterator{Name: "map", Next: func() (Value, bool) {
			args := make([]Value, len(its))
			for i, it := range its {
				v, ok := in.next(it)
				if !ok {
					return nil, false
				}
				args[i] = v
			}
			return in.call(fn, args, nil), true
		}}
	})
	in.def(b, "filter", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "filter", a, 2, 2)
		fn := a[0]
		it := in.iter(a[1])
		return &Iterator{Name: "filter", Next: func() (Value, bool) {
			for {
				v, ok := in.next(it)
				if !ok {
					return nil, false
				}
				var keep bool
				if fn == None {
					keep = in.truthy(v)
				} else {
					keep = in.truthy(in.call(fn, []Value{v}, nil))
				}
				if keep {
					return v, true
				}
			}
		}}
	})
	in.def(b, "any", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "any", a, 1, 1)
		it := in.iter(a[0])
		for {
			v, ok := in.next(it)
			if !ok {
				return false
			}
			if in.truthy(v) {
				return true
			}
		}
	})
	in.def(b, "all", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "all", a, 1, 1)
		it := in.iter(a[0])
		for {
			v, ok := in.next(it)
			if !ok {
				return true
			}
			if !in.truthy(v) {
				return false
			}
		}
	})
	in.def(b, "iter", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "iter", a, 1, 2)
		if len(a) == 2 {
			fn, sentinel := a[0], a[1]
			done := false
			return &Iterator{Name: "callable_iterator", Next: func() (Value, bool) {
				if done {
					return nil, false
				}
				v := in.call(fn, nil, nil)
				if in.eq(v, sentinel) {
					done = true
					return nil, false
				}
				return v, true
			}}
		}
		return in.iter(a[0])
	})
	in.def(b, "next", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "next", a, 1, 2)
		switch a[0].(type) {
		case *Iterator, *Generator, *File, *Instance:
		default:
			in.Raise("TypeError", "'%s' object is not an iterator", in.typeName(a[0]))
		}
		v, ok := in.next(a[0])
		if !ok {
			if len(a) == 2 {
				return a[1]
			}
			var args Tuple
			if g, isGen := a[0].(*Generator); isGen && g.retVal != nil && g.retVal != None {
				args = Tuple{g.retVal}
			}
			in.raiseExc(in.newExc(in.builtinClass("StopIteration"), args))
		}
		return v
	})
	in.def(b, "ord", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "ord", a, 1, 1)
		switch x := a[0].(type) {
		case string:
			r := []rune(x)
			if len(r) != 1 {
				in.Raise("TypeError", "ord() expected a character, but string of length %d found", len(r))
			}
			return int64(r[0])
		case Bytes:
			if len(x) != 1 {
				in.Raise("TypeError", "ord() expected a character, but string of length %d found", len(x))
			}
			return int64(x[0])
		}
		in.Raise("TypeError", "ord() expected string of length 1, but %s found", in.typeName(a[0]))
		return nil
	})
	in.def(b, "chr", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "chr", a, 1, 1)
		n := in.toInt64(a[0])
		if n < 0 || n > 0x10ffff {
			in.Raise("ValueError", "chr() arg not in range(0x110000)")
		}
		return string(rune(n))
	})
	radix := func(name, prefix string, base int) {
		in.def(b, name, func(in *Interp, a []Value, kw []KW) Value {
			nargs(in, name, a, 1, 1)
			v := toBig(in.toIntValue(a[0]))
			if v.Sign() < 0 {
				return "-" + prefix + new(big.Int).Neg(v).Text(base)
			}
			return prefix + v.Text(base)
		})
	}
	radix("hex", "0x", 16)
	radix("oct", "0o", 8)
	radix("bin", "0b", 2)
	in.def(b, "round", func(in *Interp, a []Value, kw []KW) Value {
		a = in.args("round", a, kw, []string{"number", "ndigits"}, 1)
		if x, ok := a[0].(*Instance); ok {
			if f := in.lookupClassAttr(x.Cls, "__round__"); f != nil {
				args := []Value{}
				if a[1] != nil {
					args = append(args, a[1])
				}
				return in.call(in.bindAttr(x, f, x.Cls), args, nil)
			}
		}
		if isInt(a[0]) {
			if a[1] == nil || a[1] == None {
				return in.toIntValue(a[0])
			}
			nd := in.toInt64(a[1])
			if nd >= 0 {
				return in.toIntValue(a[0])
			}
			p := new(big.Int).Exp(big.NewInt(10), big.NewInt(-nd), nil)
			x := toBig(a[0])
			q, r := new(big.Int).DivMod(x, p, new(big.Int))
			twice := new(big.Int).Mul(r, big.NewInt(2))
			if c := twice.Cmp(p); c > 0 || (c == 0 && q.Bit(0) == 1) {
				q.Add(q, big.NewInt(1))
			}
			return normInt(q.Mul(q, p))
		}
		f, ok := in.toFloat(a[0])
		if !ok {
			in.Raise("TypeError", "type %s doesn't define __round__ method", in.typeName(a[0]))
		}
		if a[1] == nil || a[1] == None {
			if math.IsInf(f, 0) {
				in.Raise("OverflowError", "cannot convert float infinity to integer")
			}
			if math.IsNaN(f) {
				in.Raise("ValueError", "cannot convert float NaN to integer")
			}
			return in.toIntValue(math.RoundToEven(f))
		}
		nd := int(in.toInt64(a[1]))
		if math.IsInf(f, 0) || math.IsNaN(f) || f == 0 {
			return f
		}
		if nd > 300 {
			return f
		}
		// correctly rounded: format with nd decimals (Go rounds half to even on exact decimal value)
		s := strconv.FormatFloat(f, 'f', max(nd, 0), 64)
		if nd < 0 {
			p := math.Pow(10, float64(-nd))
			return math.RoundToEven(f/p) * p
		}
		r, _ := strconv.ParseFloat(s, 64)
		return r
	})
	in.def(b, "divmod", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "divmod", a, 2, 2)
		return Tuple{in.binop("//", a[0], a[1]), in.binop("%", a[0], a[1])}
	})
	in.def(b, "pow", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "pow", a, 2, 3)
		if len(a) == 3 && a[2] != None {
			m := toBig(a[2])
			if m == nil || !isInt(a[0]) || !isInt(a[1]) {
				in.Raise("TypeError", "pow() 3rd argument not allowed unless all arguments are integers")
			}
			if m.Sign() == 0 {
				in.Raise("ValueError", "pow() 3rd argument cannot be 0")
			}
			e := toBig(a[1])
			base := toBig(a[0])
			if e.Sign() < 0 {
				inv := new(big.Int).ModInverse(base, m)
				if inv == nil {
					in.Raise("ValueError", "base is not invertible for the given modulus")
				}
				base, e = inv, new(big.Int).Neg(e)
			}
			r := new(big.Int).Exp(base, e, new(big.Int).Abs(m))
			if m.Sign() < 0 && r.Sign() != 0 {
				r.Add(r, m)
			}
			return normInt(r)
		}
		return in.binop("**", a[0], a[1])
	})
	in.def(b, "hash", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "hash", a, 1, 1)
		switch x := a[0].(type) {
		case int64:
			if x == -1 {
				return int64(-2)
			}
			return x
		case bool:
			return boolInt(x)
		}
		h := in.hashKey(a[0])
		if h.kind == 's' || h.kind == 't' || h.kind == 'b' {
			var v int64 = 5381
			for i := 0; i < len(h.s); i++ {
				v = v*33 + int64(h.s[i])
			}
			return v
		}
		return h.i
	})
	in.def(b, "id", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "id", a, 1, 1)
		if x, ok := a[0].(*Instance); ok {
			return 0x7f0000000000 + x.id*16
		}
		return 0x7f0000000000 + in.fakeAddr(a[0])
	})
	in.def(b, "callable", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "callable", a, 1, 1)
		switch x := a[0].(type) {
		case *Function, *Builtin, *Method, *Class:
			return true
		case *Instance:
			return in.lookupClassAttr(x.Cls, "__call__") != nil
		}
		return false
	})
	in.def(b, "vars", func(in *Interp, a []Value, kw []KW) Value {
		if len(a) == 0 {
			return in.localsDict()
		}
		v, ok := in.getAttrOpt(a[0], "__dict__")
		if !ok {
			in.Raise("TypeError", "vars() argument must have __dict__ attribute")
		}
		return v
	})
	in.def(b, "dir", func(in *Interp, a []Value, kw []KW) Value {
		if len(a) == 0 {
			d := in.localsDict()
			keys := d.Keys()
			in.sortValues(keys, nil, false)
			return &List{V: keys}
		}
		return in.dir(a[0])
	})
	in.def(b, "globals", func(in *Interp, a []Value, kw []KW) Value {
		return in.frames[len(in.frames)-1].Globals.Dict
	})
	in.def(b, "locals", func(in *Interp, a []Value, kw []KW) Value { return in.localsDict() })
	in.def(b, "format", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "format", a, 1, 2)
		spec := ""
		if len(a) > 1 {
			spec = in.str(a[1])
		}
		return in.format(a[0], spec)
	})
	in.def(b, "input", func(in *Interp, a []Value, kw []KW) Value {
		if len(a) > 0 {
			in.call(in.getAttr(in.sysStream("stdout"), "write"), []Value{in.str(a[0])}, nil)
		}
		line, err := in.Stdin.ReadLine(in)
		if err != nil && line == "" {
			in.Raise("EOFError", "EOF when reading a line")
		}
		return strings.TrimSuffix(line, "\n")
	})
	in.def(b, "open", func(in *Interp, a []Value, kw []KW) Value { return in.open(a, kw) })
	exit := func(in *Interp, a []Value, kw []KW) Value {
		var code Value = None
		if len(a) > 0 {
			code = a[0]
		}
		in.raiseExc(in.newExcWithInit("SystemExit", code, len(a) > 0))
		return nil
	}
	in.def(b, "exit", exit)
	in.def(b, "quit", exit)
	in.def(b, "__import__", func(in *Interp, a []Value, kw []KW) Value {
		m := in.importModule(in.str(a[0]), nil)
		if !strings.Contains(in.str(a[0]), ".") {
			return m
		}
		top := strings.SplitN(in.str(a[0]), ".", 2)[0]
		return in.modules[top]
	})
	in.def(b, "eval", func(in *Interp, a []Value, kw []KW) Value {
		src := in.str(a[0])
		e, err := syntax.ParseExpr(strings.TrimSpace(src))
		if err != nil {
			in.raiseSyntax(err.(*syntax.Error), "<string>")
		}
		fr := in.evalFrame(a)
		return in.eval(fr, e)
	})
	in.def(b, "exec", func(in *Interp, a []Value, kw []KW) Value {
		src := in.str(a[0])
		m, err := syntax.Parse(src)
		if err != nil {
			in.raiseSyntax(err.(*syntax.Error), "<string>")
		}
		fr := in.evalFrame(a)
		in.execBlock(fr, m.Body)
		return None
	})
	in.def(b, "compile", func(in *Interp, a []Value, kw []KW) Value {
		in.Unsupported("compile")
		in.Raise("NotImplementedError", "compile() is not supported in ShellSim")
		return nil
	})
	in.def(b, "breakpoint", func(in *Interp, a []Value, kw []KW) Value { return None })
	in.def(b, "aiter", func(in *Interp, a []Value, kw []KW) Value {
		in.Raise("NotImplementedError", "async iteration is not supported in ShellSim")
		return nil
	})
}

func (in *Interp) newExcWithInit(cls string, arg Value, has bool) *Instance {
	args := Tuple{}
	if has {
		args = Tuple{arg}
	}
	e := in.newExc(in.builtinClass(cls), args)
	if cls == "SystemExit" {
		e.Dict.SetStr("code", arg)
	}
	return e
}

// evalFrame is the frame eval/exec run in: explicit globals or the caller's.
func (in *Interp) evalFrame(a []Value) *Frame {
	if len(a) > 1 && a[1] != None {
		g, ok := a[1].(*Dict)
		if !ok {
			in.Raise("TypeError", "globals must be a dict")
		}
		if _, ok := g.GetStr("__builtins__"); !ok {
			g.SetStr("__builtins__", in.builtinsModule())
		}
		return &Frame{Kind: 'm', Globals: &Module{Name: "__main__", Dict: g, File: "<string>"}, Name: "<module>"}
	}
	cur := in.frames[len(in.frames)-1]
	return cur
}

func (in *Interp) localsDict() *Dict {
	fr := in.frames[len(in.frames)-1]
	switch fr.Kind {
	case 'm':
		return fr.Globals.Dict
	case 'c':
		return fr.ClsNS
	}
	d := NewDict()
	for _, p := range fr.Fn.Def.Params {
		if v, ok := fr.Locals[p.Name]; ok {
			d.SetStr(p.Name, v)
		}
	}
	names := make([]string, 0, len(fr.Locals))
	for k := range fr.Locals {
		names = append(names, k)
	}
	sortStrings(names)
	for _, k := range names {
		if _, ok := d.GetStr(k); !ok {
			d.SetStr(k, fr.Locals[k])
		}
	}
	return d
}

func (in *Interp) isinstance(v, spec Value) bool {
	switch s := spec.(type) {
	case *Class:
		c := in.typeOf(v)
		if isSubclass(c, s) {
			return true
		}
		if x, ok := v.(*Instance); ok && x.Base != nil && s.Builtin != "" && s.Builtin != "object" {
			return isSubclass(in.typeOf(x.Base), s)
		}
		if ic := in.lookupClassAttr(s, "__instancecheck__"); ic != nil && !isBuiltinAttr(ic) {
			return in.truthy(in.call(ic, []Value{s, v}, nil))
		}
		return false
	case Tuple:
		for _, x := range s {
			if in.isinstance(v, x) {
				return true
			}
		}
		return false
	case *Instance:
		if ic := in.lookupClassAttr(s.Cls, "__instancecheck__"); ic != nil {
			return in.truthy(in.call(in.bindAttr(s, ic, s.Cls), []Value{v}, nil))
		}
	}
	in.Raise("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union")
	return false
}

func (in *Interp) classMatches(c *Class, spec Value) bool {
	switch s := spec.(type) {
	case *Class:
		return isSubclass(c, s)
	case Tuple:
		for _, x := range s {
			if in.classMatches(c, x) {
				return true
			}
		}
		return false
	}
	in.Raise("TypeError", "issubclass() arg 2 must be a class, a tuple of classes, or a union")
	return false
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
