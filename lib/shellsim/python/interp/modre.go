package interp

import (
	"regexp"
	"strings"
)

// Pattern is a compiled regular expression. Python syntax is translated to
// Go's RE2; constructs RE2 lacks (backreferences, lookaround) raise
// re.error naming the construct instead of matching differently.
type Pattern struct {
	src   string
	flags int64
	re    *regexp.Regexp
	names []string
}

// Match is a successful match.
type Match struct {
	p   *Pattern
	s   string
	idx []int // byte offsets
	pos int
}

const (
	reI = 2
	reM = 8
	reS = 16
	reX = 64
	reA = 256
)

func (in *Interp) reError(msg string) {
	m := in.importModule("re", nil)
	c, _ := m.Dict.GetStr("error")
	in.raiseExc(in.newExc(c.(*Class), Tuple{msg}))
}

func (in *Interp) compileRe(pat Value, flags int64) *Pattern {
	if p, ok := pat.(*Pattern); ok {
		return p
	}
	src := ""
	switch x := pat.(type) {
	case string:
		src = x
	case Bytes:
		src = string(x)
	default:
		in.Raise("TypeError", "first argument must be string or compiled pattern")
	}
	key := src + "\x00" + string(rune(flags))
	if p, ok := in.reCache[key]; ok {
		return p
	}
	g, err := translateRe(src, flags)
	if err != "" {
		in.Unsupported("re " + err)
		in.reError(err)
	}
	in.charge(int64(len(src)) * 4)
	re, cerr := regexp.Compile(g)
	if cerr != nil {
		in.reError(strings.TrimPrefix(cerr.Error(), "error parsing regexp: "))
	}
	p := &Pattern{src: src, flags: flags, re: re, names: re.SubexpNames()}
	if in.reCache == nil {
		in.reCache = map[string]*Pattern{}
	}
	if len(in.reCache) > 512 {
		in.reCache = map[string]*Pattern{}
	}
	in.reCache[key] = p
	return p
}

// translateRe rewrites Python regex syntax into RE2 syntax.
func translateRe(src string, flags int64) (string, string) {
	var b strings.Builder
	prefix := ""
	if flags&reI != 0 {
		prefix += "i"
	}
	if flags&reM != 0 {
		prefix += "m"
	}
	if flags&reS != 0 {
		prefix += "s"
	}
	verbose := flags&reX != 0
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if verbose && !inClass {
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				continue
			}
			if c == '#' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
		}
		switch c {
		case '\\':
			if i+1 >= len(src) {
				return "", "bad escape (end of pattern)"
			}
			n := src[i+1]
			switch {
			case n >= '1' && n <= '9' && !inClass:
				return "", "backreferences are not supported"
			case n == 'Z':
				b.WriteString(`\z`)
			case n == 'A':
				b.WriteString(`\A`)
			case n == 'd' && flags&reA == 0 && false:
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			i++
		case '[':
			if !inClass {
				inClass = true
				b.WriteByte(c)
				if i+1 < len(src) && src[i+1] == '^' {
					b.WriteByte('^')
					i++
				}
				if i+1 < len(src) && src[i+1] == ']' {
					b.WriteString(`\]`)
					i++
				}
				continue
			}
			b.WriteString(`\[`)
		case ']':
			inClass = false
			b.WriteByte(c)
		case '(':
			if inClass {
				b.WriteByte(c)
				continue
			}
			if strings.HasPrefix(src[i:], "(?P<") {
				b.WriteString("(?P<")
				i += 3
				continue
			}
			if strings.HasPrefix(src[i:], "(?<") && !strings.HasPrefix(src[i:], "(?<=") && !strings.HasPrefix(src[i:], "(?<!") {
				b.WriteString("(?P<")
				i += 2
				continue
			}
			if strings.HasPrefix(src[i:], "(?=") || strings.HasPrefix(src[i:], "(?!") || strings.HasPrefix(src[i:], "(?<=") || strings.HasPrefix(src[i:], "(?<!") {
				return "", "lookaround assertions are not supported"
			}
			if strings.HasPrefix(src[i:], "(?P=") {
				return "", "backreferences are not supported"
			}
			if strings.HasPrefix(src[i:], "(?#") {
				j := strings.IndexByte(src[i:], ')')
				if j < 0 {
					return "", "missing ), unterminated comment"
				}
				i += j
				continue
			}
			if strings.HasPrefix(src[i:], "(?") && i+2 < len(src) && strings.IndexByte("aiLmsux", src[i+2]) >= 0 {
				// inline flags at the start: (?i) etc.
				j := i + 2
				for j < len(src) && strings.IndexByte("aiLmsux", src[j]) >= 0 {
					j++
				}
				if j < len(src) && src[j] == ')' {
					fl := src[i+2 : j]
					fl = strings.NewReplacer("a", "", "L", "", "u", "", "x", "").Replace(fl)
					if strings.Contains(src[i+2:j], "x") {
						verbose = true
					}
					if fl != "" {
						b.WriteString("(?" + fl + ")")
					}
					i = j
					continue
				}
			}
			b.WriteByte(c)
		case '{':
			// a literal { that is not a quantifier stays literal in Python
			j := i + 1
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == ',') {
				j++
			}
			if inClass || j >= len(src) || src[j] != '}' || j == i+1 {
				b.WriteString(`\{`)
				continue
			}
			b.WriteString(src[i : j+1])
			i = j
		case '}':
			b.WriteString(`\}`)
		case '$':
			if inClass {
				b.WriteByte(c)
			} else if flags&reM != 0 {
				b.WriteByte('$')
			} else {
				// Python's $ also matches before a trailing newline
				b.WriteString(`(?:\n?\z)`)
			}
		default:
			b.WriteByte(c)
		}
	}
	out := b.String()
	if prefix != "" {
		out = "(?" + prefix + ")" + out
	}
	if strings.Contains(out, "*+") || strings.Contains(out, "++") || strings.Contains(out, "?+") {
		return "", "possessive quantifiers are not supported"
	}
	return out, ""
}

func (m *Match) group(g Value) Value {
	i := m.groupIndex(g)
	if i < 0 || 2*i+1 >= len(m.idx) {
		return nil
	}
	if m.idx[2*i] < 0 {
		return None
	}
	return m.sub(m.idx[2*i], m.idx[2*i+1])
}

func (m *Match) sub(a, b int) Value { return m.s[a:b] }

func (m *Match) groupIndex(g Value) int {
	switch x := g.(type) {
	case int64:
		return int(x)
	case string:
		for i, n := range m.p.names {
			if n == x && n != "" {
				return i
			}
		}
	}
	return -1
}

func (in *Interp) matchGroup(m *Match, g Value) Value {
	v := m.group(g)
	if v == nil {
		in.Raise("IndexError", "no such group")
	}
	return v
}

func runeOffset(s string, byteOff int) int64 {
	if byteOff < 0 {
		return -1
	}
	return int64(runeLen(s[:byteOff]))
}

func (in *Interp) matchAttr(m *Match, name string) (Value, bool) {
	b := func(fn func(a []Value) Value) (Value, bool) {
		return &Builtin{Name: name, Fn: func(in *Interp, a []Value, kw []KW) Value { return fn(a) }}, true
	}
	switch name {
	case "group":
		return b(func(a []Value) Value {
			if len(a) == 0 {
				return in.matchGroup(m, int64(0))
			}
			if len(a) == 1 {
				return in.matchGroup(m, a[0])
			}
			t := make(Tuple, len(a))
			for i, g := range a {
				t[i] = in.matchGroup(m, g)
			}
			return t
		})
	case "groups":
		return b(func(a []Value) Value {
			n := len(m.idx)/2 - 1
			t := make(Tuple, n)
			for i := 1; i <= n; i++ {
				v := m.group(int64(i))
				if v == None && len(a) > 0 {
					v = a[0]
				}
				t[i-1] = v
			}
			return t
		})
	case "groupdict":
		return b(func(a []Value) Value {
			d := NewDict()
			for i, n := range m.p.names {
				if n != "" {
					v := m.group(int64(i))
					if v == None && len(a) > 0 {
						v = a[0]
					}
					d.SetStr(n, v)
				}
			}
			return d
		})
	case "start", "end", "span":
		return b(func(a []Value) Value {
			var g Value = int64(0)
			if len(a) > 0 {
				g = a[0]
			}
			i := m.groupIndex(g)
			if i < 0 || 2*i+1 >= len(m.idx) {
				in.Raise("IndexError", "no such group")
			}
			st, en := runeOffset(m.s, m.idx[2*i]), runeOffset(m.s, m.idx[2*i+1])
			switch name {
			case "start":
				return st
			case "end":
				return en
			}
			return Tuple{st, en}
		})
	case "string":
		return m.s, true
	case "re":
		return m.p, true
	case "pos":
		return int64(m.pos), true
	case "lastindex":
		last := Value(None)
		for i := 1; i < len(m.idx)/2; i++ {
			if m.idx[2*i] >= 0 {
				last = int64(i)
			}
		}
		return last, true
	case "__getitem__":
		return b(func(a []Value) Value { return in.matchGroup(m, a[0]) })
	case "expand":
		return b(func(a []Value) Value { return in.expandTemplate(m, in.str(a[0])) })
	}
	return nil, false
}

func (in *Interp) expandTemplate(m *Match, repl string) string {
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 >= len(repl) {
			b.WriteByte(c)
			continue
		}
		n := repl[i+1]
		switch {
		case n >= '0' && n <= '9':
			j := i + 1
			for j < len(repl) && j < i+3 && repl[j] >= '0' && repl[j] <= '9' {
				j++
			}
			num := int64(0)
			for _, d := range repl[i+1 : j] {
				num = num*10 + int64(d-'0')
			}
			v := m.group(num)
			if v == nil {
				in.reError("invalid group reference")
			}
			if v != None {
				b.WriteString(in.str(v))
			}
			i = j - 1
		case n == 'g':
			end := strings.IndexByte(repl[i:], '>')
			if i+2 >= len(repl) || repl[i+2] != '<' || end < 0 {
				in.reError("missing group name")
			}
			name := repl[i+3 : i+end]
			var v Value
			if num, ok := atoiOK(name); ok {
				v = m.group(int64(num))
			} else {
				v = m.group(name)
			}
			if v == nil {
				in.Raise("IndexError", "unknown group name '%s'", name)
			}
			if v != None {
				b.WriteString(in.str(v))
			}
			i += end
		case n == 'n':
			b.WriteByte('\n')
			i++
		case n == 't':
			b.WriteByte('\t')
			i++
		case n == '\\':
			b.WriteByte('\\')
			i++
		default:
			b.WriteByte('\\')
			b.WriteByte(n)
			i++
		}
	}
	return b.String()
}

func atoiOK(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func init() {
	registerNative("re", func(in *Interp, m *Module) {
		d := m.Dict
		flagCls := in.buildClass("RegexFlag", "RegexFlag", "re", []*Class{in.builtinClass("int")}, NewDict(), nil)
		flagCls.Dict.SetStr("__repr__", &Builtin{Name: "RegexFlag.__repr__", Fn: func(in *Interp, a []Value, kw []KW) Value {
			n, _ := a[0].(*Instance).Dict.GetStr("_name_")
			return "re." + in.str(n)
		}})
		flagCls.Dict.SetStr("__str__", flagCls.Dict.Keys()[0:0])
		flagCls.Dict.DelStr("__str__")
		d.SetStr("RegexFlag", flagCls)
		for _, f := range []struct {
			names []string
			v     int64
		}{{[]string{"IGNORECASE", "I"}, reI}, {[]string{"MULTILINE", "M"}, reM}, {[]string{"DOTALL", "S"}, reS},
			{[]string{"VERBOSE", "X"}, reX}, {[]string{"ASCII", "A"}, reA}, {[]string{"UNICODE", "U"}, 32}, {[]string{"NOFLAG"}, 0}} {
			inst := &Instance{Cls: flagCls, Dict: NewDict(), Base: f.v, id: in.newID()}
			inst.Dict.SetStr("_name_", f.names[0])
			inst.Dict.SetStr("name", f.names[0])
			inst.Dict.SetStr("value", f.v)
			for _, n := range f.names {
				d.SetStr(n, inst)
			}
		}
		errCls := in.buildClass("error", "error", "re", []*Class{in.builtinClass("Exception")}, NewDict(), nil)
		d.SetStr("error", errCls)
		d.SetStr("PatternError", errCls)
		flagsOf := func(v Value) int64 {
			if v == nil || v == None {
				return 0
			}
			return in.toInt64(v)
		}
		pcls := in.typeOf(&Pattern{})
		mcls := in.typeOf(&Match{})
		d.SetStr("Pattern", pcls)
		d.SetStr("Match", mcls)
		d.SetStr("compile", &Builtin{Name: "compile", Fn: func(in *Interp, a []Value, kw []KW) Value {
			a = in.args("compile", a, kw, []string{"pattern", "flags"}, 1)
			return in.compileRe(a[0], flagsOf(a[1]))
		}})
		d.SetStr("escape", &Builtin{Name: "escape", Fn: func(in *Interp, a []Value, kw []KW) Value {
			s := in.str(a[0])
			var b strings.Builder
			for _, r := range s {
				if strings.ContainsRune("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", r) {
					b.WriteByte('\\')
				}
				b.WriteRune(r)
			}
			return b.String()
		}})
		for _, name := range []string{"match", "search", "fullmatch", "findall", "finditer", "sub", "subn", "split"} {
			name := name
			d.SetStr(name, &Builtin{Name: name, Fn: func(in *Interp, a []Value, kw []KW) Value {
				var names []string
				switch name {
				case "sub", "subn":
					names = []string{"pattern", "repl", "string", "count", "flags"}
				case "split":
					names = []string{"pattern", "string", "maxsplit", "flags"}
				default:
					names = []string{"pattern", "string", "flags"}
				}
				a = in.args(name, a, kw, names, len(names)-2+boolToInt(name != "sub" && name != "subn" && name != "split"))
				fl := flagsOf(a[len(a)-1])
				p := in.compileRe(a[0], fl)
				return in.patternCall(p, name, a[1:len(a)-1])
			}})
		}
		in.method(pcls, "__init__", func(in *Interp, a []Value, kw []KW) Value { return None })
		for _, name := range []string{"match", "search", "fullmatch", "findall", "finditer", "sub", "subn", "split"} {
			name := name
			in.method(pcls, name, func(in *Interp, a []Value, kw []KW) Value {
				p := a[0].(*Pattern)
				var names []string
				switch name {
				case "sub", "subn":
					names = []string{"repl", "string", "count"}
				case "split":
					names = []string{"string", "maxsplit"}
				default:
					names = []string{"string", "pos", "endpos"}
				}
				args := in.args(name, a[1:], kw, names, 1)
				if name == "sub" || name == "subn" {
					if args[1] == nil {
						in.Raise("TypeError", "%s() missing required argument 'string'", name)
					}
				}
				return in.patternCall(p, name, args)
			})
		}
	})
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (in *Interp) patternCall(p *Pattern, name string, a []Value) Value {
	strArg := func(v Value) string {
		switch x := v.(type) {
		case string:
			return x
		case Bytes:
			return string(x)
		}
		in.Raise("TypeError", "expected string or bytes-like object, got '%s'", in.typeName(v))
		return ""
	}
	mk := func(s string, idx []int, pos int) Value {
		if idx == nil {
			return None
		}
		return &Match{p: p, s: s, idx: idx, pos: pos}
	}
	switch name {
	case "match", "search", "fullmatch":
		s := strArg(a[0])
		pos := 0
		if len(a) > 1 && a[1] != nil {
			pos = int(in.toInt64(a[1]))
			if pos > len(s) {
				return None
			}
		}
		in.charge(int64(len(s)/16) + 1)
		sub := s[pos:]
		var idx []int
		switch name {
		case "search":
			idx = p.re.FindStringSubmatchIndex(sub)
		case "match":
			idx = p.re.FindStringSubmatchIndex(sub)
			if idx != nil && idx[0] != 0 {
				// find a match anchored at the start
				re2 := regexp.MustCompile(`\A(?:` + p.re.String() + `)`)
				idx = re2.FindStringSubmatchIndex(sub)
			}
		case "fullmatch":
			re2 := regexp.MustCompile(`\A(?:` + p.re.String() + `)\z`)
			idx = re2.FindStringSubmatchIndex(sub)
		}
		if idx != nil && pos > 0 {
			for i := range idx {
				if idx[i] >= 0 {
					idx[i] += pos
				}
			}
		}
		return mk(s, idx, pos)
	case "findall":
		s := strArg(a[0])
		in.charge(int64(len(s)/16) + 1)
		all := p.re.FindAllStringSubmatchIndex(s, -1)
		out := make([]Value, 0, len(all))
		ng := p.re.NumSubexp()
		for _, idx := range all {
			m := &Match{p: p, s: s, idx: idx}
			switch ng {
			case 0:
				out = append(out, m.group(int64(0)))
			case 1:
				v := m.group(int64(1))
				if v == None {
					v = ""
				}
				out = append(out, v)
			default:
				t := make(Tuple, ng)
				for i := 1; i <= ng; i++ {
					v := m.group(int64(i))
					if v == None {
						v = ""
					}
					t[i-1] = v
				}
				out = append(out, t)
			}
		}
		in.mem.add(in, int64(len(out))*64)
		return &List{V: out}
	case "finditer":
		s := strArg(a[0])
		all := p.re.FindAllStringSubmatchIndex(s, -1)
		i := 0
		return &Iterator{Name: "callable_iterator", Next: func() (Value, bool) {
			if i >= len(all) {
				return nil, false
			}
			i++
			return &Match{p: p, s: s, idx: all[i-1]}, true
		}}
	case "sub", "subn":
		repl := a[0]
		s := strArg(a[1])
		count := 0
		if len(a) > 2 && a[2] != nil {
			count = int(in.toInt64(a[2]))
		}
		in.charge(int64(len(s)/16) + 1)
		var b strings.Builder
		last, n := 0, 0
		for _, idx := range p.re.FindAllStringSubmatchIndex(s, -1) {
			if count > 0 && n >= count {
				break
			}
			b.WriteString(s[last:idx[0]])
			m := &Match{p: p, s: s, idx: idx}
			if rs, ok := repl.(string); ok {
				b.WriteString(in.expandTemplate(m, rs))
			} else if rb, ok := repl.(Bytes); ok {
				b.WriteString(in.expandTemplate(m, string(rb)))
			} else {
				b.WriteString(in.str(in.call(repl, []Value{m}, nil)))
			}
			last = idx[1]
			n++
			if b.Len() > 1<<22 {
				in.mem.need(in, int64(b.Len()))
			}
		}
		b.WriteString(s[last:])
		var res Value = b.String()
		if _, isB := a[1].(Bytes); isB {
			res = Bytes(b.String())
		}
		if name == "subn" {
			return Tuple{res, int64(n)}
		}
		return res
	case "split":
		s := strArg(a[0])
		max := -1
		if len(a) > 1 && a[1] != nil && in.toInt64(a[1]) > 0 {
			max = int(in.toInt64(a[1]))
		}
		var out []Value
		last := 0
		for _, idx := range p.re.FindAllStringSubmatchIndex(s, -1) {
			if max >= 0 && len(out) >= max*(1+p.re.NumSubexp()) {
				break
			}
			if idx[1] == idx[0] && idx[0] == 0 {
				continue
			}
			out = append(out, s[last:idx[0]])
			m := &Match{p: p, s: s, idx: idx}
			for i := 1; i <= p.re.NumSubexp(); i++ {
				out = append(out, m.group(int64(i)))
			}
			last = idx[1]
		}
		out = append(out, s[last:])
		return &List{V: out}
	}
	return None
}
