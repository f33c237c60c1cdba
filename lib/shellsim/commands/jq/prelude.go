package jq

import "github.com/itchyny/gojq"

// prelude shadows gojq builtins that would reach the host (clock, time
// zone), that the library leaves undefined (debug, stderr, input_filename,
// leaf_paths, input_line_number), or that differ from jq 1.6: gojq walks
// objects in sorted key order, jq in insertion order, so everything that
// iterates an object goes through _iter, which follows the recorded key
// order (the user's ".[]" is rewritten to it by rewriteQuery). Object
// merges keep jq's order through _shellsim_add and _shellsim_mul (see
// merge.go): rewriteOperators turns `+` and `*` into calls of them, and
// gojq compiles `+=` and `*=` as calls of _add and _multiply that it looks
// up among the query's definitions first, so those are defined here.
const prelude = `
def now: _shellsim_now;
def localtime: gmtime;
def strflocaltime(f): strftime(f);
def debug: _shellsim_debug;
def debug(m): (m | _shellsim_debug | empty), .;
def stderr: _shellsim_stderr;
def input_filename: _shellsim_filename;
def input_line_number: _shellsim_input_line_number;
def keys_unsorted: _shellsim_keys_unsorted;
def _iter: if type == "object" then (_shellsim_keys_unsorted[] as $k | .[$k]) else .[] end;
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def from_entries: _shellsim_from_entries;
def map(f): [_iter | f];
def with_entries(f): to_entries | map(f) | from_entries;
def map_values(f): _iter |= f;
def recurse(f): def r: ., (f | r); r;
def recurse(f; cond): def r: ., (f | select(cond) | r); r;
def recurse: recurse(_iter?);
def paths: path(..) | select(length > 0);
def paths(node_filter): . as $dot | paths | select(. as $p | $dot | getpath($p) | node_filter);
def leaf_paths: paths(scalars);
def add: reduce _iter as $x (null; . + $x);
def any: reduce _iter as $x (false; . or $x);
def all: reduce _iter as $x (true; . and $x);
def any(f): reduce (_iter | f) as $x (false; . or $x);
def all(f): reduce (_iter | f) as $x (true; . and $x);
def any(g; cond): reduce (g | cond) as $x (false; . or $x);
def all(g; cond): reduce (g | cond) as $x (true; . and $x);
def tostream: path(def r: (_iter? | r), .; r) as $p | getpath($p) | reduce path(_iter?) as $q ([$p, .]; [$p + $q]);
def ltrimstr($x): if type == "string" and ($x | type) == "string" and startswith($x) then .[($x | length):] else . end;
def rtrimstr($x): if type == "string" and ($x | type) == "string" and ($x | length) > 0 and endswith($x) then .[:length - ($x | length)] else . end;
def tojson: _shellsim_tojson;
def tostring: if type == "string" then . else _shellsim_tojson end;
def fromjson: _shellsim_fromjson;
def _add(a; b): _shellsim_add(a; b);
def _multiply(a; b): _shellsim_mul(a; b);
def tonumber: if type == "number" then . elif type == "string" then _shellsim_fromjson
  else error("\(type) (\(tojson)) cannot be parsed as a number") end;
.`

// rewriteQuery turns every ".[]" of the user's query into "_iter", so that
// objects are iterated in their recorded key order, and a bare @json or
// @text into tojson or tostring, which print with that order too.
func rewriteQuery(q *gojq.Query) {
	walkTerms(q, func(t *gojq.Term) {
		if t.Type == gojq.TermTypeFormat && t.Str == nil {
			switch t.Format {
			case "@json":
				t.Type, t.Format, t.Func = gojq.TermTypeFunc, "", &gojq.Func{Name: "tojson"}
			case "@text":
				t.Type, t.Format, t.Func = gojq.TermTypeFunc, "", &gojq.Func{Name: "tostring"}
			}
		}
		for {
			k := -1
			for i, s := range t.SuffixList {
				if s.Iter {
					k = i
					break
				}
			}
			if k < 0 {
				return
			}
			base := *t
			base.SuffixList = t.SuffixList[:k:k]
			rest := t.SuffixList[k+1:]
			iter := &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: "_iter"}}
			if len(rest) > 0 && rest[0].Optional && rest[0].Index == nil && !rest[0].Iter {
				// ".[]?" suppresses only the iteration's errors.
				iter.SuffixList = []*gojq.Suffix{{Optional: true}}
				rest = rest[1:]
			}
			pipe := &gojq.Query{Left: &gojq.Query{Term: &base}, Op: gojq.OpPipe, Right: &gojq.Query{Term: iter}}
			*t = gojq.Term{Type: gojq.TermTypeQuery, Query: pipe, SuffixList: rest}
		}
	})
}
