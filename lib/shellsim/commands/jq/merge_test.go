package jq

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"runtime"
	"testing"

	"github.com/itchyny/gojq"
)

func TestRewriteOperators(t *testing.T) {
	q, err := gojq.Parse(`def f: 1 + 2; f * (3 - 4) + -5, "\(1 + 2)", [.[] + 1], {a: (.b * 2)}, (.a += 1)`)
	if err != nil {
		t.Fatal(err)
	}
	rewriteOperators(q)
	want := `def f: _shellsim_add(1; 2); _shellsim_add(_shellsim_mul(f; (3 - 4)); -5), "\(_shellsim_add(1; 2))", [_shellsim_add(.[]; 1)], { a: (_shellsim_mul(.b; 2)) }, (.a += 1)`
	if got := q.String(); got != want {
		t.Errorf("rewritten query\n got %s\nwant %s", got, want)
	}
}

// TestOperatorsMatchGojq checks that _shellsim_add and _shellsim_mul give
// gojq's values and errors for every pair of operands (object merges have
// gojq's contents), including the pairs the fast paths compute.
func TestOperatorsMatchGojq(t *testing.T) {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	pool := []any{nil, true, false, 0, 1, -1, 7, math.MaxInt, math.MinInt, 1 << 62, 1.5, -0.25, 1e308,
		huge, json.Number("12"), "", "ab", []any{}, []any{1, "x"},
		map[string]any{}, map[string]any{"a": 1}, map[string]any{"b": map[string]any{"c": 1}, "a": 2},
		map[string]any{"b": map[string]any{"d": []any{1}}, "e": nil}}
	fast := 0
	for _, l := range pool {
		for _, r := range pool {
			k := newKeyOrder()
			for _, op := range []struct {
				name string
				ours func(l, r any) any
				fast func(l, r any) (any, bool)
			}{{addFunc, k.add, fastAdd}, {mulFunc, k.mul, fastMul}} {
				want := gojqOp(op.name, l, r)
				check := func(what string, got any) {
					t.Helper()
					we, wantErr := want.(error)
					ge, gotErr := got.(error)
					switch {
					case wantErr || gotErr:
						if !wantErr || !gotErr || ge.Error() != we.Error() {
							t.Errorf("%s %s(%#v, %#v) = %v, want %v", what, op.name, l, r, got, want)
						}
					case !reflect.DeepEqual(got, want):
						t.Errorf("%s %s(%#v, %#v) = %#v, want %#v", what, op.name, l, r, got, want)
					}
				}
				check("operator", op.ours(l, r))
				if v, ok := op.fast(l, r); ok {
					fast++
					check("fast path", v)
				}
			}
		}
	}
	if fast < 50 {
		t.Errorf("only %d pairs took a fast path", fast)
	}
}

func TestMergeOrder(t *testing.T) {
	k := newKeyOrder()
	l := map[string]any{"b": 1, "a": map[string]any{"y": 1, "x": 2}}
	k.remember(l, []string{"b", "a"})
	k.remember(l["a"].(map[string]any), []string{"y", "x"})
	r := map[string]any{"c": 4, "a": map[string]any{"w": 3, "y": 0}, "d": 5}
	k.remember(r, []string{"d", "a", "c"})
	k.remember(r["a"].(map[string]any), []string{"w", "y"})
	enc := func(v any) string { return compact(k, v) }
	if got, want := enc(k.add(l, r)), `{"b":1,"a":{"w":3,"y":0},"d":5,"c":4}`; got != want {
		t.Errorf("l + r = %s, want %s", got, want)
	}
	if got, want := enc(k.mul(l, r)), `{"b":1,"a":{"y":0,"x":2,"w":3},"d":5,"c":4}`; got != want {
		t.Errorf("l * r = %s, want %s", got, want)
	}
	if got, want := enc(k.add(r, l)), `{"d":5,"a":{"y":1,"x":2},"c":4,"b":1}`; got != want {
		t.Errorf("r + l = %s, want %s", got, want)
	}
}

// TestMergedOrdersArePruned checks that the orders of merged objects that
// were collected do not pile up, while a live merged object keeps its order.
func TestMergedOrdersArePruned(t *testing.T) {
	k := newKeyOrder()
	base := map[string]any{"b": 1, "a": 2}
	k.remember(base, []string{"b", "a"})
	keep := k.add(base, map[string]any{"z": 0}).(map[string]any)
	for i := range 100000 {
		k.add(base, map[string]any{fmt.Sprint("k", i%7): i})
		if i%5000 == 0 {
			runtime.GC()
		}
	}
	if n := len(k.merged); n > 10000 {
		t.Errorf("%d merged orders kept after 100000 merges", n)
	}
	if got, want := compact(k, keep), `{"b":1,"a":2,"z":0}`; got != want {
		t.Errorf("live merged object prints %s, want %s", got, want)
	}
	runtime.KeepAlive(keep)
}
