package files

import (
	"bufio"
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Basename strips directory and suffix from names.
//
//	basename NAME [SUFFIX]
//	basename [-az] [-s SUFFIX] NAME...
func Basename(inv *command.Invocation) int {
	spec := &getopt.Spec{Short: "as:z", Long: []getopt.Long{{"multiple", "a"}, {"suffix=", "s"}, {"zero", "z"}}, Help: true}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	multiple, suffix, end := false, "", "\n"
	for _, o := range opts {
		switch o.Name {
		case "a":
			multiple = true
		case "s":
			multiple, suffix = true, o.Val
		case "z":
			end = "\x00"
		}
	}
	if len(operands) == 0 {
		missing(inv, "missing operand")
		return 1
	}
	if !multiple {
		if len(operands) > 2 {
			missing(inv, "extra operand "+q(operands[2]))
			return 1
		}
		if len(operands) == 2 {
			suffix = operands[1]
		}
		operands = operands[:1]
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	w := bufio.NewWriter(inv.Stdout)
	for _, n := range operands {
		b := baseName(n)
		if suffix != "" && b != suffix && strings.HasSuffix(b, suffix) {
			b = strings.TrimSuffix(b, suffix)
		}
		w.WriteString(b + end)
	}
	if w.Flush() != nil {
		return 1
	}
	return 0
}

func baseName(n string) string {
	if n == "" {
		return ""
	}
	t := strings.TrimRight(n, "/")
	if t == "" {
		return "/"
	}
	return t[strings.LastIndexByte(t, '/')+1:]
}

// Dirname strips the last component from file names.
//
//	dirname [-z] NAME...
func Dirname(inv *command.Invocation) int {
	spec := &getopt.Spec{Short: "z", Long: []getopt.Long{{"zero", "z"}}, Help: true}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	end := "\n"
	if len(opts) > 0 {
		end = "\x00"
	}
	if len(operands) == 0 {
		missing(inv, "missing operand")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	w := bufio.NewWriter(inv.Stdout)
	for _, n := range operands {
		w.WriteString(dirName(n) + end)
	}
	if w.Flush() != nil {
		return 1
	}
	return 0
}

func dirName(n string) string {
	t := strings.TrimRight(n, "/")
	if t == "" {
		if n == "" {
			return "."
		}
		return "/"
	}
	i := strings.LastIndexByte(t, '/')
	if i < 0 {
		return "."
	}
	d := strings.TrimRight(t[:i], "/")
	if d == "" {
		return "/"
	}
	return d
}

// Canonicalization modes of realpath and readlink.
const (
	canonAllButLast = iota // -f / realpath default
	canonExisting          // -e
	canonMissing           // -m
)

// rawAbs joins p to the working directory without cleaning it: ".."
// after a symlink must be resolved physically, not lexically.
func rawAbs(inv *command.Invocation, p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return inv.Dir + "/" + p
}

// canonicalize resolves every symlink in p (absolute, not necessarily
// clean) under the given mode; ".." applies to the resolved prefix.
func canonicalize(inv *command.Invocation, p string, mode int) (string, error) {
	var parts []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			parts = append(parts, c)
		}
	}
	resolved := "/"
	links := 0
	for i := 0; i < len(parts); i++ {
		part := parts[i]
		switch part {
		case "", ".":
			continue
		case "..":
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, part)
		fi, err := inv.FS.Lstat(next)
		last := i == len(parts)-1
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			if mode == canonMissing || mode == canonAllButLast && last {
				resolved = next
				continue
			}
			return "", err
		}
		if isSymlink(fi) {
			links++
			if links > 40 {
				return "", &fs.PathError{Op: "stat", Path: p, Err: command.ErrLoop}
			}
			target := fi.Target
			if target == "" {
				target, err = inv.FS.Readlink(next)
				if err != nil {
					return "", err
				}
			}
			rest := parts[i+1:]
			tparts := strings.Split(target, "/")
			if strings.HasPrefix(target, "/") {
				resolved = "/"
			}
			parts = append(append([]string{}, tparts...), rest...)
			i = -1
			continue
		}
		if !fi.IsDir() && !last {
			if mode == canonMissing {
				resolved = next
				continue
			}
			return "", &fs.PathError{Op: "stat", Path: next, Err: command.ErrNotDir}
		}
		resolved = next
	}
	return resolved, nil
}

// Realpath prints the resolved absolute file name.
//
//	realpath [-emsqz] [--relative-to=DIR] FILE...
func Realpath(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "emqszLP",
		Long: []getopt.Long{
			{"canonicalize-existing", "e"}, {"canonicalize-missing", "m"}, {"logical", "L"},
			{"no-symlinks", "s"}, {"physical", "P"}, {"quiet", "q"}, {"relative-base=", "relbase"},
			{"relative-to=", "rel"}, {"strip", "s"}, {"zero", "z"},
		},
		Partial: map[string]bool{"relbase": true, "L": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	mode, quiet, strip, end, rel := canonAllButLast, false, false, "\n", ""
	for _, o := range opts {
		switch o.Name {
		case "e":
			mode = canonExisting
		case "m":
			mode = canonMissing
		case "q":
			quiet = true
		case "s":
			strip = true
		case "z":
			end = "\x00"
		case "rel":
			rel = o.Val
		}
	}
	if len(operands) == 0 {
		missing(inv, "missing operand")
		return 1
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	relDir := ""
	if rel != "" {
		r, err := canonicalize(inv, rawAbs(inv, rel), mode)
		if err != nil {
			errorf(inv, "%s: %s", rel, command.Message(err))
			return 1
		}
		relDir = r
	}
	w := bufio.NewWriter(inv.Stdout)
	status := 0
	for _, op := range operands {
		var r string
		var err error
		if strip {
			r = inv.Abs(op)
			if mode == canonExisting {
				_, err = inv.FS.Lstat(r)
			}
		} else {
			r, err = canonicalize(inv, rawAbs(inv, op), mode)
		}
		if err != nil {
			if !quiet {
				errorf(inv, "%s: %s", op, command.Message(err))
			}
			status = 1
			continue
		}
		if relDir != "" {
			r = relPath(relDir, r)
		}
		w.WriteString(r + end)
	}
	if w.Flush() != nil {
		return 1
	}
	return status
}

// relPath expresses target relative to dir (both absolute and clean).
func relPath(dir, target string) string {
	if dir == target {
		return "."
	}
	ds := strings.Split(strings.Trim(dir, "/"), "/")
	ts := strings.Split(strings.Trim(target, "/"), "/")
	if dir == "/" {
		ds = nil
	}
	if target == "/" {
		ts = nil
	}
	i := 0
	for i < len(ds) && i < len(ts) && ds[i] == ts[i] {
		i++
	}
	var out []string
	for range ds[i:] {
		out = append(out, "..")
	}
	out = append(out, ts[i:]...)
	return strings.Join(out, "/")
}

// Readlink prints the value of a symbolic link or a canonical file name.
//
//	readlink [-fem] [-nqsvz] FILE...
func Readlink(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "femnqsvz",
		Long: []getopt.Long{
			{"canonicalize", "f"}, {"canonicalize-existing", "e"}, {"canonicalize-missing", "m"},
			{"no-newline", "n"}, {"quiet", "q"}, {"silent", "s"}, {"verbose", "v"}, {"zero", "z"},
		},
		Help: true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	mode, noNL, verbose, end := -1, false, false, "\n"
	for _, o := range opts {
		switch o.Name {
		case "f":
			mode = canonAllButLast
		case "e":
			mode = canonExisting
		case "m":
			mode = canonMissing
		case "n":
			noNL = true
		case "v":
			verbose = true
		case "q", "s":
			verbose = false
		case "z":
			end = "\x00"
		}
	}
	if len(operands) == 0 {
		missing(inv, "missing operand")
		return 1
	}
	if noNL && len(operands) == 1 {
		end = ""
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	w := bufio.NewWriter(inv.Stdout)
	status := 0
	for _, op := range operands {
		var r string
		var err error
		if mode < 0 {
			r, err = inv.FS.Readlink(inv.Abs(op))
		} else {
			r, err = canonicalize(inv, rawAbs(inv, op), mode)
		}
		if err != nil {
			if verbose {
				errorf(inv, "%s: %s", op, command.Message(err))
			}
			status = 1
			continue
		}
		w.WriteString(r + end)
	}
	if w.Flush() != nil {
		return 1
	}
	return status
}
