package text

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// seq - print a sequence of numbers
//
//	seq [-w] [-s SEP] [-f FORMAT] [FIRST [INCREMENT]] LAST
//
// Numbers may be floating point; the output precision is the largest number
// of fraction digits in FIRST and INCREMENT, as GNU seq computes it.

var seqSpec = getopt.Spec{
	Short: "f:s:w",
	Long: []getopt.Long{
		{"equal-width", "w"}, {"format=", "f"}, {"separator=", "s"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder:   true,
	NoPerm:     true,
	NegNumbers: true,
}

type seqNum struct {
	v     float64
	prec  int  // digits after the point
	exp   bool // written with an exponent
	text  string
	width int // printed width with its own precision (GNU scan_arg)
}

func parseSeqNum(s string) (seqNum, bool) {
	t := strings.TrimLeft(s, " \t")
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || strings.ContainsAny(t, "xXpP_") || math.IsNaN(v) {
		if err != nil {
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				return seqNum{}, false
			}
		} else {
			return seqNum{}, false
		}
	}
	n := seqNum{v: v, text: t}
	mant, expPart, hasExp := strings.Cut(strings.ToLower(t), "e")
	if _, frac, ok := strings.Cut(mant, "."); ok {
		n.prec = len(frac)
	}
	if hasExp {
		n.exp = true
		e, _ := strconv.Atoi(expPart)
		n.prec -= e
		if n.prec < 0 {
			n.prec = 0
		}
		n.width = len(strconv.FormatFloat(v, 'f', n.prec, 64))
	} else {
		t = strings.TrimLeft(t, "+")
		n.width = len(t)
		if i := strings.IndexByte(t, '.'); i >= 0 {
			switch {
			case i == len(t)-1:
				n.width-- // "5." prints as "5"
			case i == 0 || !isDigit(t[i-1]):
				n.width++ // ".5" prints as "0.5"
			}
		}
	}
	return n, true
}

// Seq runs seq.
func Seq(inv *command.Invocation) int {
	p := newProc(inv, 1)
	opts, args, ok := p.parse(&seqSpec)
	if !ok {
		return p.status
	}
	sep, format, equal := "\n", "", false
	for _, o := range opts {
		switch o.Name {
		case "f":
			format = o.Val
		case "s":
			sep = o.Val
		case "w":
			equal = true
		}
	}
	if len(args) == 0 {
		return p.usageErr("missing operand")
	}
	if len(args) > 3 {
		return p.usageErr("extra operand %s", quote(args[3]))
	}
	if format != "" && equal {
		p.warn("format string may not be specified when printing equal width strings")
		return p.usageErr("")
	}
	nums := make([]seqNum, len(args))
	for i, a := range args {
		n, ok := parseSeqNum(a)
		if !ok {
			return p.usageErr("invalid floating point argument: %s", quote(a))
		}
		nums[i] = n
	}
	first, step := seqNum{v: 1, text: "1", width: 1}, seqNum{v: 1, text: "1", width: 1}
	last := nums[len(nums)-1]
	switch len(nums) {
	case 2:
		first = nums[0]
	case 3:
		first, step = nums[0], nums[1]
		if step.v == 0 {
			return p.usageErr("invalid Zero increment value: %s", quote(args[1]))
		}
	}
	var fmtNum func(float64) string
	if format != "" {
		f, err := cFloatFormat(format)
		if err != "" {
			p.warn("%s", err)
			return p.exit(1)
		}
		fmtNum = f
	} else {
		prec := max(first.prec, step.prec)
		width := 0
		if equal {
			// GNU get_default_format: the operands' widths adjusted to
			// the common precision.
			fw := first.width + prec - first.prec
			lw := last.width + prec - last.prec
			if last.prec > 0 && prec == 0 {
				lw--
			}
			if last.prec == 0 && prec > 0 {
				lw++
			}
			if first.prec == 0 && prec > 0 {
				fw++
			}
			width = max(fw, lw)
		}
		fmtNum = func(x float64) string {
			s := strconv.FormatFloat(x, 'f', prec, 64)
			if len(s) < width {
				pad := strings.Repeat("0", width-len(s))
				if strings.HasPrefix(s, "-") {
					return "-" + pad + s[1:]
				}
				return pad + s
			}
			return s
		}
	}
	// x = first + i*step, never an accumulated sum; the value just past
	// LAST is still printed when it formats the same as LAST (GNU's guard
	// against binary rounding, e.g. seq 0.1 0.1 0.3).
	past := func(x float64) bool {
		if step.v > 0 {
			return x > last.v
		}
		return x < last.v
	}
	if format == "" && first.isInt() && step.isInt() && last.isInt() {
		return p.seqInts(first, step, last, sep, equal)
	}
	prev := ""
	var prevX float64
	for i := int64(0); ; i++ {
		x := first.v + float64(i)*step.v
		if i > 0 && x == prevX {
			break // beyond float precision: no further distinct values
		}
		prevX = x
		s := fmtNum(x)
		if past(x) {
			if i == 0 || s != fmtNum(last.v) || s == prev {
				break
			}
		}
		if !p.charge(int64(len(s)) + 1) {
			return p.exit(1)
		}
		if i > 0 {
			p.writeString(sep)
		}
		if !p.writeString(s) {
			return p.exit(1)
		}
		prev = s
		if past(x) {
			break
		}
	}
	if prev != "" {
		p.writeString("\n")
	}
	return p.exit(0)
}

// cFloatFormat validates a printf format with exactly one floating-point
// directive and returns a formatter reproducing C's rendering.
func cFloatFormat(format string) (func(float64) string, string) {
	var prefix, suffix strings.Builder
	spec := ""
	seen := false
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			if seen {
				suffix.WriteByte(c)
			} else {
				prefix.WriteByte(c)
			}
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			if seen {
				suffix.WriteByte('%')
			} else {
				prefix.WriteByte('%')
			}
			i++
			continue
		}
		if seen {
			return nil, fmt.Sprintf("format %s has too many %% directives", quote(format))
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0'", format[j]) >= 0 {
			j++
		}
		for j < len(format) && (format[j] >= '0' && format[j] <= '9') {
			j++
		}
		if j < len(format) && format[j] == '.' {
			j++
			for j < len(format) && (format[j] >= '0' && format[j] <= '9') {
				j++
			}
		}
		if j < len(format) && format[j] == 'L' {
			j++
		}
		if j >= len(format) {
			return nil, fmt.Sprintf("format %s ends in %%", quote(format))
		}
		if strings.IndexByte("eEfFgGaA", format[j]) < 0 {
			return nil, fmt.Sprintf("format %s has unknown %%%c directive", quote(format), format[j])
		}
		spec = strings.ReplaceAll(strings.ReplaceAll(format[i:j], "L", ""), "'", "")
		verb := format[j]
		if verb == 'F' {
			verb = 'f'
		}
		if (verb == 'g' || verb == 'G' || verb == 'e' || verb == 'E' || verb == 'f') && !strings.Contains(spec, ".") {
			spec += ".6"
		}
		spec += string(verb)
		seen = true
		i = j
	}
	if !seen {
		return nil, fmt.Sprintf("format %s has no %% directive", quote(format))
	}
	pre, suf := prefix.String(), suffix.String()
	return func(x float64) string {
		if spec[len(spec)-1] == 'a' || spec[len(spec)-1] == 'A' {
			return pre + strconv.FormatFloat(x, 'x', -1, 64) + suf
		}
		return pre + fmt.Sprintf(spec, x) + suf
	}, ""
}

// isInt reports an operand written as a plain integer ("007", "-3").
func (n seqNum) isInt() bool {
	t := strings.TrimPrefix(strings.TrimPrefix(n.text, "+"), "-")
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) {
			return false
		}
	}
	return true
}

// seqInts counts exactly with big integers, as GNU seq does for integer
// operands, so large values neither round nor loop.
func (p *proc) seqInts(first, step, last seqNum, sep string, equal bool) int {
	parse := func(n seqNum) *big.Int {
		v, _ := new(big.Int).SetString(strings.TrimPrefix(n.text, "+"), 10)
		return v
	}
	x, d, end := parse(first), parse(step), parse(last)
	width := 0
	if equal {
		width = max(first.width, last.width)
	}
	neg := d.Sign() < 0
	n := 0
	for ; neg && x.Cmp(end) >= 0 || !neg && x.Cmp(end) <= 0; n++ {
		s := x.String()
		if n == 0 && x.Sign() == 0 && strings.HasPrefix(first.text, "-") {
			s = "-0" // GNU computes in floating point, where -0 keeps its sign
		}
		if len(s) < width {
			z := strings.Repeat("0", width-len(s))
			if s[0] == '-' {
				s = "-" + z + s[1:]
			} else {
				s = z + s
			}
		}
		if !p.charge(int64(len(s)) + 1) {
			return p.exit(1)
		}
		if n > 0 {
			p.writeString(sep)
		}
		if !p.writeString(s) {
			return p.exit(1)
		}
		x.Add(x, d)
	}
	if n > 0 {
		p.writeString("\n")
	}
	return p.exit(0)
}
