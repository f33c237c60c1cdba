package awk

// array is an awk associative array. Iteration follows insertion order so
// that for-in loops are deterministic.
type array struct {
	index   map[string]int
	entries []entry
	dead    int
}

type entry struct {
	key  string
	v    value
	live bool
}

func newArray() *array { return &array{index: map[string]int{}} }

func (a *array) len() int { return len(a.index) }

func (a *array) get(k string) (value, bool) {
	if i, ok := a.index[k]; ok {
		return a.entries[i].v, true
	}
	return value{}, false
}

// ref returns the element for k, creating it (awk creates elements on
// reference). created reports whether it is new.
func (a *array) ref(k string) (v *value, created bool) {
	if i, ok := a.index[k]; ok {
		return &a.entries[i].v, false
	}
	a.index[k] = len(a.entries)
	a.entries = append(a.entries, entry{key: k, live: true})
	return &a.entries[len(a.entries)-1].v, true
}

func (a *array) set(k string, v value) bool {
	p, created := a.ref(k)
	*p = v
	return created
}

func (a *array) delete(k string) {
	i, ok := a.index[k]
	if !ok {
		return
	}
	delete(a.index, k)
	a.entries[i] = entry{}
	a.dead++
	if a.dead > 32 && a.dead > len(a.entries)/2 {
		live := make([]entry, 0, len(a.index))
		for _, e := range a.entries {
			if e.live {
				a.index[e.key] = len(live)
				live = append(live, e)
			}
		}
		a.entries, a.dead = live, 0
	}
}

func (a *array) clear() {
	a.index = map[string]int{}
	a.entries, a.dead = nil, 0
}

// keys snapshots the keys in iteration order.
func (a *array) keys() []string {
	out := make([]string, 0, len(a.index))
	for _, e := range a.entries {
		if e.live {
			out = append(out, e.key)
		}
	}
	return out
}
