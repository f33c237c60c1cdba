package shell

import (
	"fmt"
	"strings"
)

// biHelp prints usage lines as bash's help does. The long descriptions
// (help NAME, -d, -m) and the topic list (help alone) are bash's own
// prose and are not simulated: they print the usage lines, say so on
// stderr and are recorded as partial use.
func biHelp(sh *Shell, args []string) int {
	short := false
	long := false
	a := args[1:]
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && a[0] != "-" {
		opt := a[0]
		a = a[1:]
		if opt == "--" {
			break
		}
		for _, c := range opt[1:] {
			switch c {
			case 's':
				short = true
			case 'd', 'm':
				long = true
			default:
				sh.bierr("help", "-%c: invalid option", c)
				fmt.Fprintln(sh.stderr(), "help: usage: help [-dms] [pattern ...]")
				return 2
			}
		}
	}
	if len(a) == 0 {
		sh.rt.Tel.Partials = append(sh.rt.Tel.Partials, "help (topic list)")
		sh.bierr("help", "the list of topics is not simulated in shellsim (help -s PATTERN prints usage lines)")
		return 2
	}
	if !short {
		long = true
	}
	var b strings.Builder
	if strings.ContainsAny(a[0], "*?[") {
		kw := "keyword"
		if len(a) > 1 {
			kw = "keywords"
		}
		fmt.Fprintf(&b, "Shell commands matching %s `%s'\n\n", kw, strings.Join(a, ", "))
	}
	found := 0
	for _, pat := range a {
		for _, t := range helpMatches(pat) {
			fmt.Fprintf(&b, "%s: %s\n", t.name, t.usage)
			found++
		}
	}
	if found == 0 {
		last := a[len(a)-1]
		sh.bierr("help", "no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", last, last, last)
		return 1
	}
	if st := sh.write(b.String()); st != 0 {
		return st
	}
	if long {
		sh.rt.Tel.Partials = append(sh.rt.Tel.Partials, "help (long descriptions)")
		sh.bierr("help", "long descriptions are not simulated in shellsim: usage lines only (as help -s)")
	}
	return 0
}

// helpMatches are the topics a help pattern names: the one it spells
// exactly, or else every one it begins or matches as a glob.
func helpMatches(pat string) []struct{ name, usage string } {
	for _, t := range helpTopics {
		if t.name == pat {
			return []struct{ name, usage string }{t}
		}
	}
	var out []struct{ name, usage string }
	for _, t := range helpTopics {
		if strings.HasPrefix(t.name, pat) || matchPattern(pat, t.name, true) {
			out = append(out, t)
		}
	}
	return out
}

// builtin returns the builtin called name unless enable -n disabled it.
func (sh *Shell) builtin(name string) (builtinFunc, bool) {
	b, ok := builtins[name]
	if !ok || sh.disabled[name] {
		return nil, false
	}
	return b, true
}

// biEnable lists, enables and disables builtins as bash's enable does; a
// disabled builtin is found on PATH instead. Loadable builtins (-f, -d)
// are not simulated.
func biEnable(sh *Shell, args []string) int {
	var all, disable, print, special bool
	a := args[1:]
	for len(a) > 0 && strings.HasPrefix(a[0], "-") && a[0] != "-" {
		opt := a[0]
		a = a[1:]
		if opt == "--" {
			break
		}
		for _, c := range opt[1:] {
			switch c {
			case 'a':
				all = true
			case 'n':
				disable = true
			case 'p':
				print = true
			case 's':
				special = true
			case 'f', 'd':
				sh.rt.Tel.unsupported("builtin:enable -" + string(c))
				sh.bierr("enable", "-%c: loadable builtins are not supported in shellsim", c)
				return 1
			default:
				sh.bierr("enable", "-%c: invalid option", c)
				fmt.Fprintln(sh.stderr(), "enable: usage: enable [-a] [-dnps] [-f filename] [name ...]")
				return 2
			}
		}
	}
	if len(a) == 0 || print {
		var b strings.Builder
		for _, name := range bashBuiltins {
			off := sh.disabled[name]
			if special && !specialBuiltins[name] || !all && off != disable {
				continue
			}
			if off {
				b.WriteString("enable -n " + name + "\n")
			} else {
				b.WriteString("enable " + name + "\n")
			}
		}
		return sh.write(b.String())
	}
	st := 0
	for _, name := range a {
		if !isBashBuiltin(name) {
			sh.bierr("enable", "%s: not a shell builtin", name)
			st = 1
			continue
		}
		if disable {
			if sh.disabled == nil {
				sh.disabled = map[string]bool{}
			}
			sh.disabled[name] = true
		} else {
			delete(sh.disabled, name)
		}
	}
	return st
}

func isBashBuiltin(name string) bool {
	for _, b := range bashBuiltins {
		if b == name {
			return true
		}
	}
	return false
}
