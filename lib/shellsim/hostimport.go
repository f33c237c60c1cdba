package shellsim

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// HostEntry is one node of a host tree read for import: a directory or a
// regular file with its mode bits. Rel is slash-separated, "." for the
// root.
type HostEntry struct {
	Rel  string
	Dir  bool
	Mode fs.FileMode
	Data []byte
}

const hostModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// ReadHostTree reads a host file or directory for a trusted import. It
// refuses symbolic links and special files (nothing outside the tree is
// ever read) with a *machine.PathError; a missing source is NotFound.
func ReadHostTree(source string) ([]HostEntry, error) {
	fi, err := os.Lstat(source)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &machine.PathError{Op: "import", Path: source, Reason: "no such file or directory", NotFound: true}
		}
		return nil, &machine.PathError{Op: "import", Path: source, Reason: err.Error()}
	}
	var out []HostEntry
	add := func(p, rel string, fi fs.FileInfo) error {
		switch {
		case fi.IsDir():
			out = append(out, HostEntry{Rel: rel, Dir: true, Mode: fi.Mode() & hostModeBits})
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return &machine.PathError{Op: "import", Path: p, Reason: err.Error()}
			}
			out = append(out, HostEntry{Rel: rel, Mode: fi.Mode() & hostModeBits, Data: data})
		case fi.Mode()&fs.ModeSymlink != 0:
			return &machine.PathError{Op: "import", Path: p, Reason: "symbolic links are not imported"}
		default:
			return &machine.PathError{Op: "import", Path: p, Reason: "special files are not imported"}
		}
		return nil
	}
	if !fi.IsDir() {
		return out, add(source, ".", fi)
	}
	err = filepath.WalkDir(source, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return &machine.PathError{Op: "import", Path: p, Reason: err.Error()}
		}
		rel, err := filepath.Rel(source, p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return &machine.PathError{Op: "import", Path: p, Reason: err.Error()}
		}
		return add(p, filepath.ToSlash(rel), info)
	})
	return out, err
}

// PlaceTree writes entries (from ReadHostTree) at target in fsys, all or
// nothing: when anything fails (the disk limit, a file in the way) every
// node it created is removed and the files it replaced are restored.
func PlaceTree(fsys *vfs.FS, target string, entries []HostEntry) (err error) {
	var created []string
	type saved struct {
		p    string
		data []byte
		mode fs.FileMode
	}
	var replaced []saved
	defer func() {
		if err == nil {
			return
		}
		for i := len(created) - 1; i >= 0; i-- {
			_ = fsys.RemoveAll(created[i])
		}
		for _, s := range replaced {
			_ = fsys.WriteFile(s.p, s.data, s.mode)
			_ = fsys.Chmod(s.p, s.mode)
		}
	}()
	mkdirs := func(p string) error {
		var missing []string
		for q := p; q != "/" && q != "."; q = path.Dir(q) {
			if _, err := fsys.Lstat(q); err == nil {
				break
			}
			missing = append(missing, q)
		}
		for i := len(missing) - 1; i >= 0; i-- {
			if err := fsys.Mkdir(missing[i], 0o755); err != nil {
				return err
			}
			created = append(created, missing[i])
		}
		return nil
	}
	for _, e := range entries {
		p := target
		if e.Rel != "." {
			p = path.Join(target, e.Rel)
		}
		if e.Dir {
			if err := mkdirs(p); err != nil {
				return fmt.Errorf("import %s: %w", p, err)
			}
			if fi, err := fsys.Stat(p); err != nil || !fi.IsDir() {
				return fmt.Errorf("import %s: not a directory", p)
			}
			if err := fsys.Chmod(p, e.Mode|0o700); err != nil {
				return fmt.Errorf("import %s: %w", p, err)
			}
			continue
		}
		if err := mkdirs(path.Dir(p)); err != nil {
			return fmt.Errorf("import %s: %w", p, err)
		}
		if fi, lerr := fsys.Lstat(p); lerr == nil {
			if !fi.Mode.IsRegular() {
				return fmt.Errorf("import %s: exists and is not a regular file", p)
			}
			old, rerr := fsys.ReadFile(p)
			if rerr != nil {
				return rerr
			}
			replaced = append(replaced, saved{p, old, fi.Mode & hostModeBits})
		} else {
			created = append(created, p)
		}
		if err := fsys.WriteFile(p, e.Data, e.Mode); err != nil {
			return fmt.Errorf("import %s: %w", p, err)
		}
		if err := fsys.Chmod(p, e.Mode); err != nil {
			return fmt.Errorf("import %s: %w", p, err)
		}
	}
	// Directory modes as on the host, once their contents are written.
	for _, e := range entries {
		if e.Dir {
			p := target
			if e.Rel != "." {
				p = path.Join(target, e.Rel)
			}
			if err := fsys.Chmod(p, e.Mode); err != nil {
				return fmt.Errorf("import %s: %w", p, err)
			}
		}
	}
	return nil
}

// Mount imports a host file or tree at target (relative paths are
// relative to /work) as a trusted import: regular files and directories
// only, modes kept, within the disk limit, all or nothing. The host is not
// reachable afterwards: the data is copied.
func (e *Environment) Mount(hostPath, target string) error {
	entries, err := ReadHostTree(hostPath)
	if err != nil {
		return err
	}
	if target == "" {
		target = "/work"
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return PlaceTree(e.rt.FS, pathJoin("/work", target), entries)
}

func pathJoin(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}
