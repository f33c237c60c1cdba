package interp

import (
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

// pytestAssert runs an assert statement in a test module with pytest's
// assertion introspection: on failure the message shows the compared
// values ("assert 3 == 4") as pytest's rewritten asserts do.
func (in *Interp) pytestAssert(fr *Frame, s *syntax.Assert) {
	var explain string
	ok := true
	switch t := s.Test.(type) {
	case *syntax.Compare:
		if len(t.Ops) == 1 {
			l := in.eval(fr, t.Left)
			r := in.eval(fr, t.Comps[0])
			ok = in.truthy(in.compare(t.Ops[0], l, r))
			if !ok {
				explain = "assert " + saferepr(in, l) + " " + t.Ops[0] + " " + saferepr(in, r)
				explain += in.compareDetail(t.Ops[0], l, r)
				explain += in.whereLines(fr, t.Left, l)
				explain += in.whereLines(fr, t.Comps[0], r)
			}
		} else {
			ok = in.truthy(in.eval(fr, t))
			if !ok {
				explain = "assert " + "False"
			}
		}
	case *syntax.UnaryOp:
		if t.Op == "not" {
			v := in.eval(fr, t.Operand)
			ok = !in.truthy(v)
			if !ok {
				explain = "assert not " + saferepr(in, v) + in.whereLines(fr, t.Operand, v)
			}
			break
		}
		v := in.eval(fr, t)
		ok = in.truthy(v)
		explain = "assert " + saferepr(in, v)
	case *syntax.BoolOp:
		v := in.eval(fr, t)
		ok = in.truthy(v)
		if !ok {
			explain = "assert " + saferepr(in, v)
		}
	default:
		v := in.eval(fr, s.Test)
		ok = in.truthy(v)
		if !ok {
			explain = "assert " + saferepr(in, v) + in.whereLines(fr, s.Test, v)
		}
	}
	if ok {
		return
	}
	msg := explain
	custom := s.Msg != nil
	if custom {
		msg = in.str(in.eval(fr, s.Msg)) + "\n" + explain
	}
	exc := in.newExc(in.builtinClass("AssertionError"), Tuple{msg})
	exc.Dict.SetStr("_pytest_custom", custom)
	in.raiseExc(exc)
}

// whereLines explains a call result as pytest does: " +  where 3 = f(1)".
func (in *Interp) whereLines(fr *Frame, e syntax.Expr, v Value) string {
	c, ok := e.(*syntax.Call)
	if !ok {
		return ""
	}
	n, ok := c.Func.(*syntax.NameExpr)
	if !ok || len(c.Args) == 0 {
		return ""
	}
	name := n.Id
	var args []string
	for _, a := range c.Args {
		if n, ok := a.(*syntax.NameExpr); ok {
			var av Value
			if err := in.catch(func() { av = in.lookupName(fr, n.Id) }); err != nil {
				return ""
			}
			args = append(args, saferepr(in, av))
		} else if k, ok := a.(*syntax.Const); ok {
			args = append(args, saferepr(in, in.constValue(k)))
		} else {
			return ""
		}
	}
	return "\n +  where " + saferepr(in, v) + " = " + name + "(" + strings.Join(args, ", ") + ")"
}

// compareDetail adds pytest's explanation for == on containers and strings.
func (in *Interp) compareDetail(op string, l, r Value) string {
	if op != "==" {
		return ""
	}
	switch a := l.(type) {
	case string:
		b, ok := r.(string)
		if !ok {
			return ""
		}
		if strings.Contains(a, "\n") || strings.Contains(b, "\n") {
			var sb strings.Builder
			sb.WriteString("\n  \n")
			for _, line := range strings.Split(b, "\n") {
				if !strings.Contains("\n"+a+"\n", "\n"+line+"\n") {
					sb.WriteString("  - " + line + "\n")
				}
			}
			for _, line := range strings.Split(a, "\n") {
				if !strings.Contains("\n"+b+"\n", "\n"+line+"\n") {
					sb.WriteString("  + " + line + "\n")
				}
			}
			return strings.TrimRight(sb.String(), "\n")
		}
		return "\n  \n  - " + b + "\n  + " + a
	case *Dict:
		b, ok := r.(*Dict)
		if !ok {
			return ""
		}
		var same, diff, left, right []string
		for _, kv := range a.Items() {
			if v, ok := in.dictGet(b, kv[0]); ok {
				if in.eq(v, kv[1]) {
					same = append(same, "")
				} else {
					diff = append(diff, "{"+saferepr(in, kv[0])+": "+saferepr(in, kv[1])+"} != {"+saferepr(in, kv[0])+": "+saferepr(in, v)+"}")
				}
			} else {
				left = append(left, saferepr(in, kv[0])+": "+saferepr(in, kv[1]))
			}
		}
		for _, kv := range b.Items() {
			if _, ok := in.dictGet(a, kv[0]); !ok {
				right = append(right, saferepr(in, kv[0])+": "+saferepr(in, kv[1]))
			}
		}
		var sb strings.Builder
		sb.WriteString("\n  ")
		if len(same) > 0 {
			sb.WriteString("\n  Omitting " + itoa(len(same)) + " identical items, use -vv to show")
		}
		if len(diff) > 0 {
			sb.WriteString("\n  Differing items:")
			for _, d := range diff {
				sb.WriteString("\n  " + d)
			}
		}
		if len(left) > 0 {
			sb.WriteString("\n  Left contains " + itoa(len(left)) + " more item" + plural(len(left)) + ":\n  {" + strings.Join(left, ", ") + "}")
		}
		if len(right) > 0 {
			sb.WriteString("\n  Right contains " + itoa(len(right)) + " more item" + plural(len(right)) + ":\n  {" + strings.Join(right, ", ") + "}")
		}
		sb.WriteString("\n  Use -v to get more diff")
		return sb.String()
	case *List:
		b, ok := r.(*List)
		if !ok {
			return ""
		}
		for i := 0; i < len(a.V) && i < len(b.V); i++ {
			if !in.eq(a.V[i], b.V[i]) {
				return "\n  \n  At index " + itoa(i) + " diff: " + saferepr(in, a.V[i]) + " != " + saferepr(in, b.V[i]) + "\n  Use -v to get more diff"
			}
		}
		if len(a.V) > len(b.V) {
			return "\n  \n  Left contains " + itoa(len(a.V)-len(b.V)) + " more item" + plural(len(a.V)-len(b.V)) + ", first extra item: " + saferepr(in, a.V[len(b.V)]) + "\n  Use -v to get more diff"
		}
		if len(b.V) > len(a.V) {
			return "\n  \n  Right contains " + itoa(len(b.V)-len(a.V)) + " more item" + plural(len(b.V)-len(a.V)) + ", first extra item: " + saferepr(in, b.V[len(a.V)]) + "\n  Use -v to get more diff"
		}
	}
	return ""
}

// saferepr is repr truncated to 240 characters as pytest shows it.
func saferepr(in *Interp, v Value) (s string) {
	if err := in.catch(func() { s = in.repr(v) }); err != nil {
		return "<[" + in.excLine(err.Exc) + "] object>"
	}
	r := []rune(s)
	if len(r) > 240 {
		return string(r[:117]) + "..." + string(r[len(r)-120:])
	}
	return s
}
