package command

import "sort"

// Table names the commands of one ShellSim machine. A runtime takes its
// table as a constructor option (shell.WithCommands, shellsim.WithCommands);
// command packages export their entries (a Commands function) instead of
// registering them anywhere, so a machine runs exactly the commands it was
// given. A table is filled before use and only read afterwards, so one
// table may serve many machines at once.
type Table struct {
	m map[string]Entry
}

// NewTable returns a table holding the given sets of entries; a name
// given twice panics.
func NewTable(sets ...[]Entry) *Table {
	t := &Table{m: map[string]Entry{}}
	for _, set := range sets {
		t.Add(set...)
	}
	return t
}

// Add adds entries; a name already in the table panics, since two packages
// modelling the same command is a wiring mistake.
func (t *Table) Add(entries ...Entry) *Table {
	for _, e := range entries {
		if _, dup := t.m[e.Name]; dup {
			panic("shellsim: command added twice: " + e.Name)
		}
		t.m[e.Name] = e
	}
	return t
}

// AddMissing adds the entries whose names the table does not hold yet
// (placeholders such as "command not available" stubs).
func (t *Table) AddMissing(entries ...Entry) *Table {
	for _, e := range entries {
		if _, ok := t.m[e.Name]; !ok {
			t.m[e.Name] = e
		}
	}
	return t
}

// Clone returns a copy that can be extended without changing t.
func (t *Table) Clone() *Table {
	c := &Table{m: make(map[string]Entry, len(t.m))}
	for n, e := range t.m {
		c.m[n] = e
	}
	return c
}

// Lookup finds a command by name; a nil table holds nothing.
func (t *Table) Lookup(name string) (Entry, bool) {
	if t == nil {
		return Entry{}, false
	}
	e, ok := t.m[name]
	return e, ok
}

// Names lists the table's commands, sorted.
func (t *Table) Names() []string {
	if t == nil {
		return nil
	}
	names := make([]string, 0, len(t.m))
	for n := range t.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
