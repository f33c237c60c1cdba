package interp

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

type ctrl int

const (
	cNone ctrl = iota
	cBreak
	cContinue
	cReturn
)

func (in *Interp) execBlock(fr *Frame, body []syntax.Stmt) ctrl {
	for _, s := range body {
		if c := in.exec(fr, s); c != cNone {
			return c
		}
	}
	return cNone
}

func (in *Interp) exec(fr *Frame, s syntax.Stmt) ctrl {
	in.step()
	switch s := s.(type) {
	case *syntax.ExprStmt:
		fr.Line = s.Line
		v := in.eval(fr, s.Value)
		_ = v
	case *syntax.Assign:
		fr.Line = s.Line
		v := in.eval(fr, s.Value)
		for _, t := range s.Targets {
			in.assign(fr, t, v)
		}
	case *syntax.AugAssign:
		fr.Line = s.Line
		in.augAssign(fr, s)
	case *syntax.AnnAssign:
		fr.Line = s.Line
		if s.Value != nil {
			in.assign(fr, s.Target, in.eval(fr, s.Value))
		}
		if n, ok := s.Target.(*syntax.NameExpr); ok && (fr.Kind == 'c' || fr.Kind == 'm') {
			ann := in.annotations(fr)
			in.dictSet(ann, n.Id, in.annotationValue(fr, s.Ann))
		}
	case *syntax.If:
		fr.Line = s.Line
		if in.truthy(in.eval(fr, s.Test)) {
			return in.execBlock(fr, s.Body)
		}
		return in.execBlock(fr, s.Else)
	case *syntax.While:
		for {
			fr.Line = s.Line
			if !in.truthy(in.eval(fr, s.Test)) {
				return in.execBlock(fr, s.Else)
			}
			switch in.execBlock(fr, s.Body) {
			case cBreak:
				return cNone
			case cReturn:
				return cReturn
			}
		}
	case *syntax.For:
		fr.Line = s.Line
		it := in.iter(in.eval(fr, s.Iter))
		for {
			v, ok := in.next(it)
			if !ok {
				break
			}
			fr.Line = s.Line
			in.assign(fr, s.Target, v)
			switch in.execBlock(fr, s.Body) {
			case cBreak:
				return cNone
			case cReturn:
				return cReturn
			}
		}
		return in.execBlock(fr, s.Else)
	case *syntax.Return:
		fr.Line = s.Line
		if s.Value != nil {
			fr.retVal = in.eval(fr, s.Value)
		} else {
			fr.retVal = None
		}
		return cReturn
	case *syntax.Pass:
	case *syntax.Break:
		return cBreak
	case *syntax.Continue:
		return cContinue
	case *syntax.FuncDef:
		fr.Line = s.Line
		fn := in.makeFunction(fr, s)
		var v Value = fn
		for i := len(s.Decorators) - 1; i >= 0; i-- {
			v = in.call(in.eval(fr, s.Decorators[i]), []Value{v}, nil)
		}
		in.storeName(fr, s.Name, v)
	case *syntax.ClassDef:
		fr.Line = s.Line
		v := Value(in.makeClass(fr, s))
		for i := len(s.Decorators) - 1; i >= 0; i-- {
			v = in.call(in.eval(fr, s.Decorators[i]), []Value{v}, nil)
		}
		in.storeName(fr, s.Name, v)
	case *syntax.Try:
		return in.execTry(fr, s)
	case *syntax.Raise:
		fr.Line = s.Line
		in.execRaise(fr, s)
	case *syntax.With:
		fr.Line = s.Line
		return in.execWith(fr, s.Items, s.Body)
	case *syntax.Assert:
		fr.Line = s.Line
		in.execAssert(fr, s)
	case *syntax.Import:
		fr.Line = s.Line
		for _, a := range s.Names {
			m := in.importModule(a.Name, fr)
			if a.As != "" {
				in.storeName(fr, a.As, in.resolveSub(m, a.Name))
			} else {
				top := a.Name
				if i := strings.IndexByte(top, '.'); i >= 0 {
					top = top[:i]
				}
				in.storeName(fr, top, in.modules[top])
			}
		}
	case *syntax.ImportFrom:
		fr.Line = s.Line
		in.execImportFrom(fr, s)
	case *syntax.Global, *syntax.Nonlocal:
	case *syntax.Delete:
		fr.Line = s.Line
		for _, t := range s.Targets {
			in.del(fr, t)
		}
	default:
		in.Raise("SyntaxError", "unsupported statement")
	}
	return cNone
}

func (in *Interp) annotations(fr *Frame) *Dict {
	var ns func(string) (Value, bool)
	var set func(string, Value)
	if fr.Kind == 'c' {
		ns, set = fr.ClsNS.GetStr, fr.ClsNS.SetStr
	} else {
		ns, set = fr.Globals.Dict.GetStr, fr.Globals.Dict.SetStr
	}
	if v, ok := ns("__annotations__"); ok {
		if d, ok := v.(*Dict); ok {
			return d
		}
	}
	d := NewDict()
	set("__annotations__", d)
	return d
}

// annotationValue evaluates an annotation when it is simple and keeps its
// source form otherwise (typing constructs may be missing).
func (in *Interp) annotationValue(fr *Frame, e syntax.Expr) (v Value) {
	if err := in.catch(func() { v = in.eval(fr, e) }); err != nil {
		return "annotation"
	}
	return v
}

func (in *Interp) execRaise(fr *Frame, s *syntax.Raise) {
	if s.Exc == nil {
		if len(in.excStack) == 0 {
			in.Raise("RuntimeError", "No active exception to reraise")
		}
		panic(&PyError{Exc: in.excStack[len(in.excStack)-1]})
	}
	exc := in.toException(in.eval(fr, s.Exc))
	if s.Cause != nil {
		c := in.eval(fr, s.Cause)
		if c == None {
			exc.Exc.Suppress = true
		} else {
			exc.Exc.Cause = in.toException(c)
		}
	}
	in.raiseExc(exc)
}

// toException turns a raised value (class or instance) into an instance.
func (in *Interp) toException(v Value) *Instance {
	switch x := v.(type) {
	case *Class:
		if !isSubclass(x, in.builtinClass("BaseException")) {
			in.Raise("TypeError", "exceptions must derive from BaseException")
		}
		inst := in.call(x, nil, nil)
		if i, ok := inst.(*Instance); ok && i.Exc != nil {
			return i
		}
	case *Instance:
		if x.Exc != nil {
			return x
		}
	}
	in.Raise("TypeError", "exceptions must derive from BaseException")
	return nil
}

func (in *Interp) execTry(fr *Frame, s *syntax.Try) (result ctrl) {
	if s.Finally != nil {
		nframes, depth := len(in.frames), in.depth
		defer func() {
			r := recover()
			if r != nil {
				in.frames = in.frames[:nframes]
				in.depth = depth
			}
			if _, isStop := r.(stop); isStop {
				panic(r)
			}
			if _, isExit := r.(exitError); isExit {
				panic(r)
			}
			savedRet := fr.retVal
			if pe, ok := r.(*PyError); ok {
				in.excStack = append(in.excStack, pe.Exc)
			}
			c := in.execBlock(fr, s.Finally)
			if _, ok := r.(*PyError); ok {
				in.excStack = in.excStack[:len(in.excStack)-1]
			}
			if c != cNone {
				// break/continue/return in finally swallow the exception
				result = c
				return
			}
			fr.retVal = savedRet
			if r != nil {
				panic(r)
			}
		}()
	}
	var c ctrl
	exc := in.catch(func() { c = in.execBlock(fr, s.Body) })
	if exc == nil {
		if c != cNone {
			return c
		}
		return in.execBlock(fr, s.Else)
	}
	for _, h := range s.Handlers {
		fr.Line = h.Line
		if h.Type != nil && !in.excMatches(exc.Exc, in.eval(fr, h.Type)) {
			continue
		}
		if h.Name != "" {
			in.storeName(fr, h.Name, exc.Exc)
		}
		in.excStack = append(in.excStack, exc.Exc)
		n := len(in.excStack)
		var hc ctrl
		func() {
			defer func() {
				in.excStack = in.excStack[:n-1]
			}()
			hc = in.execBlock(fr, h.Body)
		}()
		if h.Name != "" {
			in.delNameQuiet(fr, h.Name)
		}
		return hc
	}
	panic(exc)
}

func (in *Interp) execWith(fr *Frame, items []syntax.WithItem, body []syntax.Stmt) ctrl {
	if len(items) == 0 {
		return in.execBlock(fr, body)
	}
	it := items[0]
	mgr := in.eval(fr, it.Ctx)
	exit := in.getAttr(mgr, "__exit__")
	v := in.call(in.getAttr(mgr, "__enter__"), nil, nil)
	if it.Vars != nil {
		in.assign(fr, it.Vars, v)
	}
	var c ctrl
	exc := in.catch(func() { c = in.execWith(fr, items[1:], body) })
	if exc != nil {
		in.excStack = append(in.excStack, exc.Exc)
		r := in.call(exit, []Value{exc.Exc.Cls, exc.Exc, None}, nil)
		in.excStack = in.excStack[:len(in.excStack)-1]
		if in.truthy(r) {
			return cNone
		}
		panic(exc)
	}
	in.call(exit, []Value{None, None, None}, nil)
	return c
}

func (in *Interp) execAssert(fr *Frame, s *syntax.Assert) {
	if in.pytest {
		in.pytestAssert(fr, s)
		return
	}
	if !in.truthy(in.eval(fr, s.Test)) {
		if s.Msg != nil {
			in.raiseExc(in.newExc(in.builtinClass("AssertionError"), Tuple{in.eval(fr, s.Msg)}))
		}
		in.raiseExc(in.newExc(in.builtinClass("AssertionError"), nil))
	}
}

// ---- names ----

func (in *Interp) lookupName(fr *Frame, name string) Value {
	switch fr.Kind {
	case 'm':
		if v, ok := fr.Globals.Dict.GetStr(name); ok {
			return v
		}
	case 'c':
		if v, ok := fr.ClsNS.GetStr(name); ok {
			return v
		}
		return in.lookupOuter(fr, name)
	default:
		if fr.Scope.Locals[name] {
			if v, ok := fr.Locals[name]; ok {
				return v
			}
			if fr.Kind == 'k' {
				break
			}
			in.Raise("UnboundLocalError", "cannot access local variable '%s' where it is not associated with a value", name)
		}
		if !fr.Scope.Globals[name] {
			return in.lookupOuter(fr, name)
		}
		if v, ok := fr.Globals.Dict.GetStr(name); ok {
			return v
		}
	}
	if v, ok := in.builtins.GetStr(name); ok {
		return v
	}
	in.Raise("NameError", "name '%s' is not defined", name)
	return nil
}

func (in *Interp) lookupOuter(fr *Frame, name string) Value {
	for o := fr.Outer; o != nil; o = o.Outer {
		if (o.Kind == 'f' || o.Kind == 'k') && o.Scope.Locals[name] {
			if v, ok := o.Locals[name]; ok {
				return v
			}
			if o.Kind == 'f' {
				in.Raise("NameError", "cannot access free variable '%s' where it is not associated with a value in enclosing scope", name)
			}
		}
	}
	if v, ok := fr.Globals.Dict.GetStr(name); ok {
		return v
	}
	if v, ok := in.builtins.GetStr(name); ok {
		return v
	}
	in.Raise("NameError", "name '%s' is not defined", name)
	return nil
}

func (in *Interp) storeName(fr *Frame, name string, v Value) {
	switch fr.Kind {
	case 'm':
		fr.Globals.Dict.SetStr(name, v)
	case 'c':
		fr.ClsNS.SetStr(name, v)
	default:
		if fr.Scope.Locals[name] {
			fr.Locals[name] = v
			return
		}
		if fr.Scope.Globals[name] {
			fr.Globals.Dict.SetStr(name, v)
			return
		}
		if fr.Scope.Nonlocal[name] {
			for o := fr.Outer; o != nil; o = o.Outer {
				if o.Kind == 'f' && o.Scope.Locals[name] {
					o.Locals[name] = v
					return
				}
			}
		}
		if fr.Kind == 'k' && fr.parent != nil {
			// walrus inside a comprehension binds in the enclosing scope
			in.storeName(fr.parent, name, v)
			return
		}
		fr.Locals[name] = v
	}
}

func (in *Interp) delNameQuiet(fr *Frame, name string) {
	switch fr.Kind {
	case 'm':
		fr.Globals.Dict.DelStr(name)
	case 'c':
		fr.ClsNS.DelStr(name)
	default:
		delete(fr.Locals, name)
	}
}

func (in *Interp) del(fr *Frame, t syntax.Expr) {
	switch t := t.(type) {
	case *syntax.NameExpr:
		ok := true
		switch fr.Kind {
		case 'm':
			ok = fr.Globals.Dict.DelStr(t.Id)
		case 'c':
			ok = fr.ClsNS.DelStr(t.Id)
		default:
			if fr.Scope.Globals[t.Id] {
				ok = fr.Globals.Dict.DelStr(t.Id)
			} else {
				_, ok = fr.Locals[t.Id]
				delete(fr.Locals, t.Id)
			}
		}
		if !ok {
			in.Raise("NameError", "name '%s' is not defined", t.Id)
		}
	case *syntax.Subscript:
		in.delItem(in.eval(fr, t.Value), in.evalIndex(fr, t.Index))
	case *syntax.Attribute:
		in.delAttr(in.eval(fr, t.Value), t.Attr)
	case *syntax.TupleExpr:
		for _, e := range t.Elts {
			in.del(fr, e)
		}
	case *syntax.ListExpr:
		for _, e := range t.Elts {
			in.del(fr, e)
		}
	default:
		in.Raise("SyntaxError", "cannot delete expression")
	}
}

// ---- assignment ----

func (in *Interp) assign(fr *Frame, t syntax.Expr, v Value) {
	switch t := t.(type) {
	case *syntax.NameExpr:
		in.storeName(fr, t.Id, v)
	case *syntax.Attribute:
		in.setAttr(in.eval(fr, t.Value), t.Attr, v)
	case *syntax.Subscript:
		obj := in.eval(fr, t.Value)
		in.setItem(obj, in.evalIndex(fr, t.Index), v)
	case *syntax.TupleExpr:
		in.unpack(fr, t.Elts, v)
	case *syntax.ListExpr:
		in.unpack(fr, t.Elts, v)
	case *syntax.Starred:
		in.Raise("SyntaxError", "starred assignment target must be in a list or tuple")
	default:
		in.Raise("SyntaxError", "cannot assign to expression")
	}
}

func (in *Interp) unpack(fr *Frame, targets []syntax.Expr, v Value) {
	star := -1
	for i, t := range targets {
		if _, ok := t.(*syntax.Starred); ok {
			star = i
		}
	}
	items := in.iterToSliceLimit(v, len(targets), star >= 0)
	if star < 0 {
		if len(items) != len(targets) {
			if len(items) > len(targets) {
				in.Raise("ValueError", "too many values to unpack (expected %d)", len(targets))
			}
			in.Raise("ValueError", "not enough values to unpack (expected %d, got %d)", len(targets), len(items))
		}
		for i, t := range targets {
			in.assign(fr, t, items[i])
		}
		return
	}
	after := len(targets) - star - 1
	if len(items) < len(targets)-1 {
		in.Raise("ValueError", "not enough values to unpack (expected at least %d, got %d)", len(targets)-1, len(items))
	}
	for i := 0; i < star; i++ {
		in.assign(fr, targets[i], items[i])
	}
	mid := append([]Value(nil), items[star:len(items)-after]...)
	in.assign(fr, targets[star].(*syntax.Starred).Value, &List{V: mid})
	for i := 0; i < after; i++ {
		in.assign(fr, targets[star+1+i], items[len(items)-after+i])
	}
}

// iterToSliceLimit collects an iterable for unpacking; without a star it
// stops one past n so an infinite iterator still fails cleanly.
func (in *Interp) iterToSliceLimit(v Value, n int, star bool) []Value {
	switch x := v.(type) {
	case Tuple:
		return x
	case *List:
		return x.V
	}
	it := in.iter(v)
	var out []Value
	for {
		if !star && len(out) > n {
			return out
		}
		e, ok := in.next(it)
		if !ok {
			return out
		}
		out = append(out, e)
	}
}

func (in *Interp) augAssign(fr *Frame, s *syntax.AugAssign) {
	switch t := s.Target.(type) {
	case *syntax.NameExpr:
		cur := in.lookupName(fr, t.Id)
		in.storeName(fr, t.Id, in.inplace(s.Op, cur, in.eval(fr, s.Value)))
	case *syntax.Attribute:
		obj := in.eval(fr, t.Value)
		cur := in.getAttr(obj, t.Attr)
		in.setAttr(obj, t.Attr, in.inplace(s.Op, cur, in.eval(fr, s.Value)))
	case *syntax.Subscript:
		obj := in.eval(fr, t.Value)
		idx := in.evalIndex(fr, t.Index)
		cur := in.getItem(obj, idx)
		in.setItem(obj, idx, in.inplace(s.Op, cur, in.eval(fr, s.Value)))
	}
}

// ---- expressions ----

func (in *Interp) evalIndex(fr *Frame, e syntax.Expr) Value {
	if s, ok := e.(*syntax.Slice); ok {
		sl := &Slice{Start: None, Stop: None, Step: None}
		if s.Lower != nil {
			sl.Start = in.eval(fr, s.Lower)
		}
		if s.Upper != nil {
			sl.Stop = in.eval(fr, s.Upper)
		}
		if s.St != nil {
			sl.Step = in.eval(fr, s.St)
		}
		return sl
	}
	if t, ok := e.(*syntax.TupleExpr); ok {
		out := make(Tuple, len(t.Elts))
		for i, x := range t.Elts {
			out[i] = in.evalIndex(fr, x)
		}
		return out
	}
	return in.eval(fr, e)
}

func (in *Interp) eval(fr *Frame, e syntax.Expr) Value {
	in.step()
	switch e := e.(type) {
	case *syntax.NameExpr:
		return in.lookupName(fr, e.Id)
	case *syntax.Const:
		return in.constValue(e)
	case *syntax.BinOp:
		l := in.eval(fr, e.Left)
		r := in.eval(fr, e.Right)
		return in.binop(e.Op, l, r)
	case *syntax.Compare:
		left := in.eval(fr, e.Left)
		for i, op := range e.Ops {
			right := in.eval(fr, e.Comps[i])
			r := in.compare(op, left, right)
			if i == len(e.Ops)-1 {
				return r
			}
			if !in.truthy(r) {
				return r
			}
			left = right
		}
		return true
	case *syntax.BoolOp:
		var v Value
		for _, x := range e.Values {
			v = in.eval(fr, x)
			t := in.truthy(v)
			if e.Op == "and" && !t || e.Op == "or" && t {
				return v
			}
		}
		return v
	case *syntax.UnaryOp:
		v := in.eval(fr, e.Operand)
		return in.unary(e.Op, v)
	case *syntax.Call:
		return in.evalCall(fr, e)
	case *syntax.Attribute:
		return in.getAttr(in.eval(fr, e.Value), e.Attr)
	case *syntax.Subscript:
		obj := in.eval(fr, e.Value)
		return in.getItem(obj, in.evalIndex(fr, e.Index))
	case *syntax.IfExp:
		if in.truthy(in.eval(fr, e.Test)) {
			return in.eval(fr, e.Body)
		}
		return in.eval(fr, e.Else)
	case *syntax.ListExpr:
		l := &List{V: in.evalElts(fr, e.Elts)}
		return l
	case *syntax.TupleExpr:
		return Tuple(in.evalElts(fr, e.Elts))
	case *syntax.SetExpr:
		s := newSet()
		for _, v := range in.evalElts(fr, e.Elts) {
			in.dictSet(s.D, v, None)
		}
		return s
	case *syntax.DictExpr:
		d := NewDict()
		for i, k := range e.Keys {
			if k == nil {
				in.dictUpdate(d, in.eval(fr, e.Values[i]))
				continue
			}
			kv := in.eval(fr, k)
			in.dictSet(d, kv, in.eval(fr, e.Values[i]))
		}
		return d
	case *syntax.FString:
		var b strings.Builder
		for _, p := range e.Parts {
			switch p := p.(type) {
			case *syntax.Const:
				b.WriteString(p.Val)
			case *syntax.FormattedValue:
				b.WriteString(in.formatValue(fr, p))
			}
		}
		return b.String()
	case *syntax.Lambda:
		return in.makeFunction(fr, e.Fn)
	case *syntax.Comp:
		return in.evalComp(fr, e)
	case *syntax.NamedExpr:
		v := in.eval(fr, e.Value)
		in.storeName(fr, e.Target, v)
		return v
	case *syntax.Yield:
		return in.evalYield(fr, e)
	case *syntax.Starred:
		in.Raise("SyntaxError", "can't use starred expression here")
	case *syntax.Slice:
		return in.evalIndex(fr, e)
	}
	in.Raise("SyntaxError", "unsupported expression")
	return nil
}

func (in *Interp) formatValue(fr *Frame, p *syntax.FormattedValue) string {
	v := in.eval(fr, p.Value)
	switch p.Conversion {
	case 'r':
		v = in.repr(v)
	case 's':
		v = in.str(v)
	case 'a':
		v = asciiRepr(in.repr(v))
	}
	spec := ""
	if p.Spec != nil {
		spec = in.eval(fr, p.Spec).(string)
	}
	return in.format(v, spec)
}

func (in *Interp) constValue(c *syntax.Const) Value {
	if c.Lit != nil {
		return c.Lit
	}
	v := in.constValue1(c)
	switch c.Kind {
	case 'i', 'f', 's', 'b':
		c.Lit = v
	}
	return v
}

func (in *Interp) constValue1(c *syntax.Const) Value {
	switch c.Kind {
	case 'N':
		return None
	case 'T':
		return true
	case 'F':
		return false
	case 'E':
		return Ellipsis
	case 's':
		return c.Val
	case 'b':
		return Bytes(c.Val)
	case 'f':
		f, err := strconv.ParseFloat(c.Val, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return f
			}
			in.Raise("SyntaxError", "invalid float literal")
		}
		return f
	case 'i':
		s := c.Val
		base := 10
		if len(s) > 1 && s[0] == '0' {
			switch s[1] {
			case 'x', 'X':
				base, s = 16, s[2:]
			case 'o', 'O':
				base, s = 8, s[2:]
			case 'b', 'B':
				base, s = 2, s[2:]
			}
		}
		if n, err := strconv.ParseInt(s, base, 64); err == nil {
			return n
		}
		b, ok := new(big.Int).SetString(s, base)
		if !ok {
			in.Raise("SyntaxError", "invalid decimal literal")
		}
		return b
	}
	return None
}

func (in *Interp) evalElts(fr *Frame, elts []syntax.Expr) []Value {
	out := make([]Value, 0, len(elts))
	for _, x := range elts {
		if s, ok := x.(*syntax.Starred); ok {
			it := in.iter(in.eval(fr, s.Value))
			for {
				v, ok := in.next(it)
				if !ok {
					break
				}
				out = append(out, v)
			}
			continue
		}
		out = append(out, in.eval(fr, x))
	}
	return out
}

func (in *Interp) evalCall(fr *Frame, e *syntax.Call) Value {
	fn := in.eval(fr, e.Func)
	// super() with no arguments needs the calling frame
	if n, ok := e.Func.(*syntax.NameExpr); ok && n.Id == "super" && len(e.Args) == 0 {
		if c, isC := fn.(*Class); isC && c.Builtin == "super" {
			return in.zeroArgSuper(fr)
		}
	}
	var args []Value
	if len(e.Args) > 0 {
		args = in.evalElts(fr, e.Args)
	}
	var kw []KW
	for _, k := range e.Kw {
		v := in.eval(fr, k.Value)
		if k.Name != "" {
			kw = append(kw, KW{k.Name, v})
			continue
		}
		for _, kv := range in.mappingItems(v) {
			ks, ok := kv[0].(string)
			if !ok {
				in.Raise("TypeError", "keywords must be strings")
			}
			kw = append(kw, KW{ks, kv[1]})
		}
	}
	fr.Line = e.Line
	return in.call(fn, args, kw)
}

func (in *Interp) mappingItems(v Value) [][2]Value {
	if d, ok := in.asDict(v); ok {
		return d.Items()
	}
	keys := in.iterToSlice(in.call(in.getAttr(v, "keys"), nil, nil))
	out := make([][2]Value, len(keys))
	for i, k := range keys {
		out[i] = [2]Value{k, in.getItem(v, k)}
	}
	return out
}

func (in *Interp) zeroArgSuper(fr *Frame) Value {
	if fr.Kind != 'f' || fr.Fn == nil || len(fr.Fn.Def.Params) == 0 {
		in.Raise("RuntimeError", "super(): no arguments")
	}
	cls, ok := fr.Fn.Dict.GetStr("__class__")
	if !ok {
		in.Raise("RuntimeError", "super(): __class__ cell not found")
	}
	self := fr.Locals[fr.Fn.Def.Params[0].Name]
	return &Super{Cls: cls.(*Class), Self: self}
}

// ---- functions ----

func (in *Interp) makeFunction(fr *Frame, d *syntax.FuncDef) *Function {
	f := &Function{Def: d, Name: d.Name, Outer: fr, Globals: fr.Globals, Dict: NewDict()}
	f.Qualname = d.Name
	if fr.Kind == 'c' {
		if q, ok := fr.ClsNS.GetStr("__qualname__"); ok {
			f.Qualname = q.(string) + "." + d.Name
		}
	} else if fr.Kind == 'f' && fr.Fn != nil {
		f.Qualname = fr.Fn.Qualname + ".<locals>." + d.Name
	}
	if m, ok := fr.Globals.Dict.GetStr("__name__"); ok {
		f.Module, _ = m.(string)
	}
	for _, p := range d.Params {
		if p.Default != nil {
			if f.Defaults == nil {
				f.Defaults = map[string]Value{}
			}
			f.Defaults[p.Name] = in.eval(fr, p.Default)
		}
	}
	// a function body sees enclosing function scopes, never a class body
	for f.Outer != nil && f.Outer.Kind == 'c' {
		f.Outer = f.Outer.Outer
	}
	if f.Outer != nil && f.Outer.Kind == 'm' {
		f.Outer = nil
	}
	return f
}

// bindArgs maps call arguments onto a new frame's locals.
func (in *Interp) bindArgs(f *Function, args []Value, kw []KW) map[string]Value {
	d := f.Def
	locals := make(map[string]Value, len(d.Params)+4)
	var varargs, varkw string
	npos := 0
	for _, p := range d.Params {
		switch p.Kind {
		case '*':
			varargs = p.Name
		case '~':
			varkw = p.Name
		case 'p', 'o':
			npos++
		}
	}
	i := 0
	for _, p := range d.Params {
		if (p.Kind == 'p' || p.Kind == 'o') && i < len(args) {
			locals[p.Name] = args[i]
			i++
		}
	}
	if i < len(args) {
		if varargs == "" {
			given := len(args)
			in.Raise("TypeError", "%s() takes %d positional argument%s but %d %s given", f.Name, npos, plural(npos), given, wasWere(given))
		}
		locals[varargs] = Tuple(append([]Value(nil), args[i:]...))
	} else if varargs != "" {
		locals[varargs] = Tuple{}
	}
	var extra *Dict
	if varkw != "" {
		extra = NewDict()
		locals[varkw] = extra
	}
	for _, k := range kw {
		found := false
		for _, p := range d.Params {
			if p.Name == k.Name && (p.Kind == 'p' || p.Kind == 'k') {
				if _, dup := locals[p.Name]; dup {
					in.Raise("TypeError", "%s() got multiple values for argument '%s'", f.Name, k.Name)
				}
				locals[p.Name] = k.V
				found = true
				break
			}
		}
		if !found {
			if extra == nil {
				for _, p := range d.Params {
					if p.Name == k.Name && p.Kind == 'o' {
						in.Raise("TypeError", "%s() got some positional-only arguments passed as keyword arguments: '%s'", f.Name, k.Name)
					}
				}
				in.Raise("TypeError", "%s() got an unexpected keyword argument '%s'", f.Name, k.Name)
			}
			extra.SetStr(k.Name, k.V)
		}
	}
	var missing []string
	for _, p := range d.Params {
		if p.Kind == '*' || p.Kind == '~' {
			continue
		}
		if _, ok := locals[p.Name]; !ok {
			if dv, ok := f.Defaults[p.Name]; ok {
				locals[p.Name] = dv
			} else {
				missing = append(missing, p.Name)
			}
		}
	}
	if len(missing) > 0 {
		kind := "positional"
		for _, p := range d.Params {
			if p.Name == missing[0] && p.Kind == 'k' {
				kind = "keyword-only"
			}
		}
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = "'" + m + "'"
		}
		list := names[0]
		if len(names) == 2 {
			list = names[0] + " and " + names[1]
		} else if len(names) > 2 {
			list = strings.Join(names[:len(names)-1], ", ") + ", and " + names[len(names)-1]
		}
		in.Raise("TypeError", "%s() missing %d required %s argument%s: %s", f.Name, len(missing), kind, plural(len(missing)), list)
	}
	return locals
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func (in *Interp) callFunction(f *Function, args []Value, kw []KW) Value {
	locals := in.bindArgs(f, args, kw)
	fr := &Frame{Kind: 'f', Locals: locals, Scope: f.Def.Scope, Outer: f.Outer, Globals: f.Globals,
		Line: f.Def.Line, Name: f.Name, Fn: f}
	if f.Def.IsGen {
		return in.newGenerator(fr)
	}
	in.enterCall()
	in.pushFrame(fr)
	c := in.execBlock(fr, f.Def.Body)
	in.popFrame()
	in.depth--
	if c == cReturn {
		return fr.retVal
	}
	return None
}

func (in *Interp) enterCall() {
	in.depth++
	if in.depth > MaxDepth {
		in.depth -= 50 // room to handle the error
		exc := in.newExc(in.builtinClass("RecursionError"), Tuple{"maximum recursion depth exceeded"})
		exc.Exc.Traceback = in.traceback()
		in.depth += 50
		in.depth--
		panic(&PyError{Exc: exc})
	}
}
