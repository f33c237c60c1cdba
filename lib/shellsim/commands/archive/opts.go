package archive

import (
	"fmt"
	"sort"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// A small GNU getopt_long work-alike (permutation, clustered short options,
// unique-prefix long options, glibc's diagnostics). Flag libraries do not
// print glibc's exact messages, which scripts and tests compare against.

// long describes a long option: key is what the command sees (often the
// equivalent short letter); arg says it takes a required argument.
type long struct {
	key string
	arg bool
}

type spec struct {
	short string // getopt syntax: "c:" takes an argument
	long  map[string]long
}

type opt struct {
	key, val string
}

// parse parses inv.Args[1:]. On error it prints glibc's message and the
// "Try ... --help" line and returns ok=false; the caller exits with its
// usage status.
func parse(inv *command.Invocation, sp spec) (opts []opt, operands []string, ok bool) {
	name := inv.Args[0]
	fail := func(format string, a ...any) ([]opt, []string, bool) {
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
				for k := range sp.long {
					if strings.HasPrefix(k, n) {
						poss = append(poss, "'--"+k+"'")
					}
				}
				sort.Strings(poss)
				return fail("option '--%s' is ambiguous; possibilities: %s", n, strings.Join(poss, " "))
			}
			if l.arg {
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
			opts = append(opts, opt{l.key, v})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j]
				k := strings.IndexByte(sp.short, c)
				if k < 0 || c == ':' {
					inv.Sys.Partial(fmt.Sprintf("%s -%c", name, c))
					return fail("invalid option -- '%c'", c)
				}
				if k+1 < len(sp.short) && sp.short[k+1] == ':' {
					v := a[j+1:]
					if v == "" {
						if i+1 >= len(args) {
							return fail("option requires an argument -- '%c'", c)
						}
						i++
						v = args[i]
					}
					opts = append(opts, opt{string(c), v})
					break
				}
				opts = append(opts, opt{string(c), ""})
			}
		default:
			operands = append(operands, a)
		}
	}
	return opts, operands, true
}

// lookup finds a long option by exact name or unique prefix.
func (sp spec) lookup(n string) (long, string, int) {
	if l, ok := sp.long[n]; ok {
		return l, n, 1
	}
	var hit long
	var full string
	count := 0
	seen := map[string]bool{}
	for k, l := range sp.long {
		if strings.HasPrefix(k, n) {
			// Aliases with the same key are one option, as in glibc.
			id := l.key + fmt.Sprint(l.arg)
			if !seen[id] {
				seen[id] = true
				count++
			}
			hit, full = l, k
		}
	}
	return hit, full, count
}
