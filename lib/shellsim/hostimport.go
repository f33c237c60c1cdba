package shellsim

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
	"github.com/shellbox/shellbox/lib/transfer"
)

// HostEntry is one node of a host tree read for import: a directory or a
// regular file with its mode bits, or (with KeepLinks) a symbolic link.
// Rel is slash-separated, "." for the root.
type HostEntry struct {
	Rel  string
	Dir  bool
	Mode fs.FileMode
	Data []byte
	Link string // a symbolic link's target
}

const hostModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// HostImportOptions tune ReadHostTree.
type HostImportOptions struct {
	// SkipDirs are directory names not imported (with their contents).
	SkipDirs []string
	// MaxFiles bounds the number of files; 0 means no bound.
	MaxFiles int
	// MaxBytes bounds the total file bytes read (the disk limit, so that a
	// huge host tree is refused before it is read into memory); 0 means no
	// bound.
	MaxBytes int64
	// KeepLinks imports the symbolic links of a tree whose targets stay
	// inside it (as the other backends' uploads do); links leaving it are
	// still refused, and their targets are never read.
	KeepLinks bool
}

// MountOptions are the trusted-ingest rules of --root and Mount: at most
// 10,000 files; .git, .venv, venv, target, node_modules and __pycache__
// skipped.
var MountOptions = HostImportOptions{
	SkipDirs: []string{".git", ".venv", "venv", "target", "node_modules", "__pycache__"},
	MaxFiles: 10000,
}

// MountResult says what an import copied.
type MountResult struct {
	Files              int      `json:"files"`
	SkippedDirectories []string `json:"skipped_directories"`
}

// ReadHostTree reads a host file or directory for a trusted import. It
// refuses symbolic links and special files (nothing outside the tree is
// ever read) with a *machine.PathError; a missing source is NotFound; more
// than maxBytes (when positive) of file data fails before it is read.
func ReadHostTree(source string, maxBytes int64) ([]HostEntry, error) {
	entries, _, err := ReadHostTreeWith(source, HostImportOptions{MaxBytes: maxBytes})
	return entries, err
}

// ReadHostTreeWith is ReadHostTree with options; it also returns the
// skipped directories (slash paths relative to source).
func ReadHostTreeWith(source string, opts HostImportOptions) ([]HostEntry, []string, error) {
	var skipped []string
	files := 0
	var total int64
	fi, err := os.Lstat(source)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, &machine.PathError{Op: "import", Path: source, Reason: "no such file or directory", NotFound: true}
		}
		return nil, nil, &machine.PathError{Op: "import", Path: source, Reason: err.Error()}
	}
	var out []HostEntry
	add := func(p, rel string, fi fs.FileInfo) error {
		switch {
		case fi.IsDir():
			out = append(out, HostEntry{Rel: rel, Dir: true, Mode: fi.Mode() & hostModeBits})
		case fi.Mode().IsRegular():
			files++
			if opts.MaxFiles > 0 && files > opts.MaxFiles {
				return &machine.PathError{Op: "import", Path: source, Reason: fmt.Sprintf("more than %d files", opts.MaxFiles)}
			}
			total += fi.Size()
			if opts.MaxBytes > 0 && total > opts.MaxBytes {
				return fmt.Errorf("import %s: %w (the files exceed the %d-byte disk limit)", source, errNoSpace, opts.MaxBytes)
			}
			data, err := readNoFollow(p, fi.Size())
			if err != nil {
				return &machine.PathError{Op: "import", Path: p, Reason: err.Error()}
			}
			out = append(out, HostEntry{Rel: rel, Mode: fi.Mode() & hostModeBits, Data: data})
		case fi.Mode()&fs.ModeSymlink != 0:
			if !opts.KeepLinks || rel == "." {
				return &machine.PathError{Op: "import", Path: p, Reason: "symbolic links are not imported"}
			}
			target, err := os.Readlink(p)
			if err != nil {
				return &machine.PathError{Op: "import", Path: p, Reason: err.Error()}
			}
			if !transfer.LinkInside(rel, target) {
				return &machine.PathError{Op: "import", Path: p, Reason: fmt.Sprintf("symbolic link to %q points outside the tree", target)}
			}
			out = append(out, HostEntry{Rel: rel, Link: target})
		default:
			return &machine.PathError{Op: "import", Path: p, Reason: "special files are not imported"}
		}
		return nil
	}
	if !fi.IsDir() {
		return out, nil, add(source, ".", fi)
	}
	err = filepath.WalkDir(source, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return &machine.PathError{Op: "import", Path: p, Reason: err.Error()}
		}
		rel, err := filepath.Rel(source, p)
		if err != nil {
			return err
		}
		if d.IsDir() && rel != "." {
			for _, name := range opts.SkipDirs {
				if d.Name() == name {
					skipped = append(skipped, filepath.ToSlash(rel))
					return filepath.SkipDir
				}
			}
		}
		info, err := d.Info()
		if err != nil {
			return &machine.PathError{Op: "import", Path: p, Reason: err.Error()}
		}
		return add(p, filepath.ToSlash(rel), info)
	})
	if err != nil {
		return nil, nil, err
	}
	return out, skipped, nil
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
	type link struct{ p, target string }
	var relinked []link
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
		for _, l := range relinked {
			_ = fsys.Remove(l.p)
			_ = fsys.Symlink(l.target, l.p)
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
		if e.Link != "" {
			// A link replaces a link; anything else is in the way.
			if fi, lerr := fsys.Lstat(p); lerr == nil {
				old, rerr := fsys.Readlink(p)
				if fi.Mode&fs.ModeSymlink == 0 || rerr != nil {
					return fmt.Errorf("import %s: exists and is not a symbolic link", p)
				}
				if err := fsys.Remove(p); err != nil {
					return fmt.Errorf("import %s: %w", p, err)
				}
				relinked = append(relinked, link{p, old})
			} else {
				created = append(created, p)
			}
			if err := fsys.Symlink(e.Link, p); err != nil {
				return fmt.Errorf("import %s: %w", p, err)
			}
			continue
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

var errNoSpace = command.ErrNoSpace

// Mount imports a host file or tree at target (relative paths are
// relative to /work; "" is /work) as a trusted import with MountOptions:
// regular files and directories only, modes kept, within the disk limit,
// all or nothing. The host is not reachable afterwards: the data is copied.
func (e *Environment) Mount(hostPath, target string) (MountResult, error) {
	opts := MountOptions
	opts.MaxBytes = e.rt.Meter.Limits.Disk
	entries, skipped, err := ReadHostTreeWith(hostPath, opts)
	if err != nil {
		return MountResult{}, err
	}
	if target == "" {
		target = "/work"
	}
	size := 0
	for _, en := range entries {
		size += len(en.Data) + len(en.Rel) + 32
	}
	dst := pathJoin("/work", target)
	if err := e.ChangeFS(func(fsys *vfs.FS) error { return PlaceTree(fsys, dst, entries) }, size); err != nil {
		return MountResult{}, err
	}
	res := MountResult{SkippedDirectories: skipped}
	if res.SkippedDirectories == nil {
		res.SkippedDirectories = []string{}
	}
	for _, en := range entries {
		if !en.Dir {
			res.Files++
		}
	}
	return res, nil
}

func pathJoin(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

// readNoFollow reads a regular file without following a symbolic link put
// in its place after the tree was walked, and no more than the size the
// walk saw (what the disk limit was checked against).
func readNoFollow(p string, size int64) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return io.ReadAll(io.LimitReader(f, size))
}
