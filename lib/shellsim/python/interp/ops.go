package interp

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// typeOf returns the class of v.
func (in *Interp) typeOf(v Value) *Class {
	name := ""
	switch x := v.(type) {
	case *Instance:
		return x.Cls
	case *noneType:
		name = "NoneType"
	case bool:
		name = "bool"
	case int64, *big.Int:
		name = "int"
	case float64:
		name = "float"
	case string:
		name = "str"
	case Bytes:
		name = "bytes"
	case *List:
		name = "list"
	case Tuple:
		name = "tuple"
	case *Dict:
		switch x.Kind {
		case "defaultdict":
			return in.modClass("_collections", "defaultdict")
		case "Counter":
			return in.modClass("_collections", "Counter")
		case "OrderedDict":
			return in.modClass("_collections", "OrderedDict")
		}
		name = "dict"
	case *Set:
		name = "set"
		if x.Frozen {
			name = "frozenset"
		}
	case *Function:
		name = "function"
	case *Builtin:
		name = "builtin_function_or_method"
	case *Method:
		name = "method"
	case *Class:
		if x.Meta != nil {
			return x.Meta
		}
		name = "type"
	case *Module:
		name = "module"
	case *Range:
		name = "range"
	case *Slice:
		name = "slice"
	case *Generator:
		name = "generator"
	case *Iterator:
		name = x.Name
	case *DictView:
		name = map[byte]string{'k': "dict_keys", 'v': "dict_values", 'i': "dict_items"}[x.Kind]
	case *Property:
		name = "property"
	case *StaticMethod:
		name = "staticmethod"
	case *ClassMethod:
		name = "classmethod"
	case *Super:
		name = "super"
	case *File:
		name = "TextIOWrapper"
		if x.binary {
			name = "BufferedReader"
		}
	case *ellipsisType:
		name = "ellipsis"
	case *notImplType:
		name = "NotImplementedType"
	case *Pattern:
		name = "Pattern"
	case *Match:
		name = "Match"
	case *ByteArray:
		name = "bytearray"
	default:
		name = "object"
	}
	if c, ok := in.builtins.GetStr(name); ok {
		if cls, ok := c.(*Class); ok {
			return cls
		}
	}
	if c, ok := in.hiddenTypes[name]; ok {
		return c
	}
	c := in.newBuiltinClass(name, in.objectClass())
	in.hiddenTypes[name] = c
	return c
}

func (in *Interp) modClass(mod, name string) *Class {
	m := in.importModule(mod, nil)
	v, _ := m.Dict.GetStr(name)
	return v.(*Class)
}

func (in *Interp) typeName(v Value) string { return in.typeOf(v).Name }

// ---- truth, numbers ----

func (in *Interp) truthy(v Value) bool {
	switch x := v.(type) {
	case bool:
		return x
	case *noneType:
		return false
	case int64:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case *List:
		return len(x.V) > 0
	case Tuple:
		return len(x) > 0
	case *Dict:
		return x.live > 0
	case *Set:
		return x.D.live > 0
	case *big.Int:
		return x.Sign() != 0
	case Bytes:
		return len(x) > 0
	case *Range:
		return rangeLen(x) > 0
	case *Instance:
		if f := in.lookupClassAttr(x.Cls, "__bool__"); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(x, f, x.Cls), nil, nil)
			b, ok := r.(bool)
			if !ok {
				in.Raise("TypeError", "__bool__ should return bool, returned %s", in.typeName(r))
			}
			return b
		}
		if f := in.lookupClassAttr(x.Cls, "__len__"); f != nil && !isBuiltinAttr(f) {
			return in.toInt64(in.call(in.bindAttr(x, f, x.Cls), nil, nil)) != 0
		}
		if x.Base != nil {
			return in.truthy(x.Base)
		}
		return true
	case *ByteArray:
		return len(x.B) > 0
	}
	return true
}

// normInt returns an int64 when b fits.
func normInt(b *big.Int) Value {
	if b.IsInt64() {
		return b.Int64()
	}
	return b
}

func toBig(v Value) *big.Int {
	switch x := v.(type) {
	case int64:
		return big.NewInt(x)
	case bool:
		if x {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	case *big.Int:
		return x
	}
	return nil
}

func isInt(v Value) bool {
	switch v.(type) {
	case int64, bool, *big.Int:
		return true
	}
	return false
}

func (in *Interp) toInt64(v Value) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case bool:
		if x {
			return 1
		}
		return 0
	case *big.Int:
		in.Raise("OverflowError", "Python int too large to convert to C ssize_t")
	case *Instance:
		if x.Base != nil {
			return in.toInt64(x.Base)
		}
		if f := in.lookupClassAttr(x.Cls, "__index__"); f != nil {
			return in.toInt64(in.call(in.bindAttr(x, f, x.Cls), nil, nil))
		}
	}
	in.Raise("TypeError", "'%s' object cannot be interpreted as an integer", in.typeName(v))
	return 0
}

func (in *Interp) toFloat(v Value) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		if math.IsInf(f, 0) {
			in.Raise("OverflowError", "int too large to convert to float")
		}
		return f, true
	case *Instance:
		if x.Base != nil {
			return in.toFloat(x.Base)
		}
		if f := in.lookupClassAttr(x.Cls, "__float__"); f != nil {
			return in.toFloat(in.call(in.bindAttr(x, f, x.Cls), nil, nil))
		}
	}
	return 0, false
}

var binNames = map[string][2]string{
	"+": {"__add__", "__radd__"}, "-": {"__sub__", "__rsub__"}, "*": {"__mul__", "__rmul__"},
	"/": {"__truediv__", "__rtruediv__"}, "//": {"__floordiv__", "__rfloordiv__"}, "%": {"__mod__", "__rmod__"},
	"**": {"__pow__", "__rpow__"}, "&": {"__and__", "__rand__"}, "|": {"__or__", "__ror__"},
	"^": {"__xor__", "__rxor__"}, "<<": {"__lshift__", "__rlshift__"}, ">>": {"__rshift__", "__rrshift__"},
	"@": {"__matmul__", "__rmatmul__"},
}

func (in *Interp) inplace(op string, a, b Value) Value {
	switch x := a.(type) {
	case *List:
		if op == "+" {
			items := in.iterToSlice(b)
			in.mem.add(in, int64(len(items))*16)
			x.V = append(x.V, items...)
			return x
		}
		if op == "*" {
			n := in.toInt64(b)
			r := in.binop("*", x, n).(*List)
			x.V = r.V
			return x
		}
	case *Dict:
		if op == "|" {
			in.dictUpdate(x, b)
			return x
		}
	case *Set:
		if !x.Frozen {
			switch op {
			case "|", "&", "-", "^":
				r := in.binop(op, x, b).(*Set)
				x.D = r.D
				return x
			}
		}
	case *Instance:
		name := "__i" + strings.TrimPrefix(binNames[op][0], "__")
		if f := in.lookupClassAttr(x.Cls, name); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(x, f, x.Cls), []Value{b}, nil)
			if r != NotImplemented {
				return r
			}
		}
	}
	return in.binop(op, a, b)
}

func (in *Interp) binop(op string, a, b Value) Value {
	// fast paths
	if x, ok := a.(int64); ok {
		if y, ok := b.(int64); ok {
			switch op {
			case "+":
				r := x + y
				if (r > x) == (y > 0) {
					return r
				}
			case "-":
				r := x - y
				if (r < x) == (y > 0) {
					return r
				}
			case "*":
				if x == 0 || y == 0 {
					return int64(0)
				}
				r := x * y
				if r/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64) {
					return r
				}
			case "//", "%":
				if y != 0 && !(x == math.MinInt64 && y == -1) {
					q, r := x/y, x%y
					if r != 0 && (r < 0) != (y < 0) {
						q--
						r += y
					}
					if op == "//" {
						return q
					}
					return r
				}
			}
		}
	}
	if s, ok := a.(string); ok && op == "+" {
		if t, ok := b.(string); ok {
			in.mem.add(in, int64(len(s)+len(t)))
			return s + t
		}
	}
	ia, ib := isInt(a), isInt(b)
	if ia && ib {
		return in.intOp(op, toBig(a), toBig(b))
	}
	fa, aok := numFloat(a)
	fb, bok := numFloat(b)
	if aok && bok {
		return in.floatOp(op, fa, fb)
	}
	if r, ok := in.seqOp(op, a, b); ok {
		return r
	}
	names := binNames[op]
	if d, ok := a.(*Dict); ok && d.Kind != "" {
		if f, ok := in.lookupClassAttr(in.typeOf(d), names[0]).(*Builtin); ok {
			return in.call(f, []Value{a, b}, nil)
		}
	}
	if ai, ok := a.(*Instance); ok {
		if f := in.lookupClassAttr(ai.Cls, names[0]); f != nil && (!isBuiltinAttr(f) || ai.Base == nil) {
			r := in.call(in.bindAttr(ai, f, ai.Cls), []Value{b}, nil)
			if r != NotImplemented {
				return r
			}
		} else if ai.Base != nil {
			if bi, ok := b.(*Instance); ok && bi.Base != nil {
				return in.binop(op, ai.Base, bi.Base)
			}
			return in.binop(op, ai.Base, b)
		}
	}
	if bi, ok := b.(*Instance); ok {
		if f := in.lookupClassAttr(bi.Cls, names[1]); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(bi, f, bi.Cls), []Value{a}, nil)
			if r != NotImplemented {
				return r
			}
		} else if bi.Base != nil {
			return in.binop(op, a, bi.Base)
		}
	}
	if op == "%" {
		if s, ok := a.(string); ok {
			return in.percentFormat(s, b)
		}
		if s, ok := a.(Bytes); ok {
			return Bytes(in.percentFormat(string(s), b))
		}
	}
	if op == "|" {
		if ca, ok := a.(*Class); ok {
			_ = ca
			return Tuple{a, b} // typing unions: X | None
		}
		if a == None {
			return Tuple{a, b}
		}
	}
	in.Raise("TypeError", "unsupported operand type(s) for %s: '%s' and '%s'", op, in.typeName(a), in.typeName(b))
	return nil
}

func numFloat(v Value) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f, true
	}
	return 0, false
}

// maxIntBits bounds big integer results so that 10**10**9 is a
// MemoryError-like failure rather than a host allocation.
const maxIntBits = 1 << 22

func (in *Interp) intOp(op string, x, y *big.Int) Value {
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		if x.BitLen()+y.BitLen() > maxIntBits {
			in.Raise("MemoryError", "")
		}
		in.charge(int64(x.BitLen()*y.BitLen()/4096 + 1))
		r.Mul(x, y)
	case "/":
		if y.Sign() == 0 {
			in.Raise("ZeroDivisionError", "division by zero")
		}
		fx, _ := new(big.Float).SetInt(x).Float64()
		fy, _ := new(big.Float).SetInt(y).Float64()
		if x.IsInt64() && y.IsInt64() {
			return float64(x.Int64()) / float64(y.Int64())
		}
		q := new(big.Rat).SetFrac(x, y)
		f, _ := q.Float64()
		_ = fx
		_ = fy
		return f
	case "//", "%":
		if y.Sign() == 0 {
			if op == "%" {
				in.Raise("ZeroDivisionError", "integer modulo by zero")
			}
			in.Raise("ZeroDivisionError", "integer division or modulo by zero")
		}
		q, m := new(big.Int).DivMod(x, y, new(big.Int))
		// Go's DivMod is Euclidean (0 <= m < |y|); Python floors toward -inf
		if m.Sign() != 0 && y.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
			m.Add(m, y)
		}
		if op == "//" {
			return normInt(q)
		}
		return normInt(m)
	case "**":
		if y.Sign() < 0 {
			fx, _ := new(big.Float).SetInt(x).Float64()
			fy, _ := new(big.Float).SetInt(y).Float64()
			if fx == 0 {
				in.Raise("ZeroDivisionError", "zero to a negative power")
			}
			return math.Pow(fx, fy)
		}
		if !y.IsInt64() || (x.BitLen() > 1 && int64(x.BitLen())*y.Int64() > maxIntBits) {
			if x.BitLen() <= 1 && x.Sign() >= 0 {
				return normInt(x)
			}
			if x.Cmp(big.NewInt(-1)) == 0 {
				if y.Bit(0) == 0 {
					return int64(1)
				}
				return int64(-1)
			}
			in.Raise("MemoryError", "")
		}
		in.charge(int64(x.BitLen())*y.Int64()/64 + 1)
		r.Exp(x, y, nil)
	case "&":
		r.And(x, y)
	case "|":
		r.Or(x, y)
	case "^":
		r.Xor(x, y)
	case "<<":
		if y.Sign() < 0 {
			in.Raise("ValueError", "negative shift count")
		}
		if !y.IsInt64() || y.Int64()+int64(x.BitLen()) > maxIntBits {
			if x.Sign() == 0 {
				return int64(0)
			}
			in.Raise("MemoryError", "")
		}
		r.Lsh(x, uint(y.Int64()))
	case ">>":
		if y.Sign() < 0 {
			in.Raise("ValueError", "negative shift count")
		}
		if !y.IsInt64() || y.Int64() > maxIntBits {
			if x.Sign() < 0 {
				return int64(-1)
			}
			return int64(0)
		}
		r.Rsh(x, uint(y.Int64()))
	case "@":
		in.Raise("TypeError", "unsupported operand type(s) for @: 'int' and 'int'")
	default:
		in.Raise("TypeError", "bad operand")
	}
	if r.BitLen() > maxIntBits {
		in.Raise("MemoryError", "")
	}
	return normInt(r)
}

func (in *Interp) floatOp(op string, x, y float64) Value {
	switch op {
	case "+":
		return x + y
	case "-":
		return x - y
	case "*":
		return x * y
	case "/":
		if y == 0 {
			in.Raise("ZeroDivisionError", "division by zero")
		}
		return x / y
	case "//":
		if y == 0 {
			in.Raise("ZeroDivisionError", "float floor division by zero")
		}
		return math.Floor(x / y)
	case "%":
		if y == 0 {
			in.Raise("ZeroDivisionError", "float modulo by zero")
		}
		m := math.Mod(x, y)
		if m != 0 && (m < 0) != (y < 0) {
			m += y
		}
		return m
	case "**":
		if x == 0 && y < 0 {
			in.Raise("ZeroDivisionError", "zero to a negative power")
		}
		r := math.Pow(x, y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			in.Raise("OverflowError", "(34, 'Numerical result out of range')")
		}
		return r
	}
	in.Raise("TypeError", "unsupported operand type(s) for %s: 'float' and 'float'", op)
	return nil
}

func viewSet(in *Interp, v Value) Value {
	if dv, ok := v.(*DictView); ok {
		return in.toSet(dv)
	}
	return v
}

// seqOp handles +, * and set operators on containers.
func (in *Interp) seqOp(op string, a, b Value) (Value, bool) {
	if dv, ok := a.(*DictView); ok && dv.Kind != 'v' {
		switch op {
		case "|", "&", "-", "^":
			return in.seqOp(op, in.toSet(dv), in.toSet(b))
		}
	}
	if _, ok := b.(*DictView); ok {
		if _, isSet := a.(*Set); isSet {
			return in.seqOp(op, a, in.toSet(b))
		}
	}
	switch x := a.(type) {
	case string:
		switch op {
		case "+":
			if y, ok := b.(string); ok {
				in.mem.add(in, int64(len(x)+len(y)))
				return x + y, true
			}
			if bi, ok := b.(*Instance); ok && bi.Base != nil {
				if y, ok := bi.Base.(string); ok && in.lookupClassAttr(bi.Cls, "__radd__") == nil {
					return x + y, true
				}
			}
			in.Raise("TypeError", "can only concatenate str (not \"%s\") to str", in.typeName(b))
		case "*":
			if !isInt(b) {
				if _, ok := b.(*Instance); !ok {
					in.Raise("TypeError", "can't multiply sequence by non-int of type '%s'", in.typeName(b))
				}
			}
			if isInt(b) {
				n := in.toInt64(b)
				if n <= 0 {
					return "", true
				}
				if len(x) > 0 && n > (1<<40)/int64(len(x)) {
					in.Raise("MemoryError", "")
				}
				in.mem.need(in, int64(len(x))*n)
				in.charge(int64(len(x)) * n / 64)
				return strings.Repeat(x, int(n)), true
			}
		}
	case Bytes:
		switch op {
		case "+":
			if y, ok := b.(Bytes); ok {
				in.mem.add(in, int64(len(x)+len(y)))
				return x + y, true
			}
			if y, ok := b.(*ByteArray); ok {
				return x + Bytes(y.B), true
			}
		case "*":
			if isInt(b) {
				n := in.toInt64(b)
				if n <= 0 {
					return Bytes(""), true
				}
				if len(x) > 0 && n > (1<<40)/int64(len(x)) {
					in.Raise("MemoryError", "")
				}
				in.mem.need(in, int64(len(x))*n)
				return Bytes(strings.Repeat(string(x), int(n))), true
			}
		}
	case *List:
		switch op {
		case "+":
			if y, ok := b.(*List); ok {
				in.mem.add(in, int64(len(x.V)+len(y.V))*16)
				v := make([]Value, 0, len(x.V)+len(y.V))
				return &List{V: append(append(v, x.V...), y.V...)}, true
			}
			in.Raise("TypeError", "can only concatenate list (not \"%s\") to list", in.typeName(b))
		case "*":
			if isInt(b) {
				return &List{V: in.repeat(x.V, in.toInt64(b))}, true
			}
		}
	case Tuple:
		switch op {
		case "+":
			if y, ok := b.(Tuple); ok {
				v := make(Tuple, 0, len(x)+len(y))
				return append(append(v, x...), y...), true
			}
			in.Raise("TypeError", "can only concatenate tuple (not \"%s\") to tuple", in.typeName(b))
		case "*":
			if isInt(b) {
				return Tuple(in.repeat(x, in.toInt64(b))), true
			}
		}
	case *Set:
		y, ok := b.(*Set)
		if !ok {
			return nil, false
		}
		r := &Set{D: NewDict(), Frozen: x.Frozen}
		switch op {
		case "|":
			for _, k := range x.D.Keys() {
				in.dictSet(r.D, k, None)
			}
			for _, k := range y.D.Keys() {
				in.dictSet(r.D, k, None)
			}
		case "&":
			for _, k := range x.D.Keys() {
				if _, ok := in.dictGet(y.D, k); ok {
					in.dictSet(r.D, k, None)
				}
			}
		case "-":
			for _, k := range x.D.Keys() {
				if _, ok := in.dictGet(y.D, k); !ok {
					in.dictSet(r.D, k, None)
				}
			}
		case "^":
			for _, k := range x.D.Keys() {
				if _, ok := in.dictGet(y.D, k); !ok {
					in.dictSet(r.D, k, None)
				}
			}
			for _, k := range y.D.Keys() {
				if _, ok := in.dictGet(x.D, k); !ok {
					in.dictSet(r.D, k, None)
				}
			}
		default:
			return nil, false
		}
		return r, true
	case *Dict:
		if y, ok := b.(*Dict); ok && op == "|" {
			r := in.dictCopy(x)
			in.dictUpdate(r, y)
			return r, true
		}
	case int64, bool:
		if op == "*" {
			switch b.(type) {
			case string, *List, Tuple, Bytes:
				return in.seqOp(op, b, a)
			}
		}
	}
	return nil, false
}

func (in *Interp) repeat(v []Value, n int64) []Value {
	if n <= 0 || len(v) == 0 {
		return []Value{}
	}
	if n > (1<<40)/int64(len(v)) {
		in.Raise("MemoryError", "")
	}
	in.mem.need(in, int64(len(v))*n*16)
	in.charge(int64(len(v)) * n / 16)
	out := make([]Value, 0, int64(len(v))*n)
	for i := int64(0); i < n; i++ {
		out = append(out, v...)
	}
	return out
}

func (in *Interp) unary(op string, v Value) Value {
	switch op {
	case "not":
		return !in.truthy(v)
	case "-":
		switch x := v.(type) {
		case int64:
			if x != math.MinInt64 {
				return -x
			}
			return normInt(new(big.Int).Neg(big.NewInt(x)))
		case bool:
			if x {
				return int64(-1)
			}
			return int64(0)
		case float64:
			return -x
		case *big.Int:
			return normInt(new(big.Int).Neg(x))
		}
	case "+":
		switch x := v.(type) {
		case int64, float64, *big.Int:
			return x
		case bool:
			if x {
				return int64(1)
			}
			return int64(0)
		}
	case "~":
		if isInt(v) {
			return normInt(new(big.Int).Not(toBig(v)))
		}
	}
	if x, ok := v.(*Instance); ok {
		name := map[string]string{"-": "__neg__", "+": "__pos__", "~": "__invert__"}[op]
		if f := in.lookupClassAttr(x.Cls, name); f != nil {
			return in.call(in.bindAttr(x, f, x.Cls), nil, nil)
		}
		if x.Base != nil {
			return in.unary(op, x.Base)
		}
	}
	in.Raise("TypeError", "bad operand type for unary %s: '%s'", op, in.typeName(v))
	return nil
}

// ---- comparison ----

func (in *Interp) compare(op string, a, b Value) Value {
	switch op {
	case "is":
		return in.is(a, b)
	case "is not":
		return !in.is(a, b)
	case "in":
		return in.contains(b, a)
	case "not in":
		return !in.contains(b, a)
	case "==":
		return in.eqValue(a, b)
	case "!=":
		r := in.eqValue(a, b)
		if bv, ok := r.(bool); ok {
			return !bv
		}
		return !in.truthy(r)
	}
	return in.order(op, a, b)
}

func (in *Interp) is(a, b Value) bool {
	switch x := a.(type) {
	case *noneType, bool, *ellipsisType, *notImplType:
		return a == b
	case int64:
		y, ok := b.(int64)
		return ok && x == y && x >= -5 && x <= 256
	case string:
		y, ok := b.(string)
		return ok && x == y && len(x) <= 1
	case float64:
		return false
	case Tuple:
		y, ok := b.(Tuple)
		return ok && len(x) == 0 && len(y) == 0
	}
	return a == b
}

func (in *Interp) eq(a, b Value) bool { return in.truthy(in.eqValue(a, b)) }

func (in *Interp) eqValue(a, b Value) Value {
	in.step()
	switch x := a.(type) {
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case bool:
			return x == boolInt(y)
		case float64:
			return float64(x) == y
		case *big.Int:
			return false
		}
	case string:
		if y, ok := b.(string); ok {
			return x == y
		}
	case bool:
		switch y := b.(type) {
		case bool:
			return x == y
		case int64:
			return boolInt(x) == y
		case float64:
			return float64(boolInt(x)) == y
		}
	case float64:
		if y, ok := numFloat(b); ok && !isInstance(b) {
			return x == y
		}
	case *big.Int:
		if y := toBig(b); y != nil {
			return x.Cmp(y) == 0
		}
		if y, ok := b.(float64); ok {
			f, _ := numFloat(x)
			return f == y
		}
	case *noneType:
		if _, ok := b.(*Instance); !ok {
			return b == None
		}
	case Bytes:
		if y, ok := b.(Bytes); ok {
			return x == y
		}
		if y, ok := b.(*ByteArray); ok {
			return string(x) == string(y.B)
		}
	case *List:
		if y, ok := b.(*List); ok {
			return in.seqEq(x.V, y.V)
		}
	case Tuple:
		if y, ok := b.(Tuple); ok {
			return in.seqEq(x, y)
		}
	case *Dict:
		if y, ok := b.(*Dict); ok {
			if x.live != y.live {
				return false
			}
			for _, kv := range x.Items() {
				v, ok := in.dictGet(y, kv[0])
				if !ok || !in.eq(kv[1], v) {
					return false
				}
			}
			return true
		}
	case *Set:
		if y, ok := b.(*Set); ok {
			if x.D.live != y.D.live {
				return false
			}
			for _, k := range x.D.Keys() {
				if _, ok := in.dictGet(y.D, k); !ok {
					return false
				}
			}
			return true
		}
	case *Range:
		if y, ok := b.(*Range); ok {
			return *x == *y
		}
	case *DictView:
		if x.Kind != 'v' {
			return in.eqValue(in.toSet(x), viewSet(in, b))
		}
	case *ByteArray:
		switch y := b.(type) {
		case *ByteArray:
			return string(x.B) == string(y.B)
		case Bytes:
			return string(x.B) == string(y)
		}
	}
	if x, ok := a.(*Instance); ok {
		if f := in.lookupClassAttr(x.Cls, "__eq__"); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(x, f, x.Cls), []Value{b}, nil)
			if r != NotImplemented {
				return r
			}
		} else if x.Base != nil {
			if y, ok := b.(*Instance); ok && y.Base != nil {
				return in.eqValue(x.Base, y.Base)
			}
			return in.eqValue(x.Base, b)
		}
	}
	if y, ok := b.(*Instance); ok {
		if f := in.lookupClassAttr(y.Cls, "__eq__"); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(y, f, y.Cls), []Value{a}, nil)
			if r != NotImplemented {
				return r
			}
		} else if y.Base != nil {
			return in.eqValue(a, y.Base)
		}
	}
	return a == b
}

func isInstance(v Value) bool { _, ok := v.(*Instance); return ok }

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (in *Interp) seqEq(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	in.enterNest("in comparison")
	defer in.leaveNest()
	for i := range a {
		if !in.is(a[i], b[i]) && !in.eq(a[i], b[i]) {
			return false
		}
	}
	return true
}

var orderNames = map[string][2]string{"<": {"__lt__", "__gt__"}, ">": {"__gt__", "__lt__"}, "<=": {"__le__", "__ge__"}, ">=": {"__ge__", "__le__"}}

func (in *Interp) order(op string, a, b Value) Value {
	c, ok := in.cmp3(a, b)
	if ok {
		switch op {
		case "<":
			return c < 0
		case ">":
			return c > 0
		case "<=":
			return c <= 0
		case ">=":
			return c >= 0
		}
	}
	names := orderNames[op]
	if x, ok := a.(*Instance); ok {
		if f := in.lookupClassAttr(x.Cls, names[0]); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(x, f, x.Cls), []Value{b}, nil)
			if r != NotImplemented {
				return r
			}
		} else if x.Base != nil {
			if y, ok := b.(*Instance); ok && y.Base != nil {
				return in.order(op, x.Base, y.Base)
			}
			return in.order(op, x.Base, b)
		}
	}
	if y, ok := b.(*Instance); ok {
		if f := in.lookupClassAttr(y.Cls, names[1]); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(y, f, y.Cls), []Value{a}, nil)
			if r != NotImplemented {
				return r
			}
		} else if y.Base != nil {
			return in.order(op, a, y.Base)
		}
	}
	if sa, ok := a.(*Set); ok {
		if sb, ok := b.(*Set); ok {
			sub := func(x, y *Set) bool {
				for _, k := range x.D.Keys() {
					if _, ok := in.dictGet(y.D, k); !ok {
						return false
					}
				}
				return true
			}
			switch op {
			case "<=":
				return sub(sa, sb)
			case ">=":
				return sub(sb, sa)
			case "<":
				return sub(sa, sb) && sa.D.live < sb.D.live
			case ">":
				return sub(sb, sa) && sb.D.live < sa.D.live
			}
		}
	}
	in.Raise("TypeError", "'%s' not supported between instances of '%s' and '%s'", op, in.typeName(a), in.typeName(b))
	return nil
}

// cmp3 is a three-way comparison for builtin orderable values.
func (in *Interp) cmp3(a, b Value) (int, bool) {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			switch {
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			}
			return 0, true
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y), true
		}
		return 0, false
	case Bytes:
		if y, ok := b.(Bytes); ok {
			return strings.Compare(string(x), string(y)), true
		}
		return 0, false
	case *List:
		if y, ok := b.(*List); ok {
			return in.seqCmp(x.V, y.V)
		}
		return 0, false
	case Tuple:
		if y, ok := b.(Tuple); ok {
			return in.seqCmp(x, y)
		}
		return 0, false
	}
	if isInt(a) && isInt(b) {
		return toBig(a).Cmp(toBig(b)), true
	}
	if isInstance(a) || isInstance(b) {
		return 0, false
	}
	fa, ok1 := numFloat(a)
	fb, ok2 := numFloat(b)
	if ok1 && ok2 {
		if math.IsNaN(fa) || math.IsNaN(fb) {
			return 2, true // every ordering is false
		}
		switch {
		case fa < fb:
			return -1, true
		case fa > fb:
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func (in *Interp) seqCmp(a, b []Value) (int, bool) {
	in.enterNest("in comparison")
	defer in.leaveNest()
	for i := 0; i < len(a) && i < len(b); i++ {
		if in.is(a[i], b[i]) || in.eq(a[i], b[i]) {
			continue
		}
		if in.truthy(in.order("<", a[i], b[i])) {
			return -1, true
		}
		return 1, true
	}
	switch {
	case len(a) < len(b):
		return -1, true
	case len(a) > len(b):
		return 1, true
	}
	return 0, true
}

// less is the ordering used by sort and min/max.
func (in *Interp) less(a, b Value) bool {
	if c, ok := in.cmp3(a, b); ok && c != 2 {
		return c < 0
	}
	return in.truthy(in.order("<", a, b))
}

func (in *Interp) sortValues(v []Value, key Value, reverse bool) {
	keys := v
	if key != nil && key != None {
		keys = make([]Value, len(v))
		for i, x := range v {
			keys[i] = in.call(key, []Value{x}, nil)
		}
	}
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	in.charge(int64(len(v)) * 2)
	sort.SliceStable(idx, func(i, j int) bool {
		if reverse {
			return in.less(keys[idx[j]], keys[idx[i]])
		}
		return in.less(keys[idx[i]], keys[idx[j]])
	})
	out := make([]Value, len(v))
	for i, j := range idx {
		out[i] = v[j]
	}
	copy(v, out)
}

// ---- containment ----

func (in *Interp) contains(container, item Value) bool {
	switch c := container.(type) {
	case string:
		s, ok := item.(string)
		if !ok {
			in.Raise("TypeError", "'in <string>' requires string as left operand, not %s", in.typeName(item))
		}
		in.charge(int64(len(c) / 64))
		return strings.Contains(c, s)
	case Bytes:
		switch s := item.(type) {
		case Bytes:
			return strings.Contains(string(c), string(s))
		case int64:
			return strings.IndexByte(string(c), byte(s)) >= 0
		}
	case *List:
		for _, v := range c.V {
			if in.is(v, item) || in.eq(v, item) {
				return true
			}
		}
		return false
	case Tuple:
		for _, v := range c {
			if in.is(v, item) || in.eq(v, item) {
				return true
			}
		}
		return false
	case *Dict:
		_, ok := in.dictGet(c, item)
		return ok
	case *Set:
		_, ok := in.dictGet(c.D, item)
		return ok
	case *DictView:
		switch c.Kind {
		case 'k':
			_, ok := in.dictGet(c.D, item)
			return ok
		case 'i':
			t, ok := item.(Tuple)
			if !ok || len(t) != 2 {
				return false
			}
			v, ok := in.dictGet(c.D, t[0])
			return ok && in.eq(v, t[1])
		}
	case *Range:
		n, ok := item.(int64)
		if !ok {
			return false
		}
		if c.Step > 0 {
			return n >= c.Start && n < c.Stop && (n-c.Start)%c.Step == 0
		}
		return n <= c.Start && n > c.Stop && (c.Start-n)%(-c.Step) == 0
	case *Instance:
		if f := in.lookupClassAttr(c.Cls, "__contains__"); f != nil && !isBuiltinAttr(f) {
			return in.truthy(in.call(in.bindAttr(c, f, c.Cls), []Value{item}, nil))
		}
		if c.Base != nil {
			return in.contains(c.Base, item)
		}
	}
	it := in.iter(container)
	for {
		v, ok := in.next(it)
		if !ok {
			return false
		}
		if in.is(v, item) || in.eq(v, item) {
			return true
		}
	}
}

// ---- repr / str ----

func (in *Interp) repr(v Value) string {
	in.step()
	switch v.(type) {
	case *List, Tuple, *Dict, *Set, *Instance, *DictView:
		in.enterNest("while getting the repr of an object")
		defer in.leaveNest()
	}
	switch x := v.(type) {
	case *noneType:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case *big.Int:
		if x.BitLen() > 14000 {
			in.Raise("ValueError", "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit")
		}
		return x.String()
	case float64:
		return floatRepr(x)
	case string:
		return strRepr(x)
	case Bytes:
		return bytesRepr(string(x))
	case *List:
		return in.seqRepr("[", "]", x.V, x)
	case Tuple:
		if len(x) == 1 {
			return "(" + in.repr(x[0]) + ",)"
		}
		return in.seqRepr("(", ")", x, nil)
	case *Dict:
		return in.dictRepr(x)
	case *Set:
		if x.D.live == 0 {
			if x.Frozen {
				return "frozenset()"
			}
			return "set()"
		}
		s := in.seqRepr("{", "}", x.D.Keys(), x)
		if x.Frozen {
			return "frozenset(" + s + ")"
		}
		return s
	case *Function:
		return fmt.Sprintf("<function %s at 0x%x>", x.Qualname, 0x7f0000000000+in.fakeAddr(x))
	case *Builtin:
		if x.Self != nil {
			return fmt.Sprintf("<built-in method %s of %s object at 0x%x>", x.Name, in.typeName(x.Self), 0x7f0000000000+in.fakeAddr(x))
		}
		return "<built-in function " + x.Name + ">"
	case *Method:
		return fmt.Sprintf("<bound method %s of %s>", in.funcQualname(x.Fn), in.repr(x.Self))
	case *Class:
		if x.Builtin != "" && x.Module == "builtins" {
			return "<class '" + x.Name + "'>"
		}
		return "<class '" + x.Module + "." + x.Qualname + "'>"
	case *Module:
		if x.File == "" {
			return "<module '" + x.Name + "' (built-in)>"
		}
		return "<module '" + x.Name + "' from '" + x.File + "'>"
	case *Range:
		if x.Step == 1 {
			return fmt.Sprintf("range(%d, %d)", x.Start, x.Stop)
		}
		return fmt.Sprintf("range(%d, %d, %d)", x.Start, x.Stop, x.Step)
	case *Slice:
		return "slice(" + in.repr(x.Start) + ", " + in.repr(x.Stop) + ", " + in.repr(x.Step) + ")"
	case *ellipsisType:
		return "Ellipsis"
	case *notImplType:
		return "NotImplemented"
	case *Instance:
		if x.Exc != nil {
			if f := in.lookupClassAttr(x.Cls, "__repr__"); f != nil && !isBuiltinAttr(f) {
				return in.reprCall(x, f)
			}
			args := x.Exc.Args
			if len(args) == 1 {
				return x.Cls.Name + "(" + in.repr(args[0]) + ")"
			}
			return x.Cls.Name + in.seqRepr("(", ")", args, nil)
		}
		if f, c := in.lookupClassAttrFrom(x.Cls, "__repr__"); f != nil && (!isBuiltinAttr(f) || c.Builtin == "") {
			return in.reprCall(x, f)
		}
		if x.Base != nil {
			return in.repr(x.Base)
		}
		return fmt.Sprintf("<%s.%s object at 0x%x>", x.Cls.Module, x.Cls.Qualname, 0x7f0000000000+x.id*16)
	case *DictView:
		name := map[byte]string{'k': "dict_keys", 'v': "dict_values", 'i': "dict_items"}[x.Kind]
		return name + "(" + in.seqRepr("[", "]", in.iterToSlice(x), nil) + ")"
	case *Generator:
		return fmt.Sprintf("<generator object %s at 0x%x>", x.name, 0x7f0000000000+in.fakeAddr(x))
	case *File:
		return fmt.Sprintf("<_io.TextIOWrapper name='%s' mode='%s' encoding='utf-8'>", x.name, x.mode)
	case *Pattern:
		return "re.compile(" + strRepr(x.src) + ")"
	case *Match:
		return fmt.Sprintf("<re.Match object; span=(%d, %d), match=%s>", runeOffset(x.s, x.idx[0]), runeOffset(x.s, x.idx[1]), in.repr(x.group(int64(0))))
	case *ByteArray:
		return "bytearray(" + bytesRepr(string(x.B)) + ")"
	case *Property:
		return fmt.Sprintf("<property object at 0x%x>", 0x7f0000000000+in.fakeAddr(x))
	case *Super:
		return "<super: <class '" + x.Cls.Name + "'>, <" + in.typeName(x.Self) + " object>>"
	case *Iterator:
		return fmt.Sprintf("<%s object at 0x%x>", x.Name, 0x7f0000000000+in.fakeAddr(x))
	}
	return fmt.Sprintf("<%s object>", in.typeName(v))
}

func (in *Interp) reprCall(x *Instance, f Value) string {
	r := in.call(in.bindAttr(x, f, x.Cls), nil, nil)
	s, ok := r.(string)
	if !ok {
		in.Raise("TypeError", "__repr__ returned non-string (type %s)", in.typeName(r))
	}
	return s
}

func (in *Interp) funcQualname(f Value) string {
	switch x := f.(type) {
	case *Function:
		return x.Qualname
	case *Builtin:
		return x.Name
	}
	return "?"
}

// fakeAddr gives a deterministic pseudo address for reprs and id().
func (in *Interp) fakeAddr(p any) int64 {
	if in.addrs == nil {
		in.addrs = map[any]int64{}
	}
	if a, ok := in.addrs[p]; ok {
		return a
	}
	if len(in.addrs) > 100000 {
		in.addrs = map[any]int64{}
	}
	in.nextAddr++
	a := in.nextAddr * 48
	in.addrs[p] = a
	return a
}

func ptrKey(p any) string { return fmt.Sprintf("%p", p) }

func (in *Interp) seqRepr(open, close string, v []Value, self any) string {
	if self != nil {
		if in.reprActive(self) {
			return open + "..." + close
		}
		defer in.reprDone(self)
	}
	var b strings.Builder
	b.WriteString(open)
	for i, e := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(in.repr(e))
		if b.Len() > 1<<24 {
			in.mem.need(in, int64(b.Len()))
		}
	}
	b.WriteString(close)
	return b.String()
}

func (in *Interp) reprActive(p any) bool {
	if in.reprStack == nil {
		in.reprStack = map[any]bool{}
	}
	if in.reprStack[p] {
		return true
	}
	in.reprStack[p] = true
	return false
}

func (in *Interp) reprDone(p any) { delete(in.reprStack, p) }

func (in *Interp) dictRepr(d *Dict) string {
	if in.reprActive(d) {
		return "{...}"
	}
	defer in.reprDone(d)
	var b strings.Builder
	prefix, suffix := "", ""
	switch d.Kind {
	case "defaultdict":
		prefix, suffix = "defaultdict("+in.repr(d.Default)+", ", ")"
	case "Counter":
		prefix, suffix = "Counter(", ")"
		if d.live == 0 {
			return "Counter()"
		}
	case "OrderedDict":
		if d.live == 0 {
			return "OrderedDict()"
		}
		prefix, suffix = "OrderedDict(", ")"
	}
	b.WriteString(prefix)
	b.WriteByte('{')
	items := d.Items()
	if d.Kind == "Counter" {
		items = in.counterMostCommon(d)
	}
	for i, kv := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(in.repr(kv[0]))
		b.WriteString(": ")
		b.WriteString(in.repr(kv[1]))
	}
	b.WriteByte('}')
	b.WriteString(suffix)
	return b.String()
}

func floatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	abs := math.Abs(f)
	if abs >= 1e16 || abs < 1e-4 {
		// Python uses exponent form with at least two exponent digits
		s = strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		if len(exp) < 2 {
			exp = strings.Repeat("0", 2-len(exp)) + exp
		}
		return mant + "e" + string(sign) + exp
	}
	if strings.ContainsAny(s, "e") {
		s = strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}

func strRepr(s string) string {
	quote := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString("\\n")
		case r == '\t':
			b.WriteString("\\t")
		case r == '\r':
			b.WriteString("\\r")
		case r == utf8.RuneError:
			b.WriteString("\\ufffd")
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r >= 0x80 && !unicode.IsPrint(r):
			switch {
			case r <= 0xff:
				fmt.Fprintf(&b, "\\x%02x", r)
			case r <= 0xffff:
				fmt.Fprintf(&b, "\\u%04x", r)
			default:
				fmt.Fprintf(&b, "\\U%08x", r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

func bytesRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteString("b")
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString("\\n")
		case c == '\t':
			b.WriteString("\\t")
		case c == '\r':
			b.WriteString("\\r")
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\x%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

func asciiRepr(v Value) string {
	s := v.(string)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r <= 0xffff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	return b.String()
}

// str is str(v).
func (in *Interp) str(v Value) string {
	switch x := v.(type) {
	case string:
		return x
	case *Instance:
		if f := in.lookupClassAttr(x.Cls, "__str__"); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(x, f, x.Cls), nil, nil)
			s, ok := r.(string)
			if !ok {
				in.Raise("TypeError", "__str__ returned non-string (type %s)", in.typeName(r))
			}
			return s
		}
		if f := in.lookupClassAttr(x.Cls, "__str__"); x.Exc != nil && f != nil {
			if b, ok := f.(*Builtin); ok && b.Name != "object.__str__" {
				return in.call(b, []Value{x}, nil).(string)
			}
		}
		if x.Exc != nil {
			args := x.Exc.Args
			switch len(args) {
			case 0:
				return ""
			case 1:
				if isSubclass(x.Cls, in.builtinClass("KeyError")) {
					return in.repr(args[0])
				}
				return in.str(args[0])
			}
			return in.repr(args)
		}
		if f, c := in.lookupClassAttrFrom(x.Cls, "__repr__"); f != nil && (!isBuiltinAttr(f) || c.Builtin == "") {
			return in.repr(v)
		}
		if x.Base != nil {
			if s, ok := x.Base.(string); ok {
				return s
			}
			return in.str(x.Base)
		}
	}
	return in.repr(v)
}
