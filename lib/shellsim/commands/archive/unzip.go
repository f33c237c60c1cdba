package archive

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"
	"io/fs"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// unzip - list, test and extract zip archives
//
//	unzip [-l] [-t] [-p] [-o | -n] [-q] [-d DIR] ARCHIVE [MEMBER...]
//
// Names with ".." components or a leading "/" are cleaned with a warning,
// as Info-ZIP does, so nothing lands outside DIR. Without -o or -n an
// existing file prompts on standard input ([y]es, [n]o, [A]ll, [N]one).
// Extraction is atomic when a write fails (e.g. the disk is full).

var unzipSpec = getopt.Spec{Short: "ltponqd:x:", Status: 10}

// Unzip runs unzip.
func Unzip(inv *command.Invocation) int {
	if inv.Sys.Charge(100) != nil {
		return 1
	}
	opts, args, st, ok := getopt.Parse(inv, &unzipSpec)
	if !ok {
		return st
	}
	list, test, pipe, over, never, quiet := false, false, false, false, false, 0
	dir, dirArg := inv.Dir, ""
	var excludes []string
	for _, o := range opts {
		switch o.Name {
		case "l":
			list = true
		case "t":
			test = true
		case "p":
			pipe = true
		case "o":
			over = true
		case "n":
			never = true
		case "q":
			quiet++
		case "d":
			dir, dirArg = inv.Abs(o.Val), o.Val
		case "x":
			excludes = append(excludes, o.Val)
		}
	}
	if len(args) == 0 {
		fmt.Fprintf(inv.Stderr, "UnZip 6.00 of 20 April 2009, by Debian. Original by Info-ZIP.\n\nUsage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]\n")
		return 0
	}
	arch := args[0]
	data, err := inv.FS.ReadFile(inv.Abs(arch))
	if err != nil && !strings.HasSuffix(arch, ".zip") {
		if d2, err2 := inv.FS.ReadFile(inv.Abs(arch + ".zip")); err2 == nil {
			data, err, arch = d2, nil, arch+".zip"
		}
	}
	if err != nil {
		fmt.Fprintf(inv.Stderr, "unzip:  cannot find or open %s, %s.zip or %s.ZIP.\n", args[0], args[0], args[0])
		return 9
	}
	if len(data) > maxArchive {
		fmt.Fprintf(inv.Stderr, "unzip: %s is larger than %d bytes\n", arch, maxArchive)
		return 9
	}
	if inv.Sys.Charge(int64(len(data))) != nil {
		return 1
	}
	release, err := inv.Sys.Reserve(2 * int64(len(data)))
	if err != nil {
		return 1
	}
	defer release()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		fmt.Fprintf(inv.Stdout, "Archive:  %s\n", arch)
		fmt.Fprintf(inv.Stderr, "  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.\nunzip:  cannot find zipfile directory in one of %s or\n        %s.zip, and cannot find %s.ZIP, period.\n", arch, arch, arch)
		return 9
	}
	if len(zr.File) > maxEntries {
		fmt.Fprintf(inv.Stderr, "unzip: %s has more than %d entries\n", arch, maxEntries)
		return 9
	}
	members := args[1:]
	selected := func(name string) bool {
		for _, x := range excludes {
			if globMatch(x, name) {
				return false
			}
		}
		if len(members) == 0 {
			return true
		}
		for _, m := range members {
			if globMatch(m, name) {
				return true
			}
		}
		return false
	}
	var out bytes.Buffer
	say := func(format string, a ...any) {
		if quiet == 0 {
			fmt.Fprintf(&out, format, a...)
		}
	}
	flush := func() bool {
		_, err := inv.Stdout.Write(out.Bytes())
		out.Reset()
		return err == nil
	}
	if list {
		fmt.Fprintf(&out, "Archive:  %s\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n", arch)
		var total uint64
		n := 0
		for _, f := range zr.File {
			if !selected(f.Name) {
				continue
			}
			fmt.Fprintf(&out, "%9d  %s   %s\n", f.UncompressedSize64, f.Modified.Format("2006-01-02 15:04"), f.Name)
			total += f.UncompressedSize64
			n++
		}
		files := "files"
		if n == 1 {
			files = "file"
		}
		fmt.Fprintf(&out, "---------                     -------\n%9d                     %d %s\n", total, n, files)
		if !flush() {
			return 1
		}
		return 0
	}
	if !pipe {
		say("Archive:  %s\n", arch)
	}
	t := newTxn(inv.FS)
	status := 0
	var answers *bufio.Reader
	all, none := over, never
	expanded := 0
	for _, f := range zr.File {
		if !selected(f.Name) {
			continue
		}
		rc, err := f.Open()
		var body []byte
		if err == nil {
			body, err = io.ReadAll(io.LimitReader(rc, int64(maxExpanded-expanded+1)))
			rc.Close()
		}
		expanded += len(body)
		if expanded > maxExpanded {
			t.rollback()
			fmt.Fprintf(inv.Stderr, "unzip: %s expands to more than %d bytes\n", arch, maxExpanded)
			flush()
			return 9
		}
		if err != nil {
			if test {
				say("    testing: %-22s  bad CRC\n", f.Name)
				status = 2
				continue
			}
			t.rollback()
			flush()
			fmt.Fprintf(inv.Stderr, "%s:  bad CRC or data (%s)\n", f.Name, err)
			return 2
		}
		if inv.Sys.Charge(int64(100+len(body))) != nil {
			t.rollback()
			return 1
		}
		if test {
			say("    testing: %-22s   OK\n", f.Name)
			continue
		}
		if pipe {
			out.Write(body)
			continue
		}
		name := f.Name
		if strings.HasPrefix(name, "/") {
			say("warning:  stripped absolute path getopt.Spec from %s\n", name)
			status = 1
		}
		rel, _, safe := safeName(name)
		if !safe {
			var parts []string
			for _, c := range strings.Split(name, "/") {
				if c != ".." && c != "" {
					parts = append(parts, c)
				}
			}
			rel = strings.Join(parts, "/")
			say("warning:  skipped \"../\" path component(s) in %s\n", name)
			status = 1
		}
		if rel == "" {
			continue
		}
		dst := command.Join(dir, rel)
		shown := rel
		if dirArg != "" {
			shown = strings.TrimSuffix(dirArg, "/") + "/" + rel
		}
		if f.Mode().IsDir() || strings.HasSuffix(name, "/") {
			if _, err := inv.FS.Stat(dst); err != nil {
				say("   creating: %s\n", strings.TrimSuffix(shown, "/")+"/")
			}
			if err := t.mkdirAll(dst); err != nil {
				return unzipFail(inv, t, &out, rel, err)
			}
			continue
		}
		if _, err := inv.FS.Lstat(dst); err == nil {
			if none {
				continue
			}
			if !all {
				if answers == nil {
					answers = bufio.NewReader(inv.Stdin)
				}
				if !flush() {
					return 1
				}
				fmt.Fprintf(inv.Stderr, "replace %s? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", shown)
				line, err := answers.ReadString('\n')
				line = strings.TrimSpace(line)
				if err != nil && line == "" {
					fmt.Fprintf(inv.Stderr, " NULL\n(EOF or read error, treating as \"[N]one\" ...)\n")
					none = true
					status = 1
					continue
				}
				switch line {
				case "y", "Y", "yes":
				case "A":
					all = true
				case "N":
					none = true
					continue
				case "r":
					inv.Sys.Partial("unzip rename")
					continue
				default:
					continue
				}
			}
		}
		mode := f.Mode().Perm()
		if mode == 0 {
			mode = 0o644
		}
		if f.Mode()&fs.ModeSymlink != 0 {
			if !linkInside(rel, string(body)) {
				say("warning:  symbolic link %s -> %s leaves the target directory; skipped\n", rel, body)
				status = 1
				continue
			}
			say("    linking: %-22s -> %s \n", shown, body)
			if err := t.symlink(string(body), dst); err != nil {
				return unzipFail(inv, t, &out, rel, err)
			}
			continue
		}
		verb := "  inflating"
		if f.Method == zip.Store {
			verb = " extracting"
		}
		say("%s: %-22s  \n", verb, shown)
		if err := t.writeFile(dst, body, mode); err != nil {
			return unzipFail(inv, t, &out, rel, err)
		}
		inv.FS.Chtimes(dst, f.Modified)
	}
	if test && status == 0 {
		say("No errors detected in compressed data of %s.\n", arch)
	}
	if !flush() {
		return 1
	}
	return status
}

func unzipFail(inv *command.Invocation, t *txn, out *bytes.Buffer, name string, err error) int {
	t.rollback()
	inv.Stdout.Write(out.Bytes())
	msg := command.Message(err)
	if errors.Is(err, command.ErrNoSpace) {
		fmt.Fprintf(inv.Stderr, "%s:  write error (disk full?).  Continue? (y/n/^C) n\n", name)
		return 50
	}
	fmt.Fprintf(inv.Stderr, "error:  cannot create %s\n        %s\n", name, msg)
	return 1
}

// globMatch is unzip's wildcard match, where '*' also crosses '/'.
func globMatch(pat, s string) bool {
	if pat == "" {
		return s == ""
	}
	switch pat[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if globMatch(pat[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && globMatch(pat[1:], s[1:])
	}
	return s != "" && s[0] == pat[0] && globMatch(pat[1:], s[1:])
}
