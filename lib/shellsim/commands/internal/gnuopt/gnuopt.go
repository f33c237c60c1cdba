// Package gnuopt parses a ShellSim command's options the way GNU
// getopt_long does (permutation, bundling, unambiguous long prefixes,
// optional arguments, glibc's messages), records unmodelled GNU flags as
// partial gaps, and answers --help and --version. The files and system
// commands share it.
package gnuopt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Opt is one parsed option: its canonical name (a short letter or a long
// name) and its argument, if it takes one.
type Opt struct {
	Name string
	Val  string
}

// Spec describes a command's options the way getopt_long does. Short is
// a getopt string ("rfv" with ':' after letters that take an argument).
// Long maps a long name to its canonical name; a trailing '=' on the key
// means the option takes an argument.
//
// Hand-written rather than using a flag library: GNU getopt semantics
// (permutation, bundling, unambiguous long prefixes, exact error texts) and
// recording Partial for unmodelled flags are what the simulator needs, and
// none of the Go flag packages give both.
type Spec struct {
	Short   string
	Long    map[string]string
	NoPerm  bool // stop at the first operand (commands that run commands)
	Status  int  // exit status for usage errors
	Partial map[string]bool
}

// UsageError is a command-line mistake, reported as GNU tools do.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func (s *Spec) takesArg(c byte) (known, arg, optional bool) {
	i := strings.IndexByte(s.Short, c)
	if i < 0 || c == ':' {
		return false, false, false
	}
	arg = i+1 < len(s.Short) && s.Short[i+1] == ':'
	optional = arg && i+2 < len(s.Short) && s.Short[i+2] == ':'
	return true, arg, optional
}

// parse splits args (without argv[0]) into options and operands.
func (s *Spec) parse(args []string) ([]Opt, []string, error) {
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
			key, canon, err := s.matchLong(name, hasVal)
			if err != nil {
				return nil, nil, err
			}
			if strings.HasSuffix(key, "=") {
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, &UsageError{fmt.Sprintf("option '--%s' requires an argument", strings.TrimSuffix(key, "="))}
					}
					i++
					val = args[i]
				}
			} else if hasVal {
				return nil, nil, &UsageError{fmt.Sprintf("option '--%s' doesn't allow an argument", key)}
			}
			opts = append(opts, Opt{canon, val})
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			known, takes, optional := s.takesArg(c)
			if !known {
				return nil, nil, &UsageError{fmt.Sprintf("invalid option -- '%c'", c)}
			}
			if optional {
				opts = append(opts, Opt{string(c), a[j+1:]})
				break
			}
			if takes {
				val := a[j+1:]
				if val == "" {
					if i+1 >= len(args) {
						return nil, nil, &UsageError{fmt.Sprintf("option requires an argument -- '%c'", c)}
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

func (s *Spec) matchLong(name string, hasVal bool) (key, canon string, err error) {
	// An option may be listed both with and without "=" (optional argument).
	if hasVal {
		if c, ok := s.Long[name+"="]; ok {
			return name + "=", c, nil
		}
	}
	if c, ok := s.Long[name]; ok {
		return name, c, nil
	}
	if c, ok := s.Long[name+"="]; ok {
		return name + "=", c, nil
	}
	var matches []string
	keys := make([]string, 0, len(s.Long))
	for k := range s.Long {
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
		return matches[0], s.Long[matches[0]], nil
	}
	if len(matches) > 1 {
		// Prefixes of aliases of one option are not ambiguous.
		same := true
		for _, m := range matches[1:] {
			if s.Long[m] != s.Long[matches[0]] {
				same = false
			}
		}
		if same {
			return matches[0], s.Long[matches[0]], nil
		}
		return "", "", &UsageError{fmt.Sprintf("option '--%s' is ambiguous", name)}
	}
	return "", "", &UsageError{fmt.Sprintf("unrecognized option '--%s'", name)}
}

// Getopts parses inv.Args; on a usage error it prints GNU's two lines,
// records the flag as a Partial gap (it may be a GNU flag we do not model)
// and returns ok=false with the status to exit with.
func Getopts(inv *command.Invocation, s *Spec) ([]Opt, []string, int, bool) {
	for _, a := range inv.Args[1:] {
		if a == "--" || s.NoPerm && !strings.HasPrefix(a, "-") {
			break
		}
		if a == "--help" || a == "--version" {
			if _, known := s.Long[a[2:]]; !known {
				return nil, nil, HelpOrVersion(inv, s, a), false
			}
		}
	}
	opts, operands, err := s.parse(inv.Args[1:])
	if err != nil {
		name := inv.Args[0]
		inv.Sys.Partial(name + " " + FlagOf(err.Error()))
		fmt.Fprintf(inv.Stderr, "%s: %s\nTry '%s --help' for more information.\n", name, err, name)
		st := s.Status
		if st == 0 {
			st = 1
		}
		return nil, nil, st, false
	}
	for _, o := range opts {
		if s.Partial[o.Name] {
			return nil, nil, Unsupported(inv, o.Name, s.Status), false
		}
	}
	return opts, operands, 0, true
}

// Unsupported reports a flag that GNU has and ShellSim does not model.
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

func FlagOf(msg string) string {
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

// Errorf prints "name: message" on stderr.
func Errorf(inv *command.Invocation, format string, a ...any) {
	fmt.Fprintf(inv.Stderr, "%s: %s\n", inv.Args[0], fmt.Sprintf(format, a...))
}

// Missing prints GNU's "missing operand" pair.
func Missing(inv *command.Invocation, what string) {
	fmt.Fprintf(inv.Stderr, "%s: %s\nTry '%s --help' for more information.\n", inv.Args[0], what, inv.Args[0])
}

// Umask is the simulator's fixed file-creation mask.
const Umask fs.FileMode = 0o022

// Quote quotes a name the way GNU tools do in the C locale: 'name', or
// "name" when it holds a single quote.
func Quote(s string) string {
	if strings.Contains(s, "'") {
		return "\"" + s + "\""
	}
	return "'" + s + "'"
}

// RunChild runs a child through Sys.Exec. stop is true when the error
// means this process must stop (not for "not found" or "timed out", which
// come with a meaningful status).
func RunChild(inv *command.Invocation, req command.ExecRequest) (status int, stop bool) {
	st, err := inv.Sys.Exec(req)
	if err != nil && !errors.Is(err, command.ErrNotFound) && !errors.Is(err, command.ErrTimedOut) {
		return st, true
	}
	return st, false
}

// HelpOrVersion answers --help and --version, which every GNU tool takes.
// The help lists the options ShellSim models for the command.
func HelpOrVersion(inv *command.Invocation, s *Spec, flag string) int {
	name := inv.Args[0]
	var b strings.Builder
	if flag == "--version" {
		fmt.Fprintf(&b, "%s (%s) %s\n", name, describe(name).pkg, describe(name).version)
		b.WriteString("ShellSim reimplementation; the output follows the GNU tool's.\n")
	} else {
		fmt.Fprintf(&b, "Usage: %s\n", describe(name).usage)
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

// Describe registers what --help and --version print for name; command
// packages call it from init.
func Describe(name string, t Tool) { tools[name] = t }

type description struct{ usage, pkg, version string }

func describe(name string) description {
	t, ok := tools[name]
	d := description{usage: t.Synopsis, pkg: t.Package, version: t.Version}
	if !ok || d.usage == "" {
		d.usage = name + " [OPTION]..."
	}
	if d.pkg == "" {
		d.pkg = "GNU coreutils"
	}
	if d.version == "" {
		d.version = "9.1"
	}
	return d
}
