// Package getopt parses a ShellSim command's options the way GNU
// getopt_long does, and every command package shares it:
//
//   - options and operands may be mixed (permutation) unless Spec.NoPerm;
//   - short options bundle ("-rf", "-n5", "-n 5");
//   - long options may be abbreviated to an unambiguous prefix, and take
//     "--name=value" or "--name value";
//   - "--" ends the options;
//   - optionally, negative numbers ("-5", "-.5") are operands, as for seq;
//   - usage errors print glibc's messages ("invalid option -- 'x'",
//     "option '--lines' requires an argument", ...) and the
//     "Try 'cmd --help' for more information." line.
//
// It also records options ShellSim does not know as Partial gaps (they may
// be GNU options it does not model), refuses the ones a Spec lists as known
// but unmodelled, and can answer GNU's --help and --version. Commands that
// print their own usage errors or help call Scan, the parser under Parse.
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
	// Long is the table of long options (see Long), and its order counts:
	// an abbreviation matching only aliases of one option means the first
	// of them, and with GNUOrder ambiguity messages list the matches in
	// this order. Tables without GNUOrder keep their entries sorted (as
	// strings, '=' included).
	Long []Long
	// GNUOrder says Long follows the order of the GNU tool's own option
	// table. An ambiguous abbreviation is then reported exactly as glibc
	// reports it: the word as typed ("--s=5"), then the first matching
	// option and each later match that is not an alias of it, in Long's
	// order. Without it, every matching name is listed, sorted, after the
	// name alone (what ShellSim's commands have always printed).
	GNUOrder bool
	// NoPerm stops option parsing at the first operand, as commands that
	// run other commands (env, timeout, xargs) need.
	NoPerm bool
	// NegNumbers makes a word that is '-' followed by a digit or '.'
	// ("-5", "-.5", "-1e3") an operand rather than a bundle of options, as
	// GNU seq reads negative numbers; with NoPerm it ends the options. A
	// word that is the argument of an option ("-s -5") stays its argument.
	NegNumbers bool
	// Status is the exit status for usage errors; 0 means 1.
	Status int
	// Partial holds canonical names of GNU options that ShellSim recognises
	// but does not model: using one is reported by Unsupported.
	Partial map[string]bool
	// Help makes Parse answer --help and --version (see HelpOrVersion)
	// unless Long lists them itself.
	Help bool
}

// Long is one entry of a Spec's long-option table: {name, key}.
//
// The name is the long option's name; one ending in '=' takes a required
// argument ("--lines=5" or "--lines 5"), and a name listed both with and
// without '=' takes an optional one ("--color", "--color=auto"), its two
// entries having the same key. The key is the canonical name that Opt.Name
// reports (often the equivalent short letter): names with the same key are
// aliases, and an abbreviation matching only aliases of one option is not
// ambiguous.
//
// It is a pair rather than a struct so that tables can list entries as
// {"lines=", "n"}: go vet rejects unkeyed literals of another package's
// structs.
type Long [2]string

// name is the option's name without the '=' that marks an argument.
func (l Long) name() string { return strings.TrimSuffix(l[0], "=") }

// arg says the entry takes an argument.
func (l Long) arg() bool { return strings.HasSuffix(l[0], "=") }

// key is the canonical name Opt.Name reports.
func (l Long) key() string { return l[1] }

// Opt is one parsed option: its canonical name (a short letter, or the
// key Spec.Long gives) and its argument, if it has one.
type Opt struct {
	Name string
	Val  string
	// HasVal says an argument came with the option: always for a required
	// one, and for an optional one only when given ("-c5", "--color=x", or
	// "--color=" with an empty Val), as glibc's optarg tells NULL from "".
	HasVal bool
	// Word is the index, in the arguments parsed (inv.Args[1:] for Parse),
	// of the word holding the option: options bundled in one word share it,
	// so grep, expand and fmt can read "-12" as 12 but "-1 -2" as 2.
	Word int
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
			if a == "--" || s.NoPerm && (!strings.HasPrefix(a, "-") || s.negNumber(a)) {
				break
			}
			if a == "--help" || a == "--version" {
				if bare, _ := s.lookup(a[2:]); bare == nil {
					return nil, nil, HelpOrVersion(inv, s, a), false
				}
			}
		}
	}
	opts, operands, err := s.Scan(args)
	if err != nil {
		if err.Unknown != "" {
			inv.Sys.Partial(inv.Args[0] + " " + err.Unknown)
		}
		UsageError(inv, err.Msg)
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

// Error is a command-line mistake found by Scan.
type Error struct {
	// Msg is glibc's message, without the "cmd: " prefix: "invalid option
	// -- 'x'", "option '--lines' requires an argument", ...
	Msg string
	// Unknown is the option the Spec does not know ("-x", "--name"), which
	// Parse records as a Partial gap; "" for other mistakes.
	Unknown string
}

func (e *Error) Error() string { return e.Msg }

func errorf(format string, a ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, a...)}
}

// isOperand reports whether arg, met where an option could start, is an
// operand: "-", a word not starting with '-', or with NegNumbers a negative
// number. ("--", which ends the options, is none.)
func (s *Spec) isOperand(arg string) bool {
	return len(arg) < 2 || arg[0] != '-' || s.negNumber(arg)
}

// negNumber says arg is a negative number that NegNumbers makes an operand.
func (s *Spec) negNumber(arg string) bool {
	return s.NegNumbers && len(arg) >= 2 && arg[0] == '-' && (arg[1] == '.' || arg[1] >= '0' && arg[1] <= '9')
}

// Scan splits args (without argv[0]) into options and operands as Parse
// does, printing nothing: it neither answers --help nor refuses Partial
// options, and leaves a mistake to the caller. On a mistake, opts holds the
// options before it, the ones a getopt loop would already have acted on
// (GNU tools answer "--help -x" with the help), and operands is nil.
// Commands whose usage errors or help differ from Parse's call it directly.
func (s *Spec) Scan(args []string) (opts []Opt, operands []string, err *Error) {
	for i := 0; i < len(args); i++ {
		a, word := args[i], i
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if s.isOperand(a) {
			if s.NoPerm {
				operands = append(operands, args[i:]...)
				break
			}
			operands = append(operands, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			l, found, mistake := s.matchLong(a, name, hasVal)
			if mistake != nil {
				return opts, nil, mistake
			}
			if !found {
				// glibc quotes the whole word, "=value" included.
				return opts, nil, &Error{fmt.Sprintf("unrecognized option '%s'", a), "--" + name}
			}
			if l.arg() {
				if !hasVal {
					if i+1 >= len(args) {
						return opts, nil, errorf("option '--%s' requires an argument", l.name())
					}
					i++
					val = args[i]
				}
				hasVal = true
			} else if hasVal {
				return opts, nil, errorf("option '--%s' doesn't allow an argument", l.name())
			}
			opts = append(opts, Opt{Name: l.key(), Val: val, HasVal: hasVal, Word: word})
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			known, takes, optional := s.short(c)
			if !known {
				return opts, nil, &Error{fmt.Sprintf("invalid option -- '%c'", c), "-" + string(c)}
			}
			if optional {
				opts = append(opts, Opt{Name: string(c), Val: a[j+1:], HasVal: j+1 < len(a), Word: word})
				break
			}
			if takes {
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return opts, nil, errorf("option requires an argument -- '%c'", c)
					}
					i++
					val = args[i]
				}
				opts = append(opts, Opt{Name: string(c), Val: val, HasVal: true, Word: word})
				break
			}
			opts = append(opts, Opt{Name: string(c), Word: word})
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

// matchLong finds the Long entry for the word "--name" or "--name=value"
// (hasVal says which), name being an option's name or an unambiguous
// prefix of one; found is false when no option starts with name.
func (s *Spec) matchLong(word, name string, hasVal bool) (l Long, found bool, err *Error) {
	if l, ok := s.entry(name, hasVal); ok {
		return l, true, nil
	}
	var matches []Long
	for _, l := range s.Long {
		if strings.HasPrefix(l.name(), name) {
			matches = append(matches, l)
		}
	}
	if len(matches) == 0 {
		return Long{}, false, nil
	}
	// Abbreviations of aliases of one option are not ambiguous, as in glibc.
	first := matches[0]
	if !slices.ContainsFunc(matches, func(l Long) bool { return l.key() != first.key() }) {
		l, _ := s.entry(first.name(), hasVal)
		return l, true, nil
	}
	if !s.GNUOrder {
		// Without the table's order, ShellSim quotes the name alone (glibc
		// quotes "--name=value" whole) and lists every match, sorted.
		names := possibilities(matches)
		sort.Strings(names)
		return Long{}, false, errorf("option '--%s' is ambiguous; possibilities: %s", name, strings.Join(names, " "))
	}
	// glibc lists the first match and each later one that is not its alias.
	listed := []Long{first}
	for _, l := range matches[1:] {
		if l.key() != first.key() {
			listed = append(listed, l)
		}
	}
	return Long{}, false, errorf("option '%s' is ambiguous; possibilities: %s", word, strings.Join(possibilities(listed), " "))
}

// lookup returns the entries of the option called name in full: bare
// without '=' and eq with it, each nil when Long has none. (A linear scan:
// tables hold a few dozen entries and a command line a few options.)
func (s *Spec) lookup(name string) (bare, eq *Long) {
	for i := range s.Long {
		l := &s.Long[i]
		if l.name() != name {
			continue
		}
		if l.arg() && eq == nil {
			eq = l
		} else if !l.arg() && bare == nil {
			bare = l
		}
	}
	return bare, eq
}

// entry returns the entry of the option called name in full: the one with
// '=' when it takes an argument, always if that is required and, if
// optional, when one is given (hasVal); ok is false when there is none.
func (s *Spec) entry(name string, hasVal bool) (l Long, ok bool) {
	bare, eq := s.lookup(name)
	if eq != nil && (hasVal || bare == nil) {
		return *eq, true
	}
	if bare != nil {
		return *bare, true
	}
	return Long{}, false
}

// possibilities quotes the names of Long entries as glibc lists them in an
// ambiguity message, "'--brief'", each name once, in the entries' order.
func possibilities(entries []Long) []string {
	var names []string
	for _, l := range entries {
		n := "'--" + l.name() + "'"
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
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
		for _, l := range s.Long {
			if s.Partial[l.key()] {
				continue
			}
			longs = append(longs, "--"+l[0])
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
