package files

import (
	"fmt"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Mv moves (renames) files.
//
//	mv [-fnv] [-t DIR] [-T] SOURCE... DEST
//
// -i is not modelled (there is no terminal to ask on) and fails as Partial.
func Mv(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "fnvit:Tub",
		Long: []getopt.Long{
			{"backup", "b"}, {"force", "f"}, {"interactive", "i"}, {"no-clobber", "n"},
			{"no-target-directory", "T"}, {"target-directory=", "t"}, {"update", "u"},
			{"verbose", "v"},
		},
		Partial: map[string]bool{"i": true, "b": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	var noClobber, verbose, noTarget, update bool
	target := ""
	for _, o := range opts {
		switch o.Name {
		case "f":
			noClobber = false
		case "n":
			noClobber = true
		case "v":
			verbose = true
		case "u":
			update = true
		case "t":
			target = o.Val
		case "T":
			noTarget = true
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	return transfer(inv, operands, target, noTarget, func(srcName, dstName string) bool {
		src, dst := inv.Abs(srcName), inv.Abs(dstName)
		fi, err := inv.FS.Lstat(src)
		if err != nil {
			errorf(inv, "cannot stat %s: %s", q(srcName), command.Message(err))
			return false
		}
		if dfi, err := inv.FS.Lstat(dst); err == nil {
			if dfi.Ino != 0 && dfi.Ino == fi.Ino {
				errorf(inv, "%s and %s are the same file", q(srcName), q(dstName))
				return false
			}
			if noClobber {
				return true
			}
			if update && !fi.ModTime.After(dfi.ModTime) {
				return true // -u: the destination is as new as the source
			}
			if fi.IsDir() && !dfi.IsDir() {
				errorf(inv, "cannot overwrite non-directory %s with directory %s", q(dstName), q(srcName))
				return false
			}
			if !fi.IsDir() && dfi.IsDir() {
				errorf(inv, "cannot overwrite directory %s with non-directory", q(dstName))
				return false
			}
		}
		if fi.IsDir() && (dst == src || strings.HasPrefix(dst, src+"/")) {
			errorf(inv, "cannot move %s to a subdirectory of itself, %s", q(srcName), q(dstName))
			return false
		}
		if err := inv.FS.Rename(src, dst); err != nil {
			errorf(inv, "cannot move %s to %s: %s", q(srcName), q(dstName), command.Message(err))
			return false
		}
		if verbose {
			fmt.Fprintf(inv.Stdout, "renamed %s -> %s\n", q(srcName), q(dstName))
		}
		return true
	})
}
