package text

import (
	"strings"
)

// A small GNU getopt_long work-alike. Hand-written rather than taken from a
// flag library (pflag, pborman/getopt) because the simulated tools must print
// glibc's exact diagnostics ("invalid option -- 'x'", "option '--s' is
// ambiguous; possibilities: ...") and accept glibc's argument permutation and
// long-option abbreviations; no library reproduces those byte for byte.

// argKind says whether an option takes an argument.
type argKind int

const (
	noArg argKind = iota
	reqArg
	optArg // long options only: --name[=value]
)

// longOpt describes one long option; key is the name the command sees
// (usually the equivalent short letter, e.g. "n" for --lines).
type longOpt struct {
	name string
	arg  argKind
	key  string
}

// optSpec is a command's option table. short is in getopt syntax: a letter
// followed by ':' takes an argument.
type optSpec struct {
	short string
	long  []longOpt
	// noPermute stops option parsing at the first operand (POSIX style), as
	// some tools (seq, yes) effectively need for negative numbers.
	noPermute bool
	// negNumbers makes "-5" or "-.5" an operand (and, with noPermute, the
	// end of the options), as seq does.
	negNumbers bool
}

// option is one parsed option, in command-line order.
type option struct {
	key    string // short letter or longOpt.key
	arg    string
	hasArg bool
	argv   int // index of the argument it came from, for grep's -NUM
}

func (s optSpec) shortKind(c byte) (argKind, bool) {
	i := strings.IndexByte(s.short, c)
	if i < 0 || c == ':' {
		return 0, false
	}
	if i+1 < len(s.short) && s.short[i+1] == ':' {
		return reqArg, true
	}
	return noArg, true
}

// getopt parses args (without argv[0]). On error it returns the diagnostic
// line (without the "name: " prefix).
func (s optSpec) getopt(args []string) (opts []option, operands []string, errMsg string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			return opts, operands, ""
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			lo, msg := s.findLong(name)
			if msg != "" {
				return nil, nil, msg
			}
			o := option{key: lo.key, argv: i}
			switch lo.arg {
			case noArg:
				if hasVal {
					return nil, nil, "option '--" + lo.name + "' doesn't allow an argument"
				}
			case reqArg:
				if hasVal {
					o.arg, o.hasArg = val, true
				} else if i+1 < len(args) {
					i++
					o.arg, o.hasArg = args[i], true
				} else {
					return nil, nil, "option '--" + lo.name + "' requires an argument"
				}
			case optArg:
				o.arg, o.hasArg = val, hasVal
			}
			opts = append(opts, o)
			continue
		}
		if len(a) < 2 || a[0] != '-' || (s.negNumbers && (a[1] == '.' || (a[1] >= '0' && a[1] <= '9'))) {
			if s.noPermute {
				operands = append(operands, args[i:]...)
				return opts, operands, ""
			}
			operands = append(operands, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			kind, ok := s.shortKind(c)
			if !ok {
				return nil, nil, "invalid option -- '" + string(c) + "'"
			}
			o := option{key: string(c), argv: i}
			if kind == reqArg {
				if j+1 < len(a) {
					o.arg = a[j+1:]
				} else if i+1 < len(args) {
					i++
					o.arg = args[i]
				} else {
					return nil, nil, "option requires an argument -- '" + string(c) + "'"
				}
				o.hasArg = true
				opts = append(opts, o)
				break
			}
			opts = append(opts, o)
		}
	}
	return opts, operands, ""
}

func (s optSpec) findLong(name string) (longOpt, string) {
	var matches []longOpt
	for _, lo := range s.long {
		if lo.name == name {
			return lo, ""
		}
		if strings.HasPrefix(lo.name, name) {
			matches = append(matches, lo)
		}
	}
	if len(matches) == 1 {
		return matches[0], ""
	}
	if len(matches) == 0 {
		return longOpt{}, "unrecognized option '--" + name + "'"
	}
	// Abbreviations of options that mean the same thing are not ambiguous.
	same := true
	for _, m := range matches[1:] {
		if m.key != matches[0].key || m.arg != matches[0].arg {
			same = false
		}
	}
	if same {
		return matches[0], ""
	}
	msg := "option '--" + name + "' is ambiguous; possibilities:"
	for _, m := range matches {
		msg += " '--" + m.name + "'"
	}
	return longOpt{}, msg
}
