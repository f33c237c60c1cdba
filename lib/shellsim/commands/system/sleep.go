package system

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Sleep pauses for the sum of its durations in virtual time.
//
//	sleep NUMBER[smhd]...
func Sleep(inv *command.Invocation) int {
	args := inv.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		// sleep takes no options; GNU's getopt rejects the first letter.
		sub := *inv
		if _, _, st, ok := getopt.Parse(&sub, &getopt.Spec{Help: true}); !ok {
			return st
		}
	}
	if len(args) == 0 {
		missing(inv, "missing operand")
		return 1
	}
	var total time.Duration
	bad := false
	for _, a := range args {
		d, err := parseDuration(a)
		if err != nil {
			errorf(inv, "invalid time interval %s", q(a))
			bad = true
			continue
		}
		total += d
	}
	if bad {
		fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	if err := inv.Sys.Sleep(total); err != nil {
		return 1
	}
	return 0
}

// parseDuration reads sleep/timeout's NUMBER[smhd] (fractions and
// exponents allowed, "inf" means forever).
func parseDuration(s string) (time.Duration, error) {
	mult := 1.0
	num := s
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 's':
			num = s[:n-1]
		case 'm':
			mult, num = 60, s[:n-1]
		case 'h':
			mult, num = 3600, s[:n-1]
		case 'd':
			mult, num = 86400, s[:n-1]
		}
	}
	if num == "" || strings.HasPrefix(num, "0x") || strings.HasPrefix(num, "-") || strings.ContainsAny(num, " \t") {
		return 0, fmt.Errorf("bad duration")
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || math.IsNaN(v) {
		return 0, fmt.Errorf("bad duration")
	}
	secs := v * mult
	if secs > float64(math.MaxInt64/int64(time.Second)) {
		return time.Duration(math.MaxInt64), nil
	}
	return time.Duration(math.Ceil(secs * 1e9)), nil
}
