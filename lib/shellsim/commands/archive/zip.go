package archive

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// zip - package and compress files into a zip archive
//
//	zip [-r] [-q] [-j] [-0..-9] [-d] ARCHIVE[.zip] FILE... [-x PATTERN...]
//
// Entries are deflated when that makes them smaller, otherwise stored.
// Symbolic links are followed. An existing archive is updated: entries of
// the same name are replaced. -d deletes the named entries.

var zipSpec = getopt.Spec{
	Short: "rqj0123456789dmv",
	Long: []getopt.Long{
		{"delete", "d"}, {"junk-paths", "j"}, {"move", "m"}, {"quiet", "q"}, {"recurse-paths", "r"},
	},
	Status: 16,
}

type zipEntry struct {
	name   string
	data   []byte
	mode   fs.FileMode
	mtime  command.FileInfo
	isDir  bool
	method uint16
	comp   []byte // raw deflate stream when method is Deflate
}

// Zip runs zip.
func Zip(inv *command.Invocation) int {
	if inv.Sys.Charge(100) != nil {
		return 15
	}
	// -x takes every following word up to the next option as a pattern
	// (zip -r out.zip dir -x '*.pyc' 'dir/tmp/*').
	var excludes []string
	rest := []string{inv.Args[0]}
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if a == "-x" || a == "--exclude" {
			for i+1 < len(inv.Args) && !strings.HasPrefix(inv.Args[i+1], "-") {
				i++
				excludes = append(excludes, inv.Args[i])
			}
			continue
		}
		rest = append(rest, a)
	}
	sub := *inv
	sub.Args = rest
	opts, args, st, ok := getopt.Parse(&sub, &zipSpec)
	if !ok {
		return st
	}
	recurse, quiet, junk, del := false, false, false, false
	level := 6
	for _, o := range opts {
		switch o.Name {
		case "r":
			recurse = true
		case "q":
			quiet = true
		case "j":
			junk = true
		case "d":
			del = true
		case "m", "v":
			inv.Sys.Partial("zip -" + o.Name)
			fmt.Fprintf(inv.Stderr, "zip error: option -%s is not supported here\n", o.Name)
			return 16
		default:
			level = int(o.Name[0] - '0')
		}
	}
	if len(args) == 0 {
		fmt.Fprintf(inv.Stderr, "zip error: Nothing to do!\n")
		return 12
	}
	arch := args[0]
	if path.Ext(arch) == "" {
		arch += ".zip"
	}
	ap := inv.Abs(arch)
	var existing []*zipEntry
	if old, err := inv.FS.ReadFile(ap); err == nil {
		existing, err = readZip(inv, old)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "\nzip error: Zip file structure invalid (%s)\n", arch)
			return 3
		}
	}
	var out bytes.Buffer
	say := func(format string, a ...any) {
		if !quiet {
			fmt.Fprintf(&out, format, a...)
		}
	}
	if del {
		var keep []*zipEntry
		for _, e := range existing {
			drop := false
			for _, pat := range args[1:] {
				if m, _ := path.Match(pat, e.name); m || e.name == pat {
					drop = true
				}
			}
			if drop {
				say("deleting: %s\n", e.name)
			} else {
				keep = append(keep, e)
			}
		}
		if len(keep) == len(existing) {
			fmt.Fprintf(inv.Stderr, "\nzip error: Nothing to do! (%s)\n", arch)
			inv.Stdout.Write(out.Bytes())
			return 12
		}
		return finishZip(inv, ap, arch, keep, &out)
	}
	entries := existing
	index := map[string]int{}
	for i, e := range entries {
		index[e.name] = i
	}
	added := 0
	status := 0
	var addPath func(name string) bool
	addPath = func(name string) bool {
		p := inv.Abs(name)
		fi, err := inv.FS.Stat(p)
		if err != nil {
			// zip reports to standard output while the archive goes to a file.
			fmt.Fprintf(&out, "\tzip warning: name not matched: %s\n", name)
			return true
		}
		entry := strings.TrimPrefix(path.Clean(name), "/")
		if junk {
			entry = path.Base(entry)
		}
		for _, x := range excludes {
			if globMatch(x, entry) || (fi.IsDir() && globMatch(x, entry+"/")) {
				return true
			}
		}
		e := &zipEntry{name: entry, mode: fi.Mode, mtime: fi}
		if fi.IsDir() {
			if junk {
				return true
			}
			e.name += "/"
			e.isDir = true
		} else {
			e.data, err = inv.FS.ReadFile(p)
			if err != nil {
				fmt.Fprintf(inv.Stderr, "\tzip warning: could not open for reading: %s\n", name)
				status = 18
				return true
			}
		}
		if inv.Sys.Charge(int64(100+len(e.data))) != nil {
			return false
		}
		verb := "  adding"
		if i, ok := index[e.name]; ok {
			verb = "updating"
			entries[i] = e
		} else {
			index[e.name] = len(entries)
			entries = append(entries, e)
		}
		if len(entries) > maxEntries {
			fmt.Fprintf(inv.Stderr, "zip error: more than %d entries\n", maxEntries)
			status = 16
			return false
		}
		added++
		e.method = zip.Store
		pct := 0
		if !e.isDir && level > 0 && len(e.data) > 0 {
			var c bytes.Buffer
			w, _ := flate.NewWriter(&c, level)
			w.Write(e.data)
			w.Close()
			if c.Len() < len(e.data) {
				e.method, e.comp = zip.Deflate, c.Bytes()
				pct = (100*(len(e.data)-c.Len()) + len(e.data)/2) / len(e.data)
			}
		}
		if e.method == zip.Deflate {
			say("%s: %s (deflated %d%%)\n", verb, e.name, pct)
		} else {
			say("%s: %s (stored 0%%)\n", verb, e.name)
		}
		if fi.IsDir() && recurse {
			list, err := inv.FS.ReadDir(p)
			if err != nil {
				return true
			}
			for _, c := range list {
				if !addPath(path.Join(name, c.Name)) {
					return false
				}
			}
		}
		return true
	}
	// zip matches every name before adding anything.
	var names []string
	for _, name := range args[1:] {
		if _, err := inv.FS.Stat(inv.Abs(name)); err != nil {
			fmt.Fprintf(&out, "\tzip warning: name not matched: %s\n", name)
			continue
		}
		names = append(names, name)
	}
	for _, name := range names {
		if !addPath(name) {
			inv.Stdout.Write(out.Bytes())
			if status == 0 {
				status = 15
			}
			return status
		}
	}
	if added == 0 {
		fmt.Fprintf(&out, "\nzip error: Nothing to do! (%s)\n", arch)
		inv.Stdout.Write(out.Bytes())
		return 12
	}
	if st := finishZip(inv, ap, arch, entries, &out); st != 0 {
		return st
	}
	return status
}

func finishZip(inv *command.Invocation, ap, arch string, entries []*zipEntry, out *bytes.Buffer) int {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: e.method, Modified: e.mtime.ModTime.UTC()}
		h.SetMode(e.mode)
		if e.method == zip.Deflate && e.comp != nil {
			h.CRC32 = crc(e.data)
			h.CompressedSize64 = uint64(len(e.comp))
			h.UncompressedSize64 = uint64(len(e.data))
			w, err := zw.CreateRaw(h)
			if err != nil {
				return 15
			}
			w.Write(e.comp)
			continue
		}
		h.Method = zip.Store
		w, err := zw.CreateHeader(h)
		if err != nil {
			return 15
		}
		w.Write(e.data)
	}
	zw.Close()
	release, err := inv.Sys.Reserve(int64(buf.Len()))
	if err != nil {
		return 15
	}
	defer release()
	if buf.Len() > maxArchive {
		fmt.Fprintf(inv.Stderr, "zip error: archive larger than %d bytes\n", maxArchive)
		return 15
	}
	if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
		return 15
	}
	if err := inv.FS.WriteFile(ap, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(inv.Stderr, "zip I/O error: %s\nzip error: Could not create output file (%s)\n", command.Message(err), arch)
		return 15
	}
	return 0
}

// readZip loads an archive's entries, keeping deflated data compressed.
func readZip(inv *command.Invocation, data []byte) ([]*zipEntry, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var out []*zipEntry
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(io.LimitReader(rc, maxExpanded+1))
		rc.Close()
		if err != nil {
			return nil, err
		}
		e := &zipEntry{name: f.Name, data: body, mode: f.Mode(), isDir: strings.HasSuffix(f.Name, "/"), method: zip.Store}
		e.mtime.ModTime = f.Modified
		if f.Method == zip.Deflate {
			var c bytes.Buffer
			w, _ := flate.NewWriter(&c, 6)
			w.Write(body)
			w.Close()
			e.method, e.comp = zip.Deflate, c.Bytes()
		}
		out = append(out, e)
	}
	return out, nil
}
