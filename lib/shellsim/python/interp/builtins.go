package interp

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DictView is dict.keys(), .values() or .items().
type DictView struct {
	D    *Dict
	Kind byte // 'k', 'v', 'i'
}

// ByteArray is a mutable byte string.
type ByteArray struct{ B []byte }

func (in *Interp) def(d *Dict, name string, fn func(in *Interp, a []Value, kw []KW) Value) {
	d.SetStr(name, &Builtin{Name: name, Fn: fn})
}

func (in *Interp) method(c *Class, name string, fn func(in *Interp, a []Value, kw []KW) Value) {
	c.Dict.SetStr(name, &Builtin{Name: c.Name + "." + name, Fn: fn})
}

func (in *Interp) makeBuiltins() *Dict {
	in.hiddenTypes = map[string]*Class{}
	in.subclasses = map[*Class][]Value{}
	b := NewDict()
	in.builtins = b
	object := &Class{Name: "object", Qualname: "object", Dict: NewDict(), Module: "builtins", Builtin: "object"}
	object.MRO = []*Class{object}
	b.SetStr("object", object)
	typ := in.newBuiltinClass("type", object)
	b.SetStr("type", typ)
	for _, n := range []string{"int", "float", "str", "bytes", "list", "tuple", "dict", "set", "frozenset", "bytearray", "range", "slice", "NoneType", "function", "property", "staticmethod", "classmethod", "super", "complex", "memoryview"} {
		b.SetStr(n, in.newBuiltinClass(n, object))
	}
	b.SetStr("bool", in.newBuiltinClass("bool", in.builtinClass("int")))
	b.DelStr("NoneType")
	in.hiddenTypes["NoneType"] = in.newBuiltinClass("NoneType", object)
	in.hiddenTypes["function"] = in.newBuiltinClass("function", object)
	in.setupExceptions(b)
	in.setupObject(object)
	in.setupTypes()
	in.setupFunctions(b)
	b.SetStr("None", None)
	b.SetStr("True", true)
	b.SetStr("False", false)
	b.SetStr("Ellipsis", Ellipsis)
	b.SetStr("NotImplemented", NotImplemented)
	b.SetStr("__name__", "builtins")
	b.SetStr("__debug__", true)
	return b
}

func (in *Interp) setupExceptions(b *Dict) {
	base := in.newBuiltinClass("BaseException", in.objectClass())
	b.SetStr("BaseException", base)
	in.method(base, "__init__", func(in *Interp, a []Value, kw []KW) Value {
		if x, ok := a[0].(*Instance); ok && x.Exc != nil {
			x.Exc.Args = Tuple(append([]Value(nil), a[1:]...))
		}
		return None
	})
	in.method(base, "__str__", func(in *Interp, a []Value, kw []KW) Value {
		x := a[0].(*Instance)
		switch len(x.Exc.Args) {
		case 0:
			return ""
		case 1:
			return in.str(x.Exc.Args[0])
		}
		return in.repr(x.Exc.Args)
	})
	in.method(base, "__repr__", func(in *Interp, a []Value, kw []KW) Value {
		x := a[0].(*Instance)
		if len(x.Exc.Args) == 1 {
			return x.Cls.Name + "(" + in.repr(x.Exc.Args[0]) + ")"
		}
		return x.Cls.Name + in.seqRepr("(", ")", x.Exc.Args, nil)
	})
	tree := [][2]string{
		{"Exception", "BaseException"}, {"SystemExit", "BaseException"}, {"KeyboardInterrupt", "BaseException"},
		{"GeneratorExit", "BaseException"}, {"StopIteration", "Exception"}, {"StopAsyncIteration", "Exception"},
		{"ArithmeticError", "Exception"}, {"ZeroDivisionError", "ArithmeticError"}, {"OverflowError", "ArithmeticError"},
		{"FloatingPointError", "ArithmeticError"}, {"AssertionError", "Exception"}, {"AttributeError", "Exception"},
		{"BufferError", "Exception"}, {"EOFError", "Exception"}, {"ImportError", "Exception"},
		{"ModuleNotFoundError", "ImportError"}, {"LookupError", "Exception"}, {"IndexError", "LookupError"},
		{"KeyError", "LookupError"}, {"MemoryError", "Exception"}, {"NameError", "Exception"},
		{"UnboundLocalError", "NameError"}, {"OSError", "Exception"}, {"BlockingIOError", "OSError"},
		{"ChildProcessError", "OSError"}, {"ConnectionError", "OSError"}, {"BrokenPipeError", "ConnectionError"},
		{"ConnectionRefusedError", "ConnectionError"}, {"ConnectionResetError", "ConnectionError"},
		{"FileExistsError", "OSError"}, {"FileNotFoundError", "OSError"}, {"InterruptedError", "OSError"},
		{"IsADirectoryError", "OSError"}, {"NotADirectoryError", "OSError"}, {"PermissionError", "OSError"},
		{"ProcessLookupError", "OSError"}, {"TimeoutError", "OSError"}, {"ReferenceError", "Exception"},
		{"RuntimeError", "Exception"}, {"NotImplementedError", "RuntimeError"}, {"RecursionError", "RuntimeError"},
		{"SyntaxError", "Exception"}, {"IndentationError", "SyntaxError"}, {"TabError", "IndentationError"},
		{"SystemError", "Exception"}, {"TypeError", "Exception"}, {"ValueError", "Exception"},
		{"UnicodeError", "ValueError"}, {"UnicodeDecodeError", "UnicodeError"}, {"UnicodeEncodeError", "UnicodeError"},
		{"Warning", "Exception"}, {"UserWarning", "Warning"}, {"DeprecationWarning", "Warning"},
		{"PendingDeprecationWarning", "Warning"}, {"RuntimeWarning", "Warning"}, {"SyntaxWarning", "Warning"},
		{"FutureWarning", "Warning"}, {"ImportWarning", "Warning"}, {"UnicodeWarning", "Warning"},
		{"BytesWarning", "Warning"}, {"ResourceWarning", "Warning"}, {"EncodingWarning", "Warning"},
	}
	for _, t := range tree {
		c := in.newBuiltinClass(t[0], in.builtinClass(t[1]))
		b.SetStr(t[0], c)
	}
	b.SetStr("IOError", in.builtinClass("OSError"))
	b.SetStr("EnvironmentError", in.builtinClass("OSError"))
	// exceptions with named attributes
	in.method(in.builtinClass("StopIteration"), "__init__", func(in *Interp, a []Value, kw []KW) Value {
		x := a[0].(*Instance)
		x.Exc.Args = Tuple(append([]Value(nil), a[1:]...))
		if len(a) > 1 {
			x.Dict.SetStr("value", a[1])
		} else {
			x.Dict.SetStr("value", None)
		}
		return None
	})
	in.method(in.builtinClass("SystemExit"), "__init__", func(in *Interp, a []Value, kw []KW) Value {
		x := a[0].(*Instance)
		x.Exc.Args = Tuple(append([]Value(nil), a[1:]...))
		if len(a) > 1 {
			x.Dict.SetStr("code", a[1])
		} else {
			x.Dict.SetStr("code", None)
		}
		return None
	})
	in.method(in.builtinClass("KeyError"), "__str__", func(in *Interp, a []Value, kw []KW) Value {
		x := a[0].(*Instance)
		if len(x.Exc.Args) == 1 {
			return in.repr(x.Exc.Args[0])
		}
		return in.str(x.Exc.Args)
	})
	in.method(in.builtinClass("OSError"), "__init__", func(in *Interp, a []Value, kw []KW) Value {
		x := a[0].(*Instance)
		x.Exc.Args = Tuple(append([]Value(nil), a[1:]...))
		x.Dict.SetStr("errno", None)
		x.Dict.SetStr("strerror", None)
		x.Dict.SetStr("filename", None)
		if len(a) >= 3 {
			x.Dict.SetStr("errno", a[1])
			x.Dict.SetStr("strerror", a[2])
		}
		if len(a) >= 4 {
			x.Dict.SetStr("filename", a[3])
		}
		return None
	})
	in.method(in.builtinClass("OSError"), "__str__", func(in *Interp, a []Value, kw []KW) Value {
		x := a[0].(*Instance)
		if len(x.Exc.Args) >= 2 {
			s := "[Errno " + in.str(x.Exc.Args[0]) + "] " + in.str(x.Exc.Args[1])
			if fn, ok := x.Dict.GetStr("filename"); ok && fn != None {
				s += ": " + in.repr(fn)
			}
			return s
		}
		if len(x.Exc.Args) == 1 {
			return in.str(x.Exc.Args[0])
		}
		return ""
	})
	in.method(in.builtinClass("SyntaxError"), "__str__", func(in *Interp, a []Value, kw []KW) Value {
		x := a[0].(*Instance)
		msg := ""
		if len(x.Exc.Args) > 0 {
			msg = in.str(x.Exc.Args[0])
		}
		if ln, ok := x.Dict.GetStr("lineno"); ok && ln != None {
			fn, _ := x.Dict.GetStr("filename")
			return msg + " (" + in.str(fn) + ", line " + in.str(ln) + ")"
		}
		return msg
	})
}

// osError raises the OSError subclass matching a VFS error.
func (in *Interp) osError(err error, path string) {
	msg := commandMessage(err)
	cls, errno := "OSError", int64(5)
	switch msg {
	case "No such file or directory":
		cls, errno = "FileNotFoundError", 2
	case "File exists":
		cls, errno = "FileExistsError", 17
	case "Is a directory":
		cls, errno = "IsADirectoryError", 21
	case "Not a directory":
		cls, errno = "NotADirectoryError", 20
	case "Permission denied":
		cls, errno = "PermissionError", 13
	case "Directory not empty":
		errno = 39
	case "No space left on device":
		errno = 28
	case "Invalid argument":
		errno = 22
	}
	exc := in.newExc(in.builtinClass(cls), Tuple{errno, msg})
	exc.Dict.SetStr("errno", errno)
	exc.Dict.SetStr("strerror", msg)
	exc.Dict.SetStr("filename", path)
	in.raiseExc(exc)
}

func (in *Interp) setupObject(object *Class) {
	in.method(object, "__init__", func(in *Interp, a []Value, kw []KW) Value { return None })
	object.Dict.SetStr("__init__", &Builtin{Name: "object.__init__", Fn: func(in *Interp, a []Value, kw []KW) Value { return None }})
	object.Dict.SetStr("__new__", &Builtin{Name: "object.__new__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		c, ok := a[0].(*Class)
		if !ok {
			in.Raise("TypeError", "object.__new__(X): X is not a type object")
		}
		return in.newInstance(c, a[1:], kw)
	}})
	object.Dict.SetStr("__setattr__", &Builtin{Name: "object.__setattr__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "__setattr__", a, 3, 3)
		if x, ok := a[0].(*Instance); ok {
			x.Dict.SetStr(a[1].(string), a[2])
			return None
		}
		in.setAttr(a[0], a[1].(string), a[2])
		return None
	}})
	object.Dict.SetStr("__getattribute__", &Builtin{Name: "object.__getattribute__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		return in.getAttr(a[0], a[1].(string))
	}})
	object.Dict.SetStr("__delattr__", &Builtin{Name: "object.__delattr__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		if x, ok := a[0].(*Instance); ok {
			if !x.Dict.DelStr(a[1].(string)) {
				in.attrError(x, a[1].(string))
			}
		}
		return None
	}})
	object.Dict.SetStr("__repr__", &Builtin{Name: "object.__repr__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		if x, ok := a[0].(*Instance); ok {
			return "<" + x.Cls.Module + "." + x.Cls.Qualname + " object at 0x" + strconv.FormatInt(0x7f0000000000+x.id*16, 16) + ">"
		}
		return in.repr(a[0])
	}})
	object.Dict.SetStr("__str__", &Builtin{Name: "object.__str__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		return in.repr(a[0])
	}})
	object.Dict.SetStr("__eq__", &Builtin{Name: "object.__eq__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		if a[0] == a[1] {
			return true
		}
		return NotImplemented
	}})
	object.Dict.SetStr("__ne__", &Builtin{Name: "object.__ne__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		return !in.eq(a[0], a[1])
	}})
	object.Dict.SetStr("__hash__", &Builtin{Name: "object.__hash__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		return in.hashKey(a[0]).i
	}})
	object.Dict.SetStr("__init_subclass__", &Builtin{Name: "object.__init_subclass__", Fn: func(in *Interp, a []Value, kw []KW) Value { return None }})
	object.Dict.SetStr("__format__", &Builtin{Name: "object.__format__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		return in.format(a[0], a[1].(string))
	}})
	object.Dict.SetStr("__reduce_ex__", &Builtin{Name: "object.__reduce_ex__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		in.Raise("TypeError", "cannot pickle object")
		return nil
	}})
	object.Dict.SetStr("__dir__", &Builtin{Name: "object.__dir__", Fn: func(in *Interp, a []Value, kw []KW) Value {
		return in.dir(a[0])
	}})
	object.Dict.SetStr("__class_getitem__", &ClassMethod{Fn: &Builtin{Name: "object.__class_getitem__", Fn: func(in *Interp, a []Value, kw []KW) Value { return a[0] }}})
}

func (in *Interp) dir(v Value) Value {
	names := map[string]bool{}
	switch x := v.(type) {
	case *Module:
		for _, k := range x.Dict.Keys() {
			names[k.(string)] = true
		}
	case *Instance:
		for _, k := range x.Dict.Keys() {
			names[k.(string)] = true
		}
		for _, c := range x.Cls.MRO {
			for _, k := range c.Dict.Keys() {
				names[k.(string)] = true
			}
		}
	case *Class:
		for _, c := range x.MRO {
			for _, k := range c.Dict.Keys() {
				names[k.(string)] = true
			}
		}
	default:
		for _, c := range in.typeOf(v).MRO {
			for _, k := range c.Dict.Keys() {
				names[k.(string)] = true
			}
		}
	}
	out := make([]Value, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	in.sortValues(out, nil, false)
	return &List{V: out}
}

func (in *Interp) ctor(name string, fn func(in *Interp, a []Value, kw []KW) Value) {
	c := in.builtinClass(name)
	c.Dict.SetStr("__call_ctor__", &Builtin{Name: name, Fn: fn})
}

// setupTypes installs constructors and methods of builtin types.
func (in *Interp) setupTypes() {
	in.ctor("int", func(in *Interp, a []Value, kw []KW) Value {
		a = in.args("int", a, kw, []string{"x", "base"}, 0)
		if a[0] == nil {
			return int64(0)
		}
		if a[1] != nil {
			base := int(in.toInt64(a[1]))
			s, ok := a[0].(string)
			if !ok {
				if bs, ok2 := a[0].(Bytes); ok2 {
					s, ok = string(bs), true
				}
			}
			if !ok {
				in.Raise("TypeError", "int() can't convert non-string with explicit base")
			}
			return in.parseInt(s, base)
		}
		return in.toIntValue(a[0])
	})
	in.ctor("float", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "float", a, 0, 1)
		if len(a) == 0 {
			return 0.0
		}
		switch x := a[0].(type) {
		case string:
			return in.parseFloat(x)
		case Bytes:
			return in.parseFloat(string(x))
		}
		f, ok := in.toFloat(a[0])
		if !ok {
			in.Raise("TypeError", "float() argument must be a string or a real number, not '%s'", in.typeName(a[0]))
		}
		return f
	})
	in.ctor("str", func(in *Interp, a []Value, kw []KW) Value {
		a = in.args("str", a, kw, []string{"object", "encoding", "errors"}, 0)
		if a[0] == nil {
			return ""
		}
		if a[1] != nil || a[2] != nil {
			switch b := a[0].(type) {
			case Bytes:
				return in.decode(string(b), a[1], a[2])
			case *ByteArray:
				return in.decode(string(b.B), a[1], a[2])
			}
		}
		return in.str(a[0])
	})
	in.ctor("bool", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "bool", a, 0, 1)
		if len(a) == 0 {
			return false
		}
		return in.truthy(a[0])
	})
	in.ctor("list", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "list", a, 0, 1)
		if len(a) == 0 {
			return &List{V: []Value{}}
		}
		v := in.iterToSlice(a[0])
		if v == nil {
			v = []Value{}
		}
		return &List{V: v}
	})
	in.ctor("tuple", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "tuple", a, 0, 1)
		if len(a) == 0 {
			return Tuple{}
		}
		if t, ok := a[0].(Tuple); ok {
			return t
		}
		return Tuple(in.iterToSlice(a[0]))
	})
	in.ctor("dict", func(in *Interp, a []Value, kw []KW) Value {
		d := NewDict()
		if len(a) > 0 {
			in.dictUpdate(d, a[0])
		}
		for _, k := range kw {
			d.SetStr(k.Name, k.V)
		}
		return d
	})
	in.method(in.builtinClass("dict"), "__init__", func(in *Interp, a []Value, kw []KW) Value {
		d, _ := in.asDict(a[0])
		if len(a) > 1 {
			in.dictUpdate(d, a[1])
		}
		for _, k := range kw {
			d.SetStr(k.Name, k.V)
		}
		return None
	})
	in.method(in.builtinClass("list"), "__init__", func(in *Interp, a []Value, kw []KW) Value {
		l := a[0].(*Instance).Base.(*List)
		if len(a) > 1 {
			l.V = in.iterToSlice(a[1])
		}
		return None
	})
	in.ctor("set", func(in *Interp, a []Value, kw []KW) Value {
		s := newSet()
		if len(a) > 0 {
			for _, v := range in.iterToSlice(a[0]) {
				in.dictSet(s.D, v, None)
			}
		}
		return s
	})
	in.method(in.builtinClass("set"), "__init__", func(in *Interp, a []Value, kw []KW) Value {
		s := a[0].(*Instance).Base.(*Set)
		if len(a) > 1 {
			for _, v := range in.iterToSlice(a[1]) {
				in.dictSet(s.D, v, None)
			}
		}
		return None
	})
	in.ctor("frozenset", func(in *Interp, a []Value, kw []KW) Value {
		s := &Set{D: NewDict(), Frozen: true}
		if len(a) > 0 {
			for _, v := range in.iterToSlice(a[0]) {
				in.dictSet(s.D, v, None)
			}
		}
		return s
	})
	in.ctor("bytes", func(in *Interp, a []Value, kw []KW) Value {
		a = in.args("bytes", a, kw, []string{"source", "encoding", "errors"}, 0)
		if a[0] == nil {
			return Bytes("")
		}
		switch x := a[0].(type) {
		case string:
			if a[1] == nil {
				in.Raise("TypeError", "string argument without an encoding")
			}
			return Bytes(in.encode(x, a[1]))
		case int64:
			in.mem.need(in, x)
			return Bytes(make([]byte, x))
		case Bytes:
			return x
		case *ByteArray:
			return Bytes(x.B)
		}
		var out []byte
		for _, v := range in.iterToSlice(a[0]) {
			n := in.toInt64(v)
			if n < 0 || n > 255 {
				in.Raise("ValueError", "bytes must be in range(0, 256)")
			}
			out = append(out, byte(n))
		}
		return Bytes(out)
	})
	in.ctor("bytearray", func(in *Interp, a []Value, kw []KW) Value {
		if len(a) == 0 {
			return &ByteArray{}
		}
		b := in.call(in.builtinClass("bytes"), a, kw).(Bytes)
		return &ByteArray{B: []byte(b)}
	})
	in.ctor("range", func(in *Interp, a []Value, kw []KW) Value {
		noKw(in, "range", kw)
		nargs(in, "range", a, 1, 3)
		r := &Range{Step: 1}
		switch len(a) {
		case 1:
			r.Stop = in.toInt64(a[0])
		case 2:
			r.Start, r.Stop = in.toInt64(a[0]), in.toInt64(a[1])
		case 3:
			r.Start, r.Stop, r.Step = in.toInt64(a[0]), in.toInt64(a[1]), in.toInt64(a[2])
			if r.Step == 0 {
				in.Raise("ValueError", "range() arg 3 must not be zero")
			}
		}
		return r
	})
	in.ctor("slice", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "slice", a, 1, 3)
		switch len(a) {
		case 1:
			return &Slice{Start: None, Stop: a[0], Step: None}
		case 2:
			return &Slice{Start: a[0], Stop: a[1], Step: None}
		}
		return &Slice{Start: a[0], Stop: a[1], Step: a[2]}
	})
	in.ctor("type", func(in *Interp, a []Value, kw []KW) Value {
		if len(a) == 1 {
			return in.typeOf(a[0])
		}
		nargs(in, "type", a, 3, 3)
		var bases []*Class
		for _, b := range in.iterToSlice(a[1]) {
			bases = append(bases, b.(*Class))
		}
		ns := in.dictCopy(a[2].(*Dict))
		mod := "__main__"
		if m, ok := ns.GetStr("__module__"); ok {
			mod, _ = m.(string)
		}
		name := in.str(a[0])
		return in.buildClass(name, name, mod, bases, ns, nil)
	})
	in.ctor("property", func(in *Interp, a []Value, kw []KW) Value {
		a = in.args("property", a, kw, []string{"fget", "fset", "fdel", "doc"}, 0)
		return &Property{Get: a[0], Set: a[1], Del: a[2]}
	})
	in.ctor("staticmethod", func(in *Interp, a []Value, kw []KW) Value { return &StaticMethod{Fn: a[0]} })
	in.ctor("classmethod", func(in *Interp, a []Value, kw []KW) Value { return &ClassMethod{Fn: a[0]} })
	in.ctor("super", func(in *Interp, a []Value, kw []KW) Value {
		nargs(in, "super", a, 2, 2)
		c, ok := a[0].(*Class)
		if !ok {
			in.Raise("TypeError", "super() argument 1 must be a type")
		}
		return &Super{Cls: c, Self: a[1]}
	})
	in.ctor("object", func(in *Interp, a []Value, kw []KW) Value {
		return in.newInstance(in.objectClass(), nil, nil)
	})
	in.ctor("complex", func(in *Interp, a []Value, kw []KW) Value {
		in.Unsupported("complex")
		in.Raise("NotImplementedError", "complex numbers are not supported in ShellSim")
		return nil
	})
	in.ctor("memoryview", func(in *Interp, a []Value, kw []KW) Value {
		in.Unsupported("memoryview")
		in.Raise("NotImplementedError", "memoryview is not supported in ShellSim")
		return nil
	})
	in.setupStr()
	in.setupList()
	in.setupDict()
	in.setupSet()
	in.setupNumbers()
	in.setupBytes()
}

func (in *Interp) toIntValue(v Value) Value {
	switch x := v.(type) {
	case int64:
		return x
	case bool:
		return boolInt(x)
	case *big.Int:
		return x
	case float64:
		if math.IsInf(x, 0) {
			in.Raise("OverflowError", "cannot convert float infinity to integer")
		}
		if math.IsNaN(x) {
			in.Raise("ValueError", "cannot convert float NaN to integer")
		}
		if math.Abs(x) < 1<<62 {
			return int64(x)
		}
		b, _ := new(big.Float).SetFloat64(math.Trunc(x)).Int(nil)
		return normInt(b)
	case string:
		return in.parseInt(x, 10)
	case Bytes:
		return in.parseInt(string(x), 10)
	case *Instance:
		if x.Base != nil {
			return in.toIntValue(x.Base)
		}
		for _, n := range []string{"__int__", "__index__", "__trunc__"} {
			if f := in.lookupClassAttr(x.Cls, n); f != nil {
				return in.call(in.bindAttr(x, f, x.Cls), nil, nil)
			}
		}
	}
	in.Raise("TypeError", "int() argument must be a string, a bytes-like object or a real number, not '%s'", in.typeName(v))
	return nil
}

func (in *Interp) parseInt(s string, base int) Value {
	orig := s
	s = strings.TrimSpace(s)
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	ls := strings.ToLower(s)
	if base == 0 {
		switch {
		case strings.HasPrefix(ls, "0x"):
			base, s = 16, s[2:]
		case strings.HasPrefix(ls, "0o"):
			base, s = 8, s[2:]
		case strings.HasPrefix(ls, "0b"):
			base, s = 2, s[2:]
		default:
			base = 10
		}
	} else if (base == 16 && strings.HasPrefix(ls, "0x")) || (base == 8 && strings.HasPrefix(ls, "0o")) || (base == 2 && strings.HasPrefix(ls, "0b")) {
		s = s[2:]
	}
	if strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		s = "!"
	}
	s = strings.ReplaceAll(s, "_", "")
	if !isASCII(s) {
		s = asciiDigits(s)
	}
	if len(s) > 5000 {
		in.Raise("ValueError", "Exceeds the limit (4300 digits) for integer string conversion")
	}
	b, ok := new(big.Int).SetString(s, base)
	if !ok || s == "" || strings.ContainsAny(s, "+-") {
		in.Raise("ValueError", "invalid literal for int() with base %d: %s", base, strRepr(orig))
	}
	if neg {
		b.Neg(b)
	}
	return normInt(b)
}

// asciiDigits maps Unicode decimal digits (Nd) to ASCII, as int() accepts them.
func asciiDigits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 0x80 && unicode.IsDigit(r) {
			zero := r
			for k := 0; k < 9 && unicode.IsDigit(zero-1); k++ {
				zero--
			}
			b.WriteByte(byte('0' + (r-zero)%10))
			continue
		}
		if unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (in *Interp) parseFloat(s string) Value {
	t := strings.TrimSpace(s)
	if !isASCII(t) {
		t = asciiDigits(t)
	}
	switch strings.ToLower(strings.TrimLeft(t, "+-")) {
	case "inf", "infinity":
		if strings.HasPrefix(t, "-") {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case "nan":
		return math.NaN()
	}
	if strings.Contains(t, "_") {
		if strings.HasPrefix(t, "_") || strings.HasSuffix(t, "_") || strings.Contains(t, "__") {
			t = "!"
		}
		t = strings.ReplaceAll(t, "_", "")
	}
	if strings.ContainsAny(t, "xXpP") {
		t = "!"
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f
		}
		in.Raise("ValueError", "could not convert string to float: %s", strRepr(s))
	}
	return f
}

// ---- str methods ----

func (in *Interp) selfStr(v Value) string {
	switch x := v.(type) {
	case string:
		return x
	case *Instance:
		if s, ok := x.Base.(string); ok {
			return s
		}
	}
	in.Raise("TypeError", "descriptor requires a 'str' object but received a '%s'", in.typeName(v))
	return ""
}

func (in *Interp) argStr(v Value, what string) string {
	if s, ok := v.(string); ok {
		return s
	}
	if x, ok := v.(*Instance); ok {
		if s, ok := x.Base.(string); ok {
			return s
		}
	}
	in.Raise("TypeError", "%s", what)
	return ""
}

func runeLen(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

func (in *Interp) setupStr() {
	c := in.builtinClass("str")
	m := func(name string, fn func(in *Interp, s string, a []Value, kw []KW) Value) {
		in.method(c, name, func(in *Interp, a []Value, kw []KW) Value {
			if len(a) == 0 {
				in.Raise("TypeError", "descriptor 'str.%s' needs an argument", name)
			}
			s := in.selfStr(a[0])
			in.charge(int64(len(s) / 32))
			return fn(in, s, a[1:], kw)
		})
	}
	m("join", func(in *Interp, s string, a []Value, kw []KW) Value {
		nargs(in, "join", a, 1, 1)
		items := in.iterToSlice(a[0])
		parts := make([]string, len(items))
		total := 0
		for i, v := range items {
			str, ok := v.(string)
			if !ok {
				if x, ok2 := v.(*Instance); ok2 {
					str, ok = x.Base.(string)
				}
			}
			if !ok {
				in.Raise("TypeError", "sequence item %d: expected str instance, %s found", i, in.typeName(v))
			}
			parts[i] = str
			total += len(str) + len(s)
		}
		in.mem.need(in, int64(total))
		return strings.Join(parts, s)
	})
	m("split", func(in *Interp, s string, a []Value, kw []KW) Value {
		a = in.args("split", a, kw, []string{"sep", "maxsplit"}, 0)
		return in.splitStr(s, a[0], a[1], false)
	})
	m("rsplit", func(in *Interp, s string, a []Value, kw []KW) Value {
		a = in.args("rsplit", a, kw, []string{"sep", "maxsplit"}, 0)
		return in.splitStr(s, a[0], a[1], true)
	})
	strip := func(name string, f func(string, string) string, ws func(string) string) {
		m(name, func(in *Interp, s string, a []Value, kw []KW) Value {
			nargs(in, name, a, 0, 1)
			if len(a) == 0 || a[0] == None {
				return ws(s)
			}
			return f(s, in.argStr(a[0], name+" arg must be None or str"))
		})
	}
	strip("strip", strings.Trim, func(s string) string { return strings.TrimFunc(s, unicode.IsSpace) })
	strip("lstrip", strings.TrimLeft, func(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) })
	strip("rstrip", strings.TrimRight, func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) })
	affix := func(name string, f func(string, string) bool) {
		m(name, func(in *Interp, s string, a []Value, kw []KW) Value {
			nargs(in, name, a, 1, 3)
			sub := s
			if len(a) > 1 {
				r := []rune(s)
				st, en, _ := in.sliceIndices(&Slice{Start: a[1], Stop: argOr(a, 2, None), Step: None}, len(r))
				if st > en {
					return false
				}
				sub = string(r[st:en])
			}
			if t, ok := a[0].(Tuple); ok {
				for _, x := range t {
					if f(sub, in.argStr(x, "tuple for "+name+" must only contain str")) {
						return true
					}
				}
				return false
			}
			return f(sub, in.argStr(a[0], name+" first arg must be str or a tuple of str, not "+in.typeName(a[0])))
		})
	}
	affix("startswith", strings.HasPrefix)
	affix("endswith", strings.HasSuffix)
	m("replace", func(in *Interp, s string, a []Value, kw []KW) Value {
		a = in.args("replace", a, kw, []string{"old", "new", "count"}, 2)
		n := -1
		if a[2] != nil {
			n = int(in.toInt64(a[2]))
		}
		old, nw := in.argStr(a[0], "replace() argument 1 must be str"), in.argStr(a[1], "replace() argument 2 must be str")
		if len(nw) > len(old) {
			cnt := strings.Count(s, old)
			in.mem.need(in, int64(len(s)+cnt*(len(nw)-len(old))))
		}
		return strings.Replace(s, old, nw, n)
	})
	find := func(name string, rev, raise bool) {
		m(name, func(in *Interp, s string, a []Value, kw []KW) Value {
			nargs(in, name, a, 1, 3)
			sub := in.argStr(a[0], "must be str, not "+in.typeName(a[0]))
			r := []rune(s)
			st, en := 0, len(r)
			if len(a) > 1 {
				st, en, _ = in.sliceIndices(&Slice{Start: a[1], Stop: argOr(a, 2, None), Step: None}, len(r))
			}
			res := -1
			if st <= en {
				hay := string(r[st:en])
				var i int
				if rev {
					i = strings.LastIndex(hay, sub)
				} else {
					i = strings.Index(hay, sub)
				}
				if i >= 0 {
					res = st + utf8.RuneCountInString(hay[:i])
				}
			}
			if res < 0 && raise {
				in.Raise("ValueError", "substring not found")
			}
			return int64(res)
		})
	}
	find("find", false, false)
	find("rfind", true, false)
	find("index", false, true)
	find("rindex", true, true)
	m("count", func(in *Interp, s string, a []Value, kw []KW) Value {
		nargs(in, "count", a, 1, 3)
		sub := in.argStr(a[0], "must be str")
		if len(a) > 1 {
			r := []rune(s)
			st, en, _ := in.sliceIndices(&Slice{Start: a[1], Stop: argOr(a, 2, None), Step: None}, len(r))
			if st > en {
				return int64(0)
			}
			s = string(r[st:en])
		}
		if sub == "" {
			return int64(runeLen(s) + 1)
		}
		return int64(strings.Count(s, sub))
	})
	m("upper", func(in *Interp, s string, a []Value, kw []KW) Value { return pyUpper(s) })
	m("lower", func(in *Interp, s string, a []Value, kw []KW) Value { return pyLower(s) })
	m("casefold", func(in *Interp, s string, a []Value, kw []KW) Value { return pyCasefold(s) })
	m("swapcase", func(in *Interp, s string, a []Value, kw []KW) Value {
		return strings.Map(func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}, s)
	})
	m("title", func(in *Interp, s string, a []Value, kw []KW) Value {
		var b strings.Builder
		prev := false
		for _, r := range s {
			if unicode.IsLetter(r) {
				if prev {
					b.WriteRune(unicode.ToLower(r))
				} else {
					b.WriteRune(unicode.ToTitle(r))
				}
				prev = true
			} else {
				b.WriteRune(r)
				prev = unicode.IsDigit(r) && false
			}
		}
		return b.String()
	})
	m("capitalize", func(in *Interp, s string, a []Value, kw []KW) Value {
		if s == "" {
			return s
		}
		r, n := utf8.DecodeRuneInString(s)
		return string(unicode.ToUpper(r)) + strings.ToLower(s[n:])
	})
	pred := func(name string, f func(rune) bool, emptyOK bool) {
		m(name, func(in *Interp, s string, a []Value, kw []KW) Value {
			if s == "" {
				return emptyOK
			}
			for _, r := range s {
				if !f(r) {
					return false
				}
			}
			return true
		})
	}
	pred("isdigit", unicode.IsDigit, false)
	pred("isdecimal", unicode.IsDigit, false)
	pred("isnumeric", func(r rune) bool { return unicode.IsNumber(r) }, false)
	pred("isalpha", unicode.IsLetter, false)
	pred("isalnum", func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }, false)
	pred("isspace", unicode.IsSpace, false)
	pred("isascii", func(r rune) bool { return r < 128 }, true)
	pred("isprintable", unicode.IsPrint, true)
	m("isupper", func(in *Interp, s string, a []Value, kw []KW) Value {
		cased := false
		for _, r := range s {
			if unicode.IsLower(r) {
				return false
			}
			if unicode.IsUpper(r) {
				cased = true
			}
		}
		return cased
	})
	m("islower", func(in *Interp, s string, a []Value, kw []KW) Value {
		cased := false
		for _, r := range s {
			if unicode.IsUpper(r) {
				return false
			}
			if unicode.IsLower(r) {
				cased = true
			}
		}
		return cased
	})
	m("istitle", func(in *Interp, s string, a []Value, kw []KW) Value {
		return s != "" && in.call(in.getAttr(s, "title"), nil, nil) == s && strings.ToLower(s) != s
	})
	m("isidentifier", func(in *Interp, s string, a []Value, kw []KW) Value {
		if s == "" {
			return false
		}
		for i, r := range s {
			if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
				return false
			}
		}
		return true
	})
	m("format", func(in *Interp, s string, a []Value, kw []KW) Value { return in.strFormat(s, a, kw) })
	m("format_map", func(in *Interp, s string, a []Value, kw []KW) Value {
		var kws []KW
		for _, kv := range in.mappingItems(a[0]) {
			kws = append(kws, KW{in.str(kv[0]), kv[1]})
		}
		return in.strFormat(s, nil, kws)
	})
	m("splitlines", func(in *Interp, s string, a []Value, kw []KW) Value {
		a = in.args("splitlines", a, kw, []string{"keepends"}, 0)
		keep := a[0] != nil && in.truthy(a[0])
		var out []Value
		for len(s) > 0 {
			i := strings.IndexAny(s, "\n\r\v\f\x1c\x1d\x1e\u0085\u2028\u2029")
			if i < 0 {
				out = append(out, s)
				break
			}
			_, w := utf8.DecodeRuneInString(s[i:])
			end := i + w
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				end = i + 2
			}
			if keep {
				out = append(out, s[:end])
			} else {
				out = append(out, s[:i])
			}
			s = s[end:]
		}
		if out == nil {
			out = []Value{}
		}
		return &List{V: out}
	})
	part := func(name string, rev bool) {
		m(name, func(in *Interp, s string, a []Value, kw []KW) Value {
			nargs(in, name, a, 1, 1)
			sep := in.argStr(a[0], "must be str")
			if sep == "" {
				in.Raise("ValueError", "empty separator")
			}
			var i int
			if rev {
				i = strings.LastIndex(s, sep)
				if i < 0 {
					return Tuple{"", "", s}
				}
			} else {
				i = strings.Index(s, sep)
				if i < 0 {
					return Tuple{s, "", ""}
				}
			}
			return Tuple{s[:i], sep, s[i+len(sep):]}
		})
	}
	part("partition", false)
	part("rpartition", true)
	just := func(name string, align byte) {
		m(name, func(in *Interp, s string, a []Value, kw []KW) Value {
			nargs(in, name, a, 1, 2)
			w := int(in.toInt64(a[0]))
			fill := ' '
			if len(a) > 1 {
				f := in.argStr(a[1], "fill character must be a str")
				if runeLen(f) != 1 {
					in.Raise("TypeError", "The fill character must be exactly one character long")
				}
				fill, _ = utf8.DecodeRuneInString(f)
			}
			if w > 1<<24 {
				in.mem.need(in, int64(w))
			}
			fs := &fmtSpec{fill: fill, align: align, width: w}
			if align == '^' {
				n := runeLen(s)
				if n >= w {
					return s
				}
				// CPython centers with the extra space on the right unless odd width
				left := (w - n) / 2
				if (w-n)%2 == 1 && n%2 == 1 {
					left++
				}
				return strings.Repeat(string(fill), left) + s + strings.Repeat(string(fill), w-n-left)
			}
			return fs.pad(s, align)
		})
	}
	just("ljust", '<')
	just("rjust", '>')
	just("center", '^')
	m("zfill", func(in *Interp, s string, a []Value, kw []KW) Value {
		w := int(in.toInt64(a[0]))
		n := runeLen(s)
		if n >= w {
			return s
		}
		pad := strings.Repeat("0", w-n)
		if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
			return s[:1] + pad + s[1:]
		}
		return pad + s
	})
	m("encode", func(in *Interp, s string, a []Value, kw []KW) Value {
		a = in.args("encode", a, kw, []string{"encoding", "errors"}, 0)
		return Bytes(in.encode(s, a[0]))
	})
	m("expandtabs", func(in *Interp, s string, a []Value, kw []KW) Value {
		ts := 8
		if len(a) > 0 {
			ts = int(in.toInt64(a[0]))
		}
		var b strings.Builder
		col := 0
		for _, r := range s {
			switch r {
			case '\t':
				if ts > 0 {
					n := ts - col%ts
					b.WriteString(strings.Repeat(" ", n))
					col += n
				}
			case '\n', '\r':
				b.WriteRune(r)
				col = 0
			default:
				b.WriteRune(r)
				col++
			}
		}
		return b.String()
	})
	m("removeprefix", func(in *Interp, s string, a []Value, kw []KW) Value {
		return strings.TrimPrefix(s, in.argStr(a[0], "must be str"))
	})
	m("removesuffix", func(in *Interp, s string, a []Value, kw []KW) Value {
		return strings.TrimSuffix(s, in.argStr(a[0], "must be str"))
	})
	m("translate", func(in *Interp, s string, a []Value, kw []KW) Value {
		var b strings.Builder
		for _, r := range s {
			var v Value
			exc := in.catch(func() { v = in.getItem(a[0], int64(r)) })
			if exc != nil {
				if isSubclass(exc.Exc.Cls, in.builtinClass("LookupError")) {
					b.WriteRune(r)
					continue
				}
				panic(exc)
			}
			switch x := v.(type) {
			case *noneType:
			case string:
				b.WriteString(x)
			case int64:
				b.WriteRune(rune(x))
			}
		}
		return b.String()
	})
	c.Dict.SetStr("maketrans", &StaticMethod{Fn: &Builtin{Name: "maketrans", Fn: func(in *Interp, a []Value, kw []KW) Value {
		d := NewDict()
		if len(a) == 1 {
			for _, kv := range in.mappingItems(a[0]) {
				k := kv[0]
				if s, ok := k.(string); ok {
					r, _ := utf8.DecodeRuneInString(s)
					k = int64(r)
				}
				in.dictSet(d, k, kv[1])
			}
			return d
		}
		x, y := []rune(in.str(a[0])), []rune(in.str(a[1]))
		if len(x) != len(y) {
			in.Raise("ValueError", "the first two maketrans arguments must have equal length")
		}
		for i := range x {
			in.dictSet(d, int64(x[i]), int64(y[i]))
		}
		if len(a) > 2 {
			for _, r := range in.str(a[2]) {
				in.dictSet(d, int64(r), None)
			}
		}
		return d
	}}})
	m("__len__", func(in *Interp, s string, a []Value, kw []KW) Value { return int64(runeLen(s)) })
	m("__contains__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.contains(s, a[0]) })
	m("__getitem__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.getItem(s, a[0]) })
	m("__add__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.binop("+", s, a[0]) })
	m("__mod__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.percentFormat(s, a[0]) })
	m("__str__", func(in *Interp, s string, a []Value, kw []KW) Value { return s })
	m("__repr__", func(in *Interp, s string, a []Value, kw []KW) Value { return strRepr(s) })
	m("__hash__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.hashKey(s).i + int64(len(s)) })
	m("__eq__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.eqValue(s, a[0]) })
	m("__lt__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.order("<", s, a[0]) })
	m("__format__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.format(s, in.str(a[0])) })
	m("__iter__", func(in *Interp, s string, a []Value, kw []KW) Value { return in.iter(s) })
}

func argOr(a []Value, i int, def Value) Value {
	if i < len(a) {
		return a[i]
	}
	return def
}

func (in *Interp) splitStr(s string, sepV, maxV Value, rev bool) Value {
	max := -1
	if maxV != nil && maxV != None {
		max = int(in.toInt64(maxV))
	}
	var parts []string
	if sepV == nil || sepV == None {
		fields := strings.FieldsFunc(s, unicode.IsSpace)
		if max < 0 || len(fields) <= max+1 {
			parts = fields
		} else if !rev {
			// split max times from the left, keeping the rest intact
			rest := strings.TrimLeftFunc(s, unicode.IsSpace)
			for i := 0; i < max; i++ {
				j := strings.IndexFunc(rest, unicode.IsSpace)
				parts = append(parts, rest[:j])
				rest = strings.TrimLeftFunc(rest[j:], unicode.IsSpace)
			}
			parts = append(parts, rest)
		} else {
			rest := strings.TrimRightFunc(s, unicode.IsSpace)
			var tail []string
			for i := 0; i < max; i++ {
				j := strings.LastIndexFunc(rest, unicode.IsSpace)
				tail = append([]string{rest[j+1:]}, tail...)
				rest = strings.TrimRightFunc(rest[:j], unicode.IsSpace)
			}
			parts = append([]string{rest}, tail...)
		}
	} else {
		sep := in.argStr(sepV, "must be str or None, not "+in.typeName(sepV))
		if sep == "" {
			in.Raise("ValueError", "empty separator")
		}
		if max < 0 {
			parts = strings.Split(s, sep)
		} else if !rev {
			parts = strings.SplitN(s, sep, max+1)
		} else {
			all := strings.Split(s, sep)
			if len(all) > max+1 {
				head := strings.Join(all[:len(all)-max], sep)
				parts = append([]string{head}, all[len(all)-max:]...)
			} else {
				parts = all
			}
		}
	}
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	in.mem.add(in, int64(len(out))*64)
	return &List{V: out}
}

func (in *Interp) encode(s string, enc Value) string {
	e := "utf-8"
	if enc != nil && enc != None {
		e = strings.ToLower(strings.ReplaceAll(in.str(enc), "_", "-"))
	}
	switch e {
	case "utf-8", "utf8":
		return s
	case "ascii", "us-ascii":
		for i, r := range s {
			if r >= 128 {
				in.Raise("UnicodeEncodeError", "'ascii' codec can't encode character %s in position %d: ordinal not in range(128)", strRepr(string(r)), i)
			}
		}
		return s
	case "latin-1", "latin1", "iso-8859-1":
		var b []byte
		for _, r := range s {
			if r > 255 {
				in.Raise("UnicodeEncodeError", "'latin-1' codec can't encode character")
			}
			b = append(b, byte(r))
		}
		return string(b)
	}
	in.Raise("LookupError", "unknown encoding: %s", e)
	return ""
}

func (in *Interp) decode(s string, enc, errs Value) string {
	e := "utf-8"
	if enc != nil && enc != None {
		e = strings.ToLower(strings.ReplaceAll(in.str(enc), "_", "-"))
	}
	mode := "strict"
	if errs != nil && errs != None {
		mode = in.str(errs)
	}
	switch e {
	case "utf-8", "utf8", "utf-8-sig":
		if e == "utf-8-sig" {
			s = strings.TrimPrefix(s, "\xef\xbb\xbf")
		}
		if utf8.ValidString(s) {
			return s
		}
		if mode == "strict" {
			for i := 0; i < len(s); {
				r, n := utf8.DecodeRuneInString(s[i:])
				if r == utf8.RuneError && n == 1 {
					in.Raise("UnicodeDecodeError", "'utf-8' codec can't decode byte 0x%02x in position %d: invalid start byte", s[i], i)
				}
				i += n
			}
		}
		if mode == "ignore" {
			return strings.ToValidUTF8(s, "")
		}
		return strings.ToValidUTF8(s, "\ufffd")
	case "ascii":
		for i := 0; i < len(s); i++ {
			if s[i] >= 128 && mode == "strict" {
				in.Raise("UnicodeDecodeError", "'ascii' codec can't decode byte 0x%02x in position %d: ordinal not in range(128)", s[i], i)
			}
		}
		return s
	case "latin-1", "latin1", "iso-8859-1":
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			b.WriteRune(rune(s[i]))
		}
		return b.String()
	}
	in.Raise("LookupError", "unknown encoding: %s", e)
	return ""
}
