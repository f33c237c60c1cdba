package interp

import (
	"math"
	"math/big"
)

// Dict is an insertion-ordered hash table keyed by Python equality.
type Dict struct {
	entries []dictEntry
	index   map[hkey][]int32
	live    int
	// Missing and Default model defaultdict; Kind tags Counter and
	// OrderedDict views of the same table.
	Default Value
	Kind    string
}

type dictEntry struct {
	K, V    Value
	h       hkey
	deleted bool
}

type hkey struct {
	kind byte
	i    int64
	s    string
}

// NewDict returns an empty dict. Small dicts (most instance and keyword
// dicts) have no index and are scanned; the hash index is built past
// smallDict entries.
func NewDict() *Dict { return &Dict{} }

const smallDict = 8

// candidates lists the entry positions that may hold key h.
func (d *Dict) candidates(h hkey, buf *[smallDict]int32) []int32 {
	if d.index != nil {
		return d.index[h]
	}
	out := buf[:0]
	for i := range d.entries {
		if e := &d.entries[i]; !e.deleted && e.h == h {
			out = append(out, int32(i))
		}
	}
	return out
}

func (d *Dict) addIndex(h hkey, i int32) {
	if d.index == nil {
		if len(d.entries) < smallDict {
			return
		}
		d.index = make(map[hkey][]int32, len(d.entries)*2)
		for j := range d.entries {
			if e := &d.entries[j]; !e.deleted && int32(j) != i {
				d.index[e.h] = append(d.index[e.h], int32(j))
			}
		}
	}
	d.index[h] = append(d.index[h], i)
}

func (d *Dict) removeIndex(h hkey, i int32) {
	if d.index == nil {
		return
	}
	idx := d.index[h]
	for j, v := range idx {
		if v == i {
			idx = append(idx[:j:j], idx[j+1:]...)
			break
		}
	}
	if len(idx) == 0 {
		delete(d.index, h)
	} else {
		d.index[h] = idx
	}
}

func (d *Dict) Len() int { return d.live }

// hashKey computes the table key of v; unhashable values raise TypeError.
func (in *Interp) hashKey(v Value) hkey {
	switch x := v.(type) {
	case string:
		return hkey{kind: 's', s: x}
	case int64:
		return hkey{kind: 'i', i: x}
	case bool:
		if x {
			return hkey{kind: 'i', i: 1}
		}
		return hkey{kind: 'i', i: 0}
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
			return hkey{kind: 'i', i: int64(x)}
		}
		return hkey{kind: 'f', i: int64(math.Float64bits(x))}
	case *big.Int:
		return hkey{kind: 'B', s: x.String()}
	case *noneType:
		return hkey{kind: 'N'}
	case Bytes:
		return hkey{kind: 'b', s: string(x)}
	case Tuple:
		in.enterNest("while hashing")
		defer in.leaveNest()
		var h int64 = 0x345678
		s := ""
		for _, e := range x {
			k := in.hashKey(e)
			h = h*1000003 ^ k.i
			s += string(k.kind) + k.s + "\x00"
		}
		return hkey{kind: 't', i: h, s: s}
	case *Set:
		if !x.Frozen {
			in.Raise("TypeError", "unhashable type: 'set'")
		}
		var h int64
		for _, e := range x.D.entries {
			if !e.deleted {
				k := in.hashKey(e.K)
				h ^= k.i + int64(len(k.s))
			}
		}
		return hkey{kind: 'z', i: h}
	case *List:
		in.Raise("TypeError", "unhashable type: 'list'")
	case *Dict:
		in.Raise("TypeError", "unhashable type: 'dict'")
	case *Instance:
		if x.Base != nil {
			if _, ok := x.Base.(*Dict); !ok {
				if f := in.lookupClassAttr(x.Cls, "__hash__"); f == nil || isBuiltinAttr(f) {
					return in.hashKey(x.Base)
				}
			}
		}
		if f := in.lookupClassAttr(x.Cls, "__hash__"); f != nil && !isBuiltinAttr(f) {
			if f == None {
				in.Raise("TypeError", "unhashable type: '%s'", x.Cls.Name)
			}
			h := in.call(in.bindAttr(x, f, x.Cls), nil, nil)
			return hkey{kind: 'h', i: in.toInt64(h)}
		}
		if f := in.lookupClassAttr(x.Cls, "__eq__"); f != nil && !isBuiltinAttr(f) {
			in.Raise("TypeError", "unhashable type: '%s'", x.Cls.Name)
		}
		return hkey{kind: 'p', i: x.id}
	case *Class:
		return hkey{kind: 'c', s: x.Qualname, i: int64(len(x.MRO))}
	}
	return hkey{kind: 'o', s: ptrKey(v)}
}

func isBuiltinAttr(v Value) bool { _, ok := v.(*Builtin); return ok }

// Get returns d[k].
func (in *Interp) dictGet(d *Dict, k Value) (Value, bool) {
	h := in.hashKey(k)
	var buf [smallDict]int32
	for _, i := range d.candidates(h, &buf) {
		e := &d.entries[i]
		if !e.deleted && (h.kind != 'h' && h.kind != 'o' && h.kind != 'c' || in.eq(e.K, k)) {
			return e.V, true
		}
	}
	return nil, false
}

func (in *Interp) dictSet(d *Dict, k, v Value) {
	h := in.hashKey(k)
	var buf [smallDict]int32
	for _, i := range d.candidates(h, &buf) {
		e := &d.entries[i]
		if !e.deleted && (h.kind != 'h' && h.kind != 'o' && h.kind != 'c' || in.eq(e.K, k)) {
			e.V = v
			return
		}
	}
	in.mem.add(in, 48)
	d.entries = append(d.entries, dictEntry{K: k, V: v, h: h})
	d.addIndex(h, int32(len(d.entries)-1))
	d.live++
}

func (in *Interp) dictDel(d *Dict, k Value) bool {
	h := in.hashKey(k)
	var buf [smallDict]int32
	for _, i := range d.candidates(h, &buf) {
		e := &d.entries[i]
		if !e.deleted && (h.kind != 'h' && h.kind != 'o' && h.kind != 'c' || in.eq(e.K, k)) {
			e.deleted = true
			e.K, e.V = nil, nil
			d.live--
			d.removeIndex(h, i)
			if len(d.entries) > 32 && d.live < len(d.entries)/2 {
				d.compact()
			}
			return true
		}
	}
	return false
}

func (d *Dict) compact() {
	old := d.entries
	d.entries = make([]dictEntry, 0, d.live)
	d.index = nil
	for _, e := range old {
		if !e.deleted {
			d.entries = append(d.entries, e)
		}
	}
	if len(d.entries) >= smallDict {
		d.index = make(map[hkey][]int32, len(d.entries)*2)
		for i, e := range d.entries {
			d.index[e.h] = append(d.index[e.h], int32(i))
		}
	}
}

// GetStr and SetStr are fast paths for str keys.
func (d *Dict) GetStr(k string) (Value, bool) {
	if d.index == nil {
		for i := range d.entries {
			if e := &d.entries[i]; !e.deleted && e.h.kind == 's' && e.h.s == k {
				return e.V, true
			}
		}
		return nil, false
	}
	for _, i := range d.index[hkey{kind: 's', s: k}] {
		if e := &d.entries[i]; !e.deleted {
			return e.V, true
		}
	}
	return nil, false
}

func (d *Dict) SetStr(k string, v Value) {
	h := hkey{kind: 's', s: k}
	var buf [smallDict]int32
	for _, i := range d.candidates(h, &buf) {
		if e := &d.entries[i]; !e.deleted {
			e.V = v
			return
		}
	}
	d.entries = append(d.entries, dictEntry{K: k, V: v, h: h})
	d.addIndex(h, int32(len(d.entries)-1))
	d.live++
}

func (d *Dict) DelStr(k string) bool {
	h := hkey{kind: 's', s: k}
	var buf [smallDict]int32
	for _, i := range d.candidates(h, &buf) {
		if e := &d.entries[i]; !e.deleted {
			e.deleted = true
			e.K, e.V = nil, nil
			d.live--
			d.removeIndex(h, i)
			if len(d.entries) > 32 && d.live < len(d.entries)/2 {
				d.compact()
			}
			return true
		}
	}
	return false
}

// Keys, Values and Items return snapshots in insertion order.
func (d *Dict) Keys() []Value {
	out := make([]Value, 0, d.live)
	for _, e := range d.entries {
		if !e.deleted {
			out = append(out, e.K)
		}
	}
	return out
}

func (d *Dict) Items() [][2]Value {
	out := make([][2]Value, 0, d.live)
	for _, e := range d.entries {
		if !e.deleted {
			out = append(out, [2]Value{e.K, e.V})
		}
	}
	return out
}

func (d *Dict) clear() {
	d.entries = nil
	d.index = nil
	d.live = 0
}

func (in *Interp) dictCopy(d *Dict) *Dict {
	n := NewDict()
	n.Default, n.Kind = d.Default, d.Kind
	for _, e := range d.entries {
		if !e.deleted {
			in.dictSet(n, e.K, e.V)
		}
	}
	return n
}
