package system

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"github.com/shellbox/shellbox/lib/shellsim/posixre"
)

// Expr evaluates an expression and prints its value.
//
//	expr EXPRESSION
//
// Operators, loosest first: | & < <= = == != >= > + - * / % : and the
// keywords match, substr, index, length and "+ TOKEN". Integers have
// arbitrary precision, as GNU expr built with GMP. Exit status 0 if the
// value is neither null nor 0, 1 if it is, 2 for invalid expressions and
// 3 for other errors.
func Expr(inv *command.Invocation) int {
	args := inv.Args[1:]
	if len(args) == 1 && (args[0] == "--help" || args[0] == "--version") {
		return getopt.HelpOrVersion(inv, &getopt.Spec{}, args[0])
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		missing(inv, "missing operand")
		return 2
	}
	if err := inv.Sys.Charge(callCost + int64(len(args))); err != nil {
		return 1
	}
	p := &exprParser{args: args}
	v, err := p.or(true)
	if err == nil && p.pos < len(p.args) {
		err = syntaxErr(fmt.Sprintf("unexpected argument %s", q(p.args[p.pos])))
	}
	if err != nil {
		errorf(inv, "%s", err)
		var ee *exprError
		if errors.As(err, &ee) && ee.status != 0 {
			return ee.status
		}
		return 2
	}
	if _, err := fmt.Fprintln(inv.Stdout, v.String()); err != nil {
		return 1
	}
	if v.null() {
		return 1
	}
	return 0
}

type exprError struct {
	msg    string
	status int
}

func (e *exprError) Error() string { return e.msg }

func syntaxErr(msg string) error { return &exprError{msg: "syntax error: " + msg, status: 2} }

type exprVal struct {
	s     string
	n     *big.Int
	isInt bool
}

func strVal(s string) exprVal   { return exprVal{s: s} }
func intVal(n *big.Int) exprVal { return exprVal{n: n, isInt: true} }

func (v exprVal) String() string {
	if v.isInt {
		return v.n.String()
	}
	return v.s
}

func (v exprVal) null() bool {
	if v.isInt {
		return v.n.Sign() == 0
	}
	s := v.s
	if s == "" {
		return true
	}
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0") == ""
}

// toInt converts a value that looks like an integer.
func (v exprVal) toInt() (*big.Int, bool) {
	if v.isInt {
		return v.n, true
	}
	s := v.s
	body := strings.TrimPrefix(s, "-")
	if body == "" {
		return nil, false
	}
	for _, c := range body {
		if c < '0' || c > '9' {
			return nil, false
		}
	}
	n, ok := new(big.Int).SetString(s, 10)
	return n, ok
}

type exprParser struct {
	args []string
	pos  int
}

func (p *exprParser) peek() (string, bool) {
	if p.pos < len(p.args) {
		return p.args[p.pos], true
	}
	return "", false
}

func (p *exprParser) or(ev bool) (exprVal, error) {
	l, err := p.and(ev)
	if err != nil {
		return l, err
	}
	for {
		t, ok := p.peek()
		if !ok || t != "|" {
			return l, nil
		}
		p.pos++
		r, err := p.and(ev && l.null())
		if err != nil {
			return l, err
		}
		if l.null() {
			l = r
			if l.null() {
				l = intVal(big.NewInt(0))
			}
		}
	}
}

func (p *exprParser) and(ev bool) (exprVal, error) {
	l, err := p.cmp(ev)
	if err != nil {
		return l, err
	}
	for {
		t, ok := p.peek()
		if !ok || t != "&" {
			return l, nil
		}
		p.pos++
		r, err := p.cmp(ev && !l.null())
		if err != nil {
			return l, err
		}
		if l.null() || r.null() {
			l = intVal(big.NewInt(0))
		}
	}
}

func (p *exprParser) cmp(ev bool) (exprVal, error) {
	l, err := p.add(ev)
	if err != nil {
		return l, err
	}
	for {
		t, ok := p.peek()
		if !ok {
			return l, nil
		}
		switch t {
		case "<", "<=", "=", "==", "!=", ">=", ">":
		default:
			return l, nil
		}
		p.pos++
		r, err := p.add(ev)
		if err != nil {
			return l, err
		}
		var c int
		ln, lok := l.toInt()
		rn, rok := r.toInt()
		if lok && rok {
			c = ln.Cmp(rn)
		} else {
			c = strings.Compare(l.String(), r.String())
		}
		res := false
		switch t {
		case "<":
			res = c < 0
		case "<=":
			res = c <= 0
		case "=", "==":
			res = c == 0
		case "!=":
			res = c != 0
		case ">=":
			res = c >= 0
		case ">":
			res = c > 0
		}
		if res {
			l = intVal(big.NewInt(1))
		} else {
			l = intVal(big.NewInt(0))
		}
	}
}

func (p *exprParser) arith(l, r exprVal, op string, ev bool) (exprVal, error) {
	if !ev {
		return intVal(big.NewInt(0)), nil
	}
	a, ok1 := l.toInt()
	b, ok2 := r.toInt()
	if !ok1 || !ok2 {
		return l, &exprError{msg: "non-integer argument", status: 2}
	}
	z := new(big.Int)
	switch op {
	case "+":
		z.Add(a, b)
	case "-":
		z.Sub(a, b)
	case "*":
		z.Mul(a, b)
	case "/", "%":
		if b.Sign() == 0 {
			return l, &exprError{msg: "division by zero", status: 2}
		}
		if op == "/" {
			z.Quo(a, b)
		} else {
			z.Rem(a, b)
		}
	}
	return intVal(z), nil
}

func (p *exprParser) add(ev bool) (exprVal, error) {
	l, err := p.mul(ev)
	if err != nil {
		return l, err
	}
	for {
		t, ok := p.peek()
		if !ok || t != "+" && t != "-" {
			return l, nil
		}
		p.pos++
		r, err := p.mul(ev)
		if err != nil {
			return l, err
		}
		if l, err = p.arith(l, r, t, ev); err != nil {
			return l, err
		}
	}
}

func (p *exprParser) mul(ev bool) (exprVal, error) {
	l, err := p.match(ev)
	if err != nil {
		return l, err
	}
	for {
		t, ok := p.peek()
		if !ok || t != "*" && t != "/" && t != "%" {
			return l, nil
		}
		p.pos++
		r, err := p.match(ev)
		if err != nil {
			return l, err
		}
		if l, err = p.arith(l, r, t, ev); err != nil {
			return l, err
		}
	}
}

func (p *exprParser) match(ev bool) (exprVal, error) {
	l, err := p.primary(ev)
	if err != nil {
		return l, err
	}
	for {
		t, ok := p.peek()
		if !ok || t != ":" {
			return l, nil
		}
		p.pos++
		r, err := p.primary(ev)
		if err != nil {
			return l, err
		}
		if ev {
			if l, err = regexMatch(l.String(), r.String()); err != nil {
				return l, err
			}
		}
	}
}

// exprMaxSteps bounds a backreference match of one expr call (its cost is
// otherwise charged per operand).
const exprMaxSteps = 1_000_000

// regexMatch anchors a BRE at the start of s: the value is the first
// \(...\) group if the pattern has one, else the length of the match.
func regexMatch(s, pattern string) (exprVal, error) {
	e, err := posixre.Parse(pattern, posixre.Options{})
	if err != nil {
		return exprVal{}, &exprError{msg: err.Error(), status: 2}
	}
	re, err := e.Prefix().Compile(posixre.Options{DotNL: true, MaxSteps: exprMaxSteps})
	if err != nil {
		return exprVal{}, &exprError{msg: err.Error(), status: 2}
	}
	m := re.FindStringSubmatchIndex(s)
	if re.Err() != nil {
		return exprVal{}, &exprError{msg: re.Err().Error(), status: 2}
	}
	if re.NumSubexp() > 0 {
		if m == nil || m[2] < 0 {
			return strVal(""), nil
		}
		return strVal(s[m[2]:m[3]]), nil
	}
	if m == nil {
		return intVal(big.NewInt(0)), nil
	}
	return intVal(big.NewInt(int64(utf8.RuneCountInString(s[:m[1]])))), nil
}

func (p *exprParser) primary(ev bool) (exprVal, error) {
	t, ok := p.peek()
	if !ok {
		if p.pos > 0 {
			return exprVal{}, syntaxErr(fmt.Sprintf("missing argument after %s", q(p.args[p.pos-1])))
		}
		return exprVal{}, syntaxErr("missing argument")
	}
	p.pos++
	next := func() (exprVal, error) { return p.primary(ev) }
	switch t {
	case "(":
		v, err := p.or(ev)
		if err != nil {
			return v, err
		}
		c, ok := p.peek()
		if !ok {
			return v, syntaxErr(fmt.Sprintf("expecting ')' after %s", q(p.args[p.pos-1])))
		}
		if c != ")" {
			return v, syntaxErr(fmt.Sprintf("expecting ')' instead of %s", q(c)))
		}
		p.pos++
		return v, nil
	case ")":
		return exprVal{}, syntaxErr("unexpected ')'")
	case "+":
		tok, ok := p.peek()
		if !ok {
			return exprVal{}, syntaxErr("missing argument after '+'")
		}
		p.pos++
		return strVal(tok), nil
	case "length":
		v, err := next()
		if err != nil {
			return v, err
		}
		return intVal(big.NewInt(int64(utf8.RuneCountInString(v.String())))), nil
	case "match":
		s, err := next()
		if err != nil {
			return s, err
		}
		pat, err := next()
		if err != nil {
			return pat, err
		}
		if !ev {
			return intVal(big.NewInt(0)), nil
		}
		return regexMatch(s.String(), pat.String())
	case "index":
		s, err := next()
		if err != nil {
			return s, err
		}
		chars, err := next()
		if err != nil {
			return chars, err
		}
		i := strings.IndexAny(s.String(), chars.String())
		if i >= 0 {
			i = utf8.RuneCountInString(s.String()[:i]) + 1
		} else {
			i = 0
		}
		return intVal(big.NewInt(int64(i))), nil
	case "substr":
		s, err := next()
		if err != nil {
			return s, err
		}
		pos, err := next()
		if err != nil {
			return pos, err
		}
		ln, err := next()
		if err != nil {
			return ln, err
		}
		rs := []rune(s.String())
		pi, ok1 := pos.toInt()
		li, ok2 := ln.toInt()
		if !ok1 || !ok2 || pi.Sign() <= 0 || li.Sign() <= 0 || !pi.IsInt64() || pi.Int64() > int64(len(rs)) {
			return strVal(""), nil
		}
		start := int(pi.Int64()) - 1
		end := len(rs)
		if li.IsInt64() && int64(start)+li.Int64() < int64(end) {
			end = start + int(li.Int64())
		}
		return strVal(string(rs[start:end])), nil
	}
	return strVal(t), nil
}
