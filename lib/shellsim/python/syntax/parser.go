package syntax

import (
	"fmt"
	"strings"
)

// MaxNest bounds expression and block nesting (CPython's parser stops at 200
// nested parentheses); the parser recurses once per level.
const MaxNest = 200

// Parse parses a module.
func Parse(src string) (mod *Module, err error) {
	toks, err := Lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, lines: strings.Split(src, "\n")}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				mod, err = nil, e
				return
			}
			panic(r)
		}
	}()
	var body []Stmt
	for p.peek().Kind != EOF {
		if p.peek().Kind == Newline {
			p.next()
			continue
		}
		body = append(body, p.statement()...)
	}
	analyzeModule(body)
	return &Module{Body: body, Lines: p.lines}, nil
}

// ParseExpr parses a single expression (for eval and f-string fields).
func ParseExpr(src string) (e Expr, err error) {
	toks, err := Lex("(" + src + "\n)")
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	defer func() {
		if r := recover(); r != nil {
			if pe, ok := r.(*Error); ok {
				e, err = nil, pe
				return
			}
			panic(r)
		}
	}()
	e = p.exprList()
	if p.peek().Kind == Newline {
		p.next()
	}
	if p.peek().Kind != EOF {
		p.fail("invalid syntax")
	}
	return e, nil
}

type parser struct {
	toks     []Token
	pos      int
	nest     int
	lines    []string
	fn       []*FuncDef // enclosing function definitions (for yield)
	decoLine int        // line of the current decorator list
}

func (p *parser) peek() Token { return p.toks[p.pos] }
func (p *parser) peekAt(n int) Token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() Token {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}
func (p *parser) line() int { return p.peek().Line }

func (p *parser) fail(format string, a ...any) {
	panic(&Error{Msg: fmt.Sprintf(format, a...), Line: p.line(), Kind: "SyntaxError"})
}

func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.Kind == Op && t.Val == op
}
func (p *parser) isKw(kw string) bool {
	t := p.peek()
	return t.Kind == Name && t.Val == kw
}
func (p *parser) accept(op string) bool {
	if p.isOp(op) {
		p.next()
		return true
	}
	return false
}
func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.next()
		return true
	}
	return false
}
func (p *parser) expect(op string) {
	if !p.accept(op) {
		t := p.peek()
		if t.Kind == Newline || t.Kind == EOF {
			if op == ":" {
				p.fail("expected ':'")
			}
			p.fail("invalid syntax")
		}
		p.fail("invalid syntax (expected '%s')", op)
	}
}
func (p *parser) expectKw(kw string) {
	if !p.acceptKw(kw) {
		p.fail("invalid syntax (expected '%s')", kw)
	}
}

var keywords = map[string]bool{"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true, "def": true, "del": true,
	"elif": true, "else": true, "except": true, "finally": true, "for": true, "from": true, "global": true,
	"if": true, "import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true,
	"or": true, "pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true}

func (p *parser) ident() string {
	t := p.peek()
	if t.Kind != Name || keywords[t.Val] {
		p.fail("invalid syntax")
	}
	p.next()
	return t.Val
}

func (p *parser) enter() {
	p.nest++
	if p.nest > MaxNest {
		p.fail("too many nested parentheses")
	}
}
func (p *parser) leave() { p.nest-- }

// ---- statements ----

func (p *parser) block() []Stmt {
	p.expect(":")
	p.enter()
	defer p.leave()
	if p.peek().Kind != Newline {
		// simple statements on the same line
		return p.simpleStmts()
	}
	p.next()
	if p.peek().Kind != Indent {
		panic(&Error{Msg: "expected an indented block", Line: p.line(), Kind: "IndentationError"})
	}
	p.next()
	var body []Stmt
	for p.peek().Kind != Dedent && p.peek().Kind != EOF {
		if p.peek().Kind == Newline {
			p.next()
			continue
		}
		body = append(body, p.statement()...)
	}
	p.next()
	return body
}

func (p *parser) statement() []Stmt {
	t := p.peek()
	if t.Kind == Indent {
		panic(&Error{Msg: "unexpected indent", Line: t.Line, Kind: "IndentationError"})
	}
	if t.Kind == Op && t.Val == "@" {
		return []Stmt{p.decorated()}
	}
	if t.Kind == Name {
		switch t.Val {
		case "if":
			return []Stmt{p.ifStmt()}
		case "while":
			p.next()
			w := &While{Line: t.Line, Test: p.namedTest()}
			w.Body = p.block()
			if p.acceptKw("else") {
				w.Else = p.block()
			}
			return []Stmt{w}
		case "for":
			return []Stmt{p.forStmt()}
		case "try":
			return []Stmt{p.tryStmt()}
		case "with":
			return []Stmt{p.withStmt()}
		case "def":
			return []Stmt{p.funcDef(nil)}
		case "class":
			return []Stmt{p.classDef(nil)}
		case "async":
			p.fail("async functions and statements are not supported")
		case "match":
			if n := p.peekAt(1); n.Kind == Name && !keywords[n.Val] || n.Kind == Number || n.Kind == String || (n.Kind == Op && (n.Val == "(" || n.Val == "[")) {
				// could still be an expression like match(x); only refuse a match statement
				if p.looksLikeMatch() {
					p.fail("the match statement is not supported")
				}
			}
		}
	}
	return p.simpleStmts()
}

func (p *parser) looksLikeMatch() bool {
	depth := 0
	for i := p.pos + 1; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.Kind == Newline || t.Kind == EOF {
			return false
		}
		if t.Kind == Op {
			switch t.Val {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case ":":
				if depth == 0 {
					return i+1 < len(p.toks) && p.toks[i+1].Kind == Newline
				}
			case "=":
				if depth == 0 {
					return false
				}
			}
		}
	}
	return false
}

func (p *parser) simpleStmts() []Stmt {
	var out []Stmt
	for {
		out = append(out, p.smallStmt())
		if !p.accept(";") {
			break
		}
		if p.peek().Kind == Newline {
			break
		}
	}
	if p.peek().Kind != Newline && p.peek().Kind != EOF {
		p.fail("invalid syntax")
	}
	p.next()
	return out
}

func (p *parser) smallStmt() Stmt {
	t := p.peek()
	line := t.Line
	if t.Kind == Name {
		switch t.Val {
		case "pass":
			p.next()
			return &Pass{line}
		case "break":
			p.next()
			return &Break{line}
		case "continue":
			p.next()
			return &Continue{line}
		case "return":
			p.next()
			r := &Return{Line: line}
			if !p.endOfStmt() {
				r.Value = p.starExprList()
			}
			return r
		case "raise":
			p.next()
			r := &Raise{Line: line}
			if !p.endOfStmt() {
				r.Exc = p.test()
				if p.acceptKw("from") {
					r.Cause = p.test()
				}
			}
			return r
		case "global", "nonlocal":
			p.next()
			names := []string{p.ident()}
			for p.accept(",") {
				names = append(names, p.ident())
			}
			if t.Val == "global" {
				return &Global{line, names}
			}
			return &Nonlocal{line, names}
		case "del":
			p.next()
			d := &Delete{Line: line}
			for {
				d.Targets = append(d.Targets, p.orExpr())
				if !p.accept(",") || p.endOfStmt() {
					break
				}
			}
			return d
		case "assert":
			p.next()
			startTok := p.pos
			a := &Assert{Line: line, Test: p.test()}
			a.Text = p.sourceBetween(startTok, p.pos)
			if p.accept(",") {
				a.Msg = p.test()
			}
			return a
		case "import":
			p.next()
			im := &Import{Line: line}
			for {
				name := p.dotted()
				as := ""
				if p.acceptKw("as") {
					as = p.ident()
				}
				im.Names = append(im.Names, Alias{name, as})
				if !p.accept(",") {
					break
				}
			}
			return im
		case "from":
			p.next()
			f := &ImportFrom{Line: line}
			for p.isOp(".") || p.isOp("...") {
				if p.next().Val == "..." {
					f.Level += 3
				} else {
					f.Level++
				}
			}
			if !p.isKw("import") {
				f.Module = p.dotted()
			}
			p.expectKw("import")
			if p.accept("*") {
				f.Names = []Alias{{"*", ""}}
				return f
			}
			paren := p.accept("(")
			for {
				if paren && p.isOp(")") {
					break
				}
				n := p.ident()
				as := ""
				if p.acceptKw("as") {
					as = p.ident()
				}
				f.Names = append(f.Names, Alias{n, as})
				if !p.accept(",") {
					break
				}
				if !paren && p.endOfStmt() {
					p.fail("trailing comma not allowed without surrounding parentheses")
				}
			}
			if paren {
				p.expect(")")
			}
			return f
		}
	}
	if p.isKw("yield") {
		return &ExprStmt{Line: line, Value: p.yieldExpr()}
	}
	// expression statement or assignment
	e := p.starExprList()
	if p.isOp(":") {
		p.next()
		ann := p.test()
		a := &AnnAssign{Line: line, Target: e, Ann: ann}
		if p.accept("=") {
			a.Value = p.assignRHS()
		}
		checkTarget(p, e)
		return a
	}
	if t := p.peek(); t.Kind == Op && len(t.Val) >= 2 && strings.HasSuffix(t.Val, "=") && t.Val != "==" && t.Val != "<=" && t.Val != ">=" && t.Val != "!=" {
		p.next()
		checkTarget(p, e)
		if _, ok := e.(*TupleExpr); ok {
			p.fail("'tuple' is an illegal expression for augmented assignment")
		}
		return &AugAssign{Line: line, Target: e, Op: strings.TrimSuffix(t.Val, "="), Value: p.assignRHS()}
	}
	if p.isOp("=") {
		targets := []Expr{e}
		var val Expr
		for p.accept("=") {
			val = p.assignRHS()
			targets = append(targets, val)
		}
		targets = targets[:len(targets)-1]
		for _, tg := range targets {
			checkTarget(p, tg)
		}
		return &Assign{Line: line, Targets: targets, Value: val}
	}
	return &ExprStmt{Line: line, Value: e}
}

func (p *parser) assignRHS() Expr {
	if p.isKw("yield") {
		return p.yieldExpr()
	}
	return p.starExprList()
}

func (p *parser) sourceBetween(a, b int) string {
	if p.lines == nil || a >= b {
		return ""
	}
	l := p.toks[a].Line
	if l-1 < len(p.lines) {
		return strings.TrimSpace(p.lines[l-1])
	}
	return ""
}

func checkTarget(p *parser, e Expr) {
	switch t := e.(type) {
	case *NameExpr, *Attribute, *Subscript:
	case *TupleExpr:
		for _, x := range t.Elts {
			checkTarget(p, x)
		}
	case *ListExpr:
		for _, x := range t.Elts {
			checkTarget(p, x)
		}
	case *Starred:
		checkTarget(p, t.Value)
	case *Call:
		p.fail("cannot assign to function call here. Maybe you meant '==' instead of '='?")
	case *Const:
		p.fail("cannot assign to literal here. Maybe you meant '==' instead of '='?")
	default:
		p.fail("cannot assign to expression here. Maybe you meant '==' instead of '='?")
	}
}

func (p *parser) endOfStmt() bool {
	t := p.peek()
	return t.Kind == Newline || t.Kind == EOF || (t.Kind == Op && t.Val == ";")
}

func (p *parser) dotted() string {
	n := p.ident()
	for p.accept(".") {
		n += "." + p.ident()
	}
	return n
}

func (p *parser) ifStmt() Stmt {
	line := p.next().Line
	s := &If{Line: line, Test: p.namedTest()}
	s.Body = p.block()
	if p.isKw("elif") {
		s.Else = []Stmt{p.ifStmt()}
	} else if p.acceptKw("else") {
		s.Else = p.block()
	}
	return s
}

func (p *parser) forStmt() Stmt {
	line := p.next().Line
	target := p.targetList()
	p.expectKw("in")
	f := &For{Line: line, Target: target, Iter: p.starExprList()}
	f.Body = p.block()
	if p.acceptKw("else") {
		f.Else = p.block()
	}
	return f
}

// targetList parses for-loop and comprehension targets (stops before "in").
func (p *parser) targetList() Expr {
	line := p.line()
	var elts []Expr
	trailing := false
	for {
		var e Expr
		if p.accept("*") {
			e = &Starred{Line: line, Value: p.orExpr()}
		} else {
			e = p.orExpr()
		}
		elts = append(elts, e)
		if !p.accept(",") {
			break
		}
		trailing = true
		if p.isKw("in") {
			break
		}
		trailing = false
	}
	var t Expr
	if len(elts) == 1 && !trailing {
		t = elts[0]
	} else {
		t = &TupleExpr{Line: line, Elts: elts}
	}
	checkTarget(p, t)
	return t
}

func (p *parser) tryStmt() Stmt {
	line := p.next().Line
	t := &Try{Line: line, Body: p.block()}
	for p.isKw("except") {
		hl := p.next().Line
		if p.isOp("*") {
			p.fail("except* is not supported")
		}
		h := Handler{Line: hl}
		if !p.isOp(":") {
			h.Type = p.test()
			if p.isOp(",") {
				// except A, B: (py2) is invalid in py3 without parens
				p.fail("multiple exception types must be parenthesized")
			}
			if p.acceptKw("as") {
				h.Name = p.ident()
			}
		}
		h.Body = p.block()
		t.Handlers = append(t.Handlers, h)
	}
	if p.acceptKw("else") {
		if len(t.Handlers) == 0 {
			p.fail("invalid syntax")
		}
		t.Else = p.block()
	}
	if p.acceptKw("finally") {
		t.Finally = p.block()
	}
	if len(t.Handlers) == 0 && t.Finally == nil {
		p.fail("expected 'except' or 'finally' block")
	}
	return t
}

func (p *parser) withStmt() Stmt {
	line := p.next().Line
	w := &With{Line: line}
	paren := false
	if p.isOp("(") && p.withParenthesized() {
		p.next()
		paren = true
	}
	for {
		if paren && p.isOp(")") {
			break
		}
		item := WithItem{Ctx: p.test()}
		if p.acceptKw("as") {
			item.Vars = p.orExprTarget()
		}
		w.Items = append(w.Items, item)
		if !p.accept(",") {
			break
		}
	}
	if paren {
		p.expect(")")
	}
	w.Body = p.block()
	return w
}

// withParenthesized reports whether "with (" opens a parenthesized list of
// items rather than a parenthesized expression.
func (p *parser) withParenthesized() bool {
	depth := 0
	for i := p.pos; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.Kind == Op {
			switch t.Val {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
				if depth == 0 {
					return i+1 < len(p.toks) && p.toks[i+1].Kind == Op && p.toks[i+1].Val == ":"
				}
			}
		}
		if t.Kind == Name && t.Val == "as" && depth == 1 {
			return true
		}
		if t.Kind == Newline || t.Kind == EOF {
			return false
		}
	}
	return false
}

func (p *parser) orExprTarget() Expr {
	var e Expr
	if p.isOp("(") || p.isOp("[") {
		e = p.atomExpr()
	} else {
		e = p.orExpr()
	}
	checkTarget(p, e)
	return e
}

func (p *parser) decorated() Stmt {
	var decs []Expr
	p.decoLine = p.line()
	defer func() { p.decoLine = 0 }()
	for p.accept("@") {
		decs = append(decs, p.namedTest())
		if p.peek().Kind != Newline {
			p.fail("invalid syntax")
		}
		p.next()
	}
	switch {
	case p.isKw("def"):
		return p.funcDef(decs)
	case p.isKw("class"):
		return p.classDef(decs)
	case p.isKw("async"):
		p.fail("async functions and statements are not supported")
	}
	p.fail("invalid syntax")
	return nil
}

func (p *parser) funcDef(decs []Expr) Stmt {
	line := p.next().Line
	f := &FuncDef{Line: line, Name: p.ident(), Decorators: decs, StartLine: line}
	if len(decs) > 0 && p.decoLine > 0 {
		f.StartLine = p.decoLine
	}
	p.decoLine = 0
	p.expect("(")
	f.Params = p.params(")")
	p.expect(")")
	if p.accept("->") {
		p.test()
	}
	p.fn = append(p.fn, f)
	f.Body = p.block()
	p.fn = p.fn[:len(p.fn)-1]
	f.EndLine = p.toks[max(p.pos-1, 0)].Line
	if len(f.Body) > 0 {
		if es, ok := f.Body[0].(*ExprStmt); ok {
			if c, ok := es.Value.(*Const); ok && c.Kind == 's' {
				f.Doc = c.Val
			}
		}
	}
	if p.lines != nil {
		end := f.EndLine
		for end > line && end-1 < len(p.lines) && strings.TrimSpace(p.lines[end-1]) == "" {
			end--
		}
		if end <= len(p.lines) {
			f.Src = p.lines[f.StartLine-1 : end]
		}
	}
	return f
}

func (p *parser) params(end string) []Param {
	var ps []Param
	kind := byte('p')
	seen := map[string]bool{}
	add := func(pr Param) {
		if seen[pr.Name] {
			p.fail("duplicate argument '%s' in function definition", pr.Name)
		}
		seen[pr.Name] = true
		ps = append(ps, pr)
	}
	sawDefault := false
	for !p.isOp(end) {
		switch {
		case p.accept("**"):
			add(Param{Name: p.ident(), Kind: '~'})
			if p.isOp(":") && end == ")" {
				p.next()
				p.test()
			}
		case p.accept("*"):
			if p.isOp(",") || p.isOp(end) {
				kind = 'k'
			} else {
				add(Param{Name: p.ident(), Kind: '*'})
				if p.isOp(":") && end == ")" {
					p.next()
					p.test()
				}
				kind = 'k'
			}
		case p.accept("/"):
			for i := range ps {
				ps[i].Kind = 'o'
			}
		default:
			pr := Param{Name: p.ident(), Kind: kind}
			if p.isOp(":") && end == ")" {
				p.next()
				p.test()
			}
			if p.accept("=") {
				pr.Default = p.test()
				sawDefault = true
			} else if sawDefault && kind == 'p' {
				p.fail("parameter without a default follows parameter with a default")
			}
			add(pr)
		}
		if !p.accept(",") {
			break
		}
	}
	return ps
}

func (p *parser) classDef(decs []Expr) Stmt {
	line := p.next().Line
	c := &ClassDef{Line: line, Name: p.ident(), Decorators: decs}
	if p.accept("(") {
		args, kws := p.callArgs()
		c.Bases, c.Kw = args, kws
		p.expect(")")
	}
	saved := p.fn
	p.fn = nil
	c.Body = p.block()
	p.fn = saved
	return c
}

// ---- expressions ----

func (p *parser) namedTest() Expr {
	if p.peek().Kind == Name && p.peekAt(1).Kind == Op && p.peekAt(1).Val == ":=" {
		line := p.line()
		name := p.ident()
		p.next()
		return &NamedExpr{Line: line, Target: name, Value: p.test()}
	}
	return p.test()
}

// exprList parses "test (, test)*" possibly producing a tuple.
func (p *parser) exprList() Expr {
	line := p.line()
	first := p.namedTest()
	if !p.isOp(",") {
		return first
	}
	elts := []Expr{first}
	for p.accept(",") {
		if p.endOfExprList() {
			break
		}
		elts = append(elts, p.namedTest())
	}
	return &TupleExpr{Line: line, Elts: elts}
}

func (p *parser) endOfExprList() bool {
	t := p.peek()
	if t.Kind == Newline || t.Kind == EOF {
		return true
	}
	if t.Kind == Op {
		switch t.Val {
		case ")", "]", "}", "=", ":", ";":
			return true
		}
		if strings.HasSuffix(t.Val, "=") && len(t.Val) >= 2 && t.Val != "==" && t.Val != "<=" && t.Val != ">=" && t.Val != "!=" {
			return true
		}
	}
	return false
}

// starExprList is exprList allowing *starred elements.
func (p *parser) starExprList() Expr {
	line := p.line()
	one := func() Expr {
		if p.isOp("*") {
			l := p.next().Line
			return &Starred{Line: l, Value: p.orExpr()}
		}
		return p.namedTest()
	}
	first := one()
	if !p.isOp(",") {
		if _, ok := first.(*Starred); ok {
			p.fail("can't use starred expression here")
		}
		return first
	}
	elts := []Expr{first}
	for p.accept(",") {
		if p.endOfExprList() {
			break
		}
		elts = append(elts, one())
	}
	return &TupleExpr{Line: line, Elts: elts}
}

func (p *parser) test() Expr {
	p.enter()
	defer p.leave()
	if p.isKw("lambda") {
		return p.lambda()
	}
	line := p.line()
	e := p.orTest()
	if p.isKw("if") {
		// conditional expression, unless this is a comprehension's if
		save := p.pos
		p.next()
		cond := p.orTest()
		if !p.isKw("else") {
			p.pos = save
			return e
		}
		p.next()
		return &IfExp{Line: line, Test: cond, Body: e, Else: p.test()}
	}
	return e
}

func (p *parser) testNoCond() Expr {
	if p.isKw("lambda") {
		return p.lambda()
	}
	return p.orTest()
}

func (p *parser) lambda() Expr {
	line := p.next().Line
	f := &FuncDef{Line: line, Name: "<lambda>", IsLambda: true}
	f.Params = p.params(":")
	p.expect(":")
	p.fn = append(p.fn, f)
	body := p.test()
	p.fn = p.fn[:len(p.fn)-1]
	f.Body = []Stmt{&Return{Line: line, Value: body}}
	return &Lambda{Line: line, Fn: f}
}

func (p *parser) orTest() Expr {
	line := p.line()
	e := p.andTest()
	if !p.isKw("or") {
		return e
	}
	vals := []Expr{e}
	for p.acceptKw("or") {
		vals = append(vals, p.andTest())
	}
	return &BoolOp{Line: line, Op: "or", Values: vals}
}

func (p *parser) andTest() Expr {
	line := p.line()
	e := p.notTest()
	if !p.isKw("and") {
		return e
	}
	vals := []Expr{e}
	for p.acceptKw("and") {
		vals = append(vals, p.notTest())
	}
	return &BoolOp{Line: line, Op: "and", Values: vals}
}

func (p *parser) notTest() Expr {
	if p.isKw("not") {
		line := p.next().Line
		p.enter()
		defer p.leave()
		return &UnaryOp{Line: line, Op: "not", Operand: p.notTest()}
	}
	return p.comparison()
}

func (p *parser) compOp() string {
	t := p.peek()
	if t.Kind == Op {
		switch t.Val {
		case "<", ">", "==", ">=", "<=", "!=":
			p.next()
			return t.Val
		}
	}
	if t.Kind == Name {
		switch t.Val {
		case "in":
			p.next()
			return "in"
		case "not":
			if n := p.peekAt(1); n.Kind == Name && n.Val == "in" {
				p.next()
				p.next()
				return "not in"
			}
		case "is":
			p.next()
			if p.acceptKw("not") {
				return "is not"
			}
			return "is"
		}
	}
	return ""
}

func (p *parser) comparison() Expr {
	line := p.line()
	e := p.orExpr()
	op := p.compOp()
	if op == "" {
		return e
	}
	c := &Compare{Line: line, Left: e}
	for op != "" {
		c.Ops = append(c.Ops, op)
		c.Comps = append(c.Comps, p.orExpr())
		op = p.compOp()
	}
	return c
}

var binPrec = map[string]int{"|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6, "@": 6}

func (p *parser) orExpr() Expr { return p.binary(1) }

func (p *parser) binary(min int) Expr {
	p.enter()
	defer p.leave()
	left := p.unary()
	for {
		t := p.peek()
		if t.Kind != Op {
			return left
		}
		prec, ok := binPrec[t.Val]
		if !ok || prec < min {
			return left
		}
		p.next()
		right := p.binary(prec + 1)
		left = &BinOp{Line: t.Line, Op: t.Val, Left: left, Right: right}
	}
}

func (p *parser) unary() Expr {
	t := p.peek()
	if t.Kind == Op && (t.Val == "-" || t.Val == "+" || t.Val == "~") {
		p.next()
		p.enter()
		defer p.leave()
		return &UnaryOp{Line: t.Line, Op: t.Val, Operand: p.unary()}
	}
	return p.power()
}

func (p *parser) power() Expr {
	var e Expr
	if p.isKw("await") {
		p.fail("'await' is not supported")
	}
	e = p.atomExpr()
	if p.isOp("**") {
		line := p.next().Line
		p.enter()
		defer p.leave()
		return &BinOp{Line: line, Op: "**", Left: e, Right: p.unary()}
	}
	return e
}

func (p *parser) atomExpr() Expr {
	e := p.atom()
	for {
		t := p.peek()
		if t.Kind != Op {
			return e
		}
		switch t.Val {
		case "(":
			p.next()
			p.enter()
			args, kws := p.callArgs()
			p.expect(")")
			p.leave()
			e = &Call{Line: t.Line, Func: e, Args: args, Kw: kws}
		case "[":
			p.next()
			p.enter()
			idx := p.subscriptList()
			p.expect("]")
			p.leave()
			e = &Subscript{Line: t.Line, Value: e, Index: idx}
		case ".":
			p.next()
			e = &Attribute{Line: t.Line, Value: e, Attr: p.ident()}
		default:
			return e
		}
	}
}

func (p *parser) subscriptList() Expr {
	line := p.line()
	first := p.subscript()
	if !p.isOp(",") {
		return first
	}
	elts := []Expr{first}
	for p.accept(",") {
		if p.isOp("]") {
			break
		}
		elts = append(elts, p.subscript())
	}
	return &TupleExpr{Line: line, Elts: elts}
}

func (p *parser) subscript() Expr {
	line := p.line()
	var lower Expr
	if !p.isOp(":") {
		if p.isOp("*") {
			l := p.next().Line
			return &Starred{Line: l, Value: p.orExpr()}
		}
		lower = p.namedTest()
		if !p.isOp(":") {
			return lower
		}
	}
	p.next()
	s := &Slice{Line: line, Lower: lower}
	if !p.isOp("]") && !p.isOp(",") && !p.isOp(":") {
		s.Upper = p.test()
	}
	if p.accept(":") {
		if !p.isOp("]") && !p.isOp(",") {
			s.St = p.test()
		}
	}
	return s
}

func (p *parser) callArgs() ([]Expr, []Keyword) {
	var args []Expr
	var kws []Keyword
	for !p.isOp(")") {
		switch {
		case p.isOp("*"):
			l := p.next().Line
			args = append(args, &Starred{Line: l, Value: p.test()})
		case p.isOp("**"):
			p.next()
			kws = append(kws, Keyword{Name: "", Value: p.test()})
		case p.peek().Kind == Name && p.peekAt(1).Kind == Op && p.peekAt(1).Val == "=":
			name := p.ident()
			p.next()
			kws = append(kws, Keyword{Name: name, Value: p.test()})
		default:
			line := p.line()
			e := p.namedTest()
			if p.isKw("for") {
				e = p.comprehension(line, 'g', e, nil)
			} else if len(kws) > 0 {
				p.fail("positional argument follows keyword argument")
			}
			args = append(args, e)
		}
		if !p.accept(",") {
			break
		}
	}
	return args, kws
}

func (p *parser) comprehension(line int, kind byte, elt, val Expr) Expr {
	c := &Comp{Line: line, Kind: kind, Elt: elt, Value: val}
	for p.isKw("for") || p.isKw("async") {
		if p.isKw("async") {
			p.fail("asynchronous comprehensions are not supported")
		}
		p.next()
		g := CompFor{Target: p.targetList()}
		p.expectKw("in")
		g.Iter = p.orTest()
		for p.isKw("if") {
			p.next()
			g.Ifs = append(g.Ifs, p.testNoCond())
		}
		c.Gens = append(c.Gens, g)
	}
	return c
}

func (p *parser) yieldExpr() Expr {
	line := p.next().Line
	if len(p.fn) == 0 {
		p.fail("'yield' outside function")
	}
	p.fn[len(p.fn)-1].IsGen = true
	y := &Yield{Line: line}
	if p.acceptKw("from") {
		y.From = true
		y.Value = p.test()
		return y
	}
	if !p.endOfExprList() && !p.isOp(")") {
		y.Value = p.starExprList()
	}
	return y
}

func (p *parser) atom() Expr {
	t := p.peek()
	switch t.Kind {
	case Name:
		switch t.Val {
		case "None":
			p.next()
			return &Const{Line: t.Line, Kind: 'N'}
		case "True":
			p.next()
			return &Const{Line: t.Line, Kind: 'T'}
		case "False":
			p.next()
			return &Const{Line: t.Line, Kind: 'F'}
		case "yield":
			p.fail("invalid syntax: yield must be parenthesized here")
		}
		return &NameExpr{Line: t.Line, Id: p.ident()}
	case Number:
		p.next()
		if strings.ContainsAny(t.Val, ".eE") && !strings.HasPrefix(t.Val, "0x") && !strings.HasPrefix(t.Val, "0X") {
			return &Const{Line: t.Line, Kind: 'f', Val: t.Val}
		}
		return &Const{Line: t.Line, Kind: 'i', Val: t.Val}
	case String:
		return p.strings()
	case Op:
		switch t.Val {
		case "(":
			p.next()
			p.enter()
			defer p.leave()
			if p.accept(")") {
				return &TupleExpr{Line: t.Line}
			}
			if p.isKw("yield") {
				y := p.yieldExpr()
				p.expect(")")
				return y
			}
			var first Expr
			if p.isOp("*") {
				l := p.next().Line
				first = &Starred{Line: l, Value: p.orExpr()}
			} else {
				first = p.namedTest()
			}
			if p.isKw("for") {
				c := p.comprehension(t.Line, 'g', first, nil)
				p.expect(")")
				return c
			}
			if p.accept(")") {
				if _, ok := first.(*Starred); ok {
					p.fail("cannot use starred expression here")
				}
				return first
			}
			elts := []Expr{first}
			for p.accept(",") {
				if p.isOp(")") {
					break
				}
				if p.isOp("*") {
					l := p.next().Line
					elts = append(elts, &Starred{Line: l, Value: p.orExpr()})
				} else {
					elts = append(elts, p.namedTest())
				}
			}
			p.expect(")")
			return &TupleExpr{Line: t.Line, Elts: elts}
		case "[":
			p.next()
			p.enter()
			defer p.leave()
			if p.accept("]") {
				return &ListExpr{Line: t.Line}
			}
			elts := p.listItems("]")
			if len(elts) == 1 && p.isKw("for") {
				c := p.comprehension(t.Line, 'l', elts[0], nil)
				p.expect("]")
				return c
			}
			p.expect("]")
			return &ListExpr{Line: t.Line, Elts: elts}
		case "{":
			p.next()
			p.enter()
			defer p.leave()
			if p.accept("}") {
				return &DictExpr{Line: t.Line}
			}
			if p.accept("**") {
				d := &DictExpr{Line: t.Line, Keys: []Expr{nil}, Values: []Expr{p.orExpr()}}
				return p.dictRest(d)
			}
			var first Expr
			if p.isOp("*") {
				l := p.next().Line
				first = &Starred{Line: l, Value: p.orExpr()}
			} else {
				first = p.namedTest()
			}
			if p.accept(":") {
				v := p.test()
				if p.isKw("for") {
					c := p.comprehension(t.Line, 'd', first, v)
					p.expect("}")
					return c
				}
				d := &DictExpr{Line: t.Line, Keys: []Expr{first}, Values: []Expr{v}}
				return p.dictRest(d)
			}
			if p.isKw("for") {
				c := p.comprehension(t.Line, 's', first, nil)
				p.expect("}")
				return c
			}
			elts := []Expr{first}
			for p.accept(",") {
				if p.isOp("}") {
					break
				}
				if p.isOp("*") {
					l := p.next().Line
					elts = append(elts, &Starred{Line: l, Value: p.orExpr()})
				} else {
					elts = append(elts, p.namedTest())
				}
			}
			p.expect("}")
			return &SetExpr{Line: t.Line, Elts: elts}
		case "...":
			p.next()
			return &Const{Line: t.Line, Kind: 'E'}
		}
	}
	if t.Kind == Newline || t.Kind == EOF {
		p.fail("invalid syntax")
	}
	if t.Kind == Indent || t.Kind == Dedent {
		p.fail("invalid syntax")
	}
	p.fail("invalid syntax")
	return nil
}

func (p *parser) listItems(end string) []Expr {
	var elts []Expr
	for !p.isOp(end) {
		if p.isOp("*") {
			l := p.next().Line
			elts = append(elts, &Starred{Line: l, Value: p.orExpr()})
		} else {
			elts = append(elts, p.namedTest())
		}
		if len(elts) == 1 && p.isKw("for") {
			return elts
		}
		if !p.accept(",") {
			break
		}
	}
	return elts
}

func (p *parser) dictRest(d *DictExpr) Expr {
	for p.accept(",") {
		if p.isOp("}") {
			break
		}
		if p.accept("**") {
			d.Keys = append(d.Keys, nil)
			d.Values = append(d.Values, p.orExpr())
			continue
		}
		k := p.test()
		p.expect(":")
		d.Keys = append(d.Keys, k)
		d.Values = append(d.Values, p.test())
	}
	p.expect("}")
	return d
}

// strings parses adjacent string literals (concatenated), including f-strings.
func (p *parser) strings() Expr {
	first := p.peek()
	var parts []Expr
	isBytes := strings.ContainsRune(first.Prefix, 'b')
	hasF := false
	var sb strings.Builder
	flush := func() {
		if sb.Len() > 0 {
			parts = append(parts, &Const{Line: first.Line, Kind: 's', Val: sb.String()})
			sb.Reset()
		}
	}
	for p.peek().Kind == String {
		t := p.next()
		if strings.ContainsRune(t.Prefix, 'b') != isBytes {
			p.fail("cannot mix bytes and nonbytes literals")
		}
		if strings.ContainsRune(t.Prefix, 'f') {
			hasF = true
			for _, part := range p.fstring(t) {
				if c, ok := part.(*Const); ok {
					sb.WriteString(c.Val)
				} else {
					flush()
					parts = append(parts, part)
				}
			}
			continue
		}
		sb.WriteString(t.Val)
	}
	if !hasF {
		k := byte('s')
		if isBytes {
			k = 'b'
		}
		return &Const{Line: first.Line, Kind: k, Val: sb.String()}
	}
	flush()
	return &FString{Line: first.Line, Parts: parts}
}

// fstring splits an f-string body into literal and formatted parts.
func (p *parser) fstring(t Token) []Expr {
	raw := strings.ContainsRune(t.Prefix, 'r')
	return p.fparts(t.Val, raw, t.Line, 0)
}

func (p *parser) fparts(s string, raw bool, line, depth int) []Expr {
	if depth > 2 {
		p.fail("f-string: expressions nested too deeply")
	}
	var parts []Expr
	var lit strings.Builder
	flushLit := func() {
		if lit.Len() == 0 {
			return
		}
		v := lit.String()
		if !raw {
			u, err := Unescape(v, false)
			if err != nil {
				p.fail("%s", err.Error())
			}
			v = u
		}
		parts = append(parts, &Const{Line: line, Kind: 's', Val: v})
		lit.Reset()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '{' {
			if i+1 < len(s) && s[i+1] == '{' {
				lit.WriteByte('{')
				i++
				continue
			}
			flushLit()
			// find the end of the expression: matching '}' at depth 0, or '!'/':' at depth 0
			j := i + 1
			d := 0
			var quote byte
			exprEnd := -1
			for ; j < len(s); j++ {
				ch := s[j]
				if quote != 0 {
					if ch == '\\' {
						j++
					} else if ch == quote {
						quote = 0
					}
					continue
				}
				switch ch {
				case '\'', '"':
					quote = ch
				case '(', '[', '{':
					d++
				case ')', ']':
					d--
				case '}':
					if d == 0 {
						goto done
					}
					d--
				case '!':
					if d == 0 && j+1 < len(s) && s[j+1] != '=' && exprEnd < 0 {
						exprEnd = j
					}
				case ':':
					if d == 0 && exprEnd < 0 {
						exprEnd = j
						// the format spec runs to the matching '}'
						dd := 0
						for j++; j < len(s); j++ {
							if s[j] == '{' {
								dd++
							} else if s[j] == '}' {
								if dd == 0 {
									goto done
								}
								dd--
							}
						}
						goto done
					}
				}
			}
		done:
			if j >= len(s) {
				p.fail("f-string: expecting '}'")
			}
			inner := s[i+1 : j]
			exprText := inner
			rest := ""
			if exprEnd >= 0 {
				exprText = s[i+1 : exprEnd]
				rest = s[exprEnd:j]
			}
			fv := &FormattedValue{Line: line}
			selfDoc := false
			trimmed := strings.TrimRight(exprText, " ")
			if strings.HasSuffix(trimmed, "=") && !strings.HasSuffix(trimmed, "==") && !strings.HasSuffix(trimmed, "!=") && !strings.HasSuffix(trimmed, "<=") && !strings.HasSuffix(trimmed, ">=") {
				selfDoc = true
				fv.Text = exprText
				exprText = strings.TrimSuffix(trimmed, "=")
			}
			if strings.TrimSpace(exprText) == "" {
				p.fail("f-string: valid expression required before '}'")
			}
			e, err := ParseExpr(exprText)
			if err != nil {
				p.fail("f-string: %s", err.(*Error).Msg)
			}
			fv.Value = e
			if strings.HasPrefix(rest, "!") {
				if len(rest) < 2 || strings.IndexByte("rsa", rest[1]) < 0 {
					p.fail("f-string: invalid conversion character")
				}
				fv.Conversion = rest[1]
				rest = rest[2:]
			}
			if strings.HasPrefix(rest, ":") {
				spec := p.fparts(rest[1:], raw, line, depth+1)
				fv.Spec = &FString{Line: line, Parts: spec}
			} else if rest != "" {
				p.fail("f-string: expecting '}'")
			}
			if selfDoc {
				parts = append(parts, &Const{Line: line, Kind: 's', Val: fv.Text})
				if fv.Conversion == 0 && fv.Spec == nil {
					fv.Conversion = 'r'
				}
			}
			parts = append(parts, fv)
			i = j
			continue
		}
		if c == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				lit.WriteByte('}')
				i++
				continue
			}
			p.fail("f-string: single '}' is not allowed")
		}
		lit.WriteByte(c)
	}
	flushLit()
	return parts
}
