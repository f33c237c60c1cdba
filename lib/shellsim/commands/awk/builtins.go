package awk

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// runeLen counts characters; text that is not valid UTF-8 is counted in
// bytes so that binary data passes through substr and friends unchanged.
func runeLen(s string) int {
	if !utf8.ValidString(s) {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

func (m *interp) builtin(e *builtinExpr) value {
	args := e.args
	arg := func(i int) value { return m.eval(args[i]) }
	argStr := func(i int) string { return m.toStr(arg(i)) }
	argNum := func(i int) float64 { return arg(i).num() }
	switch e.name {
	case "length":
		if len(args) == 0 {
			return num(float64(runeLen(m.record)))
		}
		if r, ok := args[0].(*varRef); ok {
			c := m.cellOf(r)
			if c.arr != nil {
				return num(float64(c.arr.len()))
			}
			if c.ref != nil && c.v.k == kUninit {
				if a := resolveArr(c); a != nil {
					return num(float64(a.len()))
				}
			}
			if !r.local && (r.idx == vENVIRON || r.idx == vARGV) {
				return num(float64(c.arr.len()))
			}
		}
		s := argStr(0)
		m.charge(len(s))
		return num(float64(runeLen(s)))
	case "substr":
		s := argStr(0)
		m.charge(len(s))
		start := argNum(1)
		length := math.Inf(1)
		if len(args) == 3 {
			length = argNum(2)
		}
		return str(substr(s, start, length))
	case "index":
		s, t := argStr(0), argStr(1)
		m.charge(len(s))
		if m.icase {
			s, t = strings.ToLower(s), strings.ToLower(t)
		}
		i := strings.Index(s, t)
		if i < 0 {
			return num(0)
		}
		return num(float64(runeLen(s[:i]) + 1))
	case "split":
		s := argStr(0)
		arr := m.arrayOf(args[1].(*varRef))
		fs := m.fs
		var parts []string
		if len(args) >= 3 {
			if r, ok := args[2].(*regexLit); ok {
				parts = m.splitRegex(s, r.src)
			} else {
				fs = argStr(2)
				parts = m.splitFields(s, fs, nil, false)
			}
		} else {
			parts = m.splitFields(s, fs, nil, false)
		}
		if len(args) == 4 {
			seps := m.arrayOf(args[3].(*varRef))
			seps.clear()
			sep, isRE := fs, false
			if r, ok := args[2].(*regexLit); ok {
				sep, isRE = r.src, true
			}
			for i, t := range separators(s, sep, isRE, m) {
				if t.ok {
					seps.set(strconv.Itoa(i), str(t.s))
				}
			}
		}
		arr.clear()
		for i, p := range parts {
			arr.set(strconv.Itoa(i+1), strnum(p))
			m.grow(int64(len(p) + 48))
		}
		return num(float64(len(parts)))
	case "sub", "gsub":
		re := m.regexOf(args[0])
		repl := argStr(1)
		var target expr = &fieldRef{index: &numLit{0}}
		if len(args) == 3 {
			target = args[2]
		}
		s := m.toStr(m.eval(target))
		m.charge(2 * len(s))
		out, n := substitute(re, s, repl, e.name == "gsub")
		if n > 0 {
			m.store(target, str(out))
		}
		return num(float64(n))
	case "match":
		s := argStr(0)
		re := m.regexOf(args[1])
		m.charge(len(s))
		loc := re.FindStringSubmatchIndex(s)
		if len(args) == 3 {
			arr := m.arrayOf(args[2].(*varRef))
			arr.clear()
			if loc != nil {
				for g := 0; g*2 < len(loc); g++ {
					if loc[2*g] < 0 {
						continue
					}
					k := strconv.Itoa(g)
					arr.set(k, strnum(s[loc[2*g]:loc[2*g+1]]))
					arr.set(k+m.subsep+"start", num(float64(runeLen(s[:loc[2*g]])+1)))
					arr.set(k+m.subsep+"length", num(float64(runeLen(s[loc[2*g]:loc[2*g+1]]))))
				}
			}
		}
		if loc == nil {
			m.setSpecial(vRSTART, num(0))
			m.setSpecial(vRLENGTH, num(-1))
			return num(0)
		}
		start := float64(runeLen(s[:loc[0]]) + 1)
		m.setSpecial(vRSTART, num(start))
		m.setSpecial(vRLENGTH, num(float64(runeLen(s[loc[0]:loc[1]]))))
		return num(start)
	case "sprintf":
		vals := make([]value, len(args)-1)
		for i := range vals {
			vals[i] = arg(i + 1)
		}
		out := sprintf(argStr(0), vals, m.toStr)
		m.charge(len(out))
		return str(out)
	case "sin":
		return num(math.Sin(argNum(0)))
	case "cos":
		return num(math.Cos(argNum(0)))
	case "atan2":
		return num(math.Atan2(argNum(0), argNum(1)))
	case "exp":
		return num(math.Exp(argNum(0)))
	case "log":
		return num(math.Log(argNum(0)))
	case "sqrt":
		return num(math.Sqrt(argNum(0)))
	case "int":
		return num(math.Trunc(argNum(0)))
	case "rand":
		return num(m.rand())
	case "srand":
		prev := m.seed
		if len(args) == 1 {
			m.seed = math.Trunc(argNum(0))
		} else {
			m.seed = float64(m.inv.Sys.Now().Unix())
		}
		m.seedRand(m.seed)
		return num(prev)
	case "tolower":
		s := argStr(0)
		m.charge(len(s))
		if !utf8.ValidString(s) {
			return str(asciiMap(s, 'A', 'Z', 'a'-'A'))
		}
		return str(strings.ToLower(s))
	case "toupper":
		s := argStr(0)
		m.charge(len(s))
		if !utf8.ValidString(s) {
			return str(asciiMap(s, 'a', 'z', 'A'-'a'))
		}
		return str(strings.ToUpper(s))
	case "system":
		return num(float64(m.system(argStr(0))))
	case "close":
		return num(float64(m.close(argStr(0))))
	case "fflush":
		m.flushStdout()
		return num(0)
	case "gensub":
		return m.gensub(e)
	case "systime":
		return num(float64(m.inv.Sys.Now().Unix()))
	case "strftime":
		format := "%a %b %e %H:%M:%S %Z %Y"
		t := m.inv.Sys.Now()
		if len(args) >= 1 {
			format = argStr(0)
		}
		if len(args) >= 2 {
			t = time.Unix(int64(argNum(1)), 0)
		}
		return str(strftime(format, t.UTC()))
	case "mktime":
		f := strings.Fields(argStr(0))
		if len(f) < 6 {
			return num(-1)
		}
		var n [6]int
		for i := range n {
			v, err := strconv.Atoi(f[i])
			if err != nil {
				return num(-1)
			}
			n[i] = v
		}
		t := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], 0, time.UTC)
		return num(float64(t.Unix()))
	case "asort", "asorti":
		return m.asort(e)
	case "and", "or", "xor":
		r := uint64(argNum(0))
		for i := 1; i < len(args); i++ {
			v := uint64(argNum(i))
			switch e.name {
			case "and":
				r &= v
			case "or":
				r |= v
			default:
				r ^= v
			}
		}
		return num(float64(r))
	case "lshift":
		return num(float64(uint64(argNum(0)) << uint64(argNum(1))))
	case "rshift":
		return num(float64(uint64(argNum(0)) >> uint64(argNum(1))))
	case "compl":
		return num(float64(^uint64(argNum(0)) & (1<<53 - 1)))
	case "strtonum":
		v := arg(0)
		if v.k == kNum {
			return v
		}
		return num(strtonum(m.toStr(v)))
	case "isarray":
		if r, ok := args[0].(*varRef); ok {
			return boolean(m.cellOf(r).arr != nil)
		}
		return num(0)
	case "typeof":
		if r, ok := args[0].(*varRef); ok {
			c := m.cellOf(r)
			if c.arr != nil {
				return str("array")
			}
		}
		v := arg(0)
		switch v.k {
		case kNum:
			return str("number")
		case kStr:
			return str("string")
		case kStrNum:
			return str("strnum")
		}
		if _, ok := args[0].(*varRef); ok {
			return str("untyped")
		}
		return str("unassigned")
	case "patsplit":
		s := argStr(0)
		arr := m.arrayOf(args[1].(*varRef))
		var re = m.regexOf(args[2])
		m.charge(len(s))
		var seps *array
		if len(args) == 4 {
			seps = m.arrayOf(args[3].(*varRef))
			seps.clear()
		}
		arr.clear()
		last, n := 0, 0
		for _, loc := range re.FindAllStringIndex(s, -1) {
			if loc[0] == loc[1] {
				continue
			}
			if seps != nil {
				seps.set(strconv.Itoa(n), str(s[last:loc[0]]))
			}
			n++
			arr.set(strconv.Itoa(n), strnum(s[loc[0]:loc[1]]))
			last = loc[1]
		}
		if seps != nil && last < len(s) {
			seps.set(strconv.Itoa(n), str(s[last:]))
		}
		return num(float64(n))
	}
	m.partial("awk " + e.name)
	return value{}
}

func resolveArr(c *cell) *array {
	for c != nil {
		if c.arr != nil {
			return c.arr
		}
		c = c.ref
	}
	return nil
}

// partial records a missing feature and stops with status 2.
func (m *interp) partial(feature string) {
	m.inv.Sys.Partial(feature)
	m.fatal("%s is not supported in shellsim", strings.TrimPrefix(feature, "awk "))
}

func (m *interp) splitRegex(s, src string) []string {
	if s == "" {
		return nil
	}
	re := m.regex(src)
	var out []string
	last := 0
	for _, loc := range re.FindAllStringIndex(s, -1) {
		if loc[0] == loc[1] {
			continue
		}
		out = append(out, s[last:loc[0]])
		last = loc[1]
	}
	return append(out, s[last:])
}

// substr implements awk's substr with gawk's rounding of positions.
func substr(s string, start, length float64) string {
	if math.IsNaN(start) || math.IsNaN(length) {
		return ""
	}
	// gawk truncates both numbers and moves a start below 1 up to 1
	// without shortening the length.
	if !utf8.ValidString(s) {
		return substrBytes(s, start, length)
	}
	rs := []rune(s)
	n := float64(len(rs))
	st := math.Trunc(start)
	if st < 1 {
		st = 1
	}
	var end float64
	if math.IsInf(length, 1) {
		end = n + 1
	} else {
		end = st + math.Trunc(length)
	}
	if end > n+1 {
		end = n + 1
	}
	if end <= st {
		return ""
	}
	return string(rs[int(st)-1 : int(end)-1])
}

func substrBytes(s string, start, length float64) string {
	n := float64(len(s))
	st := math.Max(math.Trunc(start), 1)
	end := n + 1
	if !math.IsInf(length, 1) {
		end = math.Min(st+math.Trunc(length), n+1)
	}
	if end <= st {
		return ""
	}
	return s[int(st)-1 : int(end)-1]
}

// substitute implements sub and gsub with gawk's rules: & is the matched
// text, \& a literal ampersand, \\& a backslash and the match, \\\& a
// backslash and an ampersand; other backslashes are literal.
func substitute(re interface {
	FindAllStringIndex(string, int) [][]int
}, s, repl string, global bool) (string, int) {
	limit := 1
	if global {
		limit = -1
	}
	locs := re.FindAllStringIndex(s, limit)
	if len(locs) == 0 {
		return s, 0
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		b.WriteString(s[last:loc[0]])
		for i := 0; i < len(repl); i++ {
			c := repl[i]
			switch {
			case strings.HasPrefix(repl[i:], `\\\&`):
				b.WriteString(`\&`)
				i += 3
			case strings.HasPrefix(repl[i:], `\\&`):
				b.WriteString(`\`)
				b.WriteString(s[loc[0]:loc[1]])
				i += 2
			case strings.HasPrefix(repl[i:], `\&`):
				b.WriteByte('&')
				i++
			case c == '&':
				b.WriteString(s[loc[0]:loc[1]])
			default:
				b.WriteByte(c)
			}
		}
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String(), len(locs)
}

func (m *interp) gensub(e *builtinExpr) value {
	re := m.regexOf(e.args[0])
	repl := m.toStr(m.eval(e.args[1]))
	how := m.eval(e.args[2])
	var s string
	if len(e.args) == 4 {
		s = m.toStr(m.eval(e.args[3]))
	} else {
		s = m.record
	}
	m.charge(2 * len(s))
	global := false
	which := 1
	hs := m.toStr(how)
	if strings.HasPrefix(hs, "g") || strings.HasPrefix(hs, "G") {
		global = true
	} else if n := int(how.num()); n > 0 {
		which = n
	}
	locs := re.FindAllStringSubmatchIndex(s, -1)
	var b strings.Builder
	last := 0
	for i, loc := range locs {
		if !global && i+1 != which {
			continue
		}
		b.WriteString(s[last:loc[0]])
		for j := 0; j < len(repl); j++ {
			c := repl[j]
			switch {
			case c == '\\' && j+1 < len(repl) && repl[j+1] >= '0' && repl[j+1] <= '9':
				g := int(repl[j+1] - '0')
				j++
				if 2*g+1 < len(loc) && loc[2*g] >= 0 {
					b.WriteString(s[loc[2*g]:loc[2*g+1]])
				}
			case c == '\\' && j+1 < len(repl) && (repl[j+1] == '&' || repl[j+1] == '\\'):
				j++
				b.WriteByte(repl[j])
			case c == '&':
				b.WriteString(s[loc[0]:loc[1]])
			default:
				b.WriteByte(c)
			}
		}
		last = loc[1]
	}
	b.WriteString(s[last:])
	return str(b.String())
}

func (m *interp) asort(e *builtinExpr) value {
	src := m.arrayOf(e.args[0].(*varRef))
	dst := src
	if len(e.args) >= 2 {
		r, ok := e.args[1].(*varRef)
		if !ok {
			m.fatal("%s: second argument is not an array", e.name)
		}
		dst = m.arrayOf(r)
	}
	if len(e.args) == 3 {
		keys := src.keys()
		m.orderKeys(src, keys, m.toStr(m.eval(e.args[2])))
		vals := make([]value, len(keys))
		for i, k := range keys {
			if e.name == "asorti" {
				vals[i] = strnum(k)
			} else {
				vals[i], _ = src.get(k)
			}
		}
		dst.clear()
		for i, v := range vals {
			dst.set(strconv.Itoa(i+1), v)
		}
		return num(float64(len(vals)))
	}
	var vals []value
	for _, k := range src.keys() {
		if e.name == "asorti" {
			vals = append(vals, strnum(k))
		} else {
			v, _ := src.get(k)
			vals = append(vals, v)
		}
	}
	m.charge(len(vals) * 8)
	sort.SliceStable(vals, func(i, j int) bool {
		a, b := vals[i], vals[j]
		if e.name == "asorti" {
			return m.toStr(a) < m.toStr(b)
		}
		an, bn := a.k == kNum || a.k == kStrNum, b.k == kNum || b.k == kStrNum
		switch {
		case an && bn:
			return a.n < b.n
		case an != bn:
			return an
		}
		return m.toStr(a) < m.toStr(b)
	})
	dst.clear()
	for i, v := range vals {
		dst.set(strconv.Itoa(i+1), v)
	}
	return num(float64(len(vals)))
}

func strtonum(s string) float64 {
	t := strings.TrimLeft(s, " \t\n")
	neg := false
	if strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+") {
		neg = t[0] == '-'
		t = t[1:]
	}
	var v float64
	switch {
	case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X"):
		for _, c := range []byte(t[2:]) {
			if !isHexDigit(c) {
				break
			}
			v = v*16 + float64(hexVal(c))
		}
	case strings.HasPrefix(t, "0") && len(t) > 1 && isDigit(t[1]):
		for _, c := range []byte(t[1:]) {
			if c < '0' || c > '7' {
				break
			}
			v = v*8 + float64(c-'0')
		}
	default:
		v, _ = strtod(t)
	}
	if neg {
		v = -v
	}
	return v
}

// rand is a deterministic generator (splitmix64), seeded with 0 at start.
func (m *interp) rand() float64 {
	m.randState += 0x9e3779b97f4a7c15
	z := m.randState
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / float64(1<<53)
}

func (m *interp) seedRand(seed float64) {
	m.randState = uint64(int64(seed)) * 0x2545f4914f6cdd1d
}

// strftime formats t with the common C conversions.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'Y':
			b.WriteString(strconv.Itoa(t.Year()))
		case 'y':
			b.WriteString(t.Format("06"))
		case 'm':
			b.WriteString(t.Format("01"))
		case 'd':
			b.WriteString(t.Format("02"))
		case 'e':
			b.WriteString(t.Format("_2"))
		case 'H':
			b.WriteString(t.Format("15"))
		case 'I':
			b.WriteString(t.Format("03"))
		case 'M':
			b.WriteString(t.Format("04"))
		case 'S':
			b.WriteString(t.Format("05"))
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'j':
			b.WriteString(leftPad(strconv.Itoa(t.YearDay()), 3))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			b.WriteString(strconv.Itoa(wd))
		case 'w':
			b.WriteString(strconv.Itoa(int(t.Weekday())))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// asciiMap shifts the ASCII letters lo..hi by delta, leaving every other
// byte (including invalid UTF-8) alone.
func asciiMap(s string, lo, hi byte, delta int) string {
	b := []byte(s)
	for i, c := range b {
		if c >= lo && c <= hi {
			b[i] = byte(int(c) + delta)
		}
	}
	return string(b)
}

// sortedIn orders for-in keys as gawk's PROCINFO["sorted_in"] asks.
func (m *interp) sortedIn(arr *array, keys []string) {
	how, ok := m.globals[vPROCINFO].arr.get("sorted_in")
	if !ok {
		return
	}
	m.orderKeys(arr, keys, m.toStr(how))
}

// orderKeys sorts keys by a gawk ordering name such as "@val_num_desc".
func (m *interp) orderKeys(arr *array, keys []string, mode string) {
	if mode == "" || mode == "@unsorted" {
		return
	}
	val := func(k string) value { v, _ := arr.get(k); return v }
	numKey := func(k string) (float64, bool) { return looksNumeric(k) }
	cmpNum := func(a, b value) int {
		an, bn := a.k == kNum || a.k == kStrNum, b.k == kNum || b.k == kStrNum
		switch {
		case an && bn && a.n != b.n:
			if a.n < b.n {
				return -1
			}
			return 1
		case an && !bn:
			return -1
		case !an && bn:
			return 1
		}
		return strings.Compare(m.toStr(a), m.toStr(b))
	}
	var less func(a, b string) int
	switch strings.TrimSuffix(strings.TrimSuffix(mode, "_asc"), "_desc") {
	case "@ind_str":
		less = func(a, b string) int { return strings.Compare(a, b) }
	case "@ind_num":
		less = func(a, b string) int {
			an, _ := numKey(a)
			bn, _ := numKey(b)
			if an != bn {
				if an < bn {
					return -1
				}
				return 1
			}
			return strings.Compare(a, b)
		}
	case "@val_str":
		less = func(a, b string) int {
			if c := strings.Compare(m.toStr(val(a)), m.toStr(val(b))); c != 0 {
				return c
			}
			return strings.Compare(a, b)
		}
	case "@val_num", "@val_type":
		less = func(a, b string) int {
			if c := cmpNum(val(a), val(b)); c != 0 {
				return c
			}
			return strings.Compare(a, b)
		}
	default:
		m.partial("awk sort order \"" + mode + "\"")
	}
	desc := strings.HasSuffix(mode, "_desc")
	m.charge(len(keys) * 8)
	sort.SliceStable(keys, func(i, j int) bool {
		c := less(keys[i], keys[j])
		if desc {
			return c > 0
		}
		return c < 0
	})
}

type sepText struct {
	s  string
	ok bool
}

// separators returns split's fourth-argument values: the text between
// fields (index i is after field i; with the default FS, 0 is leading
// and n trailing blanks).
func separators(s, fs string, isRE bool, m *interp) map[int]sepText {
	out := map[int]sepText{}
	switch {
	case fs == " " && !isRE:
		n := 0
		i := 0
		isBlank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }
		for i < len(s) {
			j := i
			for j < len(s) && isBlank(s[j]) {
				j++
			}
			if j > i {
				out[n] = sepText{s[i:j], true}
			}
			if j >= len(s) {
				break
			}
			for j < len(s) && !isBlank(s[j]) {
				j++
			}
			n++
			i = j
		}
	case fs == "" || s == "":
	case utf8.RuneCountInString(fs) == 1 && !isRE:
		for i := 1; i < strings.Count(s, fs)+1; i++ {
			out[i] = sepText{fs, true}
		}
	default:
		n := 0
		for _, loc := range m.regex(fs).FindAllStringIndex(s, -1) {
			if loc[0] == loc[1] {
				continue
			}
			n++
			out[n] = sepText{s[loc[0]:loc[1]], true}
		}
	}
	return out
}
