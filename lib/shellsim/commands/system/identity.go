package system

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// The simulated kernel's fixed identity.
const (
	kernelName    = "Linux"
	kernelRelease = "6.1.0"
	kernelVersion = "#1 SMP PREEMPT_DYNAMIC"
	machine       = "x86_64"
	osName        = "GNU/Linux"
)

// Uname prints system information.
//
//	uname [-asnrvmpio]
func Uname(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "asnrvmpio",
		Long: []getopt.Long{
			{"all", "a"}, {"hardware-platform", "i"}, {"kernel-name", "s"}, {"kernel-release", "r"},
			{"kernel-version", "v"}, {"machine", "m"}, {"nodename", "n"}, {"operating-system", "o"},
			{"processor", "p"},
		},
		Help: true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	if len(operands) > 0 {
		missing(inv, "extra operand "+q(operands[0]))
		return 1
	}
	want := map[string]bool{}
	for _, o := range opts {
		if o.Name == "a" {
			for _, k := range []string{"s", "n", "r", "v", "m", "o"} {
				want[k] = true
			}
			continue
		}
		want[o.Name] = true
	}
	if len(want) == 0 {
		want["s"] = true
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	var parts []string
	for _, k := range []string{"s", "n", "r", "v", "m", "p", "i", "o"} {
		if !want[k] {
			continue
		}
		switch k {
		case "s":
			parts = append(parts, kernelName)
		case "n":
			parts = append(parts, inv.Sys.Hostname())
		case "r":
			parts = append(parts, kernelRelease)
		case "v":
			parts = append(parts, kernelVersion)
		case "m":
			parts = append(parts, machine)
		case "p", "i":
			parts = append(parts, "unknown")
		case "o":
			parts = append(parts, osName)
		}
	}
	if _, err := fmt.Fprintln(inv.Stdout, strings.Join(parts, " ")); err != nil {
		return 1
	}
	return 0
}

// Hostname prints the simulated host name; setting it is not permitted.
//
//	hostname [-s]
func Hostname(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short:   "sfdiIA",
		Long:    []getopt.Long{{"all-ip-addresses", "I"}, {"domain", "d"}, {"fqdn", "f"}, {"ip-address", "i"}, {"long", "f"}, {"short", "s"}},
		Partial: map[string]bool{"i": true, "I": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	if len(operands) > 0 {
		errorf(inv, "you must be root to change the host name")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	name := inv.Sys.Hostname()
	for _, o := range opts {
		switch o.Name {
		case "s":
			name, _, _ = strings.Cut(name, ".")
		case "d":
			_, name, _ = strings.Cut(name, ".")
		}
	}
	if _, err := fmt.Fprintln(inv.Stdout, name); err != nil {
		return 1
	}
	return 0
}

// Id prints user and group ids.
//
//	id [-ugGnr] [USER]
func Id(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short:   "ugGnrza",
		Long:    []getopt.Long{{"context", "Z"}, {"group", "g"}, {"groups", "G"}, {"name", "n"}, {"real", "r"}, {"user", "u"}, {"zero", "z"}},
		Partial: map[string]bool{"Z": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	var u, g, G, n bool
	end := "\n"
	for _, o := range opts {
		switch o.Name {
		case "u":
			u = true
		case "g":
			g = true
		case "G":
			G = true
		case "n":
			n = true
		case "z":
			end = "\x00"
		}
	}
	users := inv.Sys.Users()
	uid, gid := users.UID(), users.GID()
	if len(operands) > 1 {
		errorf(inv, "extra operand %s", q(operands[1]))
		return 1
	}
	if len(operands) == 1 {
		id, ok := users.LookupUser(operands[0])
		if !ok {
			if v, err := strconv.Atoi(operands[0]); err == nil {
				if _, known := users.UserName(v); known {
					id, ok = v, true
				}
			}
		}
		if !ok {
			errorf(inv, "%s: no such user", q(operands[0]))
			return 1
		}
		uid = id
		if g, ok := users.LookupGroup(operands[0]); ok {
			gid = g
		} else {
			gid = id
		}
	}
	if (u && g) || (u && G) || (g && G) {
		errorf(inv, "cannot print \"only\" of more than one choice")
		return 1
	}
	if n && !(u || g || G) {
		errorf(inv, "cannot print only names or real IDs in default format")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	uname := func(id int) string {
		if s, ok := users.UserName(id); ok {
			return s
		}
		return strconv.Itoa(id)
	}
	gname := func(id int) string {
		if s, ok := users.GroupName(id); ok {
			return s
		}
		return strconv.Itoa(id)
	}
	var out string
	switch {
	case u:
		out = strconv.Itoa(uid)
		if n {
			out = uname(uid)
		}
	case g, G:
		out = strconv.Itoa(gid)
		if n {
			out = gname(gid)
		}
	default:
		out = fmt.Sprintf("uid=%d(%s) gid=%d(%s) groups=%d(%s)", uid, uname(uid), gid, gname(gid), gid, gname(gid))
	}
	if _, err := fmt.Fprint(inv.Stdout, out+end); err != nil {
		return 1
	}
	return 0
}

// Whoami prints the effective user name.
//
//	whoami
func Whoami(inv *command.Invocation) int {
	spec := &getopt.Spec{Help: true}
	_, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	if len(operands) > 0 {
		missing(inv, "extra operand "+q(operands[0]))
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	users := inv.Sys.Users()
	name, ok := users.UserName(users.UID())
	if !ok {
		errorf(inv, "cannot find name for user ID %d", users.UID())
		return 1
	}
	if _, err := fmt.Fprintln(inv.Stdout, name); err != nil {
		return 1
	}
	return 0
}

// Nproc prints the number of simulated processors (one).
//
//	nproc [--all] [--ignore=N]
func Nproc(inv *command.Invocation) int {
	spec := &getopt.Spec{Long: []getopt.Long{{"all", "all"}, {"ignore=", "ignore"}}, Help: true}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	if len(operands) > 0 {
		missing(inv, "extra operand "+q(operands[0]))
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	n := 1
	for _, o := range opts {
		if o.Name == "ignore" {
			if _, err := strconv.Atoi(o.Val); err != nil {
				errorf(inv, "invalid number: %s", q(o.Val))
				return 1
			}
		}
	}
	if _, err := fmt.Fprintln(inv.Stdout, n); err != nil {
		return 1
	}
	return 0
}

// True does nothing, successfully.
func True(inv *command.Invocation) int {
	if inv.Sys.Charge(callCost) != nil {
		return 1
	}
	return 0
}

// False does nothing, unsuccessfully.
func False(inv *command.Invocation) int {
	_ = inv.Sys.Charge(callCost)
	return 1
}
