package interp

import (
	"math/big"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

// lookupClassAttr finds name along c's MRO; nil when absent.
func (in *Interp) lookupClassAttr(c *Class, name string) Value {
	for _, k := range c.MRO {
		if v, ok := k.Dict.GetStr(name); ok {
			return v
		}
	}
	return nil
}

func (in *Interp) lookupClassAttrFrom(c *Class, name string) (Value, *Class) {
	for _, k := range c.MRO {
		if v, ok := k.Dict.GetStr(name); ok {
			return v, k
		}
	}
	return nil, nil
}

// bindAttr turns a class attribute into what instance attribute access
// returns: bound methods for functions, the getter's result for properties.
func (in *Interp) bindAttr(self Value, attr Value, cls *Class) Value {
	switch f := attr.(type) {
	case *Function:
		return &Method{Self: self, Fn: f}
	case *Builtin:
		if f.Self == nil {
			if i, ok := self.(*Instance); ok && i.Base != nil && isBaseMethod(f) {
				return &Method{Self: i.Base, Fn: f}
			}
			return &Method{Self: self, Fn: f}
		}
		return f
	case *ClassMethod:
		return &Method{Self: cls, Fn: f.Fn}
	case *StaticMethod:
		return f.Fn
	case *Property:
		if f.Get == nil || f.Get == None {
			in.Raise("AttributeError", "property object has no getter")
		}
		return in.call(f.Get, []Value{self}, nil)
	case *Instance:
		if g := in.lookupClassAttr(f.Cls, "__get__"); g != nil {
			return in.call(in.bindAttr(f, g, f.Cls), []Value{self, cls}, nil)
		}
	}
	return attr
}

// isBaseMethod reports whether b is a method of a builtin storage type, which
// an instance of a subclass delegates to its builtin value.
func isBaseMethod(b *Builtin) bool {
	typ, _, ok := strings.Cut(b.Name, ".")
	if !ok {
		return false
	}
	switch typ {
	case "int", "str", "list", "dict", "set", "frozenset", "tuple", "float", "bytes", "defaultdict", "Counter", "OrderedDict":
		return true
	}
	return false
}

func (in *Interp) getAttr(obj Value, name string) Value {
	v, ok := in.getAttrOpt(obj, name)
	if !ok {
		in.attrError(obj, name)
	}
	return v
}

func (in *Interp) attrError(obj Value, name string) {
	switch x := obj.(type) {
	case *Module:
		in.Raise("AttributeError", "module '%s' has no attribute '%s'", x.Name, name)
	case *Class:
		in.Raise("AttributeError", "type object '%s' has no attribute '%s'", x.Name, name)
	}
	exc := in.newExc(in.builtinClass("AttributeError"), Tuple{"'" + in.typeName(obj) + "' object has no attribute '" + name + "'"})
	in.raiseExc(exc)
}

func (in *Interp) getAttrOpt(obj Value, name string) (Value, bool) {
	in.step()
	switch x := obj.(type) {
	case *Instance:
		cv, _ := in.lookupClassAttrFrom(x.Cls, name)
		if p, ok := cv.(*Property); ok {
			return in.bindAttr(x, p, x.Cls), true
		}
		if v, ok := x.Dict.GetStr(name); ok {
			return v, true
		}
		if cv != nil {
			return in.bindAttr(x, cv, x.Cls), true
		}
		if v, ok := in.instanceSpecial(x, name); ok {
			return v, true
		}
		if ga := in.lookupClassAttr(x.Cls, "__getattr__"); ga != nil {
			var r Value
			exc := in.catch(func() { r = in.call(in.bindAttr(x, ga, x.Cls), []Value{name}, nil) })
			if exc != nil {
				if isSubclass(exc.Exc.Cls, in.builtinClass("AttributeError")) {
					panic(exc)
				}
				panic(exc)
			}
			return r, true
		}
		if x.Base != nil {
			return in.getAttrOpt(x.Base, name)
		}
		return nil, false
	case *Module:
		if v, ok := x.Dict.GetStr(name); ok {
			return v, true
		}
		if name == "__dict__" {
			return x.Dict, true
		}
		if ga, ok := x.Dict.GetStr("__getattr__"); ok {
			return in.call(ga, []Value{name}, nil), true
		}
		return nil, false
	case *Class:
		if v, c := in.lookupClassAttrFrom(x, name); v != nil {
			_ = c
			switch f := v.(type) {
			case *ClassMethod:
				return &Method{Self: x, Fn: f.Fn}, true
			case *StaticMethod:
				return f.Fn, true
			case *Instance:
				if g := in.lookupClassAttr(f.Cls, "__get__"); g != nil {
					return in.call(in.bindAttr(f, g, f.Cls), []Value{None, x}, nil), true
				}
			}
			return v, true
		}
		switch name {
		case "__name__":
			return x.Name, true
		case "__qualname__":
			return x.Qualname, true
		case "__module__":
			return x.Module, true
		case "__mro__":
			t := make(Tuple, len(x.MRO))
			for i, c := range x.MRO {
				t[i] = c
			}
			return t, true
		case "__bases__":
			t := make(Tuple, len(x.Bases))
			for i, c := range x.Bases {
				t[i] = c
			}
			return t, true
		case "__base__":
			if len(x.Bases) > 0 {
				return x.Bases[0], true
			}
			return None, true
		case "__dict__":
			return x.Dict, true
		case "__doc__":
			return None, true
		case "__subclasses__":
			return &Builtin{Name: "__subclasses__", Fn: func(in *Interp, a []Value, kw []KW) Value {
				return &List{V: in.subclasses[x]}
			}}, true
		}
		if x.Meta != nil {
			if v := in.lookupClassAttr(x.Meta, name); v != nil {
				return in.bindAttr(x, v, x.Meta), true
			}
		}
		return nil, false
	case *Function:
		switch name {
		case "__name__":
			return x.Name, true
		case "__qualname__":
			return x.Qualname, true
		case "__module__":
			return x.Module, true
		case "__doc__":
			if x.Def.Doc != "" {
				return x.Def.Doc, true
			}
			if v, ok := x.Dict.GetStr("__doc__"); ok {
				return v, true
			}
			return None, true
		case "__dict__":
			return x.Dict, true
		case "__defaults__":
			var t Tuple
			for _, p := range x.Def.Params {
				if d, ok := x.Defaults[p.Name]; ok && (p.Kind == 'p' || p.Kind == 'o') {
					t = append(t, d)
				}
			}
			if t == nil {
				return None, true
			}
			return t, true
		case "__code__":
			return in.codeObject(x), true
		case "__get__":
			return &Builtin{Name: "__get__", Fn: func(in *Interp, a []Value, kw []KW) Value {
				if len(a) == 0 || a[0] == None {
					return x
				}
				return &Method{Self: a[0], Fn: x}
			}}, true
		case "__call__":
			return x, true
		case "__wrapped__", "__annotations__", "__kwdefaults__", "__globals__":
			if v, ok := x.Dict.GetStr(name); ok {
				return v, true
			}
			if name == "__globals__" {
				return x.Globals.Dict, true
			}
			if name == "__annotations__" {
				return NewDict(), true
			}
			return nil, false
		}
		if v, ok := x.Dict.GetStr(name); ok {
			return v, true
		}
		return nil, false
	case *Method:
		switch name {
		case "__self__":
			return x.Self, true
		case "__func__":
			return x.Fn, true
		}
		return in.getAttrOpt(x.Fn, name)
	case *Builtin:
		switch name {
		case "__name__", "__qualname__":
			n := x.Name
			if i := strings.LastIndexByte(n, '.'); i >= 0 {
				n = n[i+1:]
			}
			return n, true
		case "__self__":
			if x.Self == nil {
				return None, true
			}
			return x.Self, true
		case "__doc__":
			return None, true
		case "__module__":
			return "builtins", true
		}
		return nil, false
	case *Super:
		start := -1
		cls := in.typeOf(x.Self)
		if c, ok := x.Self.(*Class); ok {
			cls = c
		}
		for i, c := range cls.MRO {
			if c == x.Cls {
				start = i + 1
			}
		}
		if start < 0 {
			in.Raise("TypeError", "super(type, obj): obj must be an instance or subtype of type")
		}
		for _, c := range cls.MRO[start:] {
			if v, ok := c.Dict.GetStr(name); ok {
				if sc, ok := x.Self.(*Class); ok {
					switch f := v.(type) {
					case *ClassMethod:
						return &Method{Self: sc, Fn: f.Fn}, true
					case *StaticMethod:
						return f.Fn, true
					}
					return v, true
				}
				return in.bindAttr(x.Self, v, cls), true
			}
		}
		return nil, false
	case *Property:
		switch name {
		case "setter":
			return &Builtin{Name: "setter", Fn: func(in *Interp, a []Value, kw []KW) Value {
				return &Property{Get: x.Get, Set: a[0], Del: x.Del}
			}}, true
		case "getter":
			return &Builtin{Name: "getter", Fn: func(in *Interp, a []Value, kw []KW) Value {
				return &Property{Get: a[0], Set: x.Set, Del: x.Del}
			}}, true
		case "deleter":
			return &Builtin{Name: "deleter", Fn: func(in *Interp, a []Value, kw []KW) Value {
				return &Property{Get: x.Get, Set: x.Set, Del: a[0]}
			}}, true
		case "fget":
			return orNone(x.Get), true
		case "__isabstractmethod__":
			return false, true
		}
		return nil, false
	case *StaticMethod:
		if name == "__func__" {
			return x.Fn, true
		}
		return in.getAttrOpt(x.Fn, name)
	case *ClassMethod:
		if name == "__func__" {
			return x.Fn, true
		}
		return in.getAttrOpt(x.Fn, name)
	}
	// builtin value: methods from its class
	cls := in.typeOf(obj)
	if v := in.lookupClassAttr(cls, name); v != nil {
		switch f := v.(type) {
		case *Builtin:
			return &Builtin{Name: f.Name, Fn: f.Fn, Self: obj}, true
		case *Function:
			return &Method{Self: obj, Fn: f}, true
		}
		return v, true
	}
	if v, ok := in.valueSpecial(obj, name); ok {
		return v, true
	}
	return nil, false
}

func orNone(v Value) Value {
	if v == nil {
		return None
	}
	return v
}

// instanceSpecial provides __class__, __dict__ and exception attributes.
func (in *Interp) instanceSpecial(x *Instance, name string) (Value, bool) {
	switch name {
	case "__class__":
		return x.Cls, true
	case "__dict__":
		return x.Dict, true
	case "__module__":
		return x.Cls.Module, true
	case "__doc__":
		return None, true
	}
	if x.Exc != nil {
		switch name {
		case "args":
			return x.Exc.Args, true
		case "__cause__":
			if x.Exc.Cause == nil {
				return None, true
			}
			return x.Exc.Cause, true
		case "__context__":
			if x.Exc.Context == nil {
				return None, true
			}
			return x.Exc.Context, true
		case "__traceback__":
			return None, true
		case "__suppress_context__":
			return x.Exc.Suppress, true
		case "with_traceback":
			return &Builtin{Name: "with_traceback", Fn: func(in *Interp, a []Value, kw []KW) Value { return x }}, true
		case "add_note":
			return &Builtin{Name: "add_note", Fn: func(in *Interp, a []Value, kw []KW) Value { return None }}, true
		}
	}
	return nil, false
}

func (in *Interp) valueSpecial(obj Value, name string) (Value, bool) {
	switch name {
	case "__class__":
		return in.typeOf(obj), true
	case "__doc__":
		return None, true
	}
	switch x := obj.(type) {
	case int64, bool, *big.Int:
		switch name {
		case "real", "numerator":
			return in.call(in.builtinClass("int"), []Value{x}, nil), true
		case "imag":
			return int64(0), true
		case "denominator":
			return int64(1), true
		}
	case float64:
		switch name {
		case "real":
			return x, true
		case "imag":
			return 0.0, true
		}
	case *Range:
		switch name {
		case "start":
			return x.Start, true
		case "stop":
			return x.Stop, true
		case "step":
			return x.Step, true
		}
	case *Slice:
		switch name {
		case "start":
			return x.Start, true
		case "stop":
			return x.Stop, true
		case "step":
			return x.Step, true
		}
	case *Dict:
		if name == "default_factory" && x.Kind == "defaultdict" {
			return orNone(x.Default), true
		}
	case *Generator:
		return in.genAttr(x, name)
	case *File:
		return in.fileAttr(x, name)
	case *Match:
		return in.matchAttr(x, name)
	case *Pattern:
		switch name {
		case "pattern":
			return x.src, true
		case "flags":
			return x.flags, true
		case "groups":
			return int64(x.re.NumSubexp()), true
		}
	}
	return nil, false
}

func (in *Interp) setAttr(obj Value, name string, v Value) {
	in.step()
	switch x := obj.(type) {
	case *Instance:
		if cv := in.lookupClassAttr(x.Cls, "__setattr__"); cv != nil && !isBuiltinAttr(cv) {
			in.call(in.bindAttr(x, cv, x.Cls), []Value{name, v}, nil)
			return
		}
		in.objectSetattr(x, name, v)
		return
	case *Class:
		x.Dict.SetStr(name, v)
		return
	case *Module:
		x.Dict.SetStr(name, v)
		return
	case *Function:
		switch name {
		case "__name__":
			if s, ok := v.(string); ok {
				x.Name = s
			}
		case "__qualname__":
			if s, ok := v.(string); ok {
				x.Qualname = s
			}
		case "__module__":
			if s, ok := v.(string); ok {
				x.Module = s
			}
		default:
			x.Dict.SetStr(name, v)
		}
		return
	case *File:
		return
	}
	in.Raise("AttributeError", "'%s' object has no attribute '%s' and no __dict__ for setting new attributes", in.typeName(obj), name)
}

func (in *Interp) objectSetattr(x *Instance, name string, v Value) {
	cv := in.lookupClassAttr(x.Cls, name)
	if p, ok := cv.(*Property); ok {
		if p.Set == nil || p.Set == None {
			in.Raise("AttributeError", "property '%s' of '%s' object has no setter", name, x.Cls.Name)
		}
		in.call(p.Set, []Value{x, v}, nil)
		return
	}
	if d, ok := cv.(*Instance); ok {
		if s := in.lookupClassAttr(d.Cls, "__set__"); s != nil {
			in.call(in.bindAttr(d, s, d.Cls), []Value{x, v}, nil)
			return
		}
	}
	if fz, ok := x.Cls.Dict.GetStr("__dataclass_frozen__"); ok && fz == true {
		exc := in.newExc(in.modClass("dataclasses", "FrozenInstanceError"), Tuple{"cannot assign to field '" + name + "'"})
		in.raiseExc(exc)
	}
	if x.Exc != nil && name == "args" {
		x.Exc.Args = Tuple(in.iterToSlice(v))
		return
	}
	if x.Exc != nil && name == "__cause__" {
		if e, ok := v.(*Instance); ok {
			x.Exc.Cause = e
		} else {
			x.Exc.Cause = nil
		}
		x.Exc.Suppress = true
		return
	}
	x.Dict.SetStr(name, v)
}

func (in *Interp) delAttr(obj Value, name string) {
	switch x := obj.(type) {
	case *Instance:
		if cv := in.lookupClassAttr(x.Cls, "__delattr__"); cv != nil && !isBuiltinAttr(cv) {
			in.call(in.bindAttr(x, cv, x.Cls), []Value{name}, nil)
			return
		}
		if p, ok := in.lookupClassAttr(x.Cls, name).(*Property); ok && p.Del != nil {
			in.call(p.Del, []Value{x}, nil)
			return
		}
		if x.Dict.DelStr(name) {
			return
		}
	case *Class:
		if x.Dict.DelStr(name) {
			return
		}
	case *Module:
		if x.Dict.DelStr(name) {
			return
		}
	case *Function:
		if x.Dict.DelStr(name) {
			return
		}
	}
	in.attrError(obj, name)
}

// ---- classes ----

func (in *Interp) objectClass() *Class { return in.builtinClass("object") }

func (in *Interp) newBuiltinClass(name string, bases ...*Class) *Class {
	c := &Class{Name: name, Qualname: name, Bases: bases, Dict: NewDict(), Module: "builtins", Builtin: name}
	c.MRO = append([]*Class{c}, linearBases(bases)...)
	return c
}

func linearBases(bases []*Class) []*Class {
	var out []*Class
	seen := map[*Class]bool{}
	for _, b := range bases {
		for _, m := range b.MRO {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// c3 computes the C3 linearization of a class with the given bases.
func (in *Interp) c3(c *Class, bases []*Class) []*Class {
	var seqs [][]*Class
	for _, b := range bases {
		seqs = append(seqs, append([]*Class(nil), b.MRO...))
	}
	seqs = append(seqs, append([]*Class(nil), bases...))
	out := []*Class{c}
	for {
		nonEmpty := false
		for _, s := range seqs {
			if len(s) > 0 {
				nonEmpty = true
			}
		}
		if !nonEmpty {
			return out
		}
		var cand *Class
		for _, s := range seqs {
			if len(s) == 0 {
				continue
			}
			h := s[0]
			inTail := false
			for _, t := range seqs {
				for _, x := range t[min(1, len(t)):] {
					if x == h {
						inTail = true
					}
				}
			}
			if !inTail {
				cand = h
				break
			}
		}
		if cand == nil {
			in.Raise("TypeError", "Cannot create a consistent method resolution order (MRO)")
		}
		out = append(out, cand)
		for i, s := range seqs {
			if len(s) > 0 && s[0] == cand {
				seqs[i] = s[1:]
			}
		}
	}
}

func (in *Interp) makeClass(fr *Frame, d *syntax.ClassDef) *Class {
	var bases []*Class
	for _, b := range in.evalElts(fr, d.Bases) {
		switch bc := b.(type) {
		case *Class:
			bases = append(bases, bc)
		case Tuple: // typing generics evaluate to tuples/markers: ignore
		case *Instance:
			if mro, ok := in.getAttrOpt(bc, "__mro_entries__"); ok {
				for _, x := range in.iterToSlice(in.call(mro, []Value{Tuple{}}, nil)) {
					if c, ok := x.(*Class); ok {
						bases = append(bases, c)
					}
				}
			}
		default:
			if b == None {
				in.Raise("TypeError", "NoneType takes no arguments")
			}
		}
	}
	var meta *Class
	var kws []KW
	for _, k := range d.Kw {
		v := in.eval(fr, k.Value)
		if k.Name == "metaclass" {
			meta, _ = v.(*Class)
			continue
		}
		kws = append(kws, KW{k.Name, v})
	}
	modName := "__main__"
	if m, ok := fr.Globals.Dict.GetStr("__name__"); ok {
		modName, _ = m.(string)
	}
	qual := d.Name
	if fr.Kind == 'c' {
		if q, ok := fr.ClsNS.GetStr("__qualname__"); ok {
			qual = q.(string) + "." + d.Name
		}
	} else if fr.Kind == 'f' && fr.Fn != nil {
		qual = fr.Fn.Qualname + ".<locals>." + d.Name
	}
	ns := NewDict()
	ns.SetStr("__module__", modName)
	ns.SetStr("__qualname__", qual)
	cf := &Frame{Kind: 'c', ClsNS: ns, Scope: d.Scope, Outer: fr, Globals: fr.Globals, Line: d.Line, Name: d.Name}
	if fr.Kind == 'm' {
		cf.Outer = nil
	}
	in.pushFrame(cf)
	in.execBlock(cf, d.Body)
	in.popFrame()
	for _, b := range bases {
		if b.Meta != nil && meta == nil {
			meta = b.Meta
		}
	}
	cls := in.buildClass(d.Name, qual, modName, bases, ns, meta)
	// methods defined in the body see the class for zero-argument super()
	for _, kv := range ns.Items() {
		setClassCell(kv[1], cls)
	}
	if isf := in.lookupClassAttr(cls, "__init_subclass__"); isf != nil && len(cls.MRO) > 1 {
		if v, c := in.lookupClassAttrFrom(cls.MRO[1], "__init_subclass__"); v != nil && c != nil {
			if _, ok := v.(*Builtin); !ok {
				fn := v
				if cm, ok := v.(*ClassMethod); ok {
					fn = cm.Fn
				}
				in.call(fn, []Value{cls}, kws)
			}
		}
	}
	if meta != nil {
		if init := in.lookupClassAttr(meta, "__init__"); init != nil && !isBuiltinAttr(init) {
			in.call(init, []Value{cls, d.Name, Tuple{}, ns}, nil)
		}
	}
	return cls
}

func setClassCell(v Value, cls *Class) {
	switch f := v.(type) {
	case *Function:
		if _, ok := f.Dict.GetStr("__class__"); !ok {
			f.Dict.SetStr("__class__", cls)
		}
	case *ClassMethod:
		setClassCell(f.Fn, cls)
	case *StaticMethod:
		setClassCell(f.Fn, cls)
	case *Property:
		setClassCell(f.Get, cls)
		setClassCell(f.Set, cls)
	}
}

func (in *Interp) buildClass(name, qual, mod string, bases []*Class, ns *Dict, meta *Class) *Class {
	if len(bases) == 0 {
		bases = []*Class{in.objectClass()}
	}
	cls := &Class{Name: name, Qualname: qual, Bases: bases, Dict: ns, Module: mod, Meta: meta}
	cls.MRO = in.c3(cls, bases)
	for _, b := range bases {
		in.subclasses[b] = append(in.subclasses[b], cls)
	}
	// a function __init_subclass__ or __class_getitem__ is implicitly a classmethod
	for _, n := range []string{"__init_subclass__", "__class_getitem__"} {
		if f, ok := ns.GetStr(n); ok {
			if fn, ok := f.(*Function); ok {
				ns.SetStr(n, &ClassMethod{Fn: fn})
			}
		}
	}
	if f, ok := ns.GetStr("__new__"); ok {
		if fn, ok := f.(*Function); ok {
			ns.SetStr("__new__", &StaticMethod{Fn: fn})
		}
	}
	// descriptors learn their attribute name (PEP 487)
	for _, kv := range ns.Items() {
		if inst, ok := kv[1].(*Instance); ok {
			if sn := in.lookupClassAttr(inst.Cls, "__set_name__"); sn != nil {
				in.call(in.bindAttr(inst, sn, inst.Cls), []Value{cls, kv[0]}, nil)
			}
		}
	}
	return cls
}

// builtinBase is the first builtin storage class in c's MRO (dict, list,
// str, int, float, tuple, set), or "".
func builtinBase(c *Class) string {
	for _, m := range c.MRO {
		switch m.Builtin {
		case "dict", "list", "str", "int", "float", "tuple", "set", "frozenset", "bytes":
			return m.Builtin
		}
	}
	return ""
}

// instantiate calls a user class.
func (in *Interp) instantiate(c *Class, args []Value, kw []KW) Value {
	if c.Meta != nil {
		if call := in.lookupClassAttr(c.Meta, "__call__"); call != nil && !isBuiltinAttr(call) {
			return in.call(call, append([]Value{c}, args...), kw)
		}
	}
	var obj Value
	if nf := in.lookupClassAttr(c, "__new__"); nf != nil && !isBuiltinAttr(nf) {
		fn := nf
		if sm, ok := nf.(*StaticMethod); ok {
			fn = sm.Fn
		}
		obj = in.call(fn, append([]Value{c}, args...), kw)
		inst, ok := obj.(*Instance)
		if !ok || !isSubclass(inst.Cls, c) {
			return obj
		}
	} else {
		obj = in.newInstance(c, args, kw)
	}
	inst := obj.(*Instance)
	if init := in.lookupClassAttr(c, "__init__"); init != nil {
		if b, ok := init.(*Builtin); ok {
			// object.__init__ and builtin storage initialisers
			if inst.Exc != nil && (b.Name == "BaseException.__init__" || b.Name == "object.__init__") {
				return inst
			}
			if b.Name == "object.__init__" {
				if inst.Base != nil {
					return inst
				}
				if len(args) > 0 || len(kw) > 0 {
					if nf := in.lookupClassAttr(c, "__new__"); nf == nil || isBuiltinAttr(nf) {
						in.Raise("TypeError", "%s() takes no arguments", c.Name)
					}
				}
				return inst
			}
			in.call(b, append([]Value{inst}, args...), kw)
			return inst
		}
		r := in.call(in.bindAttr(inst, init, c), args, kw)
		if r != None {
			in.Raise("TypeError", "__init__() should return None, not '%s'", in.typeName(r))
		}
	}
	return inst
}

// newInstance is object.__new__(c) with builtin storage set up.
func (in *Interp) newInstance(c *Class, args []Value, kw []KW) *Instance {
	if c.Builtin == "OSError" && len(args) >= 2 {
		if n, ok := args[0].(int64); ok {
			if sub, ok := map[int64]string{2: "FileNotFoundError", 17: "FileExistsError", 13: "PermissionError", 1: "PermissionError",
				21: "IsADirectoryError", 20: "NotADirectoryError", 32: "BrokenPipeError", 110: "TimeoutError", 3: "ProcessLookupError", 10: "ChildProcessError"}[n]; ok {
				c = in.builtinClass(sub)
			}
		}
	}
	inst := &Instance{Cls: c, Dict: NewDict(), id: in.newID()}
	in.mem.add(in, 64)
	if isSubclass(c, in.builtinClass("BaseException")) {
		inst.Exc = &ExcInfo{Args: Tuple(append([]Value(nil), args...))}
	}
	switch builtinBase(c) {
	case "dict":
		inst.Base = NewDict()
	case "list":
		inst.Base = &List{}
	case "set":
		inst.Base = newSet()
	case "str", "int", "float", "tuple", "frozenset", "bytes":
		// immutable: the value comes from the constructor arguments
		inst.Base = in.call(in.builtinClass(builtinBase(c)), args, kw)
	}
	return inst
}
