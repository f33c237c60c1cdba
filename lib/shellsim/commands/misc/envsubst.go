package misc

import (
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// envsubst - substitute environment variables in shell format strings
//
//	envsubst [-v] [SHELL-FORMAT]
//
// Replaces $NAME and ${NAME} in standard input with the variable's value
// (empty when unset); with SHELL-FORMAT only the variables it names are
// replaced. -v lists the names in SHELL-FORMAT. Like GNU envsubst, forms
// such as ${NAME:-default} are left alone.

// Envsubst runs envsubst.
func Envsubst(inv *command.Invocation) int {
	if inv.Sys.Charge(50) != nil {
		return 1
	}
	opts, args, st, ok := getopt.Parse(inv, &getopt.Spec{Short: "vh", Long: []getopt.Long{{"help", "h"}, {"variables", "v"}}})
	if !ok {
		return st
	}
	listVars := false
	for _, o := range opts {
		switch o.Name {
		case "v":
			listVars = true
		case "h":
			fmt.Fprintf(inv.Stdout, "Usage: envsubst [OPTION] [SHELL-FORMAT]\n")
			return 0
		}
	}
	if len(args) > 1 {
		fmt.Fprintf(inv.Stderr, "envsubst: too many arguments\nTry 'envsubst --help' for more information.\n")
		return 1
	}
	if listVars {
		if len(args) == 0 {
			fmt.Fprintf(inv.Stderr, "envsubst: missing arguments\nTry 'envsubst --help' for more information.\n")
			return 1
		}
		var b strings.Builder
		scanVars(args[0], func(name string, _, _ int) { b.WriteString(name + "\n") })
		if _, err := io.WriteString(inv.Stdout, b.String()); err != nil {
			return 1
		}
		return 0
	}
	var allowed map[string]bool
	if len(args) == 1 {
		allowed = map[string]bool{}
		scanVars(args[0], func(name string, _, _ int) { allowed[name] = true })
	}
	data, err := io.ReadAll(inv.Stdin)
	if err != nil {
		return 1
	}
	if inv.Sys.Charge(int64(len(data))) != nil {
		return 1
	}
	s := string(data)
	var b strings.Builder
	last := 0
	scanVars(s, func(name string, start, end int) {
		if allowed != nil && !allowed[name] {
			return
		}
		b.WriteString(s[last:start])
		v, _ := inv.Env.Get(name)
		b.WriteString(v)
		last = end
	})
	b.WriteString(s[last:])
	if _, err := io.WriteString(inv.Stdout, b.String()); err != nil {
		return 1
	}
	return 0
}

// scanVars calls fn for each $NAME or ${NAME} reference in s, with its
// byte range.
func scanVars(s string, fn func(name string, start, end int)) {
	isStart := func(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }
	isName := func(c byte) bool { return isStart(c) || (c >= '0' && c <= '9') }
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			continue
		}
		j := i + 1
		braced := s[j] == '{'
		if braced {
			j++
		}
		if j >= len(s) || !isStart(s[j]) {
			continue
		}
		k := j
		for k < len(s) && isName(s[k]) {
			k++
		}
		if braced {
			if k >= len(s) || s[k] != '}' {
				continue
			}
			fn(s[j:k], i, k+1)
			i = k
			continue
		}
		fn(s[j:k], i, k)
		i = k - 1
	}
}
