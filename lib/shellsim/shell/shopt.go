package shell

import (
	"fmt"
	"strings"
)

// shopt as bash 5.2: every option bash lists, in its order, with a
// non-interactive shell's defaults. The options ShellSim models are
// fields of options; the others keep the state a script gives them (so
// shopt prints what bash would), and setting one whose behaviour a
// script could see away from its default is recorded as unsupported.

type shoptDef struct {
	name string
	on   bool // bash's default
	// inert: no effect in a non-interactive shell (or read-only), so its
	// state alone is faithful
	inert bool
}

var shoptDefs = []shoptDef{
	{"autocd", false, true}, {"assoc_expand_once", false, false}, {"cdable_vars", false, false},
	{"cdspell", false, true}, {"checkhash", false, true}, {"checkjobs", false, true},
	{"checkwinsize", true, true}, {"cmdhist", true, true}, {"compat31", false, false},
	{"compat32", false, false}, {"compat40", false, false}, {"compat41", false, false},
	{"compat42", false, false}, {"compat43", false, false}, {"compat44", false, false},
	{"complete_fullquote", true, true}, {"direxpand", false, true}, {"dirspell", false, true},
	{"dotglob", false, false}, {"execfail", false, false}, {"expand_aliases", false, false},
	{"extdebug", false, false}, {"extglob", false, false}, {"extquote", true, false},
	{"failglob", false, false}, {"force_fignore", true, true}, {"globasciiranges", true, false},
	{"globskipdots", true, false}, {"globstar", false, false}, {"gnu_errfmt", false, false},
	{"histappend", false, true}, {"histreedit", false, true}, {"histverify", false, true},
	{"hostcomplete", true, true}, {"huponexit", false, true}, {"inherit_errexit", false, false},
	{"interactive_comments", true, false}, {"lastpipe", false, false}, {"lithist", false, true},
	{"localvar_inherit", false, false}, {"localvar_unset", false, false}, {"login_shell", false, true},
	{"mailwarn", false, true}, {"no_empty_cmd_completion", false, true}, {"nocaseglob", false, false},
	{"nocasematch", false, false}, {"noexpand_translation", false, true}, {"nullglob", false, false},
	{"patsub_replacement", true, false}, {"progcomp", true, true}, {"progcomp_alias", false, true},
	{"promptvars", true, true}, {"restricted_shell", false, true}, {"shift_verbose", false, false},
	{"sourcepath", true, false}, {"varredir_close", false, false}, {"xpg_echo", false, false},
}

// shoptIndex finds an option's place in shoptDefs.
func shoptIndex(name string) int {
	for i, d := range shoptDefs {
		if d.name == name {
			return i
		}
	}
	return -1
}

// shoptPtr is the field of a modeled option, or nil.
func (sh *Shell) shoptPtr(name string) *bool {
	switch name {
	case "inherit_errexit":
		return &sh.opts.inheritErrexit
	case "nullglob":
		return &sh.opts.nullglob
	case "dotglob":
		return &sh.opts.dotglob
	case "extglob":
		return &sh.opts.extglob
	case "globstar":
		return &sh.opts.globstar
	case "nocaseglob":
		return &sh.opts.nocaseglob
	case "failglob":
		return &sh.opts.failglob
	case "expand_aliases":
		return &sh.opts.expandAliases
	case "shift_verbose":
		return &sh.opts.shiftVerbose
	case "xpg_echo":
		return &sh.opts.xpgEcho
	}
	return nil
}

// shoptGet is the state of option i.
func (sh *Shell) shoptGet(i int) bool {
	d := shoptDefs[i]
	if p := sh.shoptPtr(d.name); p != nil {
		return *p
	}
	return d.on != (sh.opts.shoptFlipped&(1<<i) != 0)
}

// shoptSet sets option i; read-only ones keep their state, as in bash.
func (sh *Shell) shoptSet(i int, on bool) {
	d := shoptDefs[i]
	if p := sh.shoptPtr(d.name); p != nil {
		*p = on
		return
	}
	if d.name == "login_shell" || d.name == "restricted_shell" {
		return
	}
	if on != d.on && !d.inert {
		sh.rt.Tel.unsupported("shopt:" + d.name)
	}
	if on != d.on {
		sh.opts.shoptFlipped |= 1 << i
	} else {
		sh.opts.shoptFlipped &^= 1 << i
	}
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func biShopt(sh *Shell, args []string) int {
	var print, quiet, set, unset, setO bool
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'p':
				print = true
			case 'q':
				quiet = true
			case 's':
				set = true
			case 'u':
				unset = true
			case 'o':
				setO = true
			default:
				sh.bierr("shopt", "-%c: invalid option", c)
				fmt.Fprintln(sh.stderr(), "shopt: usage: shopt [-pqsu] [-o] [optname ...]")
				return 2
			}
		}
	}
	names := args[i:]
	if set && unset {
		sh.bierr("shopt", "cannot set and unset shell options simultaneously")
		return 1
	}
	if setO {
		return sh.shoptSetO(names, print, quiet, set, unset)
	}
	var b strings.Builder
	line := func(name string, on bool) {
		switch {
		case quiet:
		case print:
			fmt.Fprintf(&b, "shopt -%c %s\n", map[bool]byte{true: 's', false: 'u'}[on], name)
		default:
			fmt.Fprintf(&b, "%-15s\t%s\n", name, onOff(on))
		}
	}
	st := 0
	if len(names) == 0 {
		// a listing: all options, or those on (-s) or off (-u)
		for i, d := range shoptDefs {
			if on := sh.shoptGet(i); !set && !unset || on == set {
				line(d.name, on)
			}
		}
	}
	for _, n := range names {
		i := shoptIndex(n)
		if i < 0 {
			sh.bierr("shopt", "%s: invalid shell option name", n)
			st = 1
			continue
		}
		switch {
		case set || unset:
			sh.shoptSet(i, set)
		default:
			on := sh.shoptGet(i)
			if !on {
				st = 1
			}
			line(n, on)
		}
	}
	sh.write(b.String())
	return st
}

// shoptSetO is shopt -o: the set -o options.
func (sh *Shell) shoptSetO(names []string, print, quiet, set, unset bool) int {
	get := func(n string) bool {
		if p := sh.optPtr(n); p != nil {
			return *p
		}
		return fixedOptions[n]
	}
	var b strings.Builder
	line := func(name string, on bool) {
		switch {
		case quiet:
		case print:
			fmt.Fprintf(&b, "set %co %s\n", map[bool]byte{true: '-', false: '+'}[on], name)
		default:
			fmt.Fprintf(&b, "%-15s\t%s\n", name, onOff(on))
		}
	}
	st := 0
	if len(names) == 0 {
		for _, n := range allOptionNames {
			if on := get(n); !set && !unset || on == set {
				line(n, on)
			}
		}
	}
	for _, n := range names {
		known := false
		for _, o := range allOptionNames {
			known = known || o == n
		}
		if !known {
			sh.bierr("shopt", "%s: invalid option name", n)
			st = 1
			continue
		}
		if set || unset {
			sh.setOption(n, set)
			continue
		}
		on := get(n)
		if !on {
			st = 1
		}
		line(n, on)
	}
	sh.write(b.String())
	return st
}
