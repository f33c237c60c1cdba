package files

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Rm removes files and directories.
//
//	rm [-rRfvd] FILE...
//
// rm -r / is refused as GNU's --preserve-root does; -i and -I are not
// modelled (there is no terminal to ask on) and fail as Partial.
func Rm(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "rRfvdiI",
		Long: []getopt.Long{
			{"dir", "d"}, {"force", "f"}, {"interactive", "i"}, {"interactive=", "i"},
			{"no-preserve-root", "npr"}, {"one-file-system", "ofs"}, {"preserve-root", "pr"},
			{"recursive", "r"}, {"verbose", "v"},
		},
		Partial: map[string]bool{"i": true, "I": true, "npr": true, "ofs": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	r := &remover{inv: inv}
	for _, o := range opts {
		switch o.Name {
		case "r", "R":
			r.recursive = true
		case "f":
			r.force = true
		case "v":
			r.verbose = true
		case "d":
			r.dirs = true
		}
	}
	if len(operands) == 0 {
		if r.force {
			return 0
		}
		missing(inv, "missing operand")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	status := 0
	for _, op := range operands {
		b := path.Base(strings.TrimRight(op, "/"))
		if (b == "." || b == "..") && strings.Trim(op, "/") != "" {
			errorf(inv, "refusing to remove '.' or '..' directory: skipping %s", q(op))
			status = 1
			continue
		}
		p := inv.Abs(op)
		if p == "/" && r.recursive {
			errorf(inv, "it is dangerous to operate recursively on '/'")
			errorf(inv, "use --no-preserve-root to override this failsafe")
			status = 1
			continue
		}
		if !r.remove(op, p) {
			status = 1
		}
		if r.stopped {
			return 1
		}
	}
	return status
}

type remover struct {
	inv                             *command.Invocation
	recursive, force, verbose, dirs bool
	stopped                         bool
}

func (r *remover) remove(name, p string) bool {
	inv := r.inv
	if err := inv.Sys.Charge(10); err != nil {
		r.stopped = true
		return false
	}
	fi, err := inv.FS.Lstat(p)
	if err != nil {
		if r.force && errors.Is(err, fs.ErrNotExist) {
			return true
		}
		errorf(inv, "cannot remove %s: %s", q(name), command.Message(err))
		return false
	}
	if fi.IsDir() {
		if !r.recursive {
			if !r.dirs {
				errorf(inv, "cannot remove %s: Is a directory", q(name))
				return false
			}
		} else {
			ents, err := inv.FS.ReadDir(p)
			if err != nil {
				errorf(inv, "cannot remove %s: %s", q(name), command.Message(err))
				return false
			}
			ok := true
			for _, e := range ents {
				if !r.remove(strings.TrimSuffix(name, "/")+"/"+e.Name, path.Join(p, e.Name)) {
					ok = false
				}
				if r.stopped {
					return false
				}
			}
			if !ok {
				return false
			}
		}
	}
	if err := inv.FS.Remove(p); err != nil {
		errorf(inv, "cannot remove %s: %s", q(name), command.Message(err))
		return false
	}
	if r.verbose {
		if fi.IsDir() {
			fmt.Fprintf(inv.Stdout, "removed directory %s\n", q(name))
		} else {
			fmt.Fprintf(inv.Stdout, "removed %s\n", q(name))
		}
	}
	return true
}
