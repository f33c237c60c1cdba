package awk

import (
	"fmt"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

type parser struct {
	toks   []token
	i      int
	prog   *program
	locals map[string]int // parameters of the function being parsed
	calls  []*callExpr
	// pending is a parenthesized expression already read by print that
	// the expression parser must use as its first primary.
	pending expr
	inLoop  int
	inFunc  bool
}

func parse(src string) (*program, error) {
	if err := command.CheckSyntaxNest(src); err != nil {
		return nil, &syntaxError{pos: -1, msg: err.Error()}
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, prog: &program{funcs: map[string]*function{}, globals: map[string]int{}}}
	for _, name := range specialNames {
		p.global(name)
	}
	if err := p.catch(p.program); err != nil {
		return nil, err
	}
	for _, c := range p.calls {
		f, ok := p.prog.funcs[c.name]
		if !ok || !f.defined {
			return nil, &syntaxError{pos: -1, msg: fmt.Sprintf("function `%s' not defined", c.name)}
		}
		if len(c.args) > len(f.params) {
			return nil, &syntaxError{pos: -1, msg: fmt.Sprintf("function `%s' called with more arguments than declared", c.name)}
		}
		c.fn = f
	}
	return p.prog, nil
}

// catch turns a parse panic into an error.
func (p *parser) catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*syntaxError)
			if !ok {
				panic(r)
			}
			err = se
		}
	}()
	f()
	return nil
}

func (p *parser) tok() token { return p.toks[p.i] }
func (p *parser) kind() tok  { return p.toks[p.i].kind }
func (p *parser) peekKind(k int) tok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k].kind
	}
	return tEOF
}
func (p *parser) advance() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) fail() {
	t := p.tok()
	msg := "syntax error"
	if t.kind == tEOF || t.kind == tNewline {
		msg = "unexpected newline or end of string"
	}
	panic(&syntaxError{pos: t.pos, msg: msg, nl: t.kind == tNewline})
}

func (p *parser) failf(format string, a ...any) {
	panic(&syntaxError{pos: p.tok().pos, msg: fmt.Sprintf(format, a...)})
}

func (p *parser) expect(k tok) token {
	if p.kind() != k {
		p.fail()
	}
	return p.advance()
}

func (p *parser) optNewlines() {
	for p.kind() == tNewline {
		p.advance()
	}
}

func (p *parser) global(name string) int {
	if i, ok := p.prog.globals[name]; ok {
		return i
	}
	i := p.prog.nglobals
	p.prog.globals[name] = i
	p.prog.nglobals++
	return i
}

func (p *parser) varRef(name string) *varRef {
	if p.locals != nil {
		if i, ok := p.locals[name]; ok {
			return &varRef{name: name, local: true, idx: i}
		}
	}
	if _, isFunc := p.prog.funcs[name]; isFunc {
		p.failf("function name `%s' used as a variable", name)
	}
	return &varRef{name: name, idx: p.global(name)}
}

func (p *parser) program() {
	for {
		for p.kind() == tNewline || p.kind() == tSemi {
			p.advance()
		}
		if p.kind() == tEOF {
			return
		}
		p.item()
	}
}

func (p *parser) item() {
	switch p.kind() {
	case tBegin:
		p.advance()
		p.optNewlines()
		if p.kind() != tLbrace {
			p.failf("BEGIN blocks must have an action part")
		}
		p.prog.begin = append(p.prog.begin, p.block())
	case tEnd:
		p.advance()
		p.optNewlines()
		if p.kind() != tLbrace {
			p.failf("END blocks must have an action part")
		}
		p.prog.end = append(p.prog.end, p.block())
	case tFunction:
		p.function()
	case tLbrace:
		p.prog.items = append(p.prog.items, &item{body: p.block()})
	default:
		it := &item{pat: p.expr(false, false)}
		if p.kind() == tComma {
			p.advance()
			p.optNewlines()
			it.isRange = true
			it.pat2 = p.expr(false, false)
		}
		if p.kind() == tLbrace {
			it.body = p.block()
		} else {
			it.noBody = true
			if p.kind() != tNewline && p.kind() != tSemi && p.kind() != tEOF {
				p.fail()
			}
		}
		p.prog.items = append(p.prog.items, it)
	}
}

func (p *parser) function() {
	p.advance()
	var name string
	switch p.kind() {
	case tName, tFuncName:
		name = p.advance().text
	default:
		p.fail()
	}
	if f, ok := p.prog.funcs[name]; ok && f.defined {
		p.failf("function `%s' previously defined", name)
	}
	if _, ok := p.prog.globals[name]; ok {
		p.failf("function name `%s' previously defined", name)
	}
	f := p.prog.funcs[name]
	if f == nil {
		f = &function{name: name}
		p.prog.funcs[name] = f
	}
	p.expect(tLparen)
	p.locals = map[string]int{}
	for p.kind() != tRparen {
		t := p.expect(tName)
		if _, dup := p.locals[t.text]; dup {
			p.failf("function `%s': parameter #%d, `%s', duplicates parameter #%d", name, len(f.params)+1, t.text, p.locals[t.text]+1)
		}
		p.locals[t.text] = len(f.params)
		f.params = append(f.params, t.text)
		if p.kind() == tComma {
			p.advance()
			p.optNewlines()
		} else if p.kind() != tRparen {
			p.fail()
		}
	}
	p.advance()
	p.optNewlines()
	f.defined = true
	p.inFunc = true
	f.body = p.block()
	p.inFunc = false
	p.locals = nil
}

func (p *parser) block() blockStmt {
	p.expect(tLbrace)
	var out blockStmt
	for {
		for p.kind() == tNewline || p.kind() == tSemi {
			p.advance()
		}
		if p.kind() == tRbrace {
			p.advance()
			return out
		}
		if p.kind() == tEOF {
			p.fail()
		}
		out = append(out, p.stmt())
	}
}

// endSimple consumes the terminator of a simple statement.
func (p *parser) endSimple() {
	switch p.kind() {
	case tSemi, tNewline:
		p.advance()
		p.optNewlines()
	case tRbrace, tEOF:
	default:
		p.fail()
	}
}

// body parses the statement controlled by if/while/for.
func (p *parser) body() stmt {
	p.optNewlines()
	if p.kind() == tSemi {
		p.advance()
		return blockStmt(nil)
	}
	return p.stmt()
}

func (p *parser) stmt() stmt {
	switch p.kind() {
	case tLbrace:
		b := p.block()
		return b
	case tIf:
		p.advance()
		p.expect(tLparen)
		c := p.expr(false, false)
		p.expect(tRparen)
		s := &ifStmt{c: c, then: p.body()}
		// else may follow newlines or a semicolon
		save := p.i
		for p.kind() == tNewline || p.kind() == tSemi {
			p.advance()
		}
		if p.kind() == tElse {
			p.advance()
			s.els = p.body()
		} else {
			p.i = save
		}
		return s
	case tWhile:
		p.advance()
		p.expect(tLparen)
		c := p.expr(false, false)
		p.expect(tRparen)
		if p.kind() == tSemi || p.kind() == tNewline {
			p.advance()
			return &whileStmt{c: c, body: blockStmt(nil)}
		}
		p.inLoop++
		s := &whileStmt{c: c, body: p.body()}
		p.inLoop--
		return s
	case tDo:
		p.advance()
		p.inLoop++
		b := p.body()
		p.inLoop--
		for p.kind() == tNewline || p.kind() == tSemi {
			p.advance()
		}
		p.expect(tWhile)
		p.expect(tLparen)
		c := p.expr(false, false)
		p.expect(tRparen)
		p.endSimple()
		return &doStmt{body: b, c: c}
	case tFor:
		return p.forStmt()
	case tSemi:
		p.advance()
		return blockStmt(nil)
	}
	s := p.simple()
	p.endSimple()
	return s
}

func (p *parser) forStmt() stmt {
	p.advance()
	p.expect(tLparen)
	if p.kind() == tName && p.peekKind(1) == tIn && p.peekKind(2) == tName && p.peekKind(3) == tRparen {
		v := p.varRef(p.advance().text)
		p.advance()
		arr := p.varRef(p.advance().text)
		p.advance()
		p.inLoop++
		b := p.body()
		p.inLoop--
		return &forInStmt{v: v, arr: arr, body: b}
	}
	if p.kind() == tLparen && p.peekKind(1) == tName && p.peekKind(2) == tIn && p.peekKind(3) == tName && p.peekKind(4) == tRparen && p.peekKind(5) == tRparen {
		p.advance()
		v := p.varRef(p.advance().text)
		p.advance()
		arr := p.varRef(p.advance().text)
		p.advance()
		p.advance()
		p.inLoop++
		b := p.body()
		p.inLoop--
		return &forInStmt{v: v, arr: arr, body: b}
	}
	s := &forStmt{}
	if p.kind() != tSemi {
		s.init = p.simple()
	}
	p.expect(tSemi)
	p.optNewlines()
	if p.kind() != tSemi {
		s.c = p.expr(false, false)
	}
	p.expect(tSemi)
	p.optNewlines()
	if p.kind() != tRparen {
		s.post = p.simple()
	}
	p.expect(tRparen)
	if p.kind() == tSemi {
		p.advance()
		s.body = blockStmt(nil)
		return s
	}
	p.inLoop++
	s.body = p.body()
	p.inLoop--
	return s
}

func (p *parser) simple() stmt {
	switch p.kind() {
	case tPrint, tPrintf:
		return p.print()
	case tNext:
		if p.inFunc {
			// allowed in functions called from rules; checked at run time
		}
		p.advance()
		return &nextStmt{}
	case tNextfile:
		p.advance()
		return &nextfileStmt{}
	case tExit:
		p.advance()
		s := &exitStmt{}
		if !p.endOfSimple() {
			s.x = p.expr(false, false)
		}
		return s
	case tReturn:
		if !p.inFunc {
			p.failf("`return' used outside function context")
		}
		p.advance()
		s := &returnStmt{}
		if !p.endOfSimple() {
			s.x = p.expr(false, false)
		}
		return s
	case tBreak:
		if p.inLoop == 0 {
			panic(&syntaxError{pos: p.tok().pos, msg: "`break' is not allowed outside a loop or switch", plain: true})
		}
		p.advance()
		return &breakStmt{}
	case tContinue:
		if p.inLoop == 0 {
			panic(&syntaxError{pos: p.tok().pos, msg: "`continue' is not allowed outside a loop", plain: true})
		}
		p.advance()
		return &continueStmt{}
	case tDelete:
		p.advance()
		paren := false
		if p.kind() == tLparen {
			p.advance()
			paren = true
		}
		arr := p.varRef(p.expect(tName).text)
		s := &deleteStmt{arr: arr}
		if p.kind() == tLbracket {
			p.advance()
			s.subs = p.exprList(tRbracket)
			p.expect(tRbracket)
		}
		if paren {
			p.expect(tRparen)
		}
		return s
	}
	return &exprStmt{p.expr(false, false)}
}

func (p *parser) endOfSimple() bool {
	switch p.kind() {
	case tSemi, tNewline, tRbrace, tEOF:
		return true
	}
	return false
}

func (p *parser) print() stmt {
	s := &printStmt{printf: p.advance().kind == tPrintf}
	if !p.endOfSimple() && p.kind() != tGT && p.kind() != tAppend && p.kind() != tPipe {
		if p.kind() == tLparen {
			// print (a, b) > "f" or print (a)(b)
			save := p.i
			p.advance()
			list := p.exprList(tRparen)
			if len(list) == 0 {
				p.fail()
			}
			if p.kind() == tRparen {
				p.advance()
				if len(list) > 1 && p.kind() != tIn {
					s.args = list
				} else if len(list) > 1 {
					p.i = save
				} else {
					p.pending = &groupExpr{list[0]}
				}
			} else {
				p.i = save
			}
		}
		if s.args == nil {
			s.args = p.exprList(tEOF)
		}
	}
	switch p.kind() {
	case tGT, tAppend, tPipe:
		s.redir = p.advance().kind
		s.dest = p.concat(true, false)
	}
	return s
}

// exprList parses comma-separated expressions (print arguments use
// noGT, since a bare '>' there is a redirection).
func (p *parser) exprList(end tok) []expr {
	noGT := end == tEOF
	var out []expr
	if p.kind() == end && end != tEOF {
		return nil
	}
	for {
		out = append(out, p.expr(noGT, false))
		if p.kind() != tComma {
			return out
		}
		p.advance()
		p.optNewlines()
	}
}

func isLvalue(e expr) bool {
	switch e.(type) {
	case *varRef, *fieldRef, *indexExpr:
		return true
	}
	return false
}

// expr parses an expression, including assignment.
func (p *parser) expr(noGT, noIn bool) expr {
	lhs := p.ternary(noGT, noIn)
	switch k := p.kind(); k {
	case tAssign, tAddAssign, tSubAssign, tMulAssign, tDivAssign, tModAssign, tPowAssign:
		if !isLvalue(lhs) {
			if k == tDivAssign {
				// "/=" may start a regex in gawk's grammar; rare in practice.
			}
			p.fail()
		}
		p.advance()
		p.optNewlines()
		return &assignExpr{lhs: lhs, op: k, rhs: p.expr(noGT, noIn)}
	}
	return lhs
}

func (p *parser) ternary(noGT, noIn bool) expr {
	c := p.or(noGT, noIn)
	if p.kind() != tQuestion {
		return c
	}
	p.advance()
	p.optNewlines()
	a := p.expr(noGT, noIn)
	p.optNewlines()
	p.expect(tColon)
	p.optNewlines()
	b := p.expr(noGT, noIn)
	return &condExpr{c, a, b}
}

func (p *parser) or(noGT, noIn bool) expr {
	l := p.and(noGT, noIn)
	for p.kind() == tOr {
		p.advance()
		p.optNewlines()
		l = &orExpr{l, p.and(noGT, noIn)}
	}
	return l
}

func (p *parser) and(noGT, noIn bool) expr {
	l := p.in(noGT, noIn)
	for p.kind() == tAnd {
		p.advance()
		p.optNewlines()
		l = &andExpr{l, p.in(noGT, noIn)}
	}
	return l
}

func (p *parser) in(noGT, noIn bool) expr {
	l := p.match(noGT, noIn)
	for !noIn && p.kind() == tIn {
		p.advance()
		arr := p.varRef(p.expect(tName).text)
		l = &inExpr{subs: []expr{l}, arr: arr}
	}
	return l
}

func (p *parser) match(noGT, noIn bool) expr {
	l := p.compare(noGT, noIn)
	for p.kind() == tMatch || p.kind() == tNoMatch {
		neg := p.advance().kind == tNoMatch
		l = &matchExpr{l: l, re: p.compare(noGT, noIn), neg: neg}
	}
	return l
}

func (p *parser) compare(noGT, noIn bool) expr {
	l := p.concat(noGT, noIn)
	for {
		switch k := p.kind(); k {
		case tLT, tLE, tNE, tEQ, tGE:
			p.advance()
			return &binaryExpr{op: k, l: l, r: p.concat(noGT, noIn)}
		case tGT:
			if noGT {
				return l
			}
			p.advance()
			return &binaryExpr{op: k, l: l, r: p.concat(noGT, noIn)}
		case tPipe:
			if p.peekKind(1) != tGetline {
				return l
			}
			p.advance()
			p.advance()
			g := &getlineExpr{kind: tPipe, src: l}
			g.lv = p.optLvalue()
			l = g
		default:
			return l
		}
	}
}

func (p *parser) concat(noGT, noIn bool) expr {
	l := p.additive()
	for {
		switch p.kind() {
		case tNumber, tString, tRegex, tName, tFuncName, tBuiltin, tDollar, tNot, tLparen, tIncr, tDecr:
			if p.kind() == tNot && (p.peekKind(1) == tAssign) {
				return l
			}
			l = &binaryExpr{op: tString, l: l, r: p.additive()}
		case tMinus, tPlus:
			// "a" -1 is a concatenation in gawk only after a string; keep
			// the arithmetic reading, which is what scripts mean.
			return l
		default:
			return l
		}
	}
}

func (p *parser) additive() expr {
	l := p.mul()
	for p.kind() == tPlus || p.kind() == tMinus {
		k := p.advance().kind
		l = &binaryExpr{op: k, l: l, r: p.mul()}
	}
	return l
}

func (p *parser) mul() expr {
	l := p.unary()
	for p.kind() == tMul || p.kind() == tDiv || p.kind() == tMod {
		k := p.advance().kind
		l = &binaryExpr{op: k, l: l, r: p.unary()}
	}
	return l
}

func (p *parser) unary() expr {
	switch p.kind() {
	case tNot, tMinus, tPlus:
		k := p.advance().kind
		return &unaryExpr{op: k, x: p.unary()}
	}
	return p.pow()
}

func (p *parser) pow() expr {
	base := p.postfix()
	if p.kind() == tPow {
		p.advance()
		return &binaryExpr{op: tPow, l: base, r: p.powRHS()}
	}
	return base
}

func (p *parser) powRHS() expr {
	switch p.kind() {
	case tMinus, tPlus, tNot:
		k := p.advance().kind
		return &unaryExpr{op: k, x: p.powRHS()}
	}
	return p.pow()
}

func (p *parser) postfix() expr {
	e := p.primary()
	if isLvalue(e) {
		switch p.kind() {
		case tIncr:
			p.advance()
			return &incDecExpr{x: e, delta: 1}
		case tDecr:
			p.advance()
			return &incDecExpr{x: e, delta: -1}
		}
	}
	return e
}

func (p *parser) optLvalue() expr {
	switch p.kind() {
	case tName:
		return p.nameExpr()
	case tDollar:
		p.advance()
		return &fieldRef{p.fieldOperand()}
	}
	return nil
}

func (p *parser) nameExpr() expr {
	name := p.advance().text
	if p.kind() == tLbracket {
		p.advance()
		subs := p.exprList(tRbracket)
		if len(subs) == 0 {
			p.fail()
		}
		p.expect(tRbracket)
		return &indexExpr{arr: p.varRef(name), subs: subs}
	}
	return p.varRef(name)
}

// fieldOperand parses what follows '$': a primary, possibly with a
// prefix increment or a sign.
func (p *parser) fieldOperand() expr {
	switch p.kind() {
	case tIncr, tDecr:
		d := 1.0
		if p.advance().kind == tDecr {
			d = -1
		}
		x := p.primary()
		if !isLvalue(x) {
			p.fail()
		}
		return &incDecExpr{x: x, pre: true, delta: d}
	case tMinus, tPlus, tNot:
		k := p.advance().kind
		return &unaryExpr{op: k, x: p.fieldOperand()}
	}
	return p.primary()
}

func (p *parser) primary() expr {
	if p.pending != nil {
		e := p.pending
		p.pending = nil
		return e
	}
	t := p.tok()
	switch t.kind {
	case tNumber:
		p.advance()
		return &numLit{t.num}
	case tString:
		p.advance()
		return &strLit{t.text}
	case tRegex:
		p.advance()
		if _, err := posixre.Parse(t.text, posixre.Options{Flavor: posixre.Awk}); err != nil {
			panic(&syntaxError{pos: t.pos, msg: err.Error()})
		}
		return &regexLit{src: t.text}
	case tDollar:
		p.advance()
		return &fieldRef{p.fieldOperand()}
	case tIncr, tDecr:
		p.advance()
		x := p.primary()
		if !isLvalue(x) {
			p.fail()
		}
		d := 1.0
		if t.kind == tDecr {
			d = -1
		}
		return &incDecExpr{x: x, pre: true, delta: d}
	case tMinus, tPlus, tNot:
		p.advance()
		return &unaryExpr{op: t.kind, x: p.unary()}
	case tLparen:
		p.advance()
		list := p.exprList(tRparen)
		if len(list) == 0 {
			p.fail()
		}
		p.expect(tRparen)
		if len(list) > 1 {
			if p.kind() != tIn {
				p.fail()
			}
			p.advance()
			return &inExpr{subs: list, arr: p.varRef(p.expect(tName).text)}
		}
		return &groupExpr{list[0]}
	case tName:
		return p.nameExpr()
	case tFuncName:
		p.advance()
		p.expect(tLparen)
		args := p.exprList(tRparen)
		p.expect(tRparen)
		c := &callExpr{name: t.text, args: args}
		p.calls = append(p.calls, c)
		if _, ok := p.prog.funcs[t.text]; !ok {
			p.prog.funcs[t.text] = &function{name: t.text}
		}
		return c
	case tBuiltin:
		p.advance()
		b := &builtinExpr{name: t.text}
		if p.kind() == tLparen {
			p.advance()
			b.args = p.exprList(tRparen)
			p.expect(tRparen)
		} else if t.text != "length" {
			p.fail()
		}
		p.checkBuiltin(b, t)
		return b
	case tGetline:
		p.advance()
		g := &getlineExpr{}
		g.lv = p.optLvalue()
		if p.kind() == tLT {
			p.advance()
			g.kind = tLT
			g.src = p.getlineSource()
		}
		return g
	}
	p.fail()
	return nil
}

// getlineSource parses the file operand of getline <: a primary, with
// no concatenation (gawk reads getline < "a" "b" as (getline < "a") "b").
func (p *parser) getlineSource() expr {
	if p.kind() == tDollar {
		p.advance()
		return &fieldRef{p.fieldOperand()}
	}
	return p.primary()
}

var builtinArity = map[string][2]int{
	"length": {0, 1}, "substr": {2, 3}, "index": {2, 2}, "split": {2, 4},
	"sub": {2, 3}, "gsub": {2, 3}, "match": {2, 3}, "sprintf": {1, 1 << 30},
	"sin": {1, 1}, "cos": {1, 1}, "atan2": {2, 2}, "exp": {1, 1}, "log": {1, 1},
	"sqrt": {1, 1}, "int": {1, 1}, "rand": {0, 0}, "srand": {0, 1},
	"tolower": {1, 1}, "toupper": {1, 1}, "system": {1, 1}, "close": {1, 2},
	"fflush": {0, 1}, "gensub": {3, 4}, "systime": {0, 0}, "strftime": {0, 4},
	"mktime": {1, 2}, "asort": {1, 3}, "asorti": {1, 3}, "patsplit": {2, 4},
	"and": {2, 1 << 30}, "or": {2, 1 << 30}, "xor": {2, 1 << 30}, "lshift": {2, 2},
	"rshift": {2, 2}, "compl": {1, 1}, "strtonum": {1, 1}, "isarray": {1, 1},
	"typeof": {1, 2},
}

func (p *parser) checkBuiltin(b *builtinExpr, t token) {
	ar := builtinArity[b.name]
	if len(b.args) < ar[0] || len(b.args) > ar[1] {
		panic(&syntaxError{pos: t.pos, msg: fmt.Sprintf("%d is invalid as number of arguments for %s", len(b.args), b.name)})
	}
	switch b.name {
	case "split", "asort", "asorti", "patsplit":
		idx := 1
		if b.name != "split" && b.name != "patsplit" {
			idx = 0
		}
		if _, ok := b.args[idx].(*varRef); !ok {
			panic(&syntaxError{pos: t.pos, msg: fmt.Sprintf("%s: second argument is not an array", b.name)})
		}
		if len(b.args) == 4 {
			if _, ok := b.args[3].(*varRef); !ok {
				panic(&syntaxError{pos: t.pos, msg: fmt.Sprintf("%s: fourth argument is not an array", b.name)})
			}
		}
	case "sub", "gsub":
		if len(b.args) == 3 && !isLvalue(b.args[2]) {
			panic(&syntaxError{pos: t.pos, msg: fmt.Sprintf("%s third parameter is not a changeable object", b.name)})
		}
	case "match":
		if len(b.args) == 3 {
			if _, ok := b.args[2].(*varRef); !ok {
				panic(&syntaxError{pos: t.pos, msg: "match: third argument is not an array"})
			}
		}
	}
}
