package files

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Rmdir removes empty directories.
//
//	rmdir [-pv] [--ignore-fail-on-non-empty] DIRECTORY...
func Rmdir(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "pv",
		Long:  []getopt.Long{{"ignore-fail-on-non-empty", "ign"}, {"parents", "p"}, {"verbose", "v"}},
		Help:  true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	var parents, verbose, ignore bool
	for _, o := range opts {
		switch o.Name {
		case "p":
			parents = true
		case "v":
			verbose = true
		case "ign":
			ignore = true
		}
	}
	if len(operands) == 0 {
		missing(inv, "missing operand")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	status := 0
	one := func(name string) bool {
		if verbose {
			fmt.Fprintf(inv.Stdout, "rmdir: removing directory, %s\n", q(name))
		}
		p := inv.Abs(name)
		fi, err := inv.FS.Lstat(p)
		if err == nil && !fi.IsDir() {
			errorf(inv, "failed to remove %s: Not a directory", q(name))
			return false
		}
		if err == nil {
			err = inv.FS.Remove(p)
		}
		if err != nil {
			if ignore && errors.Is(err, command.ErrNotEmpty) {
				return true
			}
			errorf(inv, "failed to remove %s: %s", q(name), command.Message(err))
			return false
		}
		return true
	}
	for _, op := range operands {
		if !one(op) {
			status = 1
			continue
		}
		if parents {
			d := strings.TrimRight(op, "/")
			for {
				d = path.Dir(d)
				if d == "." || d == "/" || d == "" {
					break
				}
				if !one(d) {
					status = 1
					break
				}
			}
		}
	}
	return status
}
