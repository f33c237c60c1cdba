package misc

import (
	"errors"
	"math/big"
)

// The -l library: s(x) c(x) a(x) l(x) e(x). Each is computed in big.Float
// with generous guard digits and truncated to scale digits, as bc's own
// library truncates its result; j(n,x) is not modeled.

func (m *bcMachine) mathCall(e *bcExpr, caller string) (num, bool, error) {
	switch e.text {
	case "s", "c", "a", "l", "e":
	case "j":
		m.inv.Sys.Partial("bc -l j()")
		return num{}, true, &bcRuntimeError{errors.New("Function j not defined."), caller}
	default:
		return num{}, false, nil
	}
	if _, user := m.funcs[e.text]; user {
		return num{}, false, nil
	}
	if len(e.args) != 1 {
		return num{}, true, &bcRuntimeError{errors.New("Parameter number mismatch"), caller}
	}
	x, err := m.eval(e.args[0], caller)
	if err != nil {
		return num{}, true, err
	}
	scale := m.scale
	prec := uint((scale+x.length()+20)*4 + 64)
	if m.inv.Sys.Charge(int64(prec)*int64(prec)/64) != nil {
		return num{}, true, errBCStop
	}
	f := toFloat(x, prec)
	var r *big.Float
	switch e.text {
	case "s":
		r = sinF(f, prec)
	case "c":
		r = sinF(new(big.Float).SetPrec(prec).Add(f, new(big.Float).Quo(piF(prec), big.NewFloat(2))), prec)
	case "a":
		r = atanF(f, prec)
	case "e":
		r = expF(f, prec)
	case "l":
		if f.Sign() <= 0 {
			// bc's l() of a non-positive number is a large negative value;
			// report it instead.
			return num{}, true, &bcRuntimeError{errors.New("l() of a non-positive number"), caller}
		}
		r = lnF(f, prec)
	}
	return fromFloat(r, scale), true, nil
}

func toFloat(x num, prec uint) *big.Float {
	f := new(big.Float).SetPrec(prec).SetInt(x.v)
	return f.Quo(f, new(big.Float).SetPrec(prec).SetInt(pow10(x.scale)))
}

// fromFloat truncates f to scale decimal digits.
func fromFloat(f *big.Float, scale int) num {
	t := new(big.Float).SetPrec(f.Prec()).Mul(f, new(big.Float).SetPrec(f.Prec()).SetInt(pow10(scale)))
	i, _ := t.Int(nil) // truncates toward zero
	return num{v: i, scale: scale}
}

func newF(prec uint, v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }

func piF(prec uint) *big.Float {
	// Machin: pi = 16 atan(1/5) - 4 atan(1/239)
	a := atanSeries(new(big.Float).SetPrec(prec).Quo(newF(prec, 1), newF(prec, 5)), prec)
	b := atanSeries(new(big.Float).SetPrec(prec).Quo(newF(prec, 1), newF(prec, 239)), prec)
	a.Mul(a, newF(prec, 16))
	b.Mul(b, newF(prec, 4))
	return a.Sub(a, b)
}

func epsilon(prec uint) *big.Float {
	return new(big.Float).SetPrec(prec).SetMantExp(newF(prec, 1), -int(prec))
}

// atanSeries is the Taylor series, for |x| small.
func atanSeries(x *big.Float, prec uint) *big.Float {
	sum := new(big.Float).SetPrec(prec).Set(x)
	x2 := new(big.Float).SetPrec(prec).Mul(x, x)
	term := new(big.Float).SetPrec(prec).Set(x)
	eps := epsilon(prec)
	for k := 3; ; k += 2 {
		term.Mul(term, x2).Neg(term)
		t := new(big.Float).SetPrec(prec).Quo(term, newF(prec, float64(k)))
		if new(big.Float).Abs(t).Cmp(eps) < 0 {
			return sum
		}
		sum.Add(sum, t)
	}
}

func atanF(x *big.Float, prec uint) *big.Float {
	one := newF(prec, 1)
	if new(big.Float).Abs(x).Cmp(one) > 0 {
		// atan(x) = ±pi/2 - atan(1/x)
		inv := new(big.Float).SetPrec(prec).Quo(one, x)
		half := new(big.Float).SetPrec(prec).Quo(piF(prec), newF(prec, 2))
		if x.Sign() < 0 {
			half.Neg(half)
		}
		return half.Sub(half, atanF(inv, prec))
	}
	// Halve the argument twice: atan(x) = 2 atan(x / (1 + sqrt(1 + x^2))).
	y := new(big.Float).SetPrec(prec).Set(x)
	for i := 0; i < 3; i++ {
		s := new(big.Float).SetPrec(prec).Mul(y, y)
		s.Add(s, one).Sqrt(s).Add(s, one)
		y.Quo(y, s)
	}
	r := atanSeries(y, prec)
	return r.Mul(r, newF(prec, 8))
}

func sinF(x *big.Float, prec uint) *big.Float {
	twoPi := new(big.Float).SetPrec(prec).Mul(piF(prec), newF(prec, 2))
	// Reduce into (-2pi, 2pi).
	q := new(big.Float).SetPrec(prec).Quo(x, twoPi)
	qi, _ := q.Int(nil)
	r := new(big.Float).SetPrec(prec).Sub(x, new(big.Float).SetPrec(prec).Mul(twoPi, new(big.Float).SetPrec(prec).SetInt(qi)))
	sum := new(big.Float).SetPrec(prec).Set(r)
	term := new(big.Float).SetPrec(prec).Set(r)
	r2 := new(big.Float).SetPrec(prec).Mul(r, r)
	eps := epsilon(prec)
	for k := 2; ; k += 2 {
		term.Mul(term, r2).Neg(term).Quo(term, newF(prec, float64(k*(k+1))))
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			return sum
		}
		sum.Add(sum, term)
	}
}

func expF(x *big.Float, prec uint) *big.Float {
	// e^x = (e^(x/2^k))^(2^k)
	k := 0
	y := new(big.Float).SetPrec(prec).Set(x)
	for new(big.Float).Abs(y).Cmp(newF(prec, 0.5)) > 0 {
		y.Quo(y, newF(prec, 2))
		k++
	}
	sum := newF(prec, 1)
	term := newF(prec, 1)
	eps := epsilon(prec)
	for n := 1; ; n++ {
		term.Mul(term, y).Quo(term, newF(prec, float64(n)))
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
		sum.Add(sum, term)
	}
	for ; k > 0; k-- {
		sum.Mul(sum, sum)
	}
	return sum
}

func lnF(x *big.Float, prec uint) *big.Float {
	// x = m * 2^e with m in [0.5, 1); ln x = ln m + e ln 2.
	m := new(big.Float).SetPrec(prec)
	e := x.MantExp(m)
	r := atanhLn(m, prec)
	if e != 0 {
		ln2 := atanhLn(newF(prec, 2), prec)
		r.Add(r, ln2.Mul(ln2, newF(prec, float64(e))))
	}
	return r
}

// atanhLn is ln(x) = 2 atanh((x-1)/(x+1)), for x near 1.
func atanhLn(x *big.Float, prec uint) *big.Float {
	one := newF(prec, 1)
	z := new(big.Float).SetPrec(prec).Sub(x, one)
	z.Quo(z, new(big.Float).SetPrec(prec).Add(x, one))
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	sum := new(big.Float).SetPrec(prec).Set(z)
	term := new(big.Float).SetPrec(prec).Set(z)
	eps := epsilon(prec)
	for k := 3; ; k += 2 {
		term.Mul(term, z2)
		t := new(big.Float).SetPrec(prec).Quo(term, newF(prec, float64(k)))
		if new(big.Float).Abs(t).Cmp(eps) < 0 {
			break
		}
		sum.Add(sum, t)
	}
	return sum.Mul(sum, newF(prec, 2))
}
