package interp

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// json: dumps/loads with CPython's exact formatting (separators, indent,
// sort_keys, ensure_ascii, default, allow_nan) and error messages.

type jsonEnc struct {
	in        *Interp
	indent    string
	hasIndent bool
	itemSep   string
	keySep    string
	sortKeys  bool
	ascii     bool
	allowNaN  bool
	skipKeys  bool
	def       Value
	b         strings.Builder
	depth     int
	seen      map[any]bool
}

func (in *Interp) jsonDumps(obj Value, kw []KW) string {
	e := &jsonEnc{in: in, itemSep: ", ", keySep: ": ", ascii: true, allowNaN: true, seen: map[any]bool{}}
	for _, k := range kw {
		switch k.Name {
		case "indent":
			if k.V != None {
				e.hasIndent = true
				if n, ok := k.V.(int64); ok {
					e.indent = strings.Repeat(" ", int(max(n, 0)))
				} else {
					e.indent = in.str(k.V)
				}
				e.itemSep = ","
			}
		case "separators":
			if k.V != None {
				sep := in.iterToSlice(k.V)
				e.itemSep, e.keySep = in.str(sep[0]), in.str(sep[1])
			}
		case "sort_keys":
			e.sortKeys = in.truthy(k.V)
		case "ensure_ascii":
			e.ascii = in.truthy(k.V)
		case "allow_nan":
			e.allowNaN = in.truthy(k.V)
		case "skipkeys":
			e.skipKeys = in.truthy(k.V)
		case "default":
			e.def = k.V
		case "cls", "check_circular":
		}
	}
	for _, k := range kw {
		if k.Name == "separators" && k.V != None {
			sep := in.iterToSlice(k.V)
			e.itemSep = in.str(sep[0])
		}
	}
	e.value(obj)
	return e.b.String()
}

func (e *jsonEnc) newline() {
	if e.hasIndent {
		e.b.WriteByte('\n')
		for i := 0; i < e.depth; i++ {
			e.b.WriteString(e.indent)
		}
	}
}

func (e *jsonEnc) str(s string) {
	e.b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			e.b.WriteString(`\"`)
		case '\\':
			e.b.WriteString(`\\`)
		case '\n':
			e.b.WriteString(`\n`)
		case '\r':
			e.b.WriteString(`\r`)
		case '\t':
			e.b.WriteString(`\t`)
		case '\b':
			e.b.WriteString(`\b`)
		case '\f':
			e.b.WriteString(`\f`)
		default:
			if r < 0x20 || (e.ascii && r > 0x7e) {
				if r > 0xffff {
					r1, r2 := utf16.EncodeRune(r)
					e.b.WriteString(`\u` + hex4(int(r1)) + `\u` + hex4(int(r2)))
				} else {
					e.b.WriteString(`\u` + hex4(int(r)))
				}
			} else {
				e.b.WriteRune(r)
			}
		}
	}
	e.b.WriteByte('"')
}

func hex4(n int) string {
	s := strconv.FormatInt(int64(n), 16)
	return strings.Repeat("0", 4-len(s)) + s
}

func (e *jsonEnc) float(f float64) {
	in := e.in
	switch {
	case math.IsNaN(f), math.IsInf(f, 0):
		if !e.allowNaN {
			in.Raise("ValueError", "Out of range float values are not JSON compliant: %s", floatRepr(f))
		}
		switch {
		case math.IsNaN(f):
			e.b.WriteString("NaN")
		case f > 0:
			e.b.WriteString("Infinity")
		default:
			e.b.WriteString("-Infinity")
		}
		return
	}
	e.b.WriteString(floatRepr(f))
}

func (e *jsonEnc) key(k Value) (string, bool) {
	switch x := k.(type) {
	case string:
		return x, true
	case bool:
		if x {
			return "true", true
		}
		return "false", true
	case int64, *big.Int:
		return e.in.repr(x), true
	case float64:
		return floatRepr(x), true
	case *noneType:
		return "null", true
	case *Instance:
		if s, ok := x.Base.(string); ok {
			return s, true
		}
	}
	if e.skipKeys {
		return "", false
	}
	e.in.Raise("TypeError", "keys must be str, int, float, bool or None, not %s", e.in.typeName(k))
	return "", false
}

func (e *jsonEnc) value(v Value) {
	in := e.in
	in.step()
	if e.b.Len() > 1<<22 {
		in.mem.need(in, int64(e.b.Len()))
	}
	switch x := v.(type) {
	case *noneType:
		e.b.WriteString("null")
	case bool:
		if x {
			e.b.WriteString("true")
		} else {
			e.b.WriteString("false")
		}
	case int64, *big.Int:
		e.b.WriteString(in.repr(x))
	case float64:
		e.float(x)
	case string:
		e.str(x)
	case *List:
		e.seq(x, x.V)
	case Tuple:
		e.seq(nil, x)
	case *Dict:
		e.dict(x)
	case *Instance:
		switch b := x.Base.(type) {
		case string:
			e.str(b)
			return
		case int64, *big.Int:
			e.b.WriteString(in.repr(b))
			return
		case float64:
			e.float(b)
			return
		case *Dict:
			e.dict(b)
			return
		case *List:
			e.seq(b, b.V)
			return
		case Tuple:
			e.seq(nil, b)
			return
		}
		e.fallback(v)
	default:
		e.fallback(v)
	}
}

func (e *jsonEnc) fallback(v Value) {
	in := e.in
	if e.def == nil || e.def == None {
		in.Raise("TypeError", "Object of type %s is not JSON serializable", in.typeName(v))
	}
	if e.depth > 500 {
		in.Raise("RecursionError", "maximum recursion depth exceeded while encoding a JSON object")
	}
	e.depth++
	r := in.call(e.def, []Value{v}, nil)
	e.depth--
	e.value(r)
}

func (e *jsonEnc) enter(p any) {
	if p != nil {
		if e.seen[p] {
			e.in.Raise("ValueError", "Circular reference detected")
		}
		e.seen[p] = true
	}
	e.depth++
	if e.depth > 900 {
		e.in.Raise("RecursionError", "maximum recursion depth exceeded while encoding a JSON object")
	}
}

func (e *jsonEnc) leave(p any) {
	if p != nil {
		delete(e.seen, p)
	}
	e.depth--
}

func (e *jsonEnc) seq(p any, v []Value) {
	if len(v) == 0 {
		e.b.WriteString("[]")
		return
	}
	e.enter(p)
	e.b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			e.b.WriteString(e.itemSep)
		}
		e.newline()
		e.value(x)
	}
	e.leave(p)
	e.newline()
	e.b.WriteByte(']')
}

func (e *jsonEnc) dict(d *Dict) {
	if d.live == 0 {
		e.b.WriteString("{}")
		return
	}
	e.enter(d)
	items := d.Items()
	if e.sortKeys {
		sort.SliceStable(items, func(i, j int) bool { return e.in.less(items[i][0], items[j][0]) })
	}
	e.b.WriteByte('{')
	first := true
	for _, kv := range items {
		k, ok := e.key(kv[0])
		if !ok {
			continue
		}
		if !first {
			e.b.WriteString(e.itemSep)
		}
		first = false
		e.newline()
		e.str(k)
		e.b.WriteString(e.keySep)
		e.value(kv[1])
	}
	e.leave(d)
	e.newline()
	e.b.WriteByte('}')
}

// ---- decoding ----

type jsonDec struct {
	in    *Interp
	s     string
	pos   int
	depth int
	hook  Value
	pairs Value
	pf    Value
	pi    Value
}

func (in *Interp) jsonError(msg, s string, pos int) {
	line := strings.Count(s[:pos], "\n") + 1
	col := pos - strings.LastIndexByte(s[:pos], '\n')
	m := in.importModule("json", nil)
	c, _ := m.Dict.GetStr("JSONDecodeError")
	exc := in.newExc(c.(*Class), Tuple{msg + ": line " + itoa(line) + " column " + itoa(col) + " (char " + itoa(pos) + ")"})
	exc.Dict.SetStr("msg", msg)
	exc.Dict.SetStr("doc", s)
	exc.Dict.SetStr("pos", int64(pos))
	exc.Dict.SetStr("lineno", int64(line))
	exc.Dict.SetStr("colno", int64(col))
	in.raiseExc(exc)
}

func (in *Interp) jsonLoads(s string, kw []KW) Value {
	d := &jsonDec{in: in, s: s}
	for _, k := range kw {
		switch k.Name {
		case "object_hook":
			d.hook = k.V
		case "object_pairs_hook":
			d.pairs = k.V
		case "parse_float":
			d.pf = k.V
		case "parse_int":
			d.pi = k.V
		}
	}
	in.charge(int64(len(s) / 8))
	d.ws()
	v := d.value()
	d.ws()
	if d.pos != len(s) {
		in.jsonError("Extra data", s, d.pos)
	}
	return v
}

func (d *jsonDec) ws() {
	for d.pos < len(d.s) && strings.IndexByte(" \t\n\r", d.s[d.pos]) >= 0 {
		d.pos++
	}
}

func (d *jsonDec) value() Value {
	in := d.in
	if d.pos >= len(d.s) {
		in.jsonError("Expecting value", d.s, d.pos)
	}
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > 900 {
		in.Raise("RecursionError", "maximum recursion depth exceeded while decoding a JSON document")
	}
	c := d.s[d.pos]
	switch {
	case c == '{':
		return d.object()
	case c == '[':
		d.pos++
		out := []Value{}
		d.ws()
		if d.pos < len(d.s) && d.s[d.pos] == ']' {
			d.pos++
			return &List{V: out}
		}
		for {
			d.ws()
			out = append(out, d.value())
			if len(out)%1024 == 0 {
				in.mem.add(in, 1024*16)
			}
			d.ws()
			if d.pos >= len(d.s) {
				in.jsonError("Expecting ',' delimiter", d.s, d.pos)
			}
			if d.s[d.pos] == ']' {
				d.pos++
				return &List{V: out}
			}
			if d.s[d.pos] != ',' {
				in.jsonError("Expecting ',' delimiter", d.s, d.pos)
			}
			d.pos++
			d.ws()
			if d.pos < len(d.s) && d.s[d.pos] == ']' {
				in.jsonError("Illegal trailing comma before end of array", d.s, d.pos-1)
			}
		}
	case c == '"':
		return d.str()
	case strings.HasPrefix(d.s[d.pos:], "null"):
		d.pos += 4
		return None
	case strings.HasPrefix(d.s[d.pos:], "true"):
		d.pos += 4
		return true
	case strings.HasPrefix(d.s[d.pos:], "false"):
		d.pos += 5
		return false
	case strings.HasPrefix(d.s[d.pos:], "NaN"):
		d.pos += 3
		return math.NaN()
	case strings.HasPrefix(d.s[d.pos:], "Infinity"):
		d.pos += 8
		return math.Inf(1)
	case strings.HasPrefix(d.s[d.pos:], "-Infinity"):
		d.pos += 9
		return math.Inf(-1)
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	in.jsonError("Expecting value", d.s, d.pos)
	return nil
}

func (d *jsonDec) number() Value {
	in := d.in
	st := d.pos
	if d.s[d.pos] == '-' {
		d.pos++
	}
	if d.pos >= len(d.s) || !(d.s[d.pos] >= '0' && d.s[d.pos] <= '9') {
		in.jsonError("Expecting value", d.s, st)
	}
	if d.s[d.pos] == '0' {
		d.pos++
	} else {
		for d.pos < len(d.s) && d.s[d.pos] >= '0' && d.s[d.pos] <= '9' {
			d.pos++
		}
	}
	isFloat := false
	if d.pos+1 < len(d.s) && d.s[d.pos] == '.' && d.s[d.pos+1] >= '0' && d.s[d.pos+1] <= '9' {
		isFloat = true
		d.pos++
		for d.pos < len(d.s) && d.s[d.pos] >= '0' && d.s[d.pos] <= '9' {
			d.pos++
		}
	}
	if d.pos < len(d.s) && (d.s[d.pos] == 'e' || d.s[d.pos] == 'E') {
		p := d.pos + 1
		if p < len(d.s) && (d.s[p] == '+' || d.s[p] == '-') {
			p++
		}
		if p < len(d.s) && d.s[p] >= '0' && d.s[p] <= '9' {
			isFloat = true
			d.pos = p
			for d.pos < len(d.s) && d.s[d.pos] >= '0' && d.s[d.pos] <= '9' {
				d.pos++
			}
		}
	}
	text := d.s[st:d.pos]
	if isFloat {
		if d.pf != nil && d.pf != None {
			return in.call(d.pf, []Value{text}, nil)
		}
		f, _ := strconv.ParseFloat(text, 64)
		return f
	}
	if d.pi != nil && d.pi != None {
		return in.call(d.pi, []Value{text}, nil)
	}
	return in.parseInt(text, 10)
}

func (d *jsonDec) str() string {
	in := d.in
	start := d.pos
	d.pos++
	var b strings.Builder
	for {
		if d.pos >= len(d.s) {
			in.jsonError("Unterminated string starting at", d.s, start)
		}
		c := d.s[d.pos]
		switch {
		case c == '"':
			d.pos++
			return b.String()
		case c == '\\':
			if d.pos+1 >= len(d.s) {
				in.jsonError("Unterminated string starting at", d.s, start)
			}
			e := d.s[d.pos+1]
			d.pos += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'u':
				r := d.hex4()
				if utf16.IsSurrogate(r) && strings.HasPrefix(d.s[d.pos:], `\u`) {
					save := d.pos
					d.pos += 2
					r2 := d.hex4()
					if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
						r = c
					} else {
						d.pos = save
					}
				}
				b.WriteRune(r)
			default:
				in.jsonError("Invalid \\escape", d.s, d.pos-2)
			}
		case c < 0x20:
			in.jsonError("Invalid control character at", d.s, d.pos)
		default:
			b.WriteByte(c)
			d.pos++
		}
	}
}

func (d *jsonDec) hex4() rune {
	if d.pos+4 > len(d.s) {
		d.in.jsonError("Invalid \\uXXXX escape", d.s, d.pos-1)
	}
	n, err := strconv.ParseUint(d.s[d.pos:d.pos+4], 16, 32)
	if err != nil {
		d.in.jsonError("Invalid \\uXXXX escape", d.s, d.pos-1)
	}
	d.pos += 4
	return rune(n)
}

func (d *jsonDec) object() Value {
	in := d.in
	d.pos++
	obj := NewDict()
	var pairs []Value
	d.ws()
	if d.pos < len(d.s) && d.s[d.pos] == '}' {
		d.pos++
		return d.finish(obj, pairs)
	}
	for {
		d.ws()
		if d.pos >= len(d.s) || d.s[d.pos] != '"' {
			in.jsonError("Expecting property name enclosed in double quotes", d.s, d.pos)
		}
		k := d.str()
		d.ws()
		if d.pos >= len(d.s) || d.s[d.pos] != ':' {
			in.jsonError("Expecting ':' delimiter", d.s, d.pos)
		}
		d.pos++
		d.ws()
		v := d.value()
		obj.SetStr(k, v)
		if d.pairs != nil {
			pairs = append(pairs, Tuple{k, v})
		}
		d.ws()
		if d.pos >= len(d.s) {
			in.jsonError("Expecting ',' delimiter", d.s, d.pos)
		}
		if d.s[d.pos] == '}' {
			d.pos++
			return d.finish(obj, pairs)
		}
		if d.s[d.pos] != ',' {
			in.jsonError("Expecting ',' delimiter", d.s, d.pos)
		}
		d.pos++
		d.ws()
		if d.pos < len(d.s) && d.s[d.pos] == '}' {
			in.jsonError("Illegal trailing comma before end of object", d.s, d.pos-1)
		}
	}
}

func (d *jsonDec) finish(obj *Dict, pairs []Value) Value {
	if d.pairs != nil && d.pairs != None {
		return d.in.call(d.pairs, []Value{&List{V: orEmpty(pairs)}}, nil)
	}
	if d.hook != nil && d.hook != None {
		return d.in.call(d.hook, []Value{obj}, nil)
	}
	return obj
}

func init() {
	registerNative("_json", func(in *Interp, m *Module) {
		in.fn(m.Dict, "dumps", func(a []Value, kw []KW) Value { return in.jsonDumps(a[0], kw) })
		in.fn(m.Dict, "loads", func(a []Value, kw []KW) Value {
			var s string
			switch x := a[0].(type) {
			case string:
				s = x
			case Bytes:
				s = in.decode(string(x), nil, nil)
			case *ByteArray:
				s = in.decode(string(x.B), nil, nil)
			default:
				in.Raise("TypeError", "the JSON object must be str, bytes or bytearray, not %s", in.typeName(a[0]))
			}
			return in.jsonLoads(s, kw)
		})
	})
}
