package misc

import (
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// install - copy files and set attributes
//
//	install [-Dv] [-m MODE] [-o OWNER] [-g GROUP] SOURCE DEST
//	install [-Dv] [-m MODE] [-t DIR | SOURCE... DIR]
//	install -d [-v] [-m MODE] DIR...
//
// Files get mode 0755 unless -m (octal or symbolic, applied to 0, as GNU
// install does); -D creates DEST's missing parents; -d creates directories.

var installSpec = getopt.Spec{Short: "dDvm:o:g:t:Tcsp", Long: []getopt.Long{
	{"directory", "d"}, {"group=", "g"}, {"mode=", "m"}, {"no-target-directory", "T"},
	{"owner=", "o"}, {"preserve-timestamps", "p"}, {"strip", "s"}, {"target-directory=", "t"},
	{"verbose", "v"},
}}

// Install runs install.
func Install(inv *command.Invocation) int {
	if inv.Sys.Charge(50) != nil {
		return 1
	}
	opts, args, st, ok := getopt.Parse(inv, &installSpec)
	if !ok {
		return st
	}
	dirMode, mkParents, verbose, noTarget, keepTime := false, false, false, false, false
	mode := fs.FileMode(0o755)
	target := ""
	uid, gid := -1, -1
	for _, o := range opts {
		switch o.Name {
		case "d":
			dirMode = true
		case "D":
			mkParents = true
		case "v":
			verbose = true
		case "T":
			noTarget = true
		case "p":
			keepTime = true
		case "t":
			target = o.Val
		case "m":
			m, ok := parseMode(o.Val)
			if !ok {
				fmt.Fprintf(inv.Stderr, "install: invalid mode '%s'\n", o.Val)
				return 1
			}
			mode = m
		case "o":
			id, ok := inv.Sys.Users().LookupUser(o.Val)
			if n, err := strconv.Atoi(o.Val); err == nil {
				id, ok = n, true
			}
			if !ok {
				fmt.Fprintf(inv.Stderr, "install: invalid user '%s'\n", o.Val)
				return 1
			}
			uid = id
		case "g":
			id, ok := inv.Sys.Users().LookupGroup(o.Val)
			if n, err := strconv.Atoi(o.Val); err == nil {
				id, ok = n, true
			}
			if !ok {
				fmt.Fprintf(inv.Stderr, "install: invalid group '%s'\n", o.Val)
				return 1
			}
			gid = id
		}
	}
	status := 0
	chown := func(p string) {
		if uid >= 0 || gid >= 0 {
			fi, err := inv.FS.Stat(p)
			if err == nil {
				u, g := fi.UID, fi.GID
				if uid >= 0 {
					u = uid
				}
				if gid >= 0 {
					g = gid
				}
				inv.FS.Chown(p, u, g)
			}
		}
	}
	// mkdirs creates dir and its parents, announcing each with -v.
	mkdirs := func(dir string) error {
		var missing []string
		for d := dir; d != "." && d != "/"; d = path.Dir(d) {
			if _, err := inv.FS.Stat(inv.Abs(d)); err == nil {
				break
			}
			missing = append(missing, d)
		}
		for i := len(missing) - 1; i >= 0; i-- {
			if err := inv.FS.Mkdir(inv.Abs(missing[i]), 0o755); err != nil {
				return err
			}
			if verbose {
				fmt.Fprintf(inv.Stdout, "install: creating directory '%s'\n", missing[i])
			}
		}
		return nil
	}
	if dirMode {
		if len(args) == 0 {
			fmt.Fprintf(inv.Stderr, "install: missing file operand\nTry 'install --help' for more information.\n")
			return 1
		}
		for _, d := range args {
			if fi, err := inv.FS.Stat(inv.Abs(d)); err == nil && !fi.IsDir() {
				fmt.Fprintf(inv.Stderr, "install: cannot create directory '%s': File exists\n", d)
				status = 1
				continue
			}
			if err := mkdirs(d); err != nil {
				fmt.Fprintf(inv.Stderr, "install: cannot create directory '%s': %s\n", d, command.Message(err))
				status = 1
				continue
			}
			inv.FS.Chmod(inv.Abs(d), mode)
			chown(inv.Abs(d))
		}
		return status
	}
	if target == "" {
		if len(args) == 0 {
			fmt.Fprintf(inv.Stderr, "install: missing file operand\nTry 'install --help' for more information.\n")
			return 1
		}
		if len(args) == 1 {
			fmt.Fprintf(inv.Stderr, "install: missing destination file operand after '%s'\nTry 'install --help' for more information.\n", args[0])
			return 1
		}
		last := args[len(args)-1]
		fi, err := inv.FS.Stat(inv.Abs(last))
		isDir := err == nil && fi.IsDir() && !noTarget
		if len(args) > 2 && !isDir {
			if err != nil {
				fmt.Fprintf(inv.Stderr, "install: target '%s': %s\n", last, command.Message(err))
			} else {
				fmt.Fprintf(inv.Stderr, "install: target '%s' is not a directory\n", last)
			}
			return 1
		}
		if isDir {
			target, args = last, args[:len(args)-1]
		}
	}
	copyOne := func(src, dst string) {
		sfi, err := inv.FS.Stat(inv.Abs(src))
		if err != nil {
			fmt.Fprintf(inv.Stderr, "install: cannot stat '%s': %s\n", src, command.Message(err))
			status = 1
			return
		}
		if sfi.IsDir() {
			fmt.Fprintf(inv.Stderr, "install: omitting directory '%s'\n", src)
			status = 1
			return
		}
		if mkParents {
			if err := mkdirs(path.Dir(dst)); err != nil {
				fmt.Fprintf(inv.Stderr, "install: cannot create directory '%s': %s\n", path.Dir(dst), command.Message(err))
				status = 1
				return
			}
		}
		data, err := inv.FS.ReadFile(inv.Abs(src))
		if err == nil && inv.Sys.Charge(int64(len(data))) != nil {
			status = 1
			return
		}
		if err == nil {
			// install unlinks the destination first, like cp --remove-destination.
			if fi, e := inv.FS.Lstat(inv.Abs(dst)); e == nil && !fi.IsDir() {
				inv.FS.Remove(inv.Abs(dst))
			}
			err = inv.FS.WriteFile(inv.Abs(dst), data, mode.Perm())
		}
		if err != nil {
			fmt.Fprintf(inv.Stderr, "install: cannot create regular file '%s': %s\n", dst, command.Message(err))
			status = 1
			return
		}
		inv.FS.Chmod(inv.Abs(dst), mode)
		chown(inv.Abs(dst))
		if keepTime {
			inv.FS.Chtimes(inv.Abs(dst), sfi.ModTime)
		}
		if verbose {
			fmt.Fprintf(inv.Stdout, "'%s' -> '%s'\n", src, dst)
		}
	}
	if target != "" {
		if mkParents {
			if err := mkdirs(target); err != nil {
				fmt.Fprintf(inv.Stderr, "install: cannot create directory '%s': %s\n", target, command.Message(err))
				return 1
			}
		}
		for _, src := range args {
			copyOne(src, path.Join(target, path.Base(src)))
		}
		return status
	}
	copyOne(args[0], args[1])
	return status
}

// parseMode reads an octal mode or a symbolic one ("u+x,go-w"), which
// install applies to a base of 0.
func parseMode(s string) (fs.FileMode, bool) {
	if s != "" && strings.Trim(s, "01234567") == "" {
		n, err := strconv.ParseUint(s, 8, 32)
		if err != nil || n > 0o7777 {
			return 0, false
		}
		return octalMode(uint32(n)), true
	}
	var m uint32
	for _, clause := range strings.Split(s, ",") {
		i := 0
		var who uint32
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			switch clause[i] {
			case 'u':
				who |= 0o4700
			case 'g':
				who |= 0o2070
			case 'o':
				who |= 0o1007
			case 'a':
				who |= 0o7777
			}
			i++
		}
		if who == 0 {
			who = 0o7777 &^ 0o022 // the umask leaves out group and other write
		}
		if i >= len(clause) {
			return 0, false
		}
		for i < len(clause) {
			op := clause[i]
			if strings.IndexByte("+-=", op) < 0 {
				return 0, false
			}
			i++
			var bits uint32
			for i < len(clause) && strings.IndexByte("rwxXst", clause[i]) >= 0 {
				switch clause[i] {
				case 'r':
					bits |= 0o444
				case 'w':
					bits |= 0o222
				case 'x', 'X':
					bits |= 0o111
				case 's':
					bits |= 0o6000
				case 't':
					bits |= 0o1000
				}
				i++
			}
			bits &= who
			switch op {
			case '+':
				m |= bits
			case '-':
				m &^= bits
			case '=':
				m = m&^who | bits
			}
		}
	}
	return octalMode(m), true
}

func octalMode(n uint32) fs.FileMode {
	m := fs.FileMode(n & 0o777)
	if n&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if n&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if n&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}
