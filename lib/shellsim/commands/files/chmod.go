package files

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Chmod changes file mode bits.
//
//	chmod [-Rvcf] MODE[,MODE]... FILE...
//	chmod [-Rvcf] OCTAL-MODE FILE...
func Chmod(inv *command.Invocation) int {
	// A mode like -x or -w looks like an option: take it as the mode
	// the way GNU does when it is the first non-option argument.
	args := inv.Args[1:]
	var flags []string
	var rest []string
	modeArg := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if modeArg == "" && len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "rwxXstugoa+-=,") == "" && !isChmodFlags(a) {
			modeArg = a
			continue
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			continue
		}
		rest = append(rest, a)
	}
	spec := &getopt.Spec{
		Short:   "Rvcf",
		Long:    []getopt.Long{{"changes", "c"}, {"quiet", "f"}, {"recursive", "R"}, {"reference=", "ref"}, {"silent", "f"}, {"verbose", "v"}},
		Partial: map[string]bool{"ref": true},
		Help:    true,
	}
	sub := *inv
	sub.Args = append([]string{inv.Args[0]}, flags...)
	opts, _, st, ok := getopt.Parse(&sub, spec)
	if !ok {
		return st
	}
	var recursive, verbose, changes, silent bool
	for _, o := range opts {
		switch o.Name {
		case "R":
			recursive = true
		case "v":
			verbose = true
		case "c":
			changes = true
		case "f":
			silent = true
		}
	}
	if modeArg == "" {
		if len(rest) == 0 {
			missing(inv, "missing operand")
			return 1
		}
		modeArg, rest = rest[0], rest[1:]
	}
	if len(rest) == 0 {
		missing(inv, "missing operand after "+q(modeArg))
		return 1
	}
	if _, err := parseMode(modeArg, 0, false); err != nil {
		errorf(inv, "invalid mode: %s", q(modeArg))
		fmt.Fprintf(inv.Stderr, "Try '%s --help' for more information.\n", inv.Args[0])
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	status := 0
	var walk func(name, p string, top bool) bool
	walk = func(name, p string, top bool) bool {
		if err := inv.Sys.Charge(10); err != nil {
			return false
		}
		fi, err := inv.FS.Stat(p)
		if err != nil {
			if lfi, lerr := inv.FS.Lstat(p); lerr == nil && isSymlink(lfi) && !top {
				return true // dangling links are skipped in -R walks
			}
			if !silent {
				errorf(inv, "cannot access %s: %s", q(name), command.Message(err))
			}
			status = 1
			return true
		}
		if !top {
			if lfi, _ := inv.FS.Lstat(p); isSymlink(lfi) {
				return true
			}
		}
		old := octalMode(fi.Mode)
		nm, _ := parseMode(modeArg, old, fi.IsDir())
		if err := inv.FS.Chmod(p, fromOctal(nm)); err != nil {
			if !silent {
				errorf(inv, "changing permissions of %s: %s", q(name), command.Message(err))
			}
			status = 1
		} else if full, _ := applyMode(modeArg, old, fi.IsDir(), false); full != nm {
			errorf(inv, "%s: new permissions are %s, not %s", name, modeString(fi.Mode.Type() | fromOctal(nm))[1:], modeString(fi.Mode.Type() | fromOctal(full))[1:])
			status = 1
		}
		if err == nil && (verbose || changes && nm != old) {
			if nm == old {
				fmt.Fprintf(inv.Stdout, "mode of %s retained as %04o (%s)\n", q(name), nm, modeString(fi.Mode.Type() | fromOctal(nm))[1:])
			} else {
				fmt.Fprintf(inv.Stdout, "mode of %s changed from %04o (%s) to %04o (%s)\n", q(name), old, modeString(fi.Mode)[1:], nm, modeString(fi.Mode.Type() | fromOctal(nm))[1:])
			}
		}
		if recursive && fi.IsDir() {
			ents, err := inv.FS.ReadDir(p)
			if err != nil {
				errorf(inv, "cannot read directory %s: %s", q(name), command.Message(err))
				status = 1
				return true
			}
			for _, e := range ents {
				if !walk(strings.TrimSuffix(name, "/")+"/"+e.Name, path.Join(p, e.Name), false) {
					return false
				}
			}
		}
		return true
	}
	for _, op := range rest {
		if !walk(op, inv.Abs(op), true) {
			return 1
		}
	}
	return status
}

func isChmodFlags(a string) bool {
	return strings.HasPrefix(a, "--") || strings.Trim(a[1:], "Rvcf") == ""
}

var errBadMode = errors.New("invalid mode")

// parseMode applies a chmod mode (octal, or symbolic clauses such as
// "u+x,go-w", "a=r", "g=u") to old and returns the new permission and
// special bits. isDir matters for X.
func parseMode(s string, old uint32, isDir bool) (uint32, error) {
	return applyMode(s, old, isDir, true)
}

// applyMode is parseMode; with useUmask false a clause without a "who"
// applies to all bits (what chmod warns about when the umask hid some).
func applyMode(s string, old uint32, isDir, useUmask bool) (uint32, error) {
	if s == "" {
		return 0, errBadMode
	}
	if s[0] >= '0' && s[0] <= '7' {
		v, err := strconv.ParseUint(s, 8, 32)
		if err != nil || v > 0o7777 {
			return 0, errBadMode
		}
		// GNU keeps a directory's set-id bits unless five digits are given.
		if isDir && len(s) < 5 {
			return uint32(v) | old&0o6000, nil
		}
		return uint32(v), nil
	}
	mode := old
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
		honourUmask := who == 0 && useUmask
		if who == 0 {
			who = 0o7777
		}
		if i >= len(clause) {
			return 0, errBadMode
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return 0, errBadMode
			}
			i++
			var bits uint32
			if i < len(clause) && strings.IndexByte("ugo", clause[i]) >= 0 {
				var src uint32
				switch clause[i] {
				case 'u':
					src = mode >> 6 & 7
				case 'g':
					src = mode >> 3 & 7
				case 'o':
					src = mode & 7
				}
				bits = src<<6 | src<<3 | src
				i++
			} else {
				for i < len(clause) && strings.IndexByte("rwxXst", clause[i]) >= 0 {
					switch clause[i] {
					case 'r':
						bits |= 0o444
					case 'w':
						bits |= 0o222
					case 'x':
						bits |= 0o111
					case 'X':
						if isDir || mode&0o111 != 0 {
							bits |= 0o111
						}
					case 's':
						bits |= 0o6000
					case 't':
						bits |= 0o1000
					}
					i++
				}
			}
			mask := who
			if honourUmask {
				mask &^= uint32(umask)
			}
			switch op {
			case '+':
				mode |= bits & mask
			case '-':
				mode &^= bits & mask
			case '=':
				clear := who
				if honourUmask {
					clear = 0o7777
				}
				if isDir {
					clear &^= 0o6000 // = keeps a directory's set-id bits
				}
				mode = mode&^clear | bits&mask
			}
		}
	}
	return mode, nil
}
