package misc

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"
	"math/big"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// bc - arbitrary precision calculator language
//
//	bc [-lqs] [FILE]...
//
// A GNU bc subset on math/big: numbers with bc's scale rules (+ - * / % ^,
// sqrt, length, scale), scale/ibase/obase/last, variables and arrays,
// relational and boolean operators, ++/--, compound assignment, if/else,
// while, for, break, continue, quit, halt, print, strings, define with
// auto (dynamic scoping, as bc has), and -l with s c a l e (j is not
// modeled). Files run first, then standard input.

// BC runs bc.
func BC(inv *command.Invocation) int {
	if inv.Sys.Charge(100) != nil {
		return 1
	}
	opts, files, st, ok := getopt.Parse(inv, &getopt.Spec{Short: "lqswvh", Long: []getopt.Long{
		{"help", "h"}, {"mathlib", "l"}, {"quiet", "q"}, {"standard", "s"}, {"version", "v"},
		{"warn", "w"},
	}})
	if !ok {
		return st
	}
	m := newBCMachine(inv)
	for _, o := range opts {
		switch o.Name {
		case "l":
			m.mathlib = true
			m.scale = 20
		case "v":
			fmt.Fprintf(inv.Stdout, "bc 1.07.1\n")
			return 0
		case "h":
			fmt.Fprintf(inv.Stdout, "usage: bc [options] [file ...]\n")
			return 0
		}
	}
	for _, f := range files {
		data, err := inv.FS.ReadFile(inv.Abs(f))
		if err != nil {
			fmt.Fprintf(inv.Stderr, "bc: File %s is unavailable.\n", f)
			return 1
		}
		if m.runSource(string(data), f) {
			return m.flush()
		}
	}
	data, err := io.ReadAll(inv.Stdin)
	if err != nil {
		return 1
	}
	m.runSource(string(data), "standard_in")
	return m.flush()
}

// ---- lexer ----

type bcTok struct {
	kind string // "num", "name", "str", "op", "nl", "eof"
	text string
	line int
}

func bcLex(src string) ([]bcTok, error) {
	var toks []bcTok
	line := 1
	ops := []string{"++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "!=", "<=", ">=", "&&", "||",
		"+", "-", "*", "/", "%", "^", "=", "<", ">", "!", "(", ")", "[", "]", "{", "}", ",", ";"}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			toks = append(toks, bcTok{"nl", "\n", line})
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
			line++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return append(toks, bcTok{"eof", "", line}), fmt.Errorf("(standard_in) %d: comment end not found", line)
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
		case c == '"':
			end := strings.IndexByte(src[i+1:], '"')
			if end < 0 {
				return append(toks, bcTok{"eof", "", line}), fmt.Errorf("(standard_in) %d: string end not found", line)
			}
			toks = append(toks, bcTok{"str", src[i+1 : i+1+end], line})
			line += strings.Count(src[i+1:i+1+end], "\n")
			i += end + 2
		case (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || c == '.':
			j := i
			for j < len(src) && ((src[j] >= '0' && src[j] <= '9') || (src[j] >= 'A' && src[j] <= 'Z') || src[j] == '.' ||
				(src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n')) {
				j++
			}
			text := strings.ReplaceAll(src[i:j], "\\\n", "")
			if strings.Count(text, ".") > 1 {
				return append(toks, bcTok{"eof", "", line}), fmt.Errorf("(standard_in) %d: syntax error", line)
			}
			toks = append(toks, bcTok{"num", text, line})
			i = j
		case (c >= 'a' && c <= 'z') || c == '_':
			j := i
			for j < len(src) && ((src[j] >= 'a' && src[j] <= 'z') || (src[j] >= '0' && src[j] <= '9') || src[j] == '_') {
				j++
			}
			toks = append(toks, bcTok{"name", src[i:j], line})
			i = j
		default:
			matched := false
			for _, op := range ops {
				if strings.HasPrefix(src[i:], op) {
					toks = append(toks, bcTok{"op", op, line})
					i += len(op)
					matched = true
					break
				}
			}
			if !matched {
				return append(toks, bcTok{"eof", "", line}), fmt.Errorf("(standard_in) %d: illegal character: %c", line, c)
			}
		}
	}
	return append(toks, bcTok{"eof", "", line}), nil
}

// ---- AST ----

type bcExpr struct {
	op   string // "num", "var", "idx", "call", "bin", "neg", "not", "assign", "pre", "post", "fn"
	text string // number text, name, operator
	a, b *bcExpr
	args []*bcExpr
}

type bcStmt struct {
	kind  string // "expr", "str", "print", "if", "while", "for", "block", "break", "continue", "return", "halt", "quit", "empty"
	expr  *bcExpr
	init  *bcExpr
	step  *bcExpr
	body  *bcStmt
	els   *bcStmt
	list  []*bcStmt
	items []*bcExpr // print items; a nil entry's text holds a string
	strs  []string
	line  int
}

type bcFunc struct {
	params []bcParam
	autos  []bcParam
	body   []*bcStmt
}

type bcParam struct {
	name  string
	array bool
}

// ---- parser ----

type bcParser struct {
	toks []bcTok
	pos  int
	m    *bcMachine
}

type bcSyntaxError struct{ line int }

func (e *bcSyntaxError) Error() string { return fmt.Sprintf("(standard_in) %d: syntax error", e.line) }

func (p *bcParser) peek() bcTok { return p.toks[p.pos] }
func (p *bcParser) next() bcTok {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}
func (p *bcParser) is(kind, text string) bool {
	t := p.peek()
	return t.kind == kind && (text == "" || t.text == text)
}
func (p *bcParser) fail() {
	t := p.peek()
	line := t.line
	if t.kind == "nl" {
		// bc has read the newline by the time it notices.
		line++
	}
	panic(&bcSyntaxError{line})
}
func (p *bcParser) expect(kind, text string) bcTok {
	if !p.is(kind, text) {
		p.fail()
	}
	return p.next()
}
func (p *bcParser) skipNL() {
	for p.is("nl", "") {
		p.next()
	}
}

var bcKeywords = map[string]bool{"if": true, "else": true, "while": true, "for": true, "break": true, "continue": true,
	"define": true, "return": true, "auto": true, "quit": true, "halt": true, "print": true, "length": true,
	"sqrt": true, "scale": true, "ibase": true, "obase": true, "last": true, "read": true, "limits": true, "warranty": true}

func (p *bcParser) stmt() *bcStmt {
	t := p.peek()
	switch {
	case t.kind == "nl" || t.kind == "op" && t.text == ";":
		return &bcStmt{kind: "empty", line: t.line}
	case t.kind == "str":
		p.next()
		return &bcStmt{kind: "str", strs: []string{t.text}, line: t.line}
	case t.kind == "op" && t.text == "{":
		p.next()
		s := &bcStmt{kind: "block", line: t.line}
		for {
			p.skipSep()
			if p.is("op", "}") {
				p.next()
				return s
			}
			if p.is("eof", "") {
				p.fail()
			}
			s.list = append(s.list, p.stmt())
		}
	case t.kind == "name":
		switch t.text {
		case "if":
			p.next()
			p.expect("op", "(")
			c := p.expr()
			p.expect("op", ")")
			p.skipNL()
			s := &bcStmt{kind: "if", expr: c, body: p.stmt(), line: t.line}
			// else may follow on the next line.
			save := p.pos
			if p.is("op", ";") {
				p.next()
			}
			p.skipNL()
			if p.is("name", "else") {
				p.next()
				p.skipNL()
				s.els = p.stmt()
			} else {
				p.pos = save
			}
			return s
		case "while":
			p.next()
			p.expect("op", "(")
			c := p.expr()
			p.expect("op", ")")
			p.skipNL()
			return &bcStmt{kind: "while", expr: c, body: p.stmt(), line: t.line}
		case "for":
			p.next()
			p.expect("op", "(")
			s := &bcStmt{kind: "for", line: t.line}
			if !p.is("op", ";") {
				s.init = p.expr()
			}
			p.expect("op", ";")
			if !p.is("op", ";") {
				s.expr = p.expr()
			}
			p.expect("op", ";")
			if !p.is("op", ")") {
				s.step = p.expr()
			}
			p.expect("op", ")")
			p.skipNL()
			s.body = p.stmt()
			return s
		case "break", "continue", "halt", "quit":
			p.next()
			return &bcStmt{kind: t.text, line: t.line}
		case "return":
			p.next()
			s := &bcStmt{kind: "return", line: t.line}
			if p.is("op", "(") || !(p.is("nl", "") || p.is("op", ";") || p.is("op", "}") || p.is("eof", "")) {
				s.expr = p.expr()
			}
			return s
		case "print":
			p.next()
			s := &bcStmt{kind: "print", line: t.line}
			for {
				if p.is("str", "") {
					s.items = append(s.items, nil)
					s.strs = append(s.strs, p.next().text)
				} else {
					s.items = append(s.items, p.expr())
					s.strs = append(s.strs, "")
				}
				if !p.is("op", ",") {
					return s
				}
				p.next()
			}
		case "define":
			p.define()
			return &bcStmt{kind: "empty", line: t.line}
		case "else", "auto":
			p.fail()
		}
	}
	return &bcStmt{kind: "expr", expr: p.expr(), line: t.line}
}

func (p *bcParser) skipSep() {
	for p.is("nl", "") || p.is("op", ";") {
		p.next()
	}
}

func (p *bcParser) define() {
	p.next()
	name := p.expect("name", "").text
	p.expect("op", "(")
	f := &bcFunc{}
	params := func(until string) []bcParam {
		var out []bcParam
		for !p.is("op", until) && !p.is("nl", "") {
			n := p.expect("name", "").text
			arr := false
			if p.is("op", "[") {
				p.next()
				p.expect("op", "]")
				arr = true
			}
			out = append(out, bcParam{n, arr})
			if !p.is("op", ",") {
				break
			}
			p.next()
		}
		return out
	}
	f.params = params(")")
	p.expect("op", ")")
	p.skipNL()
	p.expect("op", "{")
	p.skipSep()
	if p.is("name", "auto") {
		p.next()
		f.autos = params(";")
		p.skipSep()
	}
	for !p.is("op", "}") {
		if p.is("eof", "") {
			p.fail()
		}
		f.body = append(f.body, p.stmt())
		p.skipSep()
	}
	p.next()
	p.m.funcs[name] = f
}

// Expression precedence, lowest first: || && ! relational assignment + - * / % ^ unary ++/--.
func (p *bcParser) expr() *bcExpr { return p.or() }

func (p *bcParser) or() *bcExpr {
	x := p.and()
	for p.is("op", "||") {
		p.next()
		x = &bcExpr{op: "bin", text: "||", a: x, b: p.and()}
	}
	return x
}

func (p *bcParser) and() *bcExpr {
	x := p.not()
	for p.is("op", "&&") {
		p.next()
		x = &bcExpr{op: "bin", text: "&&", a: x, b: p.not()}
	}
	return x
}

func (p *bcParser) not() *bcExpr {
	if p.is("op", "!") {
		p.next()
		return &bcExpr{op: "not", a: p.not()}
	}
	return p.rel()
}

func (p *bcParser) rel() *bcExpr {
	x := p.additive()
	for {
		t := p.peek()
		if t.kind == "op" && (t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">=" || t.text == "==" || t.text == "!=") {
			p.next()
			x = &bcExpr{op: "bin", text: t.text, a: x, b: p.additive()}
			continue
		}
		return x
	}
}

func (p *bcParser) additive() *bcExpr {
	x := p.mult()
	for p.is("op", "+") || p.is("op", "-") {
		op := p.next().text
		x = &bcExpr{op: "bin", text: op, a: x, b: p.mult()}
	}
	return x
}

func (p *bcParser) mult() *bcExpr {
	x := p.pow()
	for p.is("op", "*") || p.is("op", "/") || p.is("op", "%") {
		op := p.next().text
		x = &bcExpr{op: "bin", text: op, a: x, b: p.pow()}
	}
	return x
}

func (p *bcParser) pow() *bcExpr {
	x := p.unary()
	if p.is("op", "^") {
		p.next()
		return &bcExpr{op: "bin", text: "^", a: x, b: p.pow()}
	}
	return x
}

func (p *bcParser) unary() *bcExpr {
	if p.is("op", "-") {
		p.next()
		return &bcExpr{op: "neg", a: p.unary()}
	}
	if p.is("op", "++") || p.is("op", "--") {
		op := p.next().text
		return &bcExpr{op: "pre", text: op, a: p.lvalue()}
	}
	x := p.primary()
	if isLvalue(x) {
		if p.is("op", "++") || p.is("op", "--") {
			return &bcExpr{op: "post", text: p.next().text, a: x}
		}
		t := p.peek()
		if t.kind == "op" && (t.text == "=" || (len(t.text) == 2 && t.text[1] == '=' && strings.IndexByte("+-*/%^", t.text[0]) >= 0)) {
			p.next()
			return &bcExpr{op: "assign", text: t.text, a: x, b: p.expr()}
		}
	}
	return x
}

func isLvalue(x *bcExpr) bool { return x.op == "var" || x.op == "idx" }

func (p *bcParser) lvalue() *bcExpr {
	x := p.primary()
	if !isLvalue(x) {
		p.fail()
	}
	return x
}

func (p *bcParser) primary() *bcExpr {
	t := p.next()
	switch t.kind {
	case "num":
		return &bcExpr{op: "num", text: t.text}
	case "op":
		if t.text == "(" {
			x := p.expr()
			p.expect("op", ")")
			return x
		}
	case "name":
		switch t.text {
		case "length", "sqrt", "scale":
			if p.is("op", "(") {
				p.next()
				x := p.expr()
				p.expect("op", ")")
				return &bcExpr{op: "fn", text: t.text, a: x}
			}
			if t.text == "scale" {
				return &bcExpr{op: "var", text: "scale"}
			}
		case "ibase", "obase", "last":
			return &bcExpr{op: "var", text: t.text}
		case "read":
			p.m.inv.Sys.Partial("bc read()")
			p.fail()
		}
		if bcKeywords[t.text] {
			p.pos--
			p.fail()
		}
		if p.is("op", "(") {
			p.next()
			call := &bcExpr{op: "call", text: t.text}
			for !p.is("op", ")") {
				// An array argument is passed as name[].
				if p.is("name", "") && p.pos+2 < len(p.toks) && p.toks[p.pos+1].text == "[" && p.toks[p.pos+2].text == "]" {
					call.args = append(call.args, &bcExpr{op: "arr", text: p.next().text})
					p.next()
					p.next()
				} else {
					call.args = append(call.args, p.expr())
				}
				if !p.is("op", ",") {
					break
				}
				p.next()
			}
			p.expect("op", ")")
			return call
		}
		if p.is("op", "[") {
			p.next()
			i := p.expr()
			p.expect("op", "]")
			return &bcExpr{op: "idx", text: t.text, a: i}
		}
		return &bcExpr{op: "var", text: t.text}
	}
	p.pos--
	p.fail()
	return nil
}

// ---- machine ----

type bcMachine struct {
	inv     *command.Invocation
	out     bytes.Buffer
	scale   int
	ibase   int
	obase   int
	last    num
	vars    map[string][]num
	arrays  map[string][]map[int64]num
	funcs   map[string]*bcFunc
	mathlib bool
	stopped bool // fuel or output failure
	steps   int64
	retval  num
	depth   int
	line    int // line of the statement running, reported as "adr"
}

func newBCMachine(inv *command.Invocation) *bcMachine {
	return &bcMachine{inv: inv, ibase: 10, obase: 10, last: newInt(0),
		vars: map[string][]num{}, arrays: map[string][]map[int64]num{}, funcs: map[string]*bcFunc{}}
}

func (m *bcMachine) flush() int {
	if m.out.Len() > 0 {
		if _, err := m.inv.Stdout.Write(m.out.Bytes()); err != nil {
			return 1
		}
		m.out.Reset()
	}
	if m.stopped {
		return 1
	}
	return 0
}

type bcRuntimeError struct {
	err error
	fn  string
}

type bcControl int

const (
	ctlNone bcControl = iota
	ctlBreak
	ctlContinue
	ctlReturn
	ctlHalt
)

var errBCStop = errors.New("stop")

// runSource parses and runs src chunk by chunk (a chunk is what bc
// compiles at once: up to the newline that ends a complete statement);
// it returns true when bc must exit (quit, halt or a stop).
func (m *bcMachine) runSource(src, name string) (exit bool) {
	toks, lexErr := bcLex(src)
	p := &bcParser{toks: toks, m: m}
	for !p.is("eof", "") {
		stmts, quit, ok := m.parseChunk(p)
		if !ok {
			continue
		}
		for _, s := range stmts {
			m.line = s.line
			ctl, err := m.exec(s, "(main)")
			if err == errBCStop {
				m.stopped = true
				return true
			}
			if err == errBCHalt {
				return true
			}
			if err != nil {
				var re *bcRuntimeError
				if errors.As(err, &re) {
					m.flush()
					fmt.Fprintf(m.inv.Stderr, "Runtime error (func=%s, adr=%d): %s\n", re.fn, s.line, re.err)
				}
				break
			}
			if ctl == ctlHalt {
				return true
			}
		}
		if quit {
			return true
		}
		if m.out.Len() > 32*1024 {
			if m.flush() != 0 {
				return true
			}
		}
	}
	if lexErr != nil {
		m.flush()
		fmt.Fprintln(m.inv.Stderr, lexErr.Error())
	}
	return false
}

// parseChunk parses the statements up to the end of the current line.
// quit is acted on when it is parsed, as in bc.
func (m *bcMachine) parseChunk(p *bcParser) (stmts []*bcStmt, quit, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			se, isSyntax := r.(*bcSyntaxError)
			if !isSyntax {
				panic(r)
			}
			m.flush()
			fmt.Fprintln(m.inv.Stderr, se.Error())
			for !p.is("nl", "") && !p.is("eof", "") {
				p.next()
			}
			if p.is("nl", "") {
				p.next()
			}
			stmts, quit, ok = nil, false, false
		}
	}()
	for {
		if p.is("eof", "") {
			return stmts, false, true
		}
		if p.is("nl", "") {
			p.next()
			return stmts, false, true
		}
		if p.is("op", ";") {
			p.next()
			continue
		}
		s := p.stmt()
		if s.kind == "quit" || containsQuit(s) {
			return stmts, true, true
		}
		stmts = append(stmts, s)
		if !(p.is("op", ";") || p.is("nl", "") || p.is("eof", "") || p.is("op", "}")) {
			p.fail()
		}
	}
}

func containsQuit(s *bcStmt) bool {
	if s == nil {
		return false
	}
	if s.kind == "quit" {
		return true
	}
	for _, c := range s.list {
		if containsQuit(c) {
			return true
		}
	}
	return containsQuit(s.body) || containsQuit(s.els)
}

func (m *bcMachine) tick() error {
	m.steps++
	if m.inv.Sys.Charge(5) != nil {
		return errBCStop
	}
	return nil
}

func (m *bcMachine) exec(s *bcStmt, fn string) (bcControl, error) {
	if err := m.tick(); err != nil {
		return ctlNone, err
	}
	switch s.kind {
	case "empty":
	case "str":
		m.out.WriteString(s.strs[0])
	case "print":
		for i, it := range s.items {
			if it == nil {
				m.out.WriteString(bcEscapes(s.strs[i]))
				continue
			}
			v, err := m.eval(it, fn)
			if err != nil {
				return ctlNone, err
			}
			m.last = v
			m.out.WriteString(splitLine(v.format(m.obase)))
		}
	case "expr":
		v, err := m.eval(s.expr, fn)
		if err != nil {
			return ctlNone, err
		}
		if s.expr.op != "assign" {
			m.last = v
			m.out.WriteString(splitLine(v.format(m.obase)) + "\n")
		}
	case "block":
		for _, c := range s.list {
			ctl, err := m.exec(c, fn)
			if err != nil || ctl != ctlNone {
				return ctl, err
			}
		}
	case "if":
		c, err := m.eval(s.expr, fn)
		if err != nil {
			return ctlNone, err
		}
		if !c.isZero() {
			return m.exec(s.body, fn)
		} else if s.els != nil {
			return m.exec(s.els, fn)
		}
	case "while", "for":
		if s.init != nil {
			if _, err := m.eval(s.init, fn); err != nil {
				return ctlNone, err
			}
		}
		for {
			if s.expr != nil {
				c, err := m.eval(s.expr, fn)
				if err != nil {
					return ctlNone, err
				}
				if c.isZero() {
					break
				}
			}
			ctl, err := m.exec(s.body, fn)
			if err != nil {
				return ctlNone, err
			}
			if ctl == ctlBreak {
				break
			}
			if ctl == ctlReturn || ctl == ctlHalt {
				return ctl, nil
			}
			if s.step != nil {
				if _, err := m.eval(s.step, fn); err != nil {
					return ctlNone, err
				}
			}
		}
	case "break":
		return ctlBreak, nil
	case "continue":
		return ctlContinue, nil
	case "halt":
		return ctlHalt, nil
	case "return":
		v := newInt(0)
		if s.expr != nil {
			var err error
			if v, err = m.eval(s.expr, fn); err != nil {
				return ctlNone, err
			}
		}
		m.retval = v
		return ctlReturn, nil
	}
	return ctlNone, nil
}

func bcEscapes(s string) string {
	r := strings.NewReplacer(`\a`, "\a", `\b`, "\b", `\f`, "\f", `\n`, "\n", `\q`, `"`, `\r`, "\r", `\t`, "\t", `\e`, `\`, `\\`, `\`)
	return r.Replace(s)
}

func (m *bcMachine) get(name string) num {
	switch name {
	case "scale":
		return newInt(int64(m.scale))
	case "ibase":
		return newInt(int64(m.ibase))
	case "obase":
		return newInt(int64(m.obase))
	case "last":
		return m.last
	}
	if st := m.vars[name]; len(st) > 0 {
		return st[len(st)-1]
	}
	return newInt(0)
}

func (m *bcMachine) set(name string, v num, fn string) error {
	switch name {
	case "scale", "ibase", "obase":
		n := v.rescale(0).v
		if !n.IsInt64() {
			return &bcRuntimeError{errors.New(name + " too large"), fn}
		}
		i := int(n.Int64())
		switch name {
		case "scale":
			if i < 0 {
				i = 0
			}
			m.scale = i
		case "ibase":
			m.ibase = min(max(i, 2), 16)
		case "obase":
			if i < 2 {
				i = 2
			}
			m.obase = i
		}
		return nil
	case "last":
		m.last = v
		return nil
	}
	st := m.vars[name]
	if len(st) == 0 {
		m.vars[name] = []num{v}
	} else {
		st[len(st)-1] = v
	}
	return nil
}

func (m *bcMachine) array(name string) map[int64]num {
	st := m.arrays[name]
	if len(st) == 0 {
		a := map[int64]num{}
		m.arrays[name] = []map[int64]num{a}
		return a
	}
	return st[len(st)-1]
}

func (m *bcMachine) index(e *bcExpr, fn string) (int64, error) {
	i, err := m.eval(e.a, fn)
	if err != nil {
		return 0, err
	}
	n := i.rescale(0).v
	if !n.IsInt64() || n.Int64() < 0 || n.Int64() >= 16777215 {
		return 0, &bcRuntimeError{errors.New("Array " + e.text + " subscript out of bounds."), fn}
	}
	return n.Int64(), nil
}

func (m *bcMachine) load(e *bcExpr, fn string) (num, error) {
	if e.op == "idx" {
		i, err := m.index(e, fn)
		if err != nil {
			return num{}, err
		}
		if v, ok := m.array(e.text)[i]; ok {
			return v, nil
		}
		return newInt(0), nil
	}
	return m.get(e.text), nil
}

func (m *bcMachine) store(e *bcExpr, v num, fn string) error {
	if e.op == "idx" {
		i, err := m.index(e, fn)
		if err != nil {
			return err
		}
		m.array(e.text)[i] = v
		return nil
	}
	return m.set(e.text, v, fn)
}

func (m *bcMachine) arith(op string, x, y num, fn string) (num, error) {
	var r num
	var err error
	switch op {
	case "+":
		r = add(x, y)
	case "-":
		r = sub(x, y)
	case "*":
		r = mul(x, y, m.scale)
	case "/":
		r, err = div(x, y, m.scale)
	case "%":
		r, err = mod(x, y, m.scale)
	case "^":
		if y.scale != 0 {
			m.flush()
			fmt.Fprintf(m.inv.Stderr, "Runtime warning (func=%s, adr=%d): non-zero scale in exponent\n", fn, m.line)
		}
		r, err = power(x, y, m.scale)
	}
	if err != nil {
		return num{}, &bcRuntimeError{err, fn}
	}
	if m.inv.Sys.Charge(int64(len(r.v.Bits()))) != nil {
		return num{}, errBCStop
	}
	return r, nil
}

func boolNum(b bool) num {
	if b {
		return newInt(1)
	}
	return newInt(0)
}

func (m *bcMachine) eval(e *bcExpr, fn string) (num, error) {
	if err := m.tick(); err != nil {
		return num{}, err
	}
	switch e.op {
	case "num":
		return parseNum(e.text, m.ibase), nil
	case "var", "idx":
		return m.load(e, fn)
	case "neg":
		x, err := m.eval(e.a, fn)
		if err != nil {
			return num{}, err
		}
		return num{v: new(big.Int).Neg(x.v), scale: x.scale}, nil
	case "not":
		x, err := m.eval(e.a, fn)
		if err != nil {
			return num{}, err
		}
		return boolNum(x.isZero()), nil
	case "bin":
		x, err := m.eval(e.a, fn)
		if err != nil {
			return num{}, err
		}
		switch e.text {
		case "&&":
			if x.isZero() {
				return newInt(0), nil
			}
			y, err := m.eval(e.b, fn)
			return boolNum(!y.isZero()), err
		case "||":
			if !x.isZero() {
				return newInt(1), nil
			}
			y, err := m.eval(e.b, fn)
			return boolNum(!y.isZero()), err
		}
		y, err := m.eval(e.b, fn)
		if err != nil {
			return num{}, err
		}
		switch e.text {
		case "<":
			return boolNum(x.cmp(y) < 0), nil
		case "<=":
			return boolNum(x.cmp(y) <= 0), nil
		case ">":
			return boolNum(x.cmp(y) > 0), nil
		case ">=":
			return boolNum(x.cmp(y) >= 0), nil
		case "==":
			return boolNum(x.cmp(y) == 0), nil
		case "!=":
			return boolNum(x.cmp(y) != 0), nil
		}
		return m.arith(e.text, x, y, fn)
	case "assign":
		v, err := m.eval(e.b, fn)
		if err != nil {
			return num{}, err
		}
		if e.text != "=" {
			cur, err := m.load(e.a, fn)
			if err != nil {
				return num{}, err
			}
			if v, err = m.arith(e.text[:1], cur, v, fn); err != nil {
				return num{}, err
			}
		}
		return v, m.store(e.a, v, fn)
	case "pre", "post":
		cur, err := m.load(e.a, fn)
		if err != nil {
			return num{}, err
		}
		nv := add(cur, newInt(1))
		if e.text == "--" {
			nv = sub(cur, newInt(1))
		}
		if err := m.store(e.a, nv, fn); err != nil {
			return num{}, err
		}
		if e.op == "pre" {
			return nv, nil
		}
		return cur, nil
	case "fn":
		x, err := m.eval(e.a, fn)
		if err != nil {
			return num{}, err
		}
		switch e.text {
		case "length":
			return newInt(int64(x.length())), nil
		case "scale":
			return newInt(int64(x.scale)), nil
		}
		r, err := sqrtNum(x, m.scale)
		if err != nil {
			return num{}, &bcRuntimeError{err, fn}
		}
		return r, nil
	case "call":
		return m.call(e, fn)
	}
	return newInt(0), nil
}

func (m *bcMachine) call(e *bcExpr, caller string) (num, error) {
	if m.mathlib {
		if r, ok, err := m.mathCall(e, caller); ok {
			return r, err
		}
	}
	f, ok := m.funcs[e.text]
	if !ok {
		return num{}, &bcRuntimeError{errors.New("Function " + e.text + " not defined."), caller}
	}
	if len(e.args) != len(f.params) {
		return num{}, &bcRuntimeError{errors.New("Parameter number mismatch"), caller}
	}
	// Evaluate arguments in the caller's scope, then push the new frame.
	vals := make([]any, len(e.args))
	for i, a := range e.args {
		if f.params[i].array {
			if a.op != "arr" {
				return num{}, &bcRuntimeError{errors.New("Parameter type mismatch"), caller}
			}
			cp := map[int64]num{}
			for k, v := range m.array(a.text) {
				cp[k] = v
			}
			vals[i] = cp
			continue
		}
		v, err := m.eval(a, caller)
		if err != nil {
			return num{}, err
		}
		vals[i] = v
	}
	if len(m.vars) > 0 && m.depth > 1000 {
		return num{}, &bcRuntimeError{errors.New("function call nesting too deep"), caller}
	}
	push := func(p bcParam, v any) {
		if p.array {
			a, _ := v.(map[int64]num)
			if a == nil {
				a = map[int64]num{}
			}
			m.arrays[p.name] = append(m.arrays[p.name], a)
		} else {
			n, _ := v.(num)
			if n.v == nil {
				n = newInt(0)
			}
			m.vars[p.name] = append(m.vars[p.name], n)
		}
	}
	pop := func(p bcParam) {
		if p.array {
			m.arrays[p.name] = m.arrays[p.name][:len(m.arrays[p.name])-1]
		} else {
			m.vars[p.name] = m.vars[p.name][:len(m.vars[p.name])-1]
		}
	}
	for i, p := range f.params {
		push(p, vals[i])
	}
	for _, a := range f.autos {
		push(a, nil)
	}
	m.depth++
	defer func() {
		m.depth--
		for _, p := range f.params {
			pop(p)
		}
		for _, a := range f.autos {
			pop(a)
		}
	}()
	m.retval = newInt(0)
	for _, s := range f.body {
		ctl, err := m.exec(s, e.text)
		if err != nil {
			return num{}, err
		}
		if ctl == ctlReturn {
			return m.retval, nil
		}
		if ctl == ctlHalt {
			return num{}, errBCHalt
		}
	}
	return newInt(0), nil
}

func (e *bcRuntimeError) Error() string { return e.err.Error() }

// errBCHalt ends bc from inside a function (halt), with status 0.
var errBCHalt = errors.New("halt")
