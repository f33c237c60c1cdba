package files

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Mkdir creates directories.
//
//	mkdir [-pv] [-m MODE] DIRECTORY...
func Mkdir(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short:   "pvm:Z",
		Long:    []getopt.Long{{"context", "Z"}, {"mode=", "m"}, {"parents", "p"}, {"verbose", "v"}},
		Partial: map[string]bool{"Z": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	var parents, verbose bool
	mode := fs.FileMode(0o777) &^ umask
	explicit := false
	for _, o := range opts {
		switch o.Name {
		case "p":
			parents = true
		case "v":
			verbose = true
		case "m":
			m, err := parseMode(o.Val, 0o777, false)
			if err != nil {
				errorf(inv, "invalid mode %s", q(o.Val))
				return 1
			}
			mode, explicit = fromOctal(m), true
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
	created := func(name string) {
		if verbose {
			fmt.Fprintf(inv.Stdout, "mkdir: created directory %s\n", q(name))
		}
	}
	for _, op := range operands {
		p := inv.Abs(op)
		if !parents {
			if err := inv.FS.Mkdir(p, mode); err != nil {
				errorf(inv, "cannot create directory %s: %s", q(op), command.Message(err))
				status = 1
				continue
			}
			if explicit {
				_ = inv.FS.Chmod(p, mode)
			}
			created(op)
			continue
		}
		// Walk the operand's prefixes, creating what is missing.
		parts := strings.Split(op, "/")
		prefix := ""
		for i, part := range parts {
			if i > 0 {
				prefix += "/"
			}
			prefix += part
			if part == "" || part == "." || part == ".." {
				continue
			}
			last := i == len(parts)-1 || strings.Trim(strings.Join(parts[i+1:], ""), "") == ""
			pp := inv.Abs(prefix)
			fi, err := inv.FS.Stat(pp)
			if err == nil {
				if !fi.IsDir() {
					msg := "Not a directory"
					if last {
						msg = "File exists"
					}
					errorf(inv, "cannot create directory %s: %s", q(prefix), msg)
					status = 1
					break
				}
				continue
			}
			if !errors.Is(err, fs.ErrNotExist) {
				errorf(inv, "cannot create directory %s: %s", q(prefix), command.Message(err))
				status = 1
				break
			}
			m := fs.FileMode(0o755)
			if last {
				m = mode
			}
			if err := inv.FS.Mkdir(pp, m); err != nil {
				errorf(inv, "cannot create directory %s: %s", q(prefix), command.Message(err))
				status = 1
				break
			}
			if last && explicit {
				_ = inv.FS.Chmod(pp, mode)
			}
			created(prefix)
			if last {
				break
			}
		}
	}
	return status
}
