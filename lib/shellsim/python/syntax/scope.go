package syntax

// analyzeModule computes the Scope of every function and class body: a
// name bound anywhere in a function body is local to it (unless declared
// global or nonlocal), as in CPython's symbol table.
func analyzeModule(body []Stmt) {
	for _, s := range body {
		visitStmt(s, nil)
	}
}

func newScope() *Scope {
	return &Scope{Locals: map[string]bool{}, Globals: map[string]bool{}, Nonlocal: map[string]bool{}}
}

func analyzeFunc(f *FuncDef) {
	sc := newScope()
	for _, p := range f.Params {
		sc.Locals[p.Name] = true
	}
	for _, s := range f.Body {
		visitStmt(s, sc)
	}
	for n := range sc.Globals {
		delete(sc.Locals, n)
	}
	for n := range sc.Nonlocal {
		delete(sc.Locals, n)
	}
	f.Scope = sc
}

func bindTarget(e Expr, sc *Scope) {
	if sc == nil {
		visitExpr(e, nil)
		return
	}
	switch t := e.(type) {
	case *NameExpr:
		sc.Locals[t.Id] = true
	case *TupleExpr:
		for _, x := range t.Elts {
			bindTarget(x, sc)
		}
	case *ListExpr:
		for _, x := range t.Elts {
			bindTarget(x, sc)
		}
	case *Starred:
		bindTarget(t.Value, sc)
	default:
		visitExpr(e, sc)
	}
}

func bind(name string, sc *Scope) {
	if sc != nil {
		sc.Locals[name] = true
	}
}

func visitBody(b []Stmt, sc *Scope) {
	for _, s := range b {
		visitStmt(s, sc)
	}
}

func visitStmt(s Stmt, sc *Scope) {
	switch s := s.(type) {
	case *ExprStmt:
		visitExpr(s.Value, sc)
	case *Assign:
		for _, t := range s.Targets {
			bindTarget(t, sc)
		}
		visitExpr(s.Value, sc)
	case *AugAssign:
		bindTarget(s.Target, sc)
		visitExpr(s.Value, sc)
	case *AnnAssign:
		if _, ok := s.Target.(*NameExpr); ok {
			bindTarget(s.Target, sc)
		} else {
			visitExpr(s.Target, sc)
		}
		if s.Value != nil {
			visitExpr(s.Value, sc)
		}
	case *Delete:
		for _, t := range s.Targets {
			bindTarget(t, sc)
		}
	case *Return:
		if s.Value != nil {
			visitExpr(s.Value, sc)
		}
	case *Raise:
		if s.Exc != nil {
			visitExpr(s.Exc, sc)
		}
		if s.Cause != nil {
			visitExpr(s.Cause, sc)
		}
	case *Global:
		if sc != nil {
			for _, n := range s.Names {
				sc.Globals[n] = true
			}
		}
	case *Nonlocal:
		if sc != nil {
			for _, n := range s.Names {
				sc.Nonlocal[n] = true
			}
		}
	case *Import:
		for _, a := range s.Names {
			if a.As != "" {
				bind(a.As, sc)
			} else {
				n := a.Name
				for i := 0; i < len(n); i++ {
					if n[i] == '.' {
						n = n[:i]
						break
					}
				}
				bind(n, sc)
			}
		}
	case *ImportFrom:
		for _, a := range s.Names {
			if a.As != "" {
				bind(a.As, sc)
			} else if a.Name != "*" {
				bind(a.Name, sc)
			}
		}
	case *If:
		visitExpr(s.Test, sc)
		visitBody(s.Body, sc)
		visitBody(s.Else, sc)
	case *While:
		visitExpr(s.Test, sc)
		visitBody(s.Body, sc)
		visitBody(s.Else, sc)
	case *For:
		bindTarget(s.Target, sc)
		visitExpr(s.Iter, sc)
		visitBody(s.Body, sc)
		visitBody(s.Else, sc)
	case *Try:
		visitBody(s.Body, sc)
		for _, h := range s.Handlers {
			if h.Type != nil {
				visitExpr(h.Type, sc)
			}
			if h.Name != "" {
				bind(h.Name, sc)
			}
			visitBody(h.Body, sc)
		}
		visitBody(s.Else, sc)
		visitBody(s.Finally, sc)
	case *With:
		for _, it := range s.Items {
			visitExpr(it.Ctx, sc)
			if it.Vars != nil {
				bindTarget(it.Vars, sc)
			}
		}
		visitBody(s.Body, sc)
	case *FuncDef:
		bind(s.Name, sc)
		for _, d := range s.Decorators {
			visitExpr(d, sc)
		}
		for _, p := range s.Params {
			if p.Default != nil {
				visitExpr(p.Default, sc)
			}
		}
		analyzeFunc(s)
	case *ClassDef:
		bind(s.Name, sc)
		for _, d := range s.Decorators {
			visitExpr(d, sc)
		}
		for _, b := range s.Bases {
			visitExpr(b, sc)
		}
		for _, k := range s.Kw {
			visitExpr(k.Value, sc)
		}
		csc := newScope()
		visitBody(s.Body, csc)
		s.Scope = csc
	case *Assert:
		visitExpr(s.Test, sc)
		if s.Msg != nil {
			visitExpr(s.Msg, sc)
		}
	}
}

// visitExpr finds lambdas (analysed as functions) and walrus targets (bound
// in the enclosing function).
func visitExpr(e Expr, sc *Scope) {
	switch e := e.(type) {
	case nil:
	case *Lambda:
		for _, p := range e.Fn.Params {
			if p.Default != nil {
				visitExpr(p.Default, sc)
			}
		}
		analyzeFunc(e.Fn)
	case *NamedExpr:
		bind(e.Target, sc)
		visitExpr(e.Value, sc)
	case *FString:
		for _, p := range e.Parts {
			visitExpr(p, sc)
		}
	case *FormattedValue:
		visitExpr(e.Value, sc)
		visitExpr(e.Spec, sc)
	case *Attribute:
		visitExpr(e.Value, sc)
	case *Subscript:
		visitExpr(e.Value, sc)
		visitExpr(e.Index, sc)
	case *Slice:
		visitExpr(e.Lower, sc)
		visitExpr(e.Upper, sc)
		visitExpr(e.St, sc)
	case *Call:
		visitExpr(e.Func, sc)
		for _, a := range e.Args {
			visitExpr(a, sc)
		}
		for _, k := range e.Kw {
			visitExpr(k.Value, sc)
		}
	case *BinOp:
		visitExpr(e.Left, sc)
		visitExpr(e.Right, sc)
	case *UnaryOp:
		visitExpr(e.Operand, sc)
	case *BoolOp:
		for _, v := range e.Values {
			visitExpr(v, sc)
		}
	case *Compare:
		visitExpr(e.Left, sc)
		for _, c := range e.Comps {
			visitExpr(c, sc)
		}
	case *IfExp:
		visitExpr(e.Test, sc)
		visitExpr(e.Body, sc)
		visitExpr(e.Else, sc)
	case *ListExpr:
		for _, x := range e.Elts {
			visitExpr(x, sc)
		}
	case *TupleExpr:
		for _, x := range e.Elts {
			visitExpr(x, sc)
		}
	case *SetExpr:
		for _, x := range e.Elts {
			visitExpr(x, sc)
		}
	case *DictExpr:
		for i := range e.Keys {
			visitExpr(e.Keys[i], sc)
			visitExpr(e.Values[i], sc)
		}
	case *Comp:
		// comprehension targets are local to the comprehension; walrus
		// targets inside bind in the enclosing function
		visitExpr(e.Elt, sc)
		visitExpr(e.Value, sc)
		for _, g := range e.Gens {
			visitExpr(g.Iter, sc)
			for _, i := range g.Ifs {
				visitExpr(i, sc)
			}
			visitCompTarget(g.Target, sc)
		}
	case *Starred:
		visitExpr(e.Value, sc)
	case *Yield:
		visitExpr(e.Value, sc)
	}
}

func visitCompTarget(e Expr, sc *Scope) {
	switch t := e.(type) {
	case *NameExpr:
	case *TupleExpr:
		for _, x := range t.Elts {
			visitCompTarget(x, sc)
		}
	default:
		visitExpr(e, sc)
	}
}
