package shell

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
)

// Var is one shell variable: an expand.Variable plus bash attributes the
// expander does not know about.
type Var struct {
	expand.Variable
	Integer, Lower, Upper bool
}

// varSize is the modeled memory of a variable: its bytes plus what the host
// takes per element (a string header and the slack of a growing slice, or a
// map entry).
func varSize(v *Var) int64 {
	n := int64(len(v.Str)) + 32 + int64(len(v.Indexes))*8
	for _, s := range v.List {
		n += int64(len(s)) + 24
	}
	for k, s := range v.Map {
		n += int64(len(k)+len(s)) + 64
	}
	return n
}

func cloneVar(v *Var) *Var {
	c := *v
	if v.List != nil {
		c.List = slices.Clone(v.List)
	}
	if v.Indexes != nil {
		c.Indexes = slices.Clone(v.Indexes)
	}
	if v.Map != nil {
		c.Map = maps.Clone(v.Map)
	}
	return &c
}

// lookup finds the innermost variable called name.
func (sh *Shell) lookup(name string) *Var {
	for i := len(sh.scopes) - 1; i > 0; i-- {
		if len(sh.scopes[i]) == 0 {
			continue
		}
		if v, ok := sh.scopes[i][name]; ok {
			return v
		}
	}
	for i := 0; i >= 0; i-- {
		if v, ok := sh.scopes[i][name]; ok {
			return v
		}
	}
	return nil
}

// resolveRef follows namerefs.
func (sh *Shell) resolveRef(name string) string {
	for range 16 {
		v := sh.lookup(name)
		if v == nil || v.Kind != expand.NameRef {
			return name
		}
		name = v.Str
	}
	return name
}

// errReadonly is returned when assigning to a readonly variable.
type errReadonly string

func (e errReadonly) Error() string { return string(e) + ": readonly variable" }

// account adjusts modeled variable memory by the change from old to new.
func (sh *Shell) account(old, new *Var) error {
	var d int64
	if new != nil {
		d += varSize(new)
	}
	if old != nil {
		d -= varSize(old)
	}
	if d > 0 {
		if err := sh.rt.Meter.Reserve(d); err != nil {
			return err
		}
	} else {
		sh.rt.Meter.Release(-d)
	}
	sh.varMem += d
	return nil
}

// store puts v under name in the scope that owns name (or the global one).
func (sh *Shell) store(name string, v *Var) error {
	name = sh.resolveRef(name)
	for i := len(sh.scopes) - 1; i >= 0; i-- {
		if old, ok := sh.scopes[i][name]; ok {
			if old.ReadOnly && v != old {
				return errReadonly(name)
			}
			if err := sh.account(old, v); err != nil {
				return err
			}
			sh.scopes[i][name] = v
			return nil
		}
	}
	if err := sh.account(nil, v); err != nil {
		return err
	}
	sh.scopes[0][name] = v
	return nil
}

// setLocal declares name in the innermost function scope.
func (sh *Shell) setLocal(name string, v *Var) error {
	top := sh.scopes[len(sh.scopes)-1]
	if old, ok := top[name]; ok && old.ReadOnly {
		return errReadonly(name)
	}
	if err := sh.account(top[name], v); err != nil {
		return err
	}
	v.Local = true
	top[name] = v
	return nil
}

// transform applies -i/-l/-u attributes to a value being assigned.
func (sh *Shell) transform(v *Var, s string) (string, error) {
	if v != nil && v.Integer {
		n, err := sh.arithString(s)
		if err != nil {
			return "", expand.MarkSubscript(err)
		}
		s = strconv.Itoa(n)
	}
	if v != nil && v.Lower {
		s = strings.ToLower(s)
	}
	if v != nil && v.Upper {
		s = strings.ToUpper(s)
	}
	return s, nil
}

// SetVar assigns a string value, keeping attributes.
func (sh *Shell) SetVar(name, val string) error {
	name = sh.resolveRef(name)
	old := sh.lookup(name)
	if old != nil && old.ReadOnly {
		return errReadonly(name)
	}
	val, err := sh.transform(old, val)
	if err != nil {
		return err
	}
	nv := &Var{}
	if old != nil {
		nv.Exported, nv.Local, nv.Integer, nv.Lower, nv.Upper = old.Exported, old.Local, old.Integer, old.Lower, old.Upper
		if old.Kind == expand.Indexed || old.Kind == expand.Associative {
			// x=v on an array sets element 0 / key "0".
			return sh.setIndex(name, "0", val, false)
		}
	}
	if sh.opts.allexport {
		nv.Exported = true
	}
	nv.Set, nv.Kind, nv.Str = true, expand.String, val
	if name == "PWD" {
		// keep the shell's directory in sync only through cd
	}
	return sh.store(name, nv)
}

// getVar returns the string value of name and whether it is set.
func (sh *Shell) getVar(name string) (string, bool) {
	vr := sh.envGet(name)
	return vr.String(), vr.IsSet()
}

// setIndex assigns arr[key]=val; key is already expanded (arithmetic for
// indexed arrays is evaluated here).
func (sh *Shell) setIndex(name, key, val string, appendVal bool) error {
	name = sh.resolveRef(name)
	old := sh.lookup(name)
	if old != nil && old.ReadOnly {
		return errReadonly(name)
	}
	var nv *Var
	if old == nil {
		nv = &Var{}
		nv.Kind = expand.Indexed
	} else {
		nv = cloneVar(old)
	}
	nv.Set = true
	switch nv.Kind {
	case expand.Associative:
		if nv.Map == nil {
			nv.Map = map[string]string{}
		}
		if appendVal {
			val = nv.Map[key] + val
		}
		nv.Map[key] = val
	default:
		if nv.Kind == expand.String || nv.Kind == expand.Unknown {
			if nv.Kind == expand.String {
				nv.List = []string{nv.Str}
			}
			nv.Kind, nv.Str = expand.Indexed, ""
		}
		i, err := sh.arithString(key)
		if err != nil {
			return expand.MarkSubscript(err)
		}
		if i < 0 {
			n := arrayLen(nv)
			if n+i < 0 {
				return fmt.Errorf("%s[%s]: bad array subscript", name, key)
			}
			i = maxIndex(nv) + 1 + i
		}
		if appendVal {
			cur, _ := indexGet(nv, i)
			val = cur + val
		}
		indexSet(nv, i, val)
	}
	return sh.store(name, nv)
}

func arrayLen(v *Var) int { return len(v.List) }

func maxIndex(v *Var) int {
	if v.Indexes != nil {
		if len(v.Indexes) == 0 {
			return -1
		}
		return v.Indexes[len(v.Indexes)-1]
	}
	return len(v.List) - 1
}

func indexGet(v *Var, i int) (string, bool) {
	if v.Indexes != nil {
		if p, ok := slices.BinarySearch(v.Indexes, i); ok {
			return v.List[p], true
		}
		return "", false
	}
	if i >= 0 && i < len(v.List) {
		return v.List[i], true
	}
	return "", false
}

func indexSet(v *Var, i int, val string) {
	if v.Indexes == nil {
		if i < len(v.List) {
			v.List[i] = val
			return
		}
		if i == len(v.List) {
			v.List = append(v.List, val)
			return
		}
		// becomes sparse
		v.Indexes = make([]int, len(v.List))
		for k := range v.List {
			v.Indexes[k] = k
		}
	}
	p, ok := slices.BinarySearch(v.Indexes, i)
	if ok {
		v.List[p] = val
		return
	}
	v.Indexes = slices.Insert(v.Indexes, p, i)
	v.List = slices.Insert(v.List, p, val)
}

func indexUnset(v *Var, i int) {
	if v.Indexes == nil {
		if i < 0 || i >= len(v.List) {
			return
		}
		if i == len(v.List)-1 {
			v.List = v.List[:i]
			return
		}
		v.Indexes = make([]int, len(v.List))
		for k := range v.List {
			v.Indexes[k] = k
		}
	}
	if p, ok := slices.BinarySearch(v.Indexes, i); ok {
		v.Indexes = slices.Delete(v.Indexes, p, p+1)
		v.List = slices.Delete(v.List, p, p+1)
	}
}

// unsetVar removes name (or marks a local unset).
func (sh *Shell) unsetVar(name string) error {
	name = sh.resolveRef(name)
	for i := len(sh.scopes) - 1; i >= 0; i-- {
		if old, ok := sh.scopes[i][name]; ok {
			if old.ReadOnly {
				return fmt.Errorf("%s: cannot unset: readonly variable", name)
			}
			sh.account(old, nil)
			if i == len(sh.scopes)-1 && i > 0 && len(sh.funcNames) > 0 {
				// a local of the running function stays local, unset: the
				// outer value stays hidden (bash without localvar_unset)
				sh.scopes[i][name] = &Var{}
				return nil
			}
			delete(sh.scopes[i], name)
			return nil
		}
	}
	return nil
}

// exportedEnv lists NAME=value for exported, set variables, sorted.
func (sh *Shell) exportedEnv() []string {
	seen := map[string]bool{}
	var out []string
	for i := len(sh.scopes) - 1; i >= 0; i-- {
		for k, v := range sh.scopes[i] {
			if seen[k] {
				continue
			}
			seen[k] = true
			if v.Exported && v.Set && v.Kind == expand.String {
				out = append(out, k+"="+v.Str)
			}
		}
	}
	sort.Strings(out)
	return out
}

// allNames lists every visible variable name, sorted.
func (sh *Shell) allNames() []string {
	seen := map[string]bool{}
	var out []string
	for i := len(sh.scopes) - 1; i >= 0; i-- {
		for k := range sh.scopes[i] {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// envAdapter exposes the shell's variables to mvdan.cc/sh/v3/expand.
type envAdapter struct{ sh *Shell }

func (e envAdapter) Get(name string) expand.Variable { return e.sh.envGet(name) }

func (e envAdapter) Each(fn func(string, expand.Variable) bool) {
	for _, n := range e.sh.allNames() {
		if !fn(n, e.sh.lookup(n).Variable) {
			return
		}
	}
}

func (e envAdapter) Set(name string, vr expand.Variable) error {
	sh := e.sh
	if !vr.IsSet() {
		return sh.unsetVar(name)
	}
	switch vr.Kind {
	case expand.String:
		return sh.SetVar(name, vr.Str)
	case expand.KeepValue:
		return nil
	}
	v := &Var{Variable: vr}
	return sh.store(name, v)
}

func strVar(s string) expand.Variable {
	return expand.Variable{Set: true, Kind: expand.String, Str: s}
}

// envGet answers the expander, including special parameters.
func (sh *Shell) envGet(name string) expand.Variable {
	switch name {
	case "#":
		return strVar(strconv.Itoa(len(sh.params)))
	case "@", "*":
		return expand.Variable{Set: true, Kind: expand.Indexed, List: sh.params}
	case "?":
		return strVar(strconv.Itoa(sh.status))
	case "$":
		return strVar(strconv.Itoa(sh.topPID))
	case "!":
		if sh.lastBg == 0 {
			return expand.Variable{}
		}
		return strVar(strconv.Itoa(sh.lastBg))
	case "0":
		return strVar(sh.arg0)
	case "-":
		return strVar(sh.optFlags())
	case "PPID":
		return strVar(strconv.Itoa(sh.ppid))
	case "BASHPID":
		return strVar(strconv.Itoa(sh.pid))
	case "RANDOM":
		sh.rt.rand = sh.rt.rand*1103515245 + 12345
		return strVar(strconv.Itoa(int(sh.rt.rand>>16) & 0x7fff))
	case "LINENO":
		return strVar(strconv.Itoa(sh.lineno))
	case "SECONDS":
		return strVar(strconv.Itoa(int(sh.rt.Sched.Now().Seconds())))
	case "EPOCHSECONDS":
		return strVar(strconv.FormatInt(sh.rt.Now().Unix(), 10))
	case "EPOCHREALTIME":
		t := sh.rt.Now()
		return strVar(fmt.Sprintf("%d.%06d", t.Unix(), t.Nanosecond()/1000))
	case "FUNCNAME", "BASH_SOURCE", "BASH_LINENO":
		// the call stack, innermost first; FUNCNAME only in a function
		if len(sh.frames) == 0 || name == "FUNCNAME" && len(sh.funcNames) == 0 {
			return expand.Variable{}
		}
		l := make([]string, len(sh.frames))
		for i, f := range sh.frames {
			switch name {
			case "FUNCNAME":
				l[len(l)-1-i] = f.fn
			case "BASH_SOURCE":
				l[len(l)-1-i] = f.src
			default:
				l[len(l)-1-i] = strconv.Itoa(f.line)
			}
		}
		return expand.Variable{Set: true, Kind: expand.Indexed, List: l}
	}
	if len(name) > 0 && name[0] >= '1' && name[0] <= '9' {
		if n, err := strconv.Atoi(name); err == nil {
			if n <= len(sh.params) {
				return strVar(sh.params[n-1])
			}
			return expand.Variable{}
		}
	}
	if strings.HasPrefix(name, "HOME ") {
		u := name[5:]
		if u == "root" {
			return strVar("/root")
		}
		if _, ok := sh.rt.Users.LookupUser(u); ok {
			return strVar("/home/" + u)
		}
		return expand.Variable{}
	}
	if v := sh.lookup(name); v != nil {
		return v.Variable
	}
	return expand.Variable{}
}
