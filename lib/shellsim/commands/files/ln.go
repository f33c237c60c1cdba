package files

import (
	"fmt"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Ln makes links between files.
//
//	ln [-sfnvT] TARGET [LINK]
//	ln [-sfnv] TARGET... DIRECTORY
//	ln [-sfnv] -t DIRECTORY TARGET...
func Ln(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "sfnvTt:irbLP",
		Long: []getopt.Long{
			{"backup", "b"}, {"force", "f"}, {"interactive", "i"}, {"logical", "L"},
			{"no-dereference", "n"}, {"no-target-directory", "T"}, {"physical", "P"},
			{"relative", "r"}, {"symbolic", "s"}, {"target-directory=", "t"}, {"verbose", "v"},
		},
		Partial: map[string]bool{"i": true, "b": true, "L": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	var sym, force, noDeref, verbose, noTarget, relative bool
	target := ""
	for _, o := range opts {
		switch o.Name {
		case "s":
			sym = true
		case "f":
			force = true
		case "n":
			noDeref = true
		case "v":
			verbose = true
		case "T":
			noTarget = true
		case "t":
			target = o.Val
		case "r":
			relative = true
		}
	}
	if relative && !sym {
		errorf(inv, "cannot do --relative without --symbolic")
		return 1
	}
	if len(operands) == 0 {
		missing(inv, "missing file operand")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	isDir := func(name string) bool {
		p := inv.Abs(name)
		if noDeref {
			fi, err := inv.FS.Lstat(p)
			return err == nil && fi.IsDir()
		}
		fi, err := inv.FS.Stat(p)
		return err == nil && fi.IsDir()
	}
	type pair struct{ src, link string }
	var pairs []pair
	into := func(dir string, srcs []string) {
		for _, s := range srcs {
			pairs = append(pairs, pair{s, strings.TrimSuffix(dir, "/") + "/" + base(strings.TrimRight(s, "/"))})
		}
	}
	switch {
	case target != "":
		into(target, operands)
	case len(operands) == 1:
		pairs = append(pairs, pair{operands[0], base(strings.TrimRight(operands[0], "/"))})
	case len(operands) == 2 && (noTarget || !isDir(operands[1])):
		pairs = append(pairs, pair{operands[0], operands[1]})
	default:
		last := operands[len(operands)-1]
		if !isDir(last) {
			if _, err := inv.FS.Stat(inv.Abs(last)); err != nil {
				errorf(inv, "target %s: %s", q(last), command.Message(err))
			} else {
				errorf(inv, "target %s is not a directory", q(last))
			}
			return 1
		}
		into(last, operands[:len(operands)-1])
	}
	status := 0
	kind := "hard link"
	if sym {
		kind = "symbolic link"
	}
	for _, pr := range pairs {
		lp := inv.Abs(pr.link)
		if !sym {
			fi, err := inv.FS.Lstat(inv.Abs(pr.src))
			if err != nil {
				errorf(inv, "failed to access %s: %s", q(pr.src), command.Message(err))
				status = 1
				continue
			}
			if fi.IsDir() {
				errorf(inv, "%s: hard link not allowed for directory", pr.src)
				status = 1
				continue
			}
		}
		if lfi, err := inv.FS.Lstat(lp); err == nil {
			if !force {
				errorf(inv, "failed to create %s %s: File exists", kind, q(pr.link))
				status = 1
				continue
			}
			if lfi.IsDir() {
				errorf(inv, "%s: cannot overwrite directory", q(pr.link))
				status = 1
				continue
			}
			if !sym {
				if sfi, err := inv.FS.Lstat(inv.Abs(pr.src)); err == nil && sfi.Ino == lfi.Ino && sfi.Ino != 0 {
					errorf(inv, "%s and %s are the same file", q(pr.src), q(pr.link))
					status = 1
					continue
				}
			}
			if err := inv.FS.Remove(lp); err != nil {
				errorf(inv, "cannot remove %s: %s", q(pr.link), command.Message(err))
				status = 1
				continue
			}
		}
		var err error
		if sym && relative {
			// -r: the link holds the path from its own directory to the
			// target, both with symlinks resolved.
			ta, terr := canonicalize(inv, rawAbs(inv, pr.src), canonMissing)
			ld, lerr := canonicalize(inv, path.Dir(lp), canonMissing)
			if terr == nil && lerr == nil {
				pr.src = relPath(ld, ta)
			}
		}
		if sym {
			err = inv.FS.Symlink(pr.src, lp)
		} else {
			err = inv.FS.Link(inv.Abs(pr.src), lp)
		}
		if err != nil && !sym {
			errorf(inv, "failed to create hard link %s => %s: %s", q(pr.link), q(pr.src), command.Message(err))
			status = 1
			continue
		}
		if err != nil {
			errorf(inv, "failed to create %s %s: %s", kind, q(pr.link), command.Message(err))
			status = 1
			continue
		}
		if verbose {
			arrow := "->"
			if !sym {
				arrow = "=>"
			}
			fmt.Fprintf(inv.Stdout, "%s %s %s\n", q(pr.link), arrow, q(pr.src))
		}
	}
	return status
}
