package shell

import (
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/shell/internal/expand"
	"mvdan.cc/sh/v3/syntax"
)

type declFlags struct {
	set, unset map[rune]bool
	print      bool
	funcs      bool
	funcNames  bool
	global     bool
}

func (sh *Shell) declClause(c *syntax.DeclClause) {
	variant := c.Variant.Value
	if sh.opts.xtrace && sh.preExpanded == nil {
		sh.traceDecl(variant, c.Args)
		defer func() { sh.preExpanded = nil }()
	}
	sh.status = sh.declare(variant, c.Args, nil)
}

// traceDecl prints a declaration under set -x as bash does: its words
// expanded (each value once, kept for the declaration itself), then for
// export and readonly each assignment again.
func (sh *Shell) traceDecl(variant string, args []*syntax.Assign) {
	sh.preExpanded = map[*syntax.Word]string{}
	words := []string{variant}
	var again []string
	for _, as := range args {
		switch {
		case as.Naked && as.Name == nil:
			ws, err := sh.fields(as.Value)
			if err != nil {
				return
			}
			sh.preExpanded[as.Value] = strings.Join(ws, " ")
			if len(ws) != 1 {
				delete(sh.preExpanded, as.Value) // fields: expanded again by declare
			}
			words = append(words, traceQuoteAll(ws)...)
		case as.Naked || as.Array != nil || as.Index != nil:
			if as.Name != nil {
				words = append(words, as.Name.Value)
			}
		default:
			v, err := sh.literal(as.Value)
			if err != nil {
				return
			}
			if as.Value != nil {
				sh.preExpanded[as.Value] = v
			}
			op := "="
			if as.Append {
				op = "+="
			}
			words = append(words, traceQuote(as.Name.Value+op+v))
			again = append(again, as.Name.Value+op+traceQuote(v))
		}
	}
	sh.traceLine(strings.Join(words, " "))
	if variant == "export" || variant == "readonly" {
		for _, a := range again {
			sh.traceLine(a)
		}
	}
}

func biDeclLike(sh *Shell, args []string) int {
	return sh.declare(args[0], nil, args[1:])
}

// declare implements declare/typeset/local/export/readonly/nameref, either
// from a parsed DeclClause (assigns) or from plain string arguments.
func (sh *Shell) declare(variant string, assigns []*syntax.Assign, strArgs []string) int {
	f := declFlags{set: map[rune]bool{}, unset: map[rune]bool{}}
	switch variant {
	case "export":
		f.set['x'] = true
	case "readonly":
		f.set['r'] = true
	case "nameref":
		f.set['n'] = true
	}
	if variant == "local" && len(sh.funcNames) == 0 {
		sh.bierr("local", "can only be used in a function")
		return 1
	}
	type item struct {
		name   string
		value  *string
		as     *syntax.Assign
		hasVal bool
	}
	var items []item
	optsEnded := false
	handleWord := func(w string) bool {
		if w == "--" && !optsEnded && len(items) == 0 {
			optsEnded = true
			return true
		}
		if (strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+")) && len(w) > 1 && len(items) == 0 && !optsEnded {
			on := w[0] == '-'
			for _, c := range w[1:] {
				switch c {
				case 'p':
					f.print = true
				case 'f':
					f.funcs = true
				case 'F':
					f.funcNames = true
				case 'g':
					f.global = true
				case 'a', 'A', 'i', 'l', 'u', 'r', 'x', 'n', 't':
					if on {
						f.set[c] = true
					} else {
						f.unset[c] = true
					}
				default:
					sh.bierr(variant, "%c%c: invalid option", w[0], c)
					fmt.Fprintln(sh.stderr(), declUsage[variant])
					return false
				}
			}
			return true
		}
		if k, v, ok := strings.Cut(w, "="); ok {
			vv := v
			items = append(items, item{name: k, value: &vv, hasVal: true})
		} else {
			items = append(items, item{name: w})
		}
		return true
	}
	for _, as := range assigns {
		if as.Naked && as.Name == nil {
			ws, err := sh.fields(as.Value)
			if err != nil {
				sh.exprError(err)
				return 1
			}
			for _, w := range ws {
				if !handleWord(w) {
					return 2
				}
			}
			continue
		}
		if as.Naked {
			items = append(items, item{name: as.Name.Value})
			continue
		}
		items = append(items, item{name: as.Name.Value, as: as, hasVal: true})
	}
	for _, w := range strArgs {
		if !handleWord(w) {
			return 2
		}
	}
	if f.funcs && (variant == "readonly" || f.set['r']) && len(items) > 0 {
		// readonly -f: the function cannot be redefined or unset.
		var st int
		sh.roFuncs, st = sh.markFuncs(sh.roFuncs, variant, items2names(len(items), func(i int) string { return items[i].name }), true)
		return st
	}
	if f.funcs && (f.set['x'] || f.unset['x']) && len(items) > 0 {
		// export -f / declare -fx: functions reach child bash processes.
		var st int
		sh.expFuncs, st = sh.markFuncs(sh.expFuncs, variant, items2names(len(items), func(i int) string { return items[i].name }), !f.unset['x'])
		return st
	}
	if f.funcs && (f.set['t'] || f.unset['t']) && len(items) > 0 {
		// declare -ft: the functions inherit the RETURN trap
		var st int
		sh.tracedFuncs, st = sh.markFuncs(sh.tracedFuncs, variant, items2names(len(items), func(i int) string { return items[i].name }), !f.unset['t'])
		return st
	}
	if f.funcs || f.funcNames {
		return sh.printFuncs(items2names(len(items), func(i int) string { return items[i].name }), f.funcNames)
	}
	if variant == "local" && len(items) == 0 && !f.print {
		// local alone lists the function's variables, as declare -p does
		names := make([]string, 0, len(sh.scopes[len(sh.scopes)-1]))
		for n := range sh.scopes[len(sh.scopes)-1] {
			names = append(names, n)
		}
		sort.Strings(names)
		if len(names) == 0 {
			return 0
		}
		return sh.printDecl(variant, names, f)
	}
	if f.print || (len(items) == 0 && (variant != "local")) {
		names := items2names(len(items), func(i int) string { return items[i].name })
		return sh.printDecl(variant, names, f)
	}
	local := (variant == "local" || (variant == "declare" || variant == "typeset") && len(sh.funcNames) > 0 && !f.global)
	st := 0
	for _, it := range items {
		name := it.name
		if i := strings.IndexByte(name, '['); i > 0 && it.as == nil {
			// declare 'a[1]=x'
			if it.value != nil {
				sh.setIndex(name[:i], strings.TrimSuffix(name[i+1:], "]"), *it.value, false)
			}
			continue
		}
		if !syntax.ValidName(name) {
			// bash names the whole word, expanded
			switch {
			case it.as != nil && it.as.Value != nil:
				v, err := sh.literal(it.as.Value)
				if err != nil {
					sh.wordError(err)
					return 1
				}
				name += map[bool]string{true: "+=", false: "="}[it.as.Append] + v
			case it.as != nil:
				name += "="
			case it.value != nil:
				name += "=" + *it.value
			}
			sh.bierr(variant, "`%s': not a valid identifier", name)
			st = 1
			continue
		}
		var cur *Var
		if local {
			if v, ok := sh.scopes[len(sh.scopes)-1][name]; ok {
				cur = v
			}
		} else {
			cur = sh.lookup(name)
		}
		if cur != nil && cur.ReadOnly && (it.hasVal || f.unset['r']) || local && cur == nil && isReadonly(sh.lookup(name)) {
			// bash refuses a local that would shadow a readonly
			// variable; export and readonly name no builtin
			if variant == "export" || variant == "readonly" {
				sh.errf("%s: readonly variable", name)
			} else {
				sh.errf("%s: %s: readonly variable", variant, name)
			}
			st = 1
			continue
		}
		var nv *Var
		if cur != nil {
			nv = cloneVar(cur)
		} else {
			nv = &Var{}
			if local && !sh.opts.allexport {
				// a new local shadows an outer variable, unset until assigned
			}
		}
		if cur != nil && (f.set['A'] && cur.Kind == expand.Indexed || f.set['a'] && cur.Kind == expand.Associative) {
			from, to := "indexed", "associative"
			if cur.Kind == expand.Associative {
				from, to = to, from
			}
			if it.as != nil && it.as.Array != nil {
				// with a compound value bash abandons the line
				sh.errf("%s: cannot convert %s to %s array", name, from, to)
				sh.discard()
				return 1
			}
			sh.errf("%s: %s: cannot convert %s to %s array", variant, name, from, to)
			st = 1
			continue
		}
		switch {
		case f.set['A']:
			if nv.Kind != expand.Associative {
				nv.Kind, nv.Str, nv.List, nv.Indexes = expand.Associative, "", nil, nil
				if nv.Map == nil {
					nv.Map = map[string]string{}
				}
			}
		case f.set['a']:
			if nv.Kind != expand.Indexed {
				if nv.Kind == expand.String && nv.Set {
					nv.List = []string{nv.Str}
				}
				nv.Kind, nv.Str = expand.Indexed, ""
			}
		case f.set['n']:
			nv.Kind = expand.NameRef
		}
		for c, on := range map[rune]*bool{'i': &nv.Integer, 'l': &nv.Lower, 'u': &nv.Upper, 'x': &nv.Exported} {
			if f.set[c] {
				*on = true
			}
			if f.unset[c] {
				*on = false
			}
		}
		if f.set['l'] {
			nv.Upper = false
		}
		if f.set['u'] {
			nv.Lower = false
		}
		// Store attributes first so that the value is transformed by them.
		var err error
		if cur != nil && cur.ReadOnly {
			// Only attributes change (a value was refused above), which
			// bash allows on a readonly variable: export x, declare -x x.
			sh.replaceVar(name, cur, nv)
		} else if local {
			err = sh.setLocal(name, nv)
		} else if f.global {
			err = sh.storeGlobal(name, nv)
		} else {
			err = sh.store(name, nv)
		}
		if err != nil {
			sh.errf("%s: %v", variant, err)
			st = 1
			continue
		}
		if it.hasVal {
			if it.as != nil && nv.Kind == expand.NameRef && it.as.Array == nil && it.as.Index == nil && !it.as.Append {
				// declare -n r=y: r names y (the value is not assigned
				// through the reference)
				val := ""
				if it.as.Value != nil {
					val, err = sh.literal(it.as.Value)
				}
				if err == nil {
					nv.Str, nv.Set = val, true
				}
			} else if it.as != nil {
				as := *it.as
				if as.Array != nil {
					kind := expand.Unknown
					if nv.Kind == expand.Associative {
						kind = expand.Associative
					}
					err = sh.assignArray(name, as.Array, as.Append, false, kind)
				} else {
					err = sh.assignInPlace(&as)
				}
			} else if nv.Kind == expand.NameRef {
				nv.Str, nv.Set = *it.value, true
			} else {
				err = sh.SetVar(name, *it.value)
			}
			if err != nil {
				var se expand.SubscriptError
				if errors.As(err, &se) && (variant == "export" || variant == "readonly") {
					sh.bierr(variant, "`%s': not a valid identifier", se.Text)
				} else if errors.As(err, &se) {
					sh.errf("%v", err) // declare m[]=1 fails declare only
				} else {
					var ae expand.ArithError
					if errors.As(err, &ae) && ae.Prefix == "" {
						ae.Prefix = variant // declare -i x=1/0 names declare
						err = ae
					}
					sh.assignError(err)
				}
				st = 1
				continue
			}
		}
		if f.set['r'] {
			if v := sh.lookup(name); v != nil {
				v.ReadOnly = true
			}
		}
	}
	return st
}

// assignInPlace assigns to the variable currently visible under the name.
func (sh *Shell) assignInPlace(as *syntax.Assign) error {
	return sh.assign(as, false)
}

// replaceVar puts nv where cur is stored under name.
func (sh *Shell) replaceVar(name string, cur, nv *Var) {
	for i := len(sh.scopes) - 1; i >= 0; i-- {
		if sh.scopes[i][name] == cur {
			sh.account(cur, nv)
			sh.scopes[i][name] = nv
			return
		}
	}
}

func (sh *Shell) storeGlobal(name string, v *Var) error {
	if old, ok := sh.scopes[0][name]; ok && old.ReadOnly {
		return errReadonly(name)
	}
	sh.account(sh.scopes[0][name], v)
	sh.scopes[0][name] = v
	return nil
}

func items2names(n int, get func(int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = get(i)
	}
	return out
}

func (sh *Shell) printFuncs(names []string, onlyNames bool) int {
	if len(names) == 0 {
		for k := range sh.funcs {
			names = append(names, k)
		}
		sort.Strings(names)
	}
	var b strings.Builder
	st := 0
	for _, n := range names {
		body, ok := sh.funcs[n]
		if !ok {
			st = 1
			continue
		}
		if onlyNames {
			b.WriteString("declare -f " + n + "\n")
			continue
		}
		b.WriteString(funcText(n, body) + "\n")
	}
	sh.write(b.String())
	return st
}

func (sh *Shell) printDecl(variant string, names []string, f declFlags) int {
	all := len(names) == 0
	if all {
		names = sh.allNames()
	}
	var b strings.Builder
	st := 0
	for _, n := range names {
		v := sh.lookup(n)
		if v == nil {
			if !all {
				sh.errf("%s: %s: not found", variant, n)
				st = 1
			}
			continue
		}
		if all {
			if variant == "export" && !v.Exported || variant == "readonly" && !v.ReadOnly {
				continue
			}
			if f.set['x'] && !v.Exported && variant != "export" {
				continue
			}
		}
		flags := varFlags(v)
		if flags == "" {
			flags = "-"
		}
		b.WriteString("declare -" + flags + " " + n)
		if v.Set {
			b.WriteString("=" + declValue(v, sh.utf8()))
		}
		b.WriteByte('\n')
	}
	sh.write(b.String())
	return st
}

func isReadonly(v *Var) bool { return v != nil && v.ReadOnly }

// varFlags is a variable's attributes as declare -p lists them.
func varFlags(v *Var) string {
	flags := ""
	switch v.Kind {
	case expand.Indexed:
		flags += "a"
	case expand.Associative:
		flags += "A"
	case expand.NameRef:
		flags += "n"
	}
	if v.Integer {
		flags += "i"
	}
	if v.Lower {
		flags += "l"
	}
	if v.Upper {
		flags += "u"
	}
	if v.ReadOnly {
		flags += "r"
	}
	if v.Exported {
		flags += "x"
	}
	return flags
}

// declUsage is the usage line bash prints after an invalid option.
var declUsage = map[string]string{
	"declare":  "declare: usage: declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
	"typeset":  "typeset: usage: typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
	"local":    "local: usage: local [option] name[=value] ...",
	"export":   "export: usage: export [-fn] [name[=value] ...] or export -p",
	"readonly": "readonly: usage: readonly [-aAf] [name[=value] ...] or readonly -p",
}

// declValue renders a value the way declare -p does.
func declValue(v *Var, utf bool) string {
	switch v.Kind {
	case expand.Indexed:
		var b strings.Builder
		b.WriteByte('(')
		for i, s := range v.List {
			idx := i
			if v.Indexes != nil {
				idx = v.Indexes[i]
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "[%d]=%s", idx, expand.DeclQuote(s, utf))
		}
		b.WriteByte(')')
		return b.String()
	case expand.Associative:
		keys := expand.AssocKeys(v.Map)
		var b strings.Builder
		b.WriteByte('(')
		for _, k := range keys {
			key := k
			if strings.ContainsAny(k, " \t\n\"'$`\\*?[]") || expand.AnsicShouldQuote(k, utf) {
				key = expand.DeclQuote(k, utf)
			}
			fmt.Fprintf(&b, "[%s]=%s ", key, expand.DeclQuote(v.Map[k], utf))
		}
		b.WriteByte(')')
		return b.String()
	}
	return expand.DeclQuote(v.Str, utf)
}

// markFuncs returns a copy of set (shell copies may share the map) with
// each named function marked (on) or unmarked, and the status: 1 when a
// name is not a function (reported, as bash does, and skipped).
func (sh *Shell) markFuncs(set map[string]bool, variant string, names []string, on bool) (map[string]bool, int) {
	set = maps.Clone(set)
	if set == nil {
		set = map[string]bool{}
	}
	st := 0
	for _, name := range names {
		if _, ok := sh.funcs[name]; !ok {
			sh.errf("%s: %s: not a function", variant, name)
			st = 1
			continue
		}
		if on {
			set[name] = true
		} else {
			delete(set, name)
		}
	}
	return set, st
}

// utf8 reports whether the shell's locale (LC_ALL, LC_CTYPE, LANG) is a
// UTF-8 one: bash quotes what does not print in it.
func (sh *Shell) utf8() bool {
	return expand.UTF8Locale(sh.getVar)
}
