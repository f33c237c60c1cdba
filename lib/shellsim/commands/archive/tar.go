package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// tar - create, list and extract tape archives
//
//	tar -c [-z] [-v] [-f ARCHIVE] [-C DIR] [--exclude PAT]... FILE...
//	tar -t [-z] [-v] [-f ARCHIVE] [MEMBER...]
//	tar -x [-z] [-v] [-f ARCHIVE] [-C DIR] [-O] [--strip-components N] [MEMBER...]
//
// Old-style bundled options ("tar czf a.tgz dir") work. Gzip input is
// detected without -z. Extraction refuses members with ".." and links that
// point outside the target, stays within 16 MiB and 4,096 entries, and is
// atomic: on any error nothing it created remains. Directory contents are
// archived in name order (GNU uses readdir order).

type tarOpts struct {
	mode                  byte // c, t, x
	gzip, verbose, stdout bool
	file, dir             string
	strip                 int
	excludes              []string
	touch, keepOld        bool
	operands              []string
}

// Tar runs tar.
func Tar(inv *command.Invocation) int {
	if inv.Sys.Charge(100) != nil {
		return 2
	}
	o, st := parseTar(inv)
	if st >= 0 {
		return st
	}
	switch o.mode {
	case 'c':
		return tarCreate(inv, o)
	default:
		return tarRead(inv, o)
	}
}

func tarUsage(inv *command.Invocation, msg string) int {
	fmt.Fprintf(inv.Stderr, "tar: %s\nTry 'tar --help' or 'tar --usage' for more information.\n", msg)
	return 2
}

func parseTar(inv *command.Invocation) (*tarOpts, int) {
	o := &tarOpts{file: "-", dir: inv.Dir}
	args := append([]string(nil), inv.Args[1:]...)
	// Old style: the first word is a bundle of letters without a dash.
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		args[0] = "-" + args[0]
	}
	setMode := func(m byte) int {
		if o.mode != 0 && o.mode != m {
			return tarUsage(inv, "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option")
		}
		o.mode = m
		return -1
	}
	withArg := "fCX"
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.operands = append(o.operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, eq := strings.Cut(a[2:], "=")
			need := func() (string, bool) {
				if eq {
					return val, true
				}
				if i+1 < len(args) {
					i++
					return args[i], true
				}
				return "", false
			}
			switch name {
			case "create":
				if st := setMode('c'); st >= 0 {
					return nil, st
				}
			case "list":
				if st := setMode('t'); st >= 0 {
					return nil, st
				}
			case "extract", "get":
				if st := setMode('x'); st >= 0 {
					return nil, st
				}
			case "gzip", "gunzip", "ungzip":
				o.gzip = true
			case "verbose":
				o.verbose = true
			case "to-stdout":
				o.stdout = true
			case "touch":
				o.touch = true
			case "keep-old-files":
				o.keepOld = true
			case "no-same-owner", "no-same-permissions", "same-permissions", "preserve-permissions",
				"overwrite", "numeric-owner", "sort=name", "no-recursion-off", "recursive-unlink", "unlink-first":
			case "sort":
			case "file", "directory", "strip-components", "strip", "exclude":
				v, ok := need()
				if !ok {
					return nil, tarUsage(inv, fmt.Sprintf("option '--%s' requires an argument", name))
				}
				switch name {
				case "file":
					o.file = v
				case "directory":
					o.dir = inv.Abs(v)
				case "exclude":
					o.excludes = append(o.excludes, v)
				default:
					n, err := strconv.Atoi(v)
					if err != nil || n < 0 {
						fmt.Fprintf(inv.Stderr, "tar: Invalid number of elements: '%s'\n", v)
						return nil, 2
					}
					o.strip = n
				}
			default:
				inv.Sys.Partial("tar --" + name)
				return nil, tarUsage(inv, fmt.Sprintf("unrecognized option '%s'", a))
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			o.operands = append(o.operands, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if strings.IndexByte(withArg, c) >= 0 {
				var v string
				if j+1 < len(a) {
					v = a[j+1:]
				} else if i+1 < len(args) {
					i++
					v = args[i]
				} else {
					return nil, tarUsage(inv, fmt.Sprintf("option requires an argument -- '%c'", c))
				}
				switch c {
				case 'f':
					o.file = v
				case 'C':
					o.dir = inv.Abs(v)
				case 'X':
					inv.Sys.Partial("tar -X")
					return nil, tarUsage(inv, "-X is not supported here")
				}
				break
			}
			var st = -1
			switch c {
			case 'c':
				st = setMode('c')
			case 't':
				st = setMode('t')
			case 'x':
				st = setMode('x')
			case 'z':
				o.gzip = true
			case 'v':
				o.verbose = true
			case 'O':
				o.stdout = true
			case 'm':
				o.touch = true
			case 'k':
				o.keepOld = true
			case 'p', 'o':
			default:
				inv.Sys.Partial("tar -" + string(c))
				if strings.IndexByte("jJarudAZ", c) >= 0 {
					fmt.Fprintf(inv.Stderr, "tar: -%c is not supported here\n", c)
					return nil, 2
				}
				return nil, tarUsage(inv, fmt.Sprintf("invalid option -- '%c'", c))
			}
			if st >= 0 {
				return nil, st
			}
		}
	}
	if o.mode == 0 {
		return nil, tarUsage(inv, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
	}
	if o.mode == 'c' && len(o.operands) == 0 {
		fmt.Fprintf(inv.Stderr, "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n")
		return nil, 2
	}
	return o, -1
}

func (o *tarOpts) excluded(name string) bool {
	for _, pat := range o.excludes {
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
		if ok, _ := path.Match(pat, path.Base(name)); ok {
			return true
		}
	}
	return false
}

func tarCreate(inv *command.Invocation, o *tarOpts) int {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	status := 0
	warnedSlash, warnedDots := false, false
	var listing bytes.Buffer
	count := 0
	users := inv.Sys.Users()
	var add func(name string) bool
	add = func(name string) bool {
		p := command.Join(o.dir, name)
		fi, err := inv.FS.Lstat(p)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "tar: %s: Cannot stat: %s\n", name, command.Message(err))
			status = 2
			return true
		}
		member := name
		for strings.HasPrefix(member, "/") {
			member = member[1:]
			if !warnedSlash {
				fmt.Fprintf(inv.Stderr, "tar: Removing leading `/' from member names\n")
				warnedSlash = true
			}
		}
		if strings.HasPrefix(member, "../") || member == ".." {
			// GNU tar drops every leading "../" (and reports it once).
			for strings.HasPrefix(member, "../") {
				member = member[3:]
			}
			if member == ".." {
				member = ""
			}
			if !warnedDots {
				fmt.Fprintf(inv.Stderr, "tar: Removing leading `../' from member names\n")
				warnedDots = true
			}
		}
		if member == "" {
			member = "."
		}
		if o.excluded(member) {
			return true
		}
		count++
		if count > maxEntries || buf.Len() > maxArchive {
			fmt.Fprintf(inv.Stderr, "tar: archive too large (more than %d entries or %d bytes)\n", maxEntries, maxArchive)
			status = 2
			return false
		}
		h := &tar.Header{Name: member, Mode: int64(fi.Mode.Perm()), ModTime: fi.ModTime, Uid: fi.UID, Gid: fi.GID, Format: tar.FormatGNU}
		if fi.Mode&fs.ModeSetuid != 0 {
			h.Mode |= 0o4000
		}
		if fi.Mode&fs.ModeSetgid != 0 {
			h.Mode |= 0o2000
		}
		if fi.Mode&fs.ModeSticky != 0 {
			h.Mode |= 0o1000
		}
		h.Uname, _ = users.UserName(fi.UID)
		h.Gname, _ = users.GroupName(fi.GID)
		var data []byte
		switch {
		case fi.IsDir():
			h.Typeflag = tar.TypeDir
			if !strings.HasSuffix(h.Name, "/") {
				h.Name += "/"
			}
		case fi.Mode&fs.ModeSymlink != 0:
			h.Typeflag = tar.TypeSymlink
			h.Linkname = fi.Target
		case fi.Mode.IsRegular():
			h.Typeflag = tar.TypeReg
			data, err = inv.FS.ReadFile(p)
			if err != nil {
				fmt.Fprintf(inv.Stderr, "tar: %s: Cannot open: %s\n", name, command.Message(err))
				status = 2
				return true
			}
			h.Size = int64(len(data))
		default:
			fmt.Fprintf(inv.Stderr, "tar: %s: socket ignored\n", name)
			return true
		}
		if inv.Sys.Charge(int64(512+len(data))) != nil {
			return false
		}
		if err := tw.WriteHeader(h); err != nil {
			fmt.Fprintf(inv.Stderr, "tar: %s: %s\n", name, err)
			status = 2
			return true
		}
		tw.Write(data)
		if o.verbose {
			listing.WriteString(h.Name + "\n")
		}
		if fi.IsDir() {
			list, err := inv.FS.ReadDir(p)
			if err != nil {
				fmt.Fprintf(inv.Stderr, "tar: %s: Cannot open: %s\n", name, command.Message(err))
				status = 2
				return true
			}
			for _, c := range list {
				// Not path.Join: "." must give "./a" as in GNU tar.
				child := strings.TrimSuffix(name, "/") + "/" + c.Name
				if name == "/" {
					child = "/" + c.Name
				}
				if !add(child) {
					return false
				}
			}
		}
		return true
	}
	for _, op := range o.operands {
		if !add(op) {
			return 2
		}
	}
	tw.Close()
	release, err := inv.Sys.Reserve(int64(buf.Len()))
	if err != nil {
		return 2
	}
	defer release()
	out := buf.Bytes()
	if o.gzip {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(out)
		zw.Close()
		out = z.Bytes()
	}
	if inv.Sys.Charge(int64(len(out))) != nil {
		return 2
	}
	// The listing goes to stdout, or to stderr when the archive does.
	if o.file == "-" {
		inv.Stderr.Write(listing.Bytes())
		if _, err := inv.Stdout.Write(out); err != nil {
			return 2
		}
	} else {
		if _, err := inv.Stdout.Write(listing.Bytes()); err != nil {
			return 2
		}
		if err := inv.FS.WriteFile(inv.Abs(o.file), out, 0o644); err != nil {
			fmt.Fprintf(inv.Stderr, "tar: %s: Cannot write: %s\n", o.file, command.Message(err))
			fmt.Fprintf(inv.Stderr, "tar: Error is not recoverable: exiting now\n")
			return 2
		}
	}
	if status != 0 {
		fmt.Fprintf(inv.Stderr, "tar: Exiting with failure status due to previous errors\n")
	}
	return status
}

// readArchive loads the archive (gunzipping it when it starts with the
// gzip magic, with or without -z).
func readArchive(inv *command.Invocation, o *tarOpts) ([]byte, int) {
	var data []byte
	var err error
	if o.file == "-" {
		data, err = io.ReadAll(io.LimitReader(inv.Stdin, maxArchive+1))
	} else {
		data, err = inv.FS.ReadFile(inv.Abs(o.file))
	}
	if err != nil {
		fmt.Fprintf(inv.Stderr, "tar: %s: Cannot open: %s\ntar: Error is not recoverable: exiting now\n", o.file, command.Message(err))
		return nil, 2
	}
	if len(data) > maxArchive {
		fmt.Fprintf(inv.Stderr, "tar: %s: archive larger than %d bytes\n", o.file, maxArchive)
		return nil, 2
	}
	if inv.Sys.Charge(int64(len(data))) != nil {
		return nil, 2
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			data, err = io.ReadAll(io.LimitReader(zr, maxExpanded+1))
		}
		if err != nil {
			fmt.Fprintf(inv.Stderr, "gzip: stdin: invalid compressed data--format violated\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n")
			return nil, 2
		}
		if len(data) > maxExpanded {
			fmt.Fprintf(inv.Stderr, "tar: %s: decompressed archive larger than %d bytes\n", o.file, maxExpanded)
			return nil, 2
		}
		if inv.Sys.Charge(int64(len(data))) != nil {
			return nil, 2
		}
	} else if o.gzip {
		fmt.Fprintf(inv.Stderr, "\ngzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n")
		return nil, 2
	}
	return data, -1
}

type tarEntry struct {
	h    *tar.Header
	data []byte
}

func tarRead(inv *command.Invocation, o *tarOpts) int {
	data, st := readArchive(inv, o)
	if st >= 0 {
		return st
	}
	rel, err := inv.Sys.Reserve(int64(len(data)))
	defer rel()
	if err != nil {
		return 2
	}
	var entries []tarEntry
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(entries) == 0 {
				fmt.Fprintf(inv.Stderr, "tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n")
			} else {
				fmt.Fprintf(inv.Stderr, "tar: Unexpected EOF in archive\ntar: Error is not recoverable: exiting now\n")
			}
			return 2
		}
		if len(entries) >= maxEntries {
			fmt.Fprintf(inv.Stderr, "tar: archive has more than %d entries\n", maxEntries)
			return 2
		}
		body, _ := io.ReadAll(tr)
		entries = append(entries, tarEntry{h, body})
	}
	// Member operands select entries (a directory selects its contents).
	found := make([]bool, len(o.operands))
	selected := func(name string) bool {
		if len(o.operands) == 0 {
			return true
		}
		n := strings.TrimSuffix(name, "/")
		for i, op := range o.operands {
			op = strings.TrimSuffix(op, "/")
			if n == op || strings.HasPrefix(n, op+"/") {
				found[i] = true
				return true
			}
		}
		return false
	}
	var out bytes.Buffer
	status := 0
	if o.mode == 't' {
		for _, e := range entries {
			if !selected(e.h.Name) {
				continue
			}
			if o.verbose {
				out.WriteString(verboseLine(e.h))
			} else {
				out.WriteString(e.h.Name + "\n")
			}
		}
	} else {
		st := tarExtract(inv, o, entries, selected, &out)
		if st != 0 {
			inv.Stdout.Write(out.Bytes())
			return st
		}
	}
	if inv.Sys.Charge(int64(out.Len())) != nil {
		return 2
	}
	if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
		return 2
	}
	for i, f := range found {
		if !f {
			fmt.Fprintf(inv.Stderr, "tar: %s: Not found in archive\n", o.operands[i])
			status = 2
		}
	}
	if status != 0 {
		fmt.Fprintf(inv.Stderr, "tar: Exiting with failure status due to previous errors\n")
	}
	return status
}

// verboseLine is one line of tar -tv.
func verboseLine(h *tar.Header) string {
	mode := fs.FileMode(h.Mode).Perm()
	typ := byte('-')
	switch h.Typeflag {
	case tar.TypeDir:
		typ = 'd'
	case tar.TypeSymlink:
		typ = 'l'
	case tar.TypeLink:
		typ = 'h'
	}
	perm := []byte(mode.String())
	perm[0] = typ
	if typ == 'h' {
		perm[0] = '-'
	}
	if h.Mode&0o4000 != 0 {
		perm[3] = sOrS(perm[3], 's')
	}
	if h.Mode&0o2000 != 0 {
		perm[6] = sOrS(perm[6], 's')
	}
	if h.Mode&0o1000 != 0 {
		perm[9] = sOrS(perm[9], 't')
	}
	owner := h.Uname
	if owner == "" {
		owner = strconv.Itoa(h.Uid)
	}
	group := h.Gname
	if group == "" {
		group = strconv.Itoa(h.Gid)
	}
	ug := owner + "/" + group
	size := strconv.FormatInt(h.Size, 10)
	pad := max(19-len(ug)-len(size), 1)
	line := fmt.Sprintf("%s %s%s%s %s %s", perm, ug, strings.Repeat(" ", pad), size, h.ModTime.UTC().Format("2006-01-02 15:04"), h.Name)
	switch h.Typeflag {
	case tar.TypeSymlink:
		line += " -> " + h.Linkname
	case tar.TypeLink:
		line += " link to " + h.Linkname
	}
	return line + "\n"
}

func sOrS(c, s byte) byte {
	if c == 'x' {
		return s
	}
	return s - 'a' + 'A'
}

// stripComponents drops n leading components; ok is false when nothing
// remains.
func stripComponents(name string, n int) (string, bool) {
	if n == 0 {
		return name, true
	}
	parts := strings.Split(strings.TrimSuffix(name, "/"), "/")
	if len(parts) <= n {
		return "", false
	}
	out := strings.Join(parts[n:], "/")
	if strings.HasSuffix(name, "/") {
		out += "/"
	}
	return out, true
}

func tarExtract(inv *command.Invocation, o *tarOpts, entries []tarEntry, selected func(string) bool, out *bytes.Buffer) int {
	// Check every member before touching the filesystem.
	type plan struct {
		e   tarEntry
		rel string
	}
	var plans []plan
	warned := false
	for _, e := range entries {
		if !selected(e.h.Name) {
			continue
		}
		name, ok := stripComponents(e.h.Name, o.strip)
		if !ok {
			continue
		}
		rel, stripped, safe := safeName(name)
		if !safe {
			fmt.Fprintf(inv.Stderr, "tar: %s: Member name contains '..'\ntar: Exiting with failure status due to previous errors\n", e.h.Name)
			return 2
		}
		if stripped && !warned {
			fmt.Fprintf(inv.Stderr, "tar: Removing leading `/' from member names\n")
			warned = true
		}
		switch e.h.Typeflag {
		case tar.TypeSymlink:
			if !linkInside(rel, e.h.Linkname) {
				fmt.Fprintf(inv.Stderr, "tar: %s: link target '%s' leaves the extraction directory; refusing\ntar: Exiting with failure status due to previous errors\n", e.h.Name, e.h.Linkname)
				return 2
			}
		case tar.TypeLink:
			if _, _, ok := safeName(e.h.Linkname); !ok || path.IsAbs(e.h.Linkname) {
				fmt.Fprintf(inv.Stderr, "tar: %s: hard link target '%s' leaves the extraction directory; refusing\ntar: Exiting with failure status due to previous errors\n", e.h.Name, e.h.Linkname)
				return 2
			}
		case tar.TypeReg, tar.TypeDir, tar.TypeGNULongName, tar.TypeXHeader, tar.TypeXGlobalHeader:
		default:
			inv.Sys.Partial("tar special file")
			fmt.Fprintf(inv.Stderr, "tar: %s: special files are not supported here\n", e.h.Name)
			return 2
		}
		if o.verbose {
			out.WriteString(e.h.Name + "\n")
		}
		plans = append(plans, plan{e, rel})
	}
	if o.stdout {
		for _, p := range plans {
			if p.e.h.Typeflag == tar.TypeReg {
				out.Write(p.e.data)
			}
		}
		return 0
	}
	if fi, err := inv.FS.Stat(o.dir); err != nil || !fi.IsDir() {
		msg := "Not a directory"
		if err != nil {
			msg = command.Message(err)
		}
		fmt.Fprintf(inv.Stderr, "tar: %s: Cannot open: %s\ntar: Error is not recoverable: exiting now\n", o.dir, msg)
		return 2
	}
	t := newTxn(inv.FS)
	type dirTime struct {
		p    string
		m    time.Time
		mode fs.FileMode
	}
	var dirs []dirTime
	fail := func(p plan, what string, err error) int {
		t.rollback()
		fmt.Fprintf(inv.Stderr, "tar: %s: %s: %s\ntar: Exiting with failure status due to previous errors\n", p.e.h.Name, what, command.Message(err))
		return 2
	}
	for _, p := range plans {
		if p.rel == "" {
			continue
		}
		dst := command.Join(o.dir, p.rel)
		if inv.Sys.Charge(int64(100+len(p.e.data))) != nil {
			t.rollback()
			return 2
		}
		h := p.e.h
		mode := fs.FileMode(h.Mode).Perm()
		if o.keepOld && h.Typeflag != tar.TypeDir {
			if _, err := inv.FS.Lstat(dst); err == nil {
				t.rollback()
				fmt.Fprintf(inv.Stderr, "tar: %s: Cannot open: File exists\ntar: Exiting with failure status due to previous errors\n", h.Name)
				return 2
			}
		}
		var err error
		switch h.Typeflag {
		case tar.TypeDir:
			err = t.mkdirAll(dst)
			if err == nil {
				dirs = append(dirs, dirTime{dst, h.ModTime, mode})
			}
		case tar.TypeSymlink:
			err = t.symlink(h.Linkname, dst)
		case tar.TypeLink:
			lr, _, _ := safeName(h.Linkname)
			if s, ok := stripComponents(lr, o.strip); ok {
				lr = s
			}
			err = t.link(command.Join(o.dir, lr), dst)
		default:
			err = t.writeFile(dst, p.e.data, mode)
			if err == nil && !o.touch {
				inv.FS.Chtimes(dst, h.ModTime)
			}
		}
		if err != nil {
			what := "Cannot open"
			if errors.Is(err, command.ErrNoSpace) {
				what = "Cannot write"
			}
			return fail(p, what, err)
		}
	}
	// Directory modes and times are set last, as GNU tar does, so that
	// creating their contents does not disturb them.
	for i := len(dirs) - 1; i >= 0; i-- {
		inv.FS.Chmod(dirs[i].p, dirs[i].mode)
		if !o.touch {
			inv.FS.Chtimes(dirs[i].p, dirs[i].m)
		}
	}
	return 0
}
