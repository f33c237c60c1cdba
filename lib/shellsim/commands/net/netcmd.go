package net

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// net - edit and show the virtual route table
//
//	net route [--method M] [--header 'K: V']... PATTERN [STATUS] [BODY...]
//	net route-file [--method M] [--header 'K: V']... PATTERN FILE [STATUS]
//	net routes
//	net clear
//	net log
//
// PATTERN is an exact URL or a glob where '*' matches anything. BODY words
// are joined by spaces; route-file reads the body from FILE now.

const netUsage = "usage: net route [--method M] [--header 'K: V'] PATTERN [STATUS] [BODY...] | net route-file PATTERN FILE [STATUS] | net routes | net clear | net log\n"

// Net runs net.
func Net(inv *command.Invocation) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	args := inv.Args[1:]
	if len(args) == 0 {
		fmt.Fprint(inv.Stderr, "net: missing subcommand\n"+netUsage)
		return 2
	}
	nw := network(inv)
	if nw == nil {
		fmt.Fprintln(inv.Stderr, "net: no virtual network in this environment")
		return 1
	}
	switch args[0] {
	case "route", "route-file":
		return netRoute(inv, nw, args[0] == "route-file", args[1:])
	case "routes", "list":
		for _, r := range nw.Routes() {
			m := r.Method
			if m == "" {
				m = "*"
			}
			if _, err := fmt.Fprintf(inv.Stdout, "%s %s %d %d bytes\n", m, r.Pattern, r.Status, len(r.Body)); err != nil {
				return 1
			}
		}
		return 0
	case "clear":
		nw.ClearRoutes()
		return 0
	case "log":
		rec, ok := nw.(command.NetworkLog)
		if !ok {
			fmt.Fprintln(inv.Stderr, "net: this environment keeps no request log")
			return 1
		}
		list, _ := rec.Record()
		for _, r := range list {
			st := "refused"
			if r.Matched {
				st = strconv.Itoa(r.Status)
			}
			if _, err := fmt.Fprintf(inv.Stdout, "%s %s %s\n", r.Method, r.URL, st); err != nil {
				return 1
			}
		}
		return 0
	}
	fmt.Fprintf(inv.Stderr, "net: unknown subcommand '%s'\n"+netUsage, args[0])
	return 2
}

func netRoute(inv *command.Invocation, nw command.Network, fromFile bool, args []string) int {
	r := command.Route{Status: 200}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, eq := strings.Cut(a, "=")
		if (name == "--method" || name == "--header" || name == "-X" || name == "-H") && len(rest) == 0 {
			if !eq {
				if i+1 >= len(args) {
					fmt.Fprintf(inv.Stderr, "net: option '%s' requires an argument\n", name)
					return 2
				}
				i++
				val = args[i]
			}
			if name == "--method" || name == "-X" {
				r.Method = strings.ToUpper(val)
			} else {
				k, v, ok := parseHeader(val)
				if !ok {
					fmt.Fprintf(inv.Stderr, "net: invalid header '%s'\n", val)
					return 2
				}
				if r.Headers == nil {
					r.Headers = map[string]string{}
				}
				r.Headers[k] = v
			}
			continue
		}
		if a == "--" && len(rest) == 0 {
			rest = append(rest, args[i+1:]...)
			break
		}
		rest = append(rest, a)
	}
	if len(rest) == 0 {
		fmt.Fprint(inv.Stderr, "net: missing PATTERN\n"+netUsage)
		return 2
	}
	r.Pattern = rest[0]
	rest = rest[1:]
	status := func(s string) bool {
		n, err := strconv.Atoi(s)
		if err != nil || n < 100 || n > 999 {
			fmt.Fprintf(inv.Stderr, "net: invalid status '%s'\n", s)
			return false
		}
		r.Status = n
		return true
	}
	if fromFile {
		if len(rest) == 0 {
			fmt.Fprint(inv.Stderr, "net: missing FILE\n"+netUsage)
			return 2
		}
		b, err := inv.FS.ReadFile(inv.Abs(rest[0]))
		if err != nil {
			fmt.Fprintf(inv.Stderr, "net: %s: %s\n", rest[0], command.Message(err))
			return 1
		}
		r.Body = b
		if len(rest) > 1 && !status(rest[1]) {
			return 2
		}
	} else {
		if len(rest) > 0 {
			if !status(rest[0]) {
				return 2
			}
			rest = rest[1:]
		}
		r.Body = []byte(strings.Join(rest, " "))
	}
	if inv.Sys.Charge(int64(len(r.Body))) != nil {
		return 1
	}
	if err := nw.AddRoute(r); err != nil {
		fmt.Fprintf(inv.Stderr, "net: %s\n", err)
		return 1
	}
	return 0
}
