// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// TODO(v4): the arithmetic APIs should return int64 for portability with 32-bit systems,
// even if Bash only supports native int sizes.

func Arithm(cfg *Config, expr syntax.ArithmExpr) (int, error) {
	switch expr := expr.(type) {
	case *syntax.Word:
		if len(expr.Parts) > 0 {
			if m, ok := expr.Parts[0].(*syntax.Lit); ok && m.Value == DeferredArithMarker {
				// ShellSim: text the parser rejected, checked now as bash does
				field, err := cfg.wordField(expr.Parts[1:], quoteHeredoc)
				if err != nil {
					return 0, err
				}
				n, err := cfg.arithString(cfg.fieldJoin(field), false)
				return int(n), err
			}
		}
		str, err := Literal(cfg, expr)
		if err != nil {
			return 0, err
		}
		// recursively fetch vars
		i := 0
		for syntax.ValidName(str) {
			if cfg.NoUnset && !cfg.Env.Get(str).IsSet() {
				return 0, UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: str}}, Message: "unbound variable"}
			}
			val := cfg.envGet(str)
			if val == "" {
				break
			}
			if i++; i >= maxNameRefDepth {
				// ShellSim: a name that refers to itself, as bash
				return 0, fmt.Errorf("%s: expression recursion level exceeded", str)
			}
			str = val
		}
		// ShellSim: like bash, a value that is not a number is itself
		// evaluated as an arithmetic expression ("1+2" in $((x*2))).
		if t := strings.TrimSpace(str); syntax.ValidName(t) {
			return 0, nil // unset variable
		} else if t != "" && !numberLike(t) {
			// evaluated as bash evaluates a value: as text
			n, err := cfg.arithString(str, false)
			return int(n), err
		}
		if t := strings.TrimSpace(str); t != "" {
			if err := checkNumber(t); err != nil {
				return 0, err
			}
		}
		// default to 0
		return int(atoi(str)), nil
	case *syntax.ParenArithm:
		return Arithm(cfg, expr.X)
	case *syntax.UnaryArithm:
		switch expr.Op {
		case syntax.Inc, syntax.Dec:
			ref, err := cfg.arithRef(expr.X)
			if err != nil {
				return 0, err
			}
			cur, err := ref.get()
			if err != nil {
				return 0, err
			}
			old, err := cfg.valueOf(cur)
			if err != nil {
				return 0, err
			}
			val := old
			if expr.Op == syntax.Inc {
				val++
			} else {
				val--
			}
			if err := ref.set(strconv.FormatInt(val, 10)); err != nil {
				return 0, err
			}
			if expr.Post {
				return int(old), nil
			}
			return int(val), nil
		}
		val, err := Arithm(cfg, expr.X)
		if err != nil {
			return 0, err
		}
		switch expr.Op {
		case syntax.Not:
			return oneIf(val == 0), nil
		case syntax.BitNegation:
			return ^val, nil
		case syntax.Plus:
			return val, nil
		case syntax.Minus:
			return -val, nil
		default:
			return 0, fmt.Errorf("unsupported unary arithmetic operator: %q", expr.Op)
		}
	case *syntax.BinaryArithm:
		switch expr.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn,
			syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
			syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn,
			syntax.ShlAssgn, syntax.ShrAssgn:
			return cfg.assgnArit(expr)
		case syntax.TernQuest: // TernColon can't happen here
			cond, err := Arithm(cfg, expr.X)
			if err != nil {
				return 0, err
			}
			b2 := expr.Y.(*syntax.BinaryArithm) // must have Op==TernColon
			if cond != 0 {
				return Arithm(cfg, b2.X)
			}
			return Arithm(cfg, b2.Y)
		case syntax.AndArit, syntax.OrArit:
			// Like Bash, short-circuit the right operand.
			left, err := Arithm(cfg, expr.X)
			if err != nil {
				return 0, err
			}
			if expr.Op == syntax.AndArit && left == 0 {
				return 0, nil
			}
			if expr.Op == syntax.OrArit && left != 0 {
				return 1, nil
			}
			right, err := Arithm(cfg, expr.Y)
			if err != nil {
				return 0, err
			}
			return oneIf(right != 0), nil
		}
		left, err := Arithm(cfg, expr.X)
		if err != nil {
			return 0, err
		}
		right, err := Arithm(cfg, expr.Y)
		if err != nil {
			return 0, err
		}
		return binArit(expr.Op, left, right)
	case *syntax.FlagsArithm: // e.g. zsh's ${a[(r)b]}
		return 0, fmt.Errorf("unsupported")
	default:
		panic(fmt.Sprintf("unexpected arithm expr: %T", expr))
	}
}

func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// atoi is like [strconv.ParseInt](s, BASE, 64), but it handles integer
// base prefixes according to bash-shell's rules, ignores errors, and
// trims whitespace.
//
// For more information about bash's integer base handling syntax,
// refer to the bash manual:
// https://www.man7.org/linux/man-pages/man1/bash.1.html
func atoi(s string) int64 {
	s = strings.TrimSpace(s)
	neg := false
	switch {
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasPrefix(s, "-"):
		neg = true
		s = s[1:]
	}
	base := int64(10)
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base = 16
		s = s[2:]
	case strings.HasPrefix(s, "0"):
		base = 8
		s = s[1:]
	default:
		baseStr, intStr, hasSep := strings.Cut(s, "#")
		if hasSep {
			var err error
			base, err = strconv.ParseInt(baseStr, 10, 8)
			if err != nil || base < 2 || base > 64 {
				return 0
			}
			s = intStr
		}
	}
	var n int64
	if base > 36 {
		n = atoiLargeBase(s, base)
	} else {
		n, _ = strconv.ParseInt(s, int(base), 64)
	}
	if neg {
		n = -n
	}
	return n
}

// atoiLargeBase parses bases 37 to 64, which [strconv.ParseInt] does not
// support, using bash's digit set: 0-9, a-z, A-Z, "@", and "_".
func atoiLargeBase(s string, base int64) int64 {
	var n int64
	for i := range len(s) {
		var d int64
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c-'A') + 36
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return 0
		}
		if d >= base {
			return 0
		}
		n = n*base + d
	}
	return n
}

// arithVar is an assignable operand of an arithmetic expression: a
// variable or (ShellSim) an array element such as a[i+1] or m[key].
type arithVar struct {
	get func() (string, error)
	set func(string) error
}

func (cfg *Config) arithRef(x syntax.ArithmExpr) (arithVar, error) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return arithVar{}, fmt.Errorf("attempted assignment to non-variable")
	}
	if name := w.Lit(); name != "" {
		return arithVar{
			get: func() (string, error) { return cfg.envGet(name), nil },
			set: func(v string) error { return cfg.envSet(name, v) },
		}, nil
	}
	if len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Index != nil &&
			pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && !pe.Length && !pe.Excl {
			name, idx := pe.Param.Value, pe.Index
			return arithVar{
				get: func() (string, error) { return Literal(cfg, w) },
				set: func(v string) error { return cfg.assignElem(name, cfg.Env.Get(name), idx, v) },
			}, nil
		}
	}
	return arithVar{}, fmt.Errorf("attempted assignment to non-variable")
}

func (cfg *Config) assgnArit(b *syntax.BinaryArithm) (int, error) {
	ref, err := cfg.arithRef(b.X)
	if err != nil {
		return 0, err
	}
	var val int64
	if b.Op != syntax.Assgn {
		// bash evaluates the old value only to combine it
		cur, err := ref.get()
		if err != nil {
			return 0, err
		}
		if val, err = cfg.valueOf(cur); err != nil {
			return 0, err
		}
	}
	arg_, err := Arithm(cfg, b.Y)
	if err != nil {
		return 0, err
	}
	arg := int64(arg_)
	switch b.Op {
	case syntax.Assgn:
		val = arg
	case syntax.AddAssgn:
		val += arg
	case syntax.SubAssgn:
		val -= arg
	case syntax.MulAssgn:
		val *= arg
	case syntax.QuoAssgn:
		if arg == 0 {
			return 0, fmt.Errorf("division by 0")
		}
		val /= arg
	case syntax.RemAssgn:
		if arg == 0 {
			return 0, fmt.Errorf("division by 0")
		}
		val %= arg
	case syntax.AndAssgn:
		val &= arg
	case syntax.OrAssgn:
		val |= arg
	case syntax.XorAssgn:
		val ^= arg
	case syntax.ShlAssgn:
		val <<= uint64(arg) & 63 // ShellSim: as bash on x86-64
	case syntax.ShrAssgn:
		val >>= uint64(arg) & 63
	}
	if err := ref.set(strconv.FormatInt(val, 10)); err != nil {
		return 0, err
	}
	return int(val), nil
}

func intPow(a, b int) int {
	p := 1
	for b > 0 {
		if b&1 != 0 {
			p *= a
		}
		b >>= 1
		a *= a
	}
	return p
}

func binArit(op syntax.BinAritOperator, x, y int) (int, error) {
	switch op {
	case syntax.Add:
		return x + y, nil
	case syntax.Sub:
		return x - y, nil
	case syntax.Mul:
		return x * y, nil
	case syntax.Quo:
		if y == 0 {
			return 0, fmt.Errorf("division by 0")
		}
		return x / y, nil
	case syntax.Rem:
		if y == 0 {
			return 0, fmt.Errorf("division by 0")
		}
		return x % y, nil
	case syntax.Pow:
		if y < 0 {
			return 0, fmt.Errorf("exponent less than 0")
		}
		return intPow(x, y), nil
	case syntax.Eql:
		return oneIf(x == y), nil
	case syntax.Gtr:
		return oneIf(x > y), nil
	case syntax.Lss:
		return oneIf(x < y), nil
	case syntax.Neq:
		return oneIf(x != y), nil
	case syntax.Leq:
		return oneIf(x <= y), nil
	case syntax.Geq:
		return oneIf(x >= y), nil
	case syntax.And:
		return x & y, nil
	case syntax.Or:
		return x | y, nil
	case syntax.Xor:
		return x ^ y, nil
	case syntax.Shr:
		return x >> (uint64(y) & 63), nil // ShellSim: as bash on x86-64
	case syntax.Shl:
		return x << (uint64(y) & 63), nil
	case syntax.Comma:
		// x is executed but its result discarded
		return y, nil
	default:
		return 0, fmt.Errorf("unsupported binary arithmetic operator: %q", op)
	}
}

// numberLike reports whether s looks like an integer constant (decimal,
// 0x/0 prefixed, or base#digits) rather than an expression.
func numberLike(s string) bool {
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#' || c == '@' || c == '_') {
			return false
		}
	}
	return true
}

// checkNumber reports bash's errors for constants with digits outside
// their base (08, 2#3), a bad base (65#1) or no digits (2#).
func checkNumber(t string) error {
	s := strings.TrimLeft(t, "+-")
	if _, msg := bashNumber(s); msg != "" && s != "" && s[0] >= '0' && s[0] <= '9' {
		return ArithError{Expr: t, Msg: msg, Token: t}
	}
	return nil
}
