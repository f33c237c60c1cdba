package files

import (
	"bufio"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Tree lists directory contents as an indented tree, as tree(1) 2.x does
// without a terminal (no colours, UTF-8 line drawing).
//
//	tree [-adfF] [-L LEVEL] [--noreport] [DIRECTORY]...
func Tree(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short:   "adfFL:Cnrt",
		Long:    []getopt.Long{{"charset=", "charset"}, {"dirsfirst", "dirsfirst"}, {"noreport", "noreport"}},
		Partial: map[string]bool{"C": true, "r": true, "t": true, "dirsfirst": true, "charset": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	t := &treeWalker{inv: inv, level: -1}
	noReport := false
	for _, o := range opts {
		switch o.Name {
		case "a":
			t.all = true
		case "d":
			t.dirsOnly = true
		case "f":
			t.fullPath = true
		case "F":
			t.classify = true
		case "L":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 1 {
				fmt.Fprintf(inv.Stderr, "tree: Invalid level, must be greater than 0.\n")
				return 1
			}
			t.level = n
		case "noreport":
			noReport = true
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	t.w = bufio.NewWriter(inv.Stdout)
	status := 0
	for _, op := range operands {
		p := inv.Abs(op)
		fi, err := inv.FS.Stat(p)
		if err != nil || !fi.IsDir() {
			msg := "error opening dir"
			if err == nil {
				msg = "error opening dir"
			}
			fmt.Fprintf(t.w, "%s  [%s]\n", op, msg)
			status = 2
			if err == nil {
				t.files++
			}
			continue
		}
		t.w.WriteString(op + "\n")
		if err := t.walk(op, p, "", 1); err != nil {
			return 1
		}
	}
	if !noReport {
		ds := "directories"
		if t.dirs == 1 {
			ds = "directory"
		}
		if t.dirsOnly {
			fmt.Fprintf(t.w, "\n%d %s\n", t.dirs, ds)
		} else {
			fs := "files"
			if t.files == 1 {
				fs = "file"
			}
			fmt.Fprintf(t.w, "\n%d %s, %d %s\n", t.dirs, ds, t.files, fs)
		}
	}
	if t.w.Flush() != nil {
		return 1
	}
	return status
}

type treeWalker struct {
	inv                               *command.Invocation
	w                                 *bufio.Writer
	all, dirsOnly, fullPath, classify bool
	level                             int
	dirs, files                       int
}

func (t *treeWalker) walk(name, p, indent string, depth int) error {
	if t.level > 0 && depth > t.level {
		return nil
	}
	ents, err := t.inv.FS.ReadDir(p)
	if err != nil {
		return nil
	}
	var keep []command.FileInfo
	for _, e := range ents {
		if !t.all && strings.HasPrefix(e.Name, ".") {
			continue
		}
		isDir := e.IsDir()
		if isSymlink(e) {
			if fi, err := t.inv.FS.Stat(path.Join(p, e.Name)); err == nil && fi.IsDir() {
				isDir = true
			}
		}
		if t.dirsOnly && !isDir {
			continue
		}
		keep = append(keep, e)
	}
	if err := t.inv.Sys.Charge(int64(len(keep)) * 10); err != nil {
		return err
	}
	for i, e := range keep {
		branch, next := "├── ", "│   "
		if i == len(keep)-1 {
			branch, next = "└── ", "    "
		}
		shown := e.Name
		if t.fullPath {
			shown = strings.TrimSuffix(name, "/") + "/" + e.Name
		}
		cp := path.Join(p, e.Name)
		if isSymlink(e) {
			target := e.Target
			if target == "" {
				target, _ = t.inv.FS.Readlink(cp)
			}
			fi, err := t.inv.FS.Stat(cp)
			suffix := ""
			if t.classify && err == nil && fi.IsDir() {
				suffix = "/"
			}
			fmt.Fprintf(t.w, "%s%s%s -> %s%s\n", indent, branch, shown, target, suffix)
			if err == nil && fi.IsDir() {
				t.dirs++
			} else {
				t.files++
			}
			continue
		}
		suffix := ""
		if t.classify {
			switch {
			case e.IsDir():
				suffix = "/"
			case e.Mode.IsRegular() && e.Mode&0o111 != 0:
				suffix = "*"
			}
		}
		fmt.Fprintf(t.w, "%s%s%s%s\n", indent, branch, shown, suffix)
		if e.IsDir() {
			t.dirs++
			if err := t.walk(strings.TrimSuffix(name, "/")+"/"+e.Name, cp, indent+next, depth+1); err != nil {
				return err
			}
		} else {
			t.files++
		}
	}
	return nil
}
