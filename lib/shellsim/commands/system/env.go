package system

import (
	"bufio"
	"errors"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Env prints the environment or runs a command in a modified one.
//
//	env [-i0] [-u NAME]... [-C DIR] [NAME=VALUE]... [COMMAND [ARG]...]
func Env(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "iu:0C:vS:",
		Long: []getopt.Long{
			{"chdir=", "C"}, {"debug", "v"}, {"ignore-environment", "i"}, {"null", "0"},
			{"split-string=", "S"}, {"unset=", "u"},
		},
		NoPerm:  true,
		Status:  125,
		Partial: map[string]bool{"v": true},
		Help:    true,
	}
	// A lone "-" means -i.
	args := inv.Args
	for i, a := range args[1:] {
		if a == "-" {
			args = append(append(append([]string{}, args[:i+1]...), "-i"), args[i+2:]...)
			break
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
	}
	sub := *inv
	sub.Args = args
	opts, operands, st, ok := getopt.Parse(&sub, spec)
	if !ok {
		return st
	}
	clear, nul := false, false
	var unset []string
	dir := ""
	for _, o := range opts {
		switch o.Name {
		case "i":
			clear = true
		case "u":
			unset = append(unset, o.Val)
		case "0":
			nul = true
		case "C":
			dir = o.Val
		case "S":
			operands = append(strings.Fields(o.Val), operands...)
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	env := []string{}
	if !clear {
		env = append(env, inv.Env.Environ()...)
	}
	set := func(kv string) {
		k, _, _ := strings.Cut(kv, "=")
		for i, e := range env {
			if strings.HasPrefix(e, k+"=") {
				env = append(env[:i], env[i+1:]...)
				break
			}
		}
		env = append(env, kv)
	}
	for _, u := range unset {
		if u == "" || strings.Contains(u, "=") {
			errorf(inv, "cannot unset %s: Invalid argument", q(u))
			return 125
		}
		for i, e := range env {
			if strings.HasPrefix(e, u+"=") {
				env = append(env[:i], env[i+1:]...)
				break
			}
		}
	}
	for len(operands) > 0 && strings.Contains(operands[0], "=") {
		set(operands[0])
		operands = operands[1:]
	}
	if len(operands) == 0 {
		if dir != "" {
			errorf(inv, "must specify command with --chdir (-C)")
			return 125
		}
		w := bufio.NewWriter(inv.Stdout)
		end := "\n"
		if nul {
			end = "\x00"
		}
		for _, e := range env {
			w.WriteString(e + end)
		}
		if w.Flush() != nil {
			return 1
		}
		return 0
	}
	if nul {
		errorf(inv, "cannot specify --null (-0) with command")
		return 125
	}
	req := command.ExecRequest{Args: operands, Env: env, Stdin: inv.Stdin, Stdout: inv.Stdout, Stderr: inv.Stderr}
	if dir != "" {
		req.Dir = inv.Abs(dir)
		fi, err := inv.FS.Stat(req.Dir)
		if err != nil || !fi.IsDir() {
			msg := "Not a directory"
			if err != nil {
				msg = command.Message(err)
			}
			errorf(inv, "cannot change directory to %s: %s", q(dir), msg)
			return 125
		}
	}
	status, err := inv.Sys.Exec(req)
	if errors.Is(err, command.ErrNotFound) {
		return status
	}
	if err != nil {
		return 1
	}
	return status
}

// Printenv prints all or part of the environment.
//
//	printenv [-0] [VARIABLE]...
func Printenv(inv *command.Invocation) int {
	spec := &getopt.Spec{Short: "0", Long: []getopt.Long{{"null", "0"}}, Status: 2, Help: true}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	end := "\n"
	if len(opts) > 0 {
		end = "\x00"
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	w := bufio.NewWriter(inv.Stdout)
	status := 0
	if len(operands) == 0 {
		for _, e := range inv.Env.Environ() {
			w.WriteString(e + end)
		}
	}
	for _, name := range operands {
		v, ok := inv.Env.Get(name)
		if !ok || strings.Contains(name, "=") {
			status = 1
			continue
		}
		w.WriteString(v + end)
	}
	if w.Flush() != nil {
		return 1
	}
	return status
}
