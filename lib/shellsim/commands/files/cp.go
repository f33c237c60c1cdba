package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Cp copies files and directories.
//
//	cp [-rRpafnvdL] [-t DIR] [-T] SOURCE... DEST
//
// -i is not modelled (there is no terminal to ask on) and fails as Partial.
func Cp(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "rRpafnvidLPHt:Tu",
		Long: []getopt.Long{
			{"archive", "a"}, {"backup", "backup"}, {"dereference", "L"}, {"force", "f"},
			{"interactive", "i"}, {"no-clobber", "n"}, {"no-dereference", "P"},
			{"no-target-directory", "T"}, {"parents", "parents"}, {"preserve", "p"},
			{"preserve=", "preserve"}, {"recursive", "r"}, {"target-directory=", "t"},
			{"update", "u"}, {"verbose", "v"},
		},
		Partial: map[string]bool{"i": true, "H": true, "backup": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	c := &copier{inv: inv}
	target := ""
	noTarget := false
	for _, o := range opts {
		switch o.Name {
		case "r", "R":
			c.recursive = true
		case "p":
			c.preserve = true
		case "preserve":
			c.preserve = true
		case "a":
			c.recursive, c.preserve, c.noDeref = true, true, true
		case "d", "P":
			c.noDeref = true
		case "L":
			c.deref = true
		case "f":
			c.force = true
		case "n":
			c.noClobber = true
		case "v":
			c.verbose = true
		case "u":
			c.update = true
		case "parents":
			c.parents = true
		case "t":
			target = o.Val
		case "T":
			noTarget = true
		}
	}
	if c.recursive && !c.deref {
		c.noDeref = true
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	if c.parents {
		return c.copyParents(operands, target)
	}
	return transfer(inv, operands, target, noTarget, c.copyTop)
}

// transfer resolves cp/mv operands into (source, destination) pairs and
// runs one for each, returning the exit status.
func transfer(inv *command.Invocation, operands []string, target string, noTarget bool, one func(src, dst string) bool) int {
	if target == "" {
		if len(operands) == 0 {
			missing(inv, "missing file operand")
			return 1
		}
		if len(operands) == 1 {
			missing(inv, "missing destination file operand after "+q(operands[0]))
			return 1
		}
		target = operands[len(operands)-1]
		operands = operands[:len(operands)-1]
	} else if len(operands) == 0 {
		missing(inv, "missing file operand")
		return 1
	}
	tfi, terr := inv.FS.Stat(inv.Abs(target))
	isDir := terr == nil && tfi.IsDir()
	if noTarget {
		if len(operands) > 1 {
			errorf(inv, "extra operand %s", q(operands[1]))
			return 1
		}
		isDir = false
	}
	if len(operands) > 1 && !isDir {
		if terr != nil && !errors.Is(terr, fs.ErrNotExist) || terr == nil {
			errorf(inv, "target %s is not a directory", q(target))
		} else {
			errorf(inv, "target %s: %s", q(target), command.Message(terr))
		}
		return 1
	}
	status := 0
	for _, src := range operands {
		dst := target
		if isDir {
			dst = strings.TrimSuffix(target, "/") + "/" + base(strings.TrimRight(src, "/"))
			if target == "/" {
				dst = "/" + base(src)
			}
		}
		if !one(src, dst) {
			status = 1
		}
	}
	return status
}

type copier struct {
	inv                              *command.Invocation
	recursive, preserve, noDeref     bool
	deref, force, noClobber, verbose bool
	update, parents, stopped         bool
}

// copyParents is --parents: each source keeps its path below the target
// directory (cp --parents a/b/f dir makes dir/a/b/f).
func (c *copier) copyParents(operands []string, target string) int {
	inv := c.inv
	if target == "" {
		if len(operands) < 2 {
			missing(inv, "missing destination file operand after "+q(strings.Join(operands, " ")))
			return 1
		}
		target, operands = operands[len(operands)-1], operands[:len(operands)-1]
	}
	if fi, err := inv.FS.Stat(inv.Abs(target)); err != nil || !fi.IsDir() {
		errorf(inv, "with --parents, the destination must be a directory")
		fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
		return 1
	}
	status := 0
	for _, src := range operands {
		rel := strings.TrimLeft(src, "/")
		dst := strings.TrimSuffix(target, "/") + "/" + rel
		if d := path.Dir(inv.Abs(dst)); d != inv.Abs(target) {
			if err := inv.FS.MkdirAll(d, 0o755); err != nil {
				errorf(inv, "cannot make directory %s: %s", q(path.Dir(dst)), command.Message(err))
				status = 1
				continue
			}
		}
		if !c.copyTop(src, dst) {
			status = 1
		}
	}
	return status
}

func (c *copier) copyTop(src, dst string) bool {
	if c.stopped {
		return false
	}
	return c.copy(src, dst, c.inv.Abs(src), c.inv.Abs(dst))
}

func (c *copier) copy(srcName, dstName, src, dst string) bool {
	inv := c.inv
	var fi command.FileInfo
	var err error
	if c.noDeref {
		fi, err = inv.FS.Lstat(src)
	} else {
		fi, err = inv.FS.Stat(src)
	}
	if err != nil {
		errorf(inv, "cannot stat %s: %s", q(srcName), command.Message(err))
		return false
	}
	dfi, derr := inv.FS.Lstat(dst)
	exists := derr == nil
	if exists && !isSymlink(dfi) || exists && !c.noDeref {
		if t, err := inv.FS.Stat(dst); err == nil {
			dfi = t
		}
	}
	if exists && dfi.Ino != 0 && dfi.Ino == fi.Ino && !(isSymlink(fi) && c.noDeref) {
		errorf(inv, "%s and %s are the same file", q(srcName), q(dstName))
		return false
	}
	if fi.IsDir() {
		if !c.recursive {
			errorf(inv, "-r not specified; omitting directory %s", q(srcName))
			return false
		}
		if dst == src || strings.HasPrefix(dst, strings.TrimSuffix(src, "/")+"/") {
			errorf(inv, "cannot copy a directory, %s, into itself, %s", q(srcName), q(dstName))
			return false
		}
		if exists && !dfi.IsDir() {
			errorf(inv, "cannot overwrite non-directory %s with directory %s", q(dstName), q(srcName))
			return false
		}
		if !exists {
			if err := inv.FS.Mkdir(dst, fi.Mode.Perm()|0o700); err != nil {
				errorf(inv, "cannot create directory %s: %s", q(dstName), command.Message(err))
				return false
			}
		}
		if c.verbose {
			c.say(srcName, dstName)
		}
		ents, err := inv.FS.ReadDir(src)
		if err != nil {
			errorf(inv, "cannot access %s: %s", q(srcName), command.Message(err))
			return false
		}
		ok := true
		for _, e := range ents {
			if err := inv.Sys.Charge(10); err != nil {
				c.stopped = true
				return false
			}
			if !c.copy(srcName+"/"+e.Name, dstName+"/"+e.Name, path.Join(src, e.Name), path.Join(dst, e.Name)) {
				ok = false
			}
			if c.stopped {
				return false
			}
		}
		if !exists || c.preserve {
			mode := fi.Mode.Perm() &^ umask
			if c.preserve {
				mode = fromOctal(octalMode(fi.Mode))
			}
			if err := inv.FS.Chmod(dst, mode); err != nil {
				errorf(inv, "preserving permissions for %s: %s", q(dstName), command.Message(err))
				ok = false
			}
		}
		if c.preserve {
			c.keepAttrs(fi, dst)
		}
		return ok
	}
	if exists && dfi.IsDir() {
		errorf(inv, "cannot overwrite directory %s with non-directory", q(dstName))
		return false
	}
	if exists && c.noClobber {
		return true
	}
	if exists && c.update && !fi.ModTime.After(dfi.ModTime) {
		return true // -u: the destination is as new as the source
	}
	if isSymlink(fi) {
		target := fi.Target
		if target == "" {
			target, _ = inv.FS.Readlink(src)
		}
		if exists {
			if err := inv.FS.Remove(dst); err != nil {
				errorf(inv, "cannot remove %s: %s", q(dstName), command.Message(err))
				return false
			}
		}
		if err := inv.FS.Symlink(target, dst); err != nil {
			errorf(inv, "cannot create symbolic link %s: %s", q(dstName), command.Message(err))
			return false
		}
		if c.verbose {
			c.say(srcName, dstName)
		}
		return true
	}
	if !fi.Mode.IsRegular() {
		inv.Sys.Partial("cp special file")
		errorf(inv, "cannot copy special file %s in ShellSim", q(srcName))
		return false
	}
	data, err := c.read(src, fi)
	if err != nil {
		if !errors.Is(err, command.ErrStopped) {
			errorf(inv, "cannot open %s for reading: %s", q(srcName), command.Message(err))
		}
		return false
	}
	if exists {
		err = writeExisting(inv, dst, data)
		if err != nil && c.force && errors.Is(err, fs.ErrPermission) {
			if inv.FS.Remove(dst) == nil {
				exists = false
			}
		}
	}
	if !exists {
		mode := fi.Mode.Perm() &^ umask
		if c.preserve {
			mode = fromOctal(octalMode(fi.Mode))
		}
		err = inv.FS.WriteFile(dst, data, mode)
	}
	if err != nil {
		errorf(inv, "cannot create regular file %s: %s", q(dstName), command.Message(err))
		return false
	}
	if c.verbose {
		c.say(srcName, dstName)
	}
	if c.preserve {
		_ = inv.FS.Chmod(dst, fromOctal(octalMode(fi.Mode)))
		c.keepAttrs(fi, dst)
	}
	return true
}

func (c *copier) read(src string, fi command.FileInfo) ([]byte, error) {
	inv := c.inv
	release, err := inv.Sys.Reserve(fi.Size)
	if err != nil {
		c.stopped = true
		return nil, command.ErrStopped
	}
	defer release()
	if err := inv.Sys.Charge(fi.Size); err != nil {
		c.stopped = true
		return nil, command.ErrStopped
	}
	return inv.FS.ReadFile(src)
}

func (c *copier) keepAttrs(fi command.FileInfo, dst string) {
	_ = c.inv.FS.Chtimes(dst, fi.ModTime)
	_ = c.inv.FS.Chown(dst, fi.UID, fi.GID)
}

func (c *copier) say(src, dst string) {
	fmt.Fprintf(c.inv.Stdout, "%s -> %s\n", q(src), q(dst))
}

// writeExisting replaces the contents of an existing file, keeping its mode.
func writeExisting(inv *command.Invocation, p string, data []byte) error {
	f, err := inv.FS.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
