package jq

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// keyOrder remembers the key order of objects, which gojq does not keep
// (its objects are Go maps). Objects read from the input are known by
// identity; objects gojq builds are matched by their key set against
// objects seen in the input and object constructions in the query. A key
// set never seen prints sorted.
type keyOrder struct {
	byMap map[uintptr][]string
	bySet map[string][]string
	sets  [][]string // bySet's values in first-seen order, for subset matching

	// merged holds the order of the objects built by object merges (see
	// merge.go), by identity like byMap.
	merged    map[uintptr]mergedOrder
	pruneAt   int
	lastMerge map[string]any // the latest merged object, see mergedKeys
	lastKeys  []string
}

// maxSetSearch bounds the subset/superset search over known key sets.
const maxSetSearch = 256

func newKeyOrder() *keyOrder {
	return &keyOrder{byMap: map[uintptr][]string{}, bySet: map[string][]string{},
		merged: map[uintptr]mergedOrder{}, pruneAt: minPrune}
}

func setKey(keys []string) string {
	s := append([]string(nil), keys...)
	sort.Strings(s)
	return strings.Join(s, "\x00")
}

// remember records keys as the order of m and of its key set.
func (k *keyOrder) remember(m map[string]any, keys []string) {
	if m != nil {
		k.byMap[reflect.ValueOf(m).Pointer()] = keys
	}
	k.rememberSet(keys)
}

// rememberSet records an order for a key set only (query constructions).
func (k *keyOrder) rememberSet(keys []string) {
	sk := setKey(keys)
	if _, ok := k.bySet[sk]; !ok {
		k.bySet[sk] = keys
		k.sets = append(k.sets, keys)
	}
}

func (k *keyOrder) keys(m map[string]any, sorted bool) []string {
	if !sorted {
		if ks, ok := k.mergedKeysOf(m); ok {
			return ks
		}
		if ks, ok := k.byMap[reflect.ValueOf(m).Pointer()]; ok && sameKeys(ks, m) {
			return ks
		}
		all := make([]string, 0, len(m))
		for key := range m {
			all = append(all, key)
		}
		if ks, ok := k.bySet[setKey(all)]; ok {
			return ks
		}
		return k.guess(m, all)
	}
	all := make([]string, 0, len(m))
	for key := range m {
		all = append(all, key)
	}
	sort.Strings(all)
	return all
}

// guess orders a map gojq built whose key set was never seen: a known
// order covering every key (a deletion) is filtered; else the known order
// sharing most keys leads (an update appends new keys) and the rest follow
// sorted, like a jq object that gained keys.
func (k *keyOrder) guess(m map[string]any, all []string) []string {
	sort.Strings(all)
	best, bestN := []string(nil), 0
	for i, ks := range k.sets {
		if i >= maxSetSearch {
			break
		}
		n := 0
		for _, key := range ks {
			if _, ok := m[key]; ok {
				n++
			}
		}
		if n == len(m) {
			out := make([]string, 0, len(m))
			for _, key := range ks {
				if _, ok := m[key]; ok {
					out = append(out, key)
				}
			}
			return out
		}
		if n == len(ks) && n > bestN {
			best, bestN = ks, n
		}
	}
	if best == nil {
		return all
	}
	out := append([]string(nil), best...)
	in := map[string]bool{}
	for _, key := range best {
		in[key] = true
	}
	for _, key := range all {
		if !in[key] {
			out = append(out, key)
		}
	}
	return out
}

func sameKeys(ks []string, m map[string]any) bool {
	if len(ks) != len(m) {
		return false
	}
	for _, k := range ks {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// encoder prints values as jq 1.6 does.
type encoder struct {
	indent   string // "" for compact
	sortKeys bool
	ascii    bool
	order    *keyOrder
}

func (e *encoder) encode(b *bytes.Buffer, v any, depth int) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int:
		b.WriteString(formatNumber(float64(v)))
	case float64:
		b.WriteString(formatNumber(v))
	case json.Number:
		f, _ := v.Float64()
		b.WriteString(formatNumber(f))
	case *big.Int:
		f, _ := new(big.Float).SetInt(v).Float64()
		b.WriteString(formatNumber(f))
	case string:
		e.str(b, v)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			e.newline(b, depth+1)
			e.encode(b, x, depth+1)
		}
		e.newline(b, depth)
		b.WriteByte(']')
	case map[string]any:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range e.order.keys(v, e.sortKeys) {
			if i > 0 {
				b.WriteByte(',')
			}
			e.newline(b, depth+1)
			e.str(b, k)
			b.WriteByte(':')
			if e.indent != "" {
				b.WriteByte(' ')
			}
			e.encode(b, v[k], depth+1)
		}
		e.newline(b, depth)
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

func (e *encoder) newline(b *bytes.Buffer, depth int) {
	if e.indent == "" {
		return
	}
	b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		b.WriteString(e.indent)
	}
}

func (e *encoder) str(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\n':
				b.WriteString(`\n`)
			case '\t':
				b.WriteString(`\t`)
			case '\r':
				b.WriteString(`\r`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			default:
				if c < 0x20 || c == 0x7f {
					b.WriteString(`\u00`)
					b.WriteByte(hex[c>>4])
					b.WriteByte(hex[c&15])
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if e.ascii || r == utf8.RuneError {
			if r == utf8.RuneError {
				r = 0xfffd
			}
			if r >= 0x10000 {
				r -= 0x10000
				b.WriteString(`\u` + strconv.FormatInt(int64(0xd800+(r>>10)), 16))
				b.WriteString(`\u` + strconv.FormatInt(int64(0xdc00+(r&0x3ff)), 16))
			} else if e.ascii {
				b.WriteString(`\u` + leftPad(strconv.FormatInt(int64(r), 16), 4))
			} else {
				b.WriteRune(r)
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// formatNumber prints a number the way jq 1.6 does: the shortest
// round-trip digits, in exponent form when the decimal point would fall
// more than 5 places past the digits or 4 places before them (the rule of
// David Gay's g_fmt, which jq 1.6 uses), NaN as null and infinities as the
// largest double.
func formatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "null"
	case math.IsInf(f, 1):
		f = math.MaxFloat64
	case math.IsInf(f, -1):
		f = -math.MaxFloat64
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	nd := len(digits)
	decpt := exp + 1
	var out string
	if decpt <= -4 || decpt > nd+5 {
		out = digits[:1]
		if nd > 1 {
			out += "." + digits[1:]
		}
		sign := "+"
		e := decpt - 1
		if e < 0 {
			sign, e = "-", -e
		}
		es := strconv.Itoa(e)
		if len(es) < 2 {
			es = "0" + es
		}
		out += "e" + sign + es
	} else if decpt <= 0 {
		out = "0." + strings.Repeat("0", -decpt) + digits
	} else if decpt >= nd {
		out = digits + strings.Repeat("0", decpt-nd)
	} else {
		out = digits[:decpt] + "." + digits[decpt:]
	}
	if neg {
		out = "-" + out
	}
	return out
}
