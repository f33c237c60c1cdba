package system

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// opt is one parsed option: its canonical name (a short letter or a long
// name) and its argument, if it takes one.
type opt struct {
	name string
	val  string
}

// optSpec describes a command's options the way getopt_long does. Short is
// a getopt string ("rfv" with ':' after letters that take an argument).
// Long maps a long name to its canonical name; a trailing '=' on the key
// means the option takes an argument.
//
// Hand-written rather than using a flag library: GNU getopt semantics
// (permutation, bundling, unambiguous long prefixes, exact error texts) and
// recording Partial for unmodelled flags are what the simulator needs, and
// none of the Go flag packages give both.
type optSpec struct {
	short   string
	long    map[string]string
	noPerm  bool // stop at the first operand (commands that run commands)
	status  int  // exit status for usage errors
	partial map[string]bool
}

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func (s *optSpec) takesArg(c byte) (known, arg, optional bool) {
	i := strings.IndexByte(s.short, c)
	if i < 0 || c == ':' {
		return false, false, false
	}
	arg = i+1 < len(s.short) && s.short[i+1] == ':'
	optional = arg && i+2 < len(s.short) && s.short[i+2] == ':'
	return true, arg, optional
}

// parse splits args (without argv[0]) into options and operands.
func (s *optSpec) parse(args []string) ([]opt, []string, error) {
	var opts []opt
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			if s.noPerm {
				operands = append(operands, args[i:]...)
				break
			}
			operands = append(operands, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			key, canon, err := s.matchLong(name, hasVal)
			if err != nil {
				return nil, nil, err
			}
			if strings.HasSuffix(key, "=") {
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, &usageError{fmt.Sprintf("option '--%s' requires an argument", strings.TrimSuffix(key, "="))}
					}
					i++
					val = args[i]
				}
			} else if hasVal {
				return nil, nil, &usageError{fmt.Sprintf("option '--%s' doesn't allow an argument", key)}
			}
			opts = append(opts, opt{canon, val})
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			known, takes, optional := s.takesArg(c)
			if !known {
				return nil, nil, &usageError{fmt.Sprintf("invalid option -- '%c'", c)}
			}
			if optional {
				opts = append(opts, opt{string(c), a[j+1:]})
				break
			}
			if takes {
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, nil, &usageError{fmt.Sprintf("option requires an argument -- '%c'", c)}
					}
					i++
					val = args[i]
				}
				opts = append(opts, opt{string(c), val})
				break
			}
			opts = append(opts, opt{string(c), ""})
		}
	}
	return opts, operands, nil
}

func (s *optSpec) matchLong(name string, hasVal bool) (key, canon string, err error) {
	// An option may be listed both with and without "=" (optional argument).
	if hasVal {
		if c, ok := s.long[name+"="]; ok {
			return name + "=", c, nil
		}
	}
	if c, ok := s.long[name]; ok {
		return name, c, nil
	}
	if c, ok := s.long[name+"="]; ok {
		return name + "=", c, nil
	}
	var matches []string
	keys := make([]string, 0, len(s.long))
	for k := range s.long {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n := strings.TrimSuffix(k, "=")
		if strings.HasPrefix(n, name) {
			matches = append(matches, k)
		}
	}
	if len(matches) == 1 {
		return matches[0], s.long[matches[0]], nil
	}
	if len(matches) > 1 {
		// Prefixes of aliases of one option are not ambiguous.
		same := true
		for _, m := range matches[1:] {
			if s.long[m] != s.long[matches[0]] {
				same = false
			}
		}
		if same {
			return matches[0], s.long[matches[0]], nil
		}
		return "", "", &usageError{fmt.Sprintf("option '--%s' is ambiguous", name)}
	}
	return "", "", &usageError{fmt.Sprintf("unrecognized option '--%s'", name)}
}

// getopts parses inv.Args; on a usage error it prints GNU's two lines,
// records the flag as a Partial gap (it may be a GNU flag we do not model)
// and returns ok=false with the status to exit with.
func getopts(inv *command.Invocation, s *optSpec) ([]opt, []string, int, bool) {
	for _, a := range inv.Args[1:] {
		if a == "--" || s.noPerm && !strings.HasPrefix(a, "-") {
			break
		}
		if a == "--help" || a == "--version" {
			if _, known := s.long[a[2:]]; !known {
				return nil, nil, helpOrVersion(inv, s, a), false
			}
		}
	}
	opts, operands, err := s.parse(inv.Args[1:])
	if err != nil {
		name := inv.Args[0]
		inv.Sys.Partial(name + " " + flagOf(err.Error()))
		fmt.Fprintf(inv.Stderr, "%s: %s\nTry '%s --help' for more information.\n", name, err, name)
		st := s.status
		if st == 0 {
			st = 1
		}
		return nil, nil, st, false
	}
	for _, o := range opts {
		if s.partial[o.name] {
			return nil, nil, unsupportedFlag(inv, o.name, s.status), false
		}
	}
	return opts, operands, 0, true
}

// unsupportedFlag reports a flag that GNU has and ShellSim does not model.
func unsupportedFlag(inv *command.Invocation, name string, status int) int {
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

func flagOf(msg string) string {
	if i := strings.Index(msg, "'"); i >= 0 {
		if j := strings.Index(msg[i+1:], "'"); j >= 0 {
			f := msg[i+1 : i+1+j]
			if !strings.HasPrefix(f, "-") {
				f = "-" + f
			}
			return f
		}
	}
	return msg
}

// errorf prints "name: message" on stderr.
func errorf(inv *command.Invocation, format string, a ...any) {
	fmt.Fprintf(inv.Stderr, "%s: %s\n", inv.Args[0], fmt.Sprintf(format, a...))
}

// missing prints GNU's "missing operand" pair.
func missing(inv *command.Invocation, what string) {
	fmt.Fprintf(inv.Stderr, "%s: %s\nTry '%s --help' for more information.\n", inv.Args[0], what, inv.Args[0])
}

// q quotes a name the way GNU tools do in the C locale: 'name', or
// "name" when it holds a single quote.
func q(s string) string {
	if strings.Contains(s, "'") {
		return "\"" + s + "\""
	}
	return "'" + s + "'"
}

// callCost is the fixed CPU fuel a command spends per call.
const callCost = 50

// helpOrVersion answers --help and --version, which every GNU tool takes.
// The help lists the options ShellSim models for the command.
func helpOrVersion(inv *command.Invocation, s *optSpec, flag string) int {
	name := inv.Args[0]
	var b strings.Builder
	if flag == "--version" {
		fmt.Fprintf(&b, "%s (%s) %s\n", name, packageOf(name), versionOf(name))
		b.WriteString("ShellSim reimplementation; the output follows the GNU tool's.\n")
	} else {
		fmt.Fprintf(&b, "Usage: %s\n", usageOf(name))
		var shorts, longs []string
		for i := 0; i < len(s.short); i++ {
			c := s.short[i]
			if c == ':' || s.partial[string(c)] {
				continue
			}
			shorts = append(shorts, "-"+string(c))
		}
		for k, canon := range s.long {
			if s.partial[canon] {
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
