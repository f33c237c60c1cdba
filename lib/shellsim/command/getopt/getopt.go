// Package getopt parses a ShellSim command's options the way GNU
// getopt_long does, and every command package shares it:
//
//   - options and operands may be mixed (permutation) unless Spec.NoPerm;
//   - short options bundle ("-rf", "-n5", "-n 5");
//   - long options may be abbreviated to an unambiguous prefix, and take
//     "--name=value" or "--name value";
//   - "--" ends the options;
//   - usage errors print glibc's messages ("invalid option -- 'x'",
//     "option '--lines' requires an argument", ...) and the
//     "Try 'cmd --help' for more information." line.
//
// It also records options ShellSim does not know as Partial gaps (they may
// be GNU options it does not model), refuses the ones a Spec lists as known
// but unmodelled, and can answer GNU's --help and --version.
//
// Hand-written rather than using a flag library: GNU getopt semantics
// (permutation, bundling, unambiguous long prefixes, optional arguments) and
// glibc's exact error texts, which scripts and tests compare against, are
// what the simulator needs, together with recording Partial for unmodelled
// flags; none of the Go flag packages give that.
package getopt

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Spec describes a command's options.
type Spec struct {
	// Short lists the short options in getopt syntax: a letter followed by
	// ':' takes a required argument ("-n5" or "-n 5"), by "::" an optional
	// one (only "-w5"; in "-w 5" the 5 is an operand).
	Short string
	// Long maps each long option name to its canonical name, which is what
	// Opt.Name reports (often the equivalent short letter). A name ending in
	// '=' takes a required argument ("--lines=5" or "--lines 5"); a name
	// listed both with and without '=' takes an optional one ("--color",
	// "--color=auto").
	Long map[string]string
	// NoPerm stops option parsing at the first operand, as commands that
	// run other commands (env, timeout, xargs) need.
	NoPerm bool
	// Status is the exit status for usage errors; 0 means 1.
	Status int
	// Partial holds canonical names of GNU options that ShellSim recognises
	// but does not model: using one is reported by Unsupported.
	Partial map[string]bool
	// Help makes Parse answer --help and --version (see HelpOrVersion)
	// unless Long lists them itself.
	Help bool
}

// Opt is one parsed option: its canonical name (a short letter, or the
// value Spec.Long gives) and its argument, if it has one.
type Opt struct {
	Name string
	Val  string
}

// Parse parses inv.Args[1:] and returns the options in command-line order
// and the operands. When ok is false the command must return status at
// once: Parse has printed a usage error (recording an unknown option as a
// Partial gap), reported an unmodelled option (see Unsupported) or answered
// --help or --version.
func Parse(inv *command.Invocation, s *Spec) (opts []Opt, operands []string, status int, ok bool) {
	args := inv.Args[1:]
	if s.Help {
		for _, a := range args {
			if a == "--" || s.NoPerm && !strings.HasPrefix(a, "-") {
				break
			}
			if a == "--help" || a == "--version" {
				if _, known := s.Long[a[2:]]; !known {
					return nil, nil, HelpOrVersion(inv, s, a), false
				}
			}
		}
	}
	opts, operands, err := s.parse(args)
	if err != nil {
		if err.unknown != "" {
			inv.Sys.Partial(inv.Args[0] + " " + err.unknown)
		}
		UsageError(inv, err.msg)
		return nil, nil, s.status(), false
	}
	for _, o := range opts {
		if s.Partial[o.Name] {
			return nil, nil, Unsupported(inv, o.Name, s.Status), false
		}
	}
	return opts, operands, 0, true
}

func (s *Spec) status() int {
	if s.Status == 0 {
		return 1
	}
	return s.Status
}

// parseError is a command-line mistake: glibc's message and, for an option
// the Spec does not know, the flag to record as a gap ("-x", "--name").
type parseError struct {
	msg     string
	unknown string
}

func errorf(format string, a ...any) *parseError {
	return &parseError{msg: fmt.Sprintf(format, a...)}
}

// parse splits args (without argv[0]) into options and operands.
func (s *Spec) parse(args []string) ([]Opt, []string, *parseError) {
	var opts []Opt
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			if s.NoPerm {
				operands = append(operands, args[i:]...)
				break
			}
			operands = append(operands, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			key, err := s.matchLong(name, hasVal)
			if err != nil {
				return nil, nil, err
			}
			if key == "" {
				// glibc quotes the whole word, "=value" included.
				return nil, nil, &parseError{fmt.Sprintf("unrecognized option '%s'", a), "--" + name}
			}
			if full, ok := strings.CutSuffix(key, "="); ok {
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, errorf("option '--%s' requires an argument", full)
					}
					i++
					val = args[i]
				}
			} else if hasVal {
				return nil, nil, errorf("option '--%s' doesn't allow an argument", key)
			}
			opts = append(opts, Opt{s.Long[key], val})
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			known, takes, optional := s.short(c)
			if !known {
				return nil, nil, &parseError{fmt.Sprintf("invalid option -- '%c'", c), "-" + string(c)}
			}
			if optional {
				opts = append(opts, Opt{string(c), a[j+1:]})
				break
			}
			if takes {
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, nil, errorf("option requires an argument -- '%c'", c)
					}
					i++
					val = args[i]
				}
				opts = append(opts, Opt{string(c), val})
				break
			}
			opts = append(opts, Opt{string(c), ""})
		}
	}
	return opts, operands, nil
}

// short says whether c is a short option and whether its argument is
// required or optional.
func (s *Spec) short(c byte) (known, arg, optional bool) {
	i := strings.IndexByte(s.Short, c)
	if i < 0 || c == ':' {
		return false, false, false
	}
	arg = i+1 < len(s.Short) && s.Short[i+1] == ':'
	optional = arg && i+2 < len(s.Short) && s.Short[i+2] == ':'
	return true, arg, optional
}

// matchLong finds the Long key for name, given exactly or as an
// unambiguous prefix, or "" when no option starts with name; hasVal says
// "=value" followed it.
func (s *Spec) matchLong(name string, hasVal bool) (string, *parseError) {
	// An option may be listed both with and without "=" (optional argument).
	if hasVal {
		if _, ok := s.Long[name+"="]; ok {
			return name + "=", nil
		}
	}
	if _, ok := s.Long[name]; ok {
		return name, nil
	}
	if _, ok := s.Long[name+"="]; ok {
		return name + "=", nil
	}
	var matches []string
	for k := range s.Long {
		if strings.HasPrefix(strings.TrimSuffix(k, "="), name) {
			matches = append(matches, k)
		}
	}
	if len(matches) == 0 {
		return "", nil
	}
	sort.Strings(matches)
	// Prefixes of aliases of one option are not ambiguous, as in glibc.
	for _, m := range matches[1:] {
		if s.Long[m] != s.Long[matches[0]] {
			// glibc would quote "--name=value" whole here; ShellSim's
			// commands have always quoted the name alone.
			return "", errorf("option '--%s' is ambiguous; possibilities: %s", name, possibilities(matches))
		}
	}
	return matches[0], nil
}

// possibilities lists the names of the matching Long keys the way glibc
// does, "'--brief' '--bytes'"; glibc keeps its table's order, and a map has
// none, so they are sorted.
func possibilities(keys []string) string {
	var names []string
	for _, k := range keys {
		n := "'--" + strings.TrimSuffix(k, "=") + "'"
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// UsageError prints a command-line mistake as GNU tools do: "cmd: msg" and
// the "Try 'cmd --help' for more information." line.
func UsageError(inv *command.Invocation, msg string) {
	fmt.Fprintf(inv.Stderr, "%s: %s\nTry '%s --help' for more information.\n", inv.Args[0], msg, inv.Args[0])
}

// Errorf prints "cmd: message" on stderr.
func Errorf(inv *command.Invocation, format string, a ...any) {
	fmt.Fprintf(inv.Stderr, "%s: %s\n", inv.Args[0], fmt.Sprintf(format, a...))
}

// Quote quotes a name the way GNU tools do in the C locale: 'name', or
// "name" when it holds a single quote.
func Quote(s string) string {
	if strings.Contains(s, "'") {
		return "\"" + s + "\""
	}
	return "'" + s + "'"
}

// Unsupported reports the use of an option GNU has and ShellSim does not
// model (name is a canonical name, or a description such as "color=x"),
// records it as a Partial gap and returns the status to exit with (status,
// or 1 when status is 0).
func Unsupported(inv *command.Invocation, name string, status int) int {
	flag := "-" + name
	if len(name) > 1 {
		flag = "--" + name
	}
	inv.Sys.Partial(inv.Args[0] + " " + flag)
	fmt.Fprintf(inv.Stderr, "%s: option '%s' is not supported in ShellSim\n", inv.Args[0], flag)
	if status == 0 {
		status = 1
	}
	return status
}

// HelpOrVersion answers flag, "--help" or "--version", and returns the
// exit status. --version names the tool as Describe registered it; --help
// prints its synopsis and the options of s that ShellSim models.
func HelpOrVersion(inv *command.Invocation, s *Spec, flag string) int {
	name := inv.Args[0]
	d := describe(name)
	var b strings.Builder
	if flag == "--version" {
		fmt.Fprintf(&b, "%s (%s) %s\n", name, d.Package, d.Version)
		b.WriteString("ShellSim reimplementation; the output follows the GNU tool's.\n")
	} else {
		fmt.Fprintf(&b, "Usage: %s\n", d.Synopsis)
		var shorts, longs []string
		for i := 0; i < len(s.Short); i++ {
			c := s.Short[i]
			if c == ':' || s.Partial[string(c)] {
				continue
			}
			shorts = append(shorts, "-"+string(c))
		}
		for k, canon := range s.Long {
			if s.Partial[canon] {
				continue
			}
			longs = append(longs, "--"+k)
		}
		sort.Strings(shorts)
		sort.Strings(longs)
		fmt.Fprintf(&b, "Options modelled by ShellSim: %s\n", strings.Join(append(shorts, longs...), " "))
	}
	if _, err := io.WriteString(inv.Stdout, b.String()); err != nil {
		return 1
	}
	return 0
}

// Tool is what --help and --version say about a command.
type Tool struct {
	Synopsis string // GNU's synopsis lines, without "Usage: "
	Package  string // e.g. "GNU coreutils"
	Version  string // e.g. "9.1"
}

var tools = map[string]Tool{}

// Describe registers what --help and --version print for the command name;
// command packages call it from init. Undescribed commands get
// "name [OPTION]...", GNU coreutils 9.1.
func Describe(name string, t Tool) { tools[name] = t }

func describe(name string) Tool {
	t, ok := tools[name]
	if !ok || t.Synopsis == "" {
		t.Synopsis = name + " [OPTION]..."
	}
	if t.Package == "" {
		t.Package = "GNU coreutils"
	}
	if t.Version == "" {
		t.Version = "9.1"
	}
	return t
}
