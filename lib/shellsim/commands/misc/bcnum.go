package misc

import (
	"errors"
	"math/big"
	"strings"
)

// num is a bc number: v / 10^scale, truncated (never rounded) like bc.
type num struct {
	v     *big.Int
	scale int
	// negZero marks a power whose negative result truncated to zero: GNU
	// bc keeps the sign there and prints "-0".
	negZero bool
}

var (
	errDivZero  = errors.New("Divide by zero")
	errModZero  = errors.New("Modulo by zero")
	errNegSqrt  = errors.New("Square root of a negative number")
	errExpRange = errors.New("exponent too large in raise")
	bigTen      = big.NewInt(10)
)

func pow10(n int) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil) }

func newInt(n int64) num { return num{v: big.NewInt(n), scale: 0} }

// rescale returns x with scale s (truncating when s is smaller).
func (x num) rescale(s int) num {
	switch {
	case s == x.scale:
		return x
	case s > x.scale:
		return num{v: new(big.Int).Mul(x.v, pow10(s-x.scale)), scale: s}
	}
	return num{v: new(big.Int).Quo(x.v, pow10(x.scale-s)), scale: s}
}

func (x num) isZero() bool { return x.v.Sign() == 0 }

func (x num) cmp(y num) int {
	s := max(x.scale, y.scale)
	return x.rescale(s).v.Cmp(y.rescale(s).v)
}

func add(x, y num) num {
	s := max(x.scale, y.scale)
	return num{v: new(big.Int).Add(x.rescale(s).v, y.rescale(s).v), scale: s}
}

func sub(x, y num) num {
	s := max(x.scale, y.scale)
	return num{v: new(big.Int).Sub(x.rescale(s).v, y.rescale(s).v), scale: s}
}

func mul(x, y num, scale int) num {
	full := num{v: new(big.Int).Mul(x.v, y.v), scale: x.scale + y.scale}
	return full.rescale(min(x.scale+y.scale, max(scale, x.scale, y.scale)))
}

func div(x, y num, scale int) (num, error) {
	if y.isZero() {
		return num{}, errDivZero
	}
	// x/y * 10^scale = X * 10^(scale+sy) / (Y * 10^sx)
	n := new(big.Int).Mul(x.v, pow10(scale+y.scale))
	d := new(big.Int).Mul(y.v, pow10(x.scale))
	return num{v: n.Quo(n, d), scale: scale}, nil
}

func mod(x, y num, scale int) (num, error) {
	if y.isZero() {
		return num{}, errModZero
	}
	q, err := div(x, y, scale)
	if err != nil {
		return num{}, err
	}
	p := num{v: new(big.Int).Mul(q.v, y.v), scale: q.scale + y.scale}
	return sub(x, p).rescale(max(scale+y.scale, x.scale)), nil
}

func power(x, y num, scale int) (num, error) {
	e := y.rescale(0).v
	if !e.IsInt64() || e.Int64() > 1<<20 || e.Int64() < -(1<<20) {
		return num{}, errExpRange
	}
	n := e.Int64()
	neg := n < 0
	if neg {
		n = -n
	}
	r := num{v: new(big.Int).Exp(x.v, big.NewInt(n), nil), scale: x.scale * int(n)}
	if neg {
		return div(newInt(1), r, scale)
	}
	t := r.rescale(min(x.scale*int(n), max(scale, x.scale)))
	t.negZero = t.v.Sign() == 0 && r.v.Sign() < 0
	return t, nil
}

func sqrtNum(x num, scale int) (num, error) {
	if x.v.Sign() < 0 {
		return num{}, errNegSqrt
	}
	s := max(scale, x.scale)
	n := new(big.Int).Mul(x.v, pow10(2*s-x.scale))
	return num{v: n.Sqrt(n), scale: s}, nil
}

// parseNum converts a bc constant in base ibase; single-digit constants
// keep their face value whatever ibase is, as in bc.
func parseNum(s string, ibase int) num {
	digit := func(c byte) int64 {
		if c >= '0' && c <= '9' {
			return int64(c - '0')
		}
		return int64(c-'A') + 10
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if len(intPart) == 1 && frac == "" && !strings.Contains(s, ".") {
		return newInt(digit(intPart[0]))
	}
	base := big.NewInt(int64(ibase))
	v := new(big.Int)
	for i := 0; i < len(intPart); i++ {
		d := digit(intPart[i])
		if d >= int64(ibase) {
			d = int64(ibase) - 1
		}
		v.Mul(v, base).Add(v, big.NewInt(d))
	}
	if frac == "" {
		return num{v: v, scale: 0}
	}
	if ibase == 10 {
		f, _ := new(big.Int).SetString(frac, 10)
		return num{v: new(big.Int).Add(new(big.Int).Mul(v, pow10(len(frac))), f), scale: len(frac)}
	}
	// Other bases: accumulate the fraction exactly, keep len(frac) digits.
	numer, denom := new(big.Int), big.NewInt(1)
	for i := 0; i < len(frac); i++ {
		d := digit(frac[i])
		numer.Mul(numer, base).Add(numer, big.NewInt(d))
		denom.Mul(denom, base)
	}
	sc := len(frac)
	fv := new(big.Int).Mul(numer, pow10(sc))
	fv.Quo(fv, denom)
	return num{v: new(big.Int).Add(new(big.Int).Mul(v, pow10(sc)), fv), scale: sc}
}

// format prints x in obase the way bc does, without line splitting.
func (x num) format(obase int) string {
	if x.isZero() {
		if x.negZero {
			return "-0"
		}
		return "0"
	}
	neg := x.v.Sign() < 0
	a := new(big.Int).Abs(x.v)
	ip, fp := new(big.Int).QuoRem(a, pow10(x.scale), new(big.Int))
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if obase == 10 {
		if ip.Sign() != 0 {
			b.WriteString(ip.String())
		}
		if x.scale > 0 {
			f := fp.String()
			b.WriteByte('.')
			b.WriteString(strings.Repeat("0", x.scale-len(f)))
			b.WriteString(f)
		}
		return b.String()
	}
	digits := func(v *big.Int, width int) string {
		if obase <= 16 {
			return strings.ToUpper(v.Text(obase))
		}
		// Bases above 16 print each digit as a space-led decimal group.
		var parts []string
		bb := big.NewInt(int64(obase))
		w := len(big.NewInt(int64(obase - 1)).String())
		if v.Sign() == 0 {
			parts = append(parts, " "+strings.Repeat("0", w))
		}
		for t := new(big.Int).Set(v); t.Sign() > 0; {
			r := new(big.Int)
			t.QuoRem(t, bb, r)
			s := r.String()
			parts = append([]string{" " + strings.Repeat("0", w-len(s)) + s}, parts...)
		}
		return strings.Join(parts, "")
	}
	if ip.Sign() != 0 || obase > 16 {
		b.WriteString(digits(ip, 0))
	}
	if x.scale > 0 {
		b.WriteByte('.')
		// Produce fraction digits until their weight passes 10^-scale.
		limit := pow10(x.scale)
		weight := big.NewInt(1)
		f := new(big.Int).Set(fp)
		bb := big.NewInt(int64(obase))
		for weight.Cmp(limit) < 0 {
			f.Mul(f, bb)
			d := new(big.Int)
			d.QuoRem(f, pow10(x.scale), f)
			if obase <= 16 {
				b.WriteString(strings.ToUpper(d.Text(obase)))
			} else {
				s := d.String()
				w := len(big.NewInt(int64(obase - 1)).String())
				b.WriteString(" " + strings.Repeat("0", w-len(s)) + s)
			}
			weight.Mul(weight, bb)
		}
	}
	return b.String()
}

// splitLine breaks long output as bc does (BC_LINE_LENGTH 70): 68
// characters and a backslash per line.
func splitLine(s string) string {
	const width = 70
	if len(s) < width {
		return s
	}
	var b strings.Builder
	for len(s) >= width-1 {
		b.WriteString(s[:width-2])
		b.WriteString("\\\n")
		s = s[width-2:]
	}
	b.WriteString(s)
	return b.String()
}

// length is bc's length(): the number of significant decimal digits.
func (x num) length() int {
	a := new(big.Int).Abs(x.v)
	if a.Sign() == 0 {
		return max(1, x.scale)
	}
	n := len(a.String())
	return max(n, x.scale)
}
