package interp

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// format implements format(v, spec) for builtin types and __format__.
func (in *Interp) format(v Value, spec string) string {
	if x, ok := v.(*Instance); ok {
		if f := in.lookupClassAttr(x.Cls, "__format__"); f != nil && !isBuiltinAttr(f) {
			r := in.call(in.bindAttr(x, f, x.Cls), []Value{spec}, nil)
			s, _ := r.(string)
			return s
		}
		if x.Base != nil && spec != "" {
			return in.format(x.Base, spec)
		}
		if spec == "" {
			return in.str(v)
		}
		in.Raise("TypeError", "unsupported format string passed to %s.__format__", x.Cls.Name)
	}
	if spec == "" {
		return in.str(v)
	}
	fs := parseSpec(in, spec)
	switch x := v.(type) {
	case string:
		if fs.typ != 0 && fs.typ != 's' {
			in.Raise("ValueError", "Unknown format code '%c' for object of type 'str'", fs.typ)
		}
		if fs.prec >= 0 {
			r := []rune(x)
			if len(r) > fs.prec {
				x = string(r[:fs.prec])
			}
		}
		return fs.pad(x, '<')
	case bool:
		if fs.typ == 0 {
			return fs.pad(in.str(x), '<')
		}
		return in.format(boolInt(x), spec)
	case int64, *big.Int:
		return in.formatInt(toBig(x), fs)
	case float64:
		return in.formatFloat(x, fs)
	}
	if spec != "" {
		in.Raise("TypeError", "unsupported format string passed to %s.__format__", in.typeName(v))
	}
	return in.str(v)
}

type fmtSpec struct {
	fill  rune
	align byte
	sign  byte
	alt   bool
	zero  bool
	width int
	group byte
	prec  int
	typ   byte
}

func parseSpec(in *Interp, s string) *fmtSpec {
	fs := &fmtSpec{fill: ' ', prec: -1}
	r := []rune(s)
	i := 0
	if len(r) >= 2 && strings.ContainsRune("<>=^", r[1]) {
		fs.fill, fs.align = r[0], byte(r[1])
		i = 2
	} else if len(r) >= 1 && strings.ContainsRune("<>=^", r[0]) {
		fs.align = byte(r[0])
		i = 1
	}
	if i < len(r) && strings.ContainsRune("+- ", r[i]) {
		fs.sign = byte(r[i])
		i++
	}
	if i < len(r) && r[i] == '#' {
		fs.alt = true
		i++
	}
	if i < len(r) && r[i] == '0' {
		fs.zero = true
		i++
	}
	st := i
	for i < len(r) && r[i] >= '0' && r[i] <= '9' {
		i++
	}
	if i > st {
		fs.width, _ = strconv.Atoi(string(r[st:i]))
	}
	if i < len(r) && (r[i] == ',' || r[i] == '_') {
		fs.group = byte(r[i])
		i++
	}
	if i < len(r) && r[i] == '.' {
		i++
		st = i
		for i < len(r) && r[i] >= '0' && r[i] <= '9' {
			i++
		}
		if i == st {
			in.Raise("ValueError", "Format specifier missing precision")
		}
		fs.prec, _ = strconv.Atoi(string(r[st:i]))
	}
	if i < len(r) {
		fs.typ = byte(r[i])
		i++
	}
	if i != len(r) || fs.width > 1<<20 || fs.prec > 1<<20 {
		in.Raise("ValueError", "Invalid format specifier '%s'", s)
	}
	if fs.zero && fs.align == 0 {
		fs.fill, fs.align = '0', '='
	}
	return fs
}

func (fs *fmtSpec) pad(s string, def byte) string {
	n := utf8.RuneCountInString(s)
	if n >= fs.width {
		return s
	}
	align := fs.align
	if align == 0 {
		align = def
	}
	fill := strings.Repeat(string(fs.fill), fs.width-n)
	switch align {
	case '<':
		return s + fill
	case '^':
		left := (fs.width - n) / 2
		return strings.Repeat(string(fs.fill), left) + s + strings.Repeat(string(fs.fill), fs.width-n-left)
	case '=':
		if len(s) > 0 && (s[0] == '-' || s[0] == '+' || s[0] == ' ') {
			return s[:1] + fill + s[1:]
		}
		if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0o") {
			return s[:2] + fill + s[2:]
		}
		return fill + s
	}
	return fill + s
}

func groupDigits(s string, sep byte, every int) string {
	if len(s) <= every {
		return s
	}
	var b strings.Builder
	pre := len(s) % every
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += every {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(s[i : i+every])
	}
	return b.String()
}

func (in *Interp) formatInt(x *big.Int, fs *fmtSpec) string {
	switch fs.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		f, _ := new(big.Float).SetInt(x).Float64()
		return in.formatFloat(f, fs)
	case 'c':
		return fs.pad(string(rune(x.Int64())), '<')
	}
	neg := x.Sign() < 0
	a := new(big.Int).Abs(x)
	var digits, prefix string
	switch fs.typ {
	case 0, 'd', 'n':
		digits = a.String()
	case 'x':
		digits, prefix = a.Text(16), "0x"
	case 'X':
		digits, prefix = strings.ToUpper(a.Text(16)), "0X"
	case 'o':
		digits, prefix = a.Text(8), "0o"
	case 'b':
		digits, prefix = a.Text(2), "0b"
	default:
		in.Raise("ValueError", "Unknown format code '%c' for object of type 'int'", fs.typ)
	}
	if fs.group != 0 {
		every := 3
		if fs.typ == 'x' || fs.typ == 'X' || fs.typ == 'o' || fs.typ == 'b' {
			every = 4
		}
		digits = groupDigits(digits, fs.group, every)
	}
	if fs.alt {
		digits = prefix + digits
	}
	return fs.pad(signStr(neg, fs.sign)+digits, '>')
}

func signStr(neg bool, sign byte) string {
	if neg {
		return "-"
	}
	switch sign {
	case '+':
		return "+"
	case ' ':
		return " "
	}
	return ""
}

func (in *Interp) formatFloat(f float64, fs *fmtSpec) string {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	prec := fs.prec
	var s string
	switch fs.typ {
	case 'f', 'F', '%':
		if prec < 0 {
			prec = 6
		}
		if fs.typ == '%' {
			a *= 100
		}
		s = strconv.FormatFloat(a, 'f', prec, 64)
		if fs.alt && prec == 0 {
			s += "."
		}
		if fs.typ == '%' {
			s += "%"
		}
	case 'e', 'E':
		if prec < 0 {
			prec = 6
		}
		s = fixExp(strconv.FormatFloat(a, 'e', prec, 64))
		if fs.typ == 'E' {
			s = strings.ToUpper(s)
		}
	case 'g', 'G':
		if prec < 0 {
			prec = 6
		}
		if prec == 0 {
			prec = 1
		}
		s = fixExp(strconv.FormatFloat(a, 'g', prec, 64))
		if fs.alt && !strings.Contains(s, ".") {
			s += "."
		}
		if fs.typ == 'G' {
			s = strings.ToUpper(s)
		}
	case 0:
		if prec < 0 {
			s = floatRepr(a)
		} else {
			s = fixExp(strconv.FormatFloat(a, 'g', max(prec, 1), 64))
			if !strings.ContainsAny(s, ".e") && !math.IsInf(a, 0) && !math.IsNaN(a) {
				s += ".0"
			}
		}
	case 'n':
		s = fixExp(strconv.FormatFloat(a, 'g', 6, 64))
	default:
		in.Raise("ValueError", "Unknown format code '%c' for object of type 'float'", fs.typ)
	}
	if math.IsInf(a, 0) {
		s = "inf"
	} else if math.IsNaN(a) {
		s = "nan"
	}
	if fs.group != 0 {
		intPart, frac, hasFrac := strings.Cut(s, ".")
		intPart = groupDigits(intPart, fs.group, 3)
		if hasFrac {
			s = intPart + "." + frac
		} else {
			s = intPart
		}
	}
	return fs.pad(signStr(neg, fs.sign)+s, '>')
}

// fixExp turns Go's e+5 into Python's e+05.
func fixExp(s string) string {
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return s
	}
	mant, exp := s[:i+1], s[i+1:]
	sign := ""
	if len(exp) > 0 && (exp[0] == '+' || exp[0] == '-') {
		sign, exp = exp[:1], exp[1:]
	}
	if len(exp) < 2 {
		exp = "0" + exp
	}
	return mant + sign + exp
}

// percentFormat implements str % args.
func (in *Interp) percentFormat(s string, args Value) string {
	var items []Value
	var mapping Value
	switch a := args.(type) {
	case Tuple:
		items = a
	case *Dict:
		mapping = a
		items = []Value{a}
	default:
		items = []Value{a}
	}
	var b strings.Builder
	ai := 0
	nextArg := func() Value {
		if ai >= len(items) {
			in.Raise("TypeError", "not enough arguments for format string")
		}
		ai++
		return items[ai-1]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			in.Raise("ValueError", "incomplete format")
		}
		var arg Value
		usedMap := false
		if s[i] == '(' {
			end := strings.IndexByte(s[i:], ')')
			if end < 0 || mapping == nil {
				in.Raise("TypeError", "format requires a mapping")
			}
			arg = in.getItem(mapping, s[i+1:i+end])
			usedMap = true
			i += end + 1
		}
		fs := &fmtSpec{fill: ' ', prec: -1}
		for ; i < len(s) && strings.IndexByte("-+ #0", s[i]) >= 0; i++ {
			switch s[i] {
			case '-':
				fs.align = '<'
			case '+':
				fs.sign = '+'
			case ' ':
				fs.sign = ' '
			case '#':
				fs.alt = true
			case '0':
				fs.zero = true
			}
		}
		st := i
		if i < len(s) && s[i] == '*' {
			fs.width = int(in.toInt64(nextArg()))
			if fs.width > 1<<20 || fs.width < -(1<<20) {
				in.Raise("MemoryError", "")
			}
			i++
		} else {
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			fs.width, _ = strconv.Atoi(s[st:i])
		}
		if i < len(s) && s[i] == '.' {
			i++
			st = i
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			fs.prec, _ = strconv.Atoi(s[st:i])
		}
		if fs.width > 1<<20 || fs.prec > 1<<20 {
			in.Raise("MemoryError", "")
		}
		if i >= len(s) {
			in.Raise("ValueError", "incomplete format")
		}
		typ := s[i]
		if typ == '%' {
			b.WriteByte('%')
			continue
		}
		if !usedMap {
			arg = nextArg()
		}
		if fs.zero && fs.align == 0 && typ != 's' && typ != 'r' {
			fs.fill, fs.align = '0', '='
		}
		switch typ {
		case 's':
			str := in.str(arg)
			if fs.prec >= 0 && len([]rune(str)) > fs.prec {
				str = string([]rune(str)[:fs.prec])
			}
			b.WriteString(fs.pad(str, '>'))
		case 'r', 'a':
			b.WriteString(fs.pad(in.repr(arg), '>'))
		case 'd', 'i', 'u':
			var n *big.Int
			if f, ok := arg.(float64); ok {
				n, _ = new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
			} else if isInt(arg) {
				n = toBig(arg)
			} else {
				in.Raise("TypeError", "%%%c format: a real number is required, not %s", typ, in.typeName(arg))
			}
			fs.typ = 'd'
			b.WriteString(in.formatInt(n, fs))
		case 'x', 'X', 'o':
			fs.typ = typ
			b.WriteString(in.formatInt(toBig(arg), fs))
		case 'c':
			if str, ok := arg.(string); ok {
				b.WriteString(str)
			} else {
				b.WriteRune(rune(in.toInt64(arg)))
			}
		case 'f', 'F', 'e', 'E', 'g', 'G':
			f, ok := in.toFloat(arg)
			if !ok {
				in.Raise("TypeError", "must be real number, not %s", in.typeName(arg))
			}
			fs.typ = typ
			if fs.prec < 0 {
				fs.prec = 6
			}
			b.WriteString(in.formatFloat(f, fs))
		default:
			in.Raise("ValueError", "unsupported format character '%c' (0x%x) at index %d", typ, typ, i)
		}
	}
	if ai < len(items) && mapping == nil {
		in.Raise("TypeError", "not all arguments converted during string formatting")
	}
	return b.String()
}

// strFormat implements str.format.
func (in *Interp) strFormat(s string, args []Value, kw []KW) string {
	var b strings.Builder
	auto := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				i++
			}
			b.WriteByte('}')
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		depth := 1
		j := i + 1
		for ; j < len(s) && depth > 0; j++ {
			if s[j] == '{' {
				depth++
			} else if s[j] == '}' {
				depth--
			}
		}
		if depth != 0 {
			in.Raise("ValueError", "expected '}' before end of string")
		}
		field := s[i+1 : j-1]
		i = j - 1
		spec := ""
		conv := byte(0)
		if k := strings.IndexByte(field, ':'); k >= 0 {
			field, spec = field[:k], field[k+1:]
			if strings.Contains(spec, "{") {
				spec = in.strFormat(spec, args, kw)
			}
		}
		if k := strings.IndexByte(field, '!'); k >= 0 {
			if k+1 < len(field) {
				conv = field[k+1]
			}
			field = field[:k]
		}
		// first name part
		name := field
		rest := ""
		if k := strings.IndexAny(field, ".["); k >= 0 {
			name, rest = field[:k], field[k:]
		}
		var v Value
		if name == "" {
			if auto >= len(args) {
				in.Raise("IndexError", "Replacement index %d out of range for positional args tuple", auto)
			}
			v = args[auto]
			auto++
		} else if n, err := strconv.Atoi(name); err == nil {
			if n >= len(args) {
				in.Raise("IndexError", "Replacement index %d out of range for positional args tuple", n)
			}
			v = args[n]
		} else {
			found := false
			for _, k := range kw {
				if k.Name == name {
					v, found = k.V, true
				}
			}
			if !found {
				in.raiseKeyError(name)
			}
		}
		for rest != "" {
			if rest[0] == '.' {
				k := strings.IndexAny(rest[1:], ".[")
				attr := rest[1:]
				if k >= 0 {
					attr, rest = rest[1:k+1], rest[k+1:]
				} else {
					rest = ""
				}
				v = in.getAttr(v, attr)
			} else {
				k := strings.IndexByte(rest, ']')
				key := rest[1:k]
				rest = rest[k+1:]
				if n, err := strconv.Atoi(key); err == nil {
					v = in.getItem(v, int64(n))
				} else {
					v = in.getItem(v, key)
				}
			}
		}
		switch conv {
		case 'r':
			v = in.repr(v)
		case 's':
			v = in.str(v)
		case 'a':
			v = asciiRepr(in.repr(v))
		}
		b.WriteString(in.format(v, spec))
	}
	return b.String()
}
