// Package getopt is a small GNU getopt_long work-alike for ShellSim's
// commands: permutation, clustered short options, unique-prefix long
// options and glibc's diagnostics.
package getopt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Flag libraries do not print glibc's exact messages, which scripts and
// tests compare against; hence this package.

// Long describes a long option: Key is what the command sees (often the
// equivalent short letter); Arg says it takes a required argument.
type Long struct {
	Key string
	Arg bool
}

// Spec is a command's options.
type Spec struct {
	Short string // getopt syntax: "c:" takes an argument
	Long  map[string]Long
}

// Opt is one parsed option.
type Opt struct {
	Key, Val string
}

// Parse parses inv.Args[1:]. On error it prints glibc's message and the
// "Try ... --help" line and returns ok=false; the caller exits with its
// usage status.
func Parse(inv *command.Invocation, sp Spec) (opts []Opt, operands []string, ok bool) {
	name := inv.Args[0]
	fail := func(format string, a ...any) ([]Opt, []string, bool) {
		fmt.Fprintf(inv.Stderr, "%s: %s\n", name, fmt.Sprintf(format, a...))
		fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", name)
		return nil, nil, false
	}
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			return opts, operands, true
		case strings.HasPrefix(a, "--"):
			n, v, eq := strings.Cut(a[2:], "=")
			l, full, found := sp.lookup(n)
			if found == 0 {
				// Unknown here may still be a real option of the GNU tool:
				// record it as a gap.
				inv.Sys.Partial(name + " --" + n)
				return fail("unrecognized option '%s'", a)
			}
			if found > 1 {
				var poss []string
				for k := range sp.Long {
					if strings.HasPrefix(k, n) {
						poss = append(poss, "'--"+k+"'")
					}
				}
				sort.Strings(poss)
				return fail("option '--%s' is ambiguous; possibilities: %s", n, strings.Join(poss, " "))
			}
			if l.Arg {
				if !eq {
					if i+1 >= len(args) {
						return fail("option '--%s' requires an argument", full)
					}
					i++
					v = args[i]
				}
			} else if eq {
				return fail("option '--%s' doesn't allow an argument", full)
			}
			opts = append(opts, Opt{l.Key, v})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j]
				k := strings.IndexByte(sp.Short, c)
				if k < 0 || c == ':' {
					inv.Sys.Partial(fmt.Sprintf("%s -%c", name, c))
					return fail("invalid option -- '%c'", c)
				}
				if k+1 < len(sp.Short) && sp.Short[k+1] == ':' {
					v := a[j+1:]
					if v == "" {
						if i+1 >= len(args) {
							return fail("option requires an argument -- '%c'", c)
						}
						i++
						v = args[i]
					}
					opts = append(opts, Opt{string(c), v})
					break
				}
				opts = append(opts, Opt{string(c), ""})
			}
		default:
			operands = append(operands, a)
		}
	}
	return opts, operands, true
}

// lookup finds a long option by exact name or unique prefix.
func (sp Spec) lookup(n string) (Long, string, int) {
	if l, ok := sp.Long[n]; ok {
		return l, n, 1
	}
	var hit Long
	var full string
	count := 0
	seen := map[string]bool{}
	for k, l := range sp.Long {
		if strings.HasPrefix(k, n) {
			// Aliases with the same key are one option, as in glibc.
			id := l.Key + fmt.Sprint(l.Arg)
			if !seen[id] {
				seen[id] = true
				count++
			}
			hit, full = l, k
		}
	}
	return hit, full, count
}
