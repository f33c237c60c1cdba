package system

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Timeout runs a command with a virtual-time limit.
//
//	timeout [--preserve-status] [--foreground] [-s SIGNAL] [-k DURATION] DURATION COMMAND [ARG]...
//
// Exit status 124 when the limit expired, 125 for timeout's own errors,
// otherwise the command's status.
func Timeout(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "s:k:v",
		Long: []getopt.Long{
			{"foreground", "fg"}, {"kill-after=", "k"}, {"preserve-status", "ps"}, {"signal=", "s"},
			{"verbose", "v"},
		},
		NoPerm: true,
		Status: 125,
		Help:   true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	sig := 15
	sigName := "TERM"
	var preserve, verbose bool
	var killAfter string
	for _, o := range opts {
		switch o.Name {
		case "s":
			n, name, ok := parseSignal(o.Val)
			if !ok {
				errorf(inv, "%s: invalid signal", q(o.Val))
				tryHelp(inv)
				return 125
			}
			sig, sigName = n, name
		case "k":
			killAfter = o.Val
		case "ps":
			preserve = true
		case "v":
			verbose = true
		}
	}
	if len(operands) < 2 {
		tryHelp(inv)
		return 125
	}
	d, err := parseDuration(operands[0])
	if err != nil {
		errorf(inv, "invalid time interval %s", q(operands[0]))
		tryHelp(inv)
		return 125
	}
	req := command.ExecRequest{Args: operands[1:], Stdin: inv.Stdin, Stdout: inv.Stdout, Stderr: inv.Stderr,
		Timeout: d, Signal: sig}
	if killAfter != "" {
		k, err := parseDuration(killAfter)
		if err != nil {
			errorf(inv, "invalid time interval %s", q(killAfter))
			tryHelp(inv)
			return 125
		}
		req.KillAfter = k
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	status, err := inv.Sys.Exec(req)
	if errors.Is(err, command.ErrNotFound) {
		return status
	}
	if err != nil && !errors.Is(err, command.ErrTimedOut) {
		return 1
	}
	if !errors.Is(err, command.ErrTimedOut) {
		return status
	}
	if verbose {
		errorf(inv, "sending signal %s to command %s", sigName, q(operands[1]))
	}
	if preserve {
		return status
	}
	if sig == 9 {
		// GNU signals the whole process group, itself included: with KILL
		// timeout dies too and the shell sees 128+9, not 124.
		return 137
	}
	if status == 137 && sig != 9 {
		return 137 // killed by -k after the first signal was ignored
	}
	return 124
}

var signals = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "BUS": 7, "FPE": 8, "KILL": 9,
	"USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "CHLD": 17,
	"CONT": 18, "STOP": 19, "TSTP": 20,
}

// parseSignal accepts a signal name (with or without SIG) or number.
func parseSignal(s string) (int, string, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		for name, v := range signals {
			if v == n {
				return n, name, true
			}
		}
		return n, s, n > 0 && n < 65
	}
	name := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	n, ok := signals[name]
	return n, name, ok
}

func tryHelp(inv *command.Invocation) {
	fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
}
