package jq

import (
	"encoding/json"
	"maps"
	"reflect"
	"sync"
	"weak"

	"github.com/itchyny/gojq"
)

// jq 1.6 merges objects in order: `a + b` keeps a's keys in a's order
// (with b's values where b has the key) and appends b's other keys in b's
// order; `a * b` does the same, merging recursively where both values are
// objects. gojq merges Go maps, so the `+` and `*` of the user's query and
// of the prelude are rewritten into calls of _shellsim_add and
// _shellsim_mul, which record the merged order (and the prelude's _add and
// _multiply, which gojq calls for `+=` and `*=`, call them too). gojq
// compiles `A + B` as a call of its internal "_add" with the arguments A
// and B, exactly as it compiles a call of a custom function of two
// arguments, so generators in the operands run in the same order as
// before. Operands other than two objects get gojq's own operators.

// Names of the custom functions the operators are rewritten into.
const (
	addFunc = "_shellsim_add"
	mulFunc = "_shellsim_mul"
)

// rewriteOperators turns every binary `+` and `*` of q into a call of
// addFunc or mulFunc with the same operands.
func rewriteOperators(q *gojq.Query) {
	walkNodes(q, func(q *gojq.Query) {
		var name string
		switch q.Op {
		case gojq.OpAdd:
			name = addFunc
		case gojq.OpMul:
			name = mulFunc
		default:
			return
		}
		if q.Term != nil || q.Left == nil || q.Right == nil {
			return
		}
		*q = gojq.Query{FuncDefs: q.FuncDefs, Term: &gojq.Term{Type: gojq.TermTypeFunc,
			Func: &gojq.Func{Name: name, Args: []*gojq.Query{q.Left, q.Right}}}}
	})
}

// gojqOps holds gojq's own `+` and `*`, run on [l, r] for every operand
// pair that is not two objects, so that numbers, strings, arrays, null and
// type errors behave and read exactly as gojq has them.
var gojqOps = sync.OnceValue(func() map[string]*gojq.Code {
	ops := map[string]*gojq.Code{}
	for name, src := range map[string]string{addFunc: ".[0] + .[1]", mulFunc: ".[0] * .[1]"} {
		q, err := gojq.Parse(src)
		if err != nil {
			panic(err)
		}
		code, err := gojq.Compile(q)
		if err != nil {
			panic(err)
		}
		ops[name] = code
	}
	return ops
})

func gojqOp(name string, l, r any) any {
	v, ok := gojqOps()[name].Run([]any{l, r}).Next()
	if !ok {
		return nil
	}
	return v
}

// add is jq's `l + r`.
func (k *keyOrder) add(l, r any) any {
	if lm, ok := l.(map[string]any); ok {
		if rm, ok := r.(map[string]any); ok {
			return k.addObjects(lm, rm)
		}
	}
	if v, ok := fastAdd(l, r); ok {
		return v
	}
	return gojqOp(addFunc, l, r)
}

// mul is jq's `l * r`.
func (k *keyOrder) mul(l, r any) any {
	if lm, ok := l.(map[string]any); ok {
		if rm, ok := r.(map[string]any); ok {
			return k.mulObjects(lm, rm)
		}
	}
	if v, ok := fastMul(l, r); ok {
		return v
	}
	return gojqOp(mulFunc, l, r)
}

// addObjects merges like gojq's `+` (an empty side gives the other object
// itself) and records jq's key order for the result.
func (k *keyOrder) addObjects(l, r map[string]any) map[string]any {
	if len(l) == 0 {
		return r
	}
	if len(r) == 0 {
		return l
	}
	keys := k.mergedKeys(l, r)
	m := make(map[string]any, len(keys))
	maps.Copy(m, l)
	maps.Copy(m, r)
	k.rememberMerge(m, keys)
	return m
}

// mulObjects merges like gojq's `*`, recursively where both values are
// objects, and records jq's key order for every merged object.
func (k *keyOrder) mulObjects(l, r map[string]any) map[string]any {
	keys := k.mergedKeys(l, r)
	m := make(map[string]any, len(keys))
	maps.Copy(m, l)
	for key, v := range r {
		if lv, ok := m[key].(map[string]any); ok {
			if rv, ok := v.(map[string]any); ok {
				v = k.mulObjects(lv, rv)
			}
		}
		m[key] = v
	}
	k.rememberMerge(m, keys)
	return m
}

// mergedKeys is the key order of a merge of l and r: l's keys, then r's
// keys that l lacks. A merge into the latest merged object (the
// accumulator of a reduce or an add) extends that object's key slice in
// place, which is safe because it is the longest slice of its array, so
// that a chain of merges shares one array instead of a copy per step.
func (k *keyOrder) mergedKeys(l, r map[string]any) []string {
	var keys []string
	if k.lastMerge != nil && reflect.ValueOf(l).Pointer() == reflect.ValueOf(k.lastMerge).Pointer() {
		keys = k.lastKeys
	} else {
		lk := k.keys(l, false)
		keys = make([]string, len(lk), len(lk)+len(r))
		copy(keys, lk)
	}
	// Only the merge that records its result next may extend the array.
	k.lastMerge, k.lastKeys = nil, nil
	var added []string
	for key := range r {
		if _, ok := l[key]; !ok {
			added = append(added, key)
		}
	}
	if len(added) < 2 {
		// r's order matters only between keys l lacks.
		return append(keys, added...)
	}
	for _, key := range k.keys(r, false) {
		if _, ok := l[key]; !ok {
			keys = append(keys, key)
		}
	}
	return keys
}

// mergedOrder is the key order of a merged object. Merges make many
// short-lived objects, so unlike byMap's entries (input objects) each
// entry holds a weak pointer to its object: an entry whose object was
// collected is stale even when a new object reuses the address, and such
// entries are pruned as the table grows.
type mergedOrder struct {
	obj  weak.Pointer[byte]
	keys []string
}

// minPrune is the size of the merged table below which it is not pruned.
const minPrune = 1024

// rememberMerge records keys as the order of m, the latest merged object,
// leaving the key sets used for guesses alone.
func (k *keyOrder) rememberMerge(m map[string]any, keys []string) {
	if len(k.merged) >= k.pruneAt {
		for p, e := range k.merged {
			if e.obj.Value() == nil {
				delete(k.merged, p)
			}
		}
		k.pruneAt = max(2*len(k.merged), minPrune)
	}
	// m was made by addObjects or mulObjects and escapes, so its map
	// header is a heap object a weak pointer may refer to.
	p := reflect.ValueOf(m)
	k.merged[p.Pointer()] = mergedOrder{obj: weak.Make((*byte)(p.UnsafePointer())), keys: keys}
	k.lastMerge, k.lastKeys = m, keys
}

// mergedKeysOf returns the recorded order of m if a merge built it.
func (k *keyOrder) mergedKeysOf(m map[string]any) ([]string, bool) {
	p := reflect.ValueOf(m).Pointer()
	e, ok := k.merged[p]
	if !ok {
		return nil, false
	}
	if e.obj.Value() == nil {
		delete(k.merged, p)
		return nil, false
	}
	// The object is alive, so it is m itself.
	return e.keys, sameKeys(e.keys, m)
}

// fastAdd computes l + r for the common scalar operands as gojq does,
// without running gojq's operator; ok is false for every other pair.
func fastAdd(l, r any) (v any, ok bool) {
	if l == nil && !isJSONNumber(r) {
		return r, true
	}
	if r == nil && !isJSONNumber(l) {
		return l, true
	}
	switch l := l.(type) {
	case int:
		switch r := r.(type) {
		case int:
			// gojq turns an overflowing sum into a big integer.
			if v := l + r; (v >= l) == (r >= 0) {
				return v, true
			}
		case float64:
			return float64(l) + r, true
		}
	case float64:
		switch r := r.(type) {
		case int:
			return l + float64(r), true
		case float64:
			return l + r, true
		}
	case string:
		if r, ok := r.(string); ok {
			return l + r, true
		}
	}
	return nil, false
}

// fastMul is fastAdd for l * r.
func fastMul(l, r any) (v any, ok bool) {
	switch l := l.(type) {
	case int:
		switch r := r.(type) {
		case int:
			// gojq negates separately and turns an overflowing product
			// into a big integer.
			if v := l * r; r != -1 && (r == 0 || v/r == l) {
				return v, true
			}
		case float64:
			return float64(l) * r, true
		}
	case float64:
		switch r := r.(type) {
		case int:
			return l * float64(r), true
		case float64:
			return l * r, true
		}
	}
	return nil, false
}

func isJSONNumber(v any) bool {
	_, ok := v.(json.Number)
	return ok
}
