package shellsimbackend

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// insideTree reports whether a symlink at rel (slash path relative to a
// tree's root) with the given target stays inside that tree.
func insideTree(rel, target string) bool {
	if target == "" || path.IsAbs(target) {
		return false
	}
	joined := path.Join(path.Dir(rel), target)
	return joined != ".." && !strings.HasPrefix(joined, "../")
}

// Upload copies a host file or tree into the machine (modes kept; symlinks
// that stay inside the tree are kept, others and special files refused).
// It is all-or-nothing: on failure (e.g. the disk limit) nothing new stays.
func (m *Machine) Upload(ctx context.Context, source, target string) error {
	if err := m.check(); err != nil {
		return err
	}
	entries, err := shellsim.ReadHostTree(source, m.env.Limits().Disk)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	dst := m.resolve(target)
	size := 0
	for _, e := range entries {
		size += len(e.Data) + len(e.Rel) + 32
	}
	return m.env.ChangeFS(func(fsys *vfs.FS) error { return shellsim.PlaceTree(fsys, dst, entries) }, size)
}

// fsEntry is one node of a guest tree being downloaded.
type fsEntry struct {
	rel    string
	mode   fs.FileMode
	data   []byte
	target string
}

// Download copies a guest file or tree to the host.
func (m *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	if err := m.check(); err != nil {
		return err
	}
	src := m.resolve(source)
	var entries []fsEntry
	var rootInfo fs.FileMode
	err := m.env.WithFS(func(fsys *vfs.FS) error {
		fi, err := fsys.Lstat(src)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return &machine.PathError{Op: "download", Path: source, Reason: "no such file or directory", NotFound: true}
			}
			return &machine.PathError{Op: "download", Path: source, Reason: err.Error()}
		}
		rootInfo = fi.Mode
		if opts.MaxBytes > 0 {
			if !fi.Mode.IsRegular() {
				return &machine.UnsupportedSpec{Backend: Backend, Field: "max_bytes", Reason: "a bounded download must be a regular file"}
			}
			if fi.Size > opts.MaxBytes {
				return &machine.DownloadLimitExceeded{Path: source, Limit: opts.MaxBytes}
			}
		}
		return collect(fsys, src, ".", fi.Mode, fi.Target, &entries)
	})
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if !rootInfo.IsDir() {
		e := entries[0]
		if e.mode&fs.ModeSymlink != 0 {
			return &machine.PathError{Op: "download", Path: source, Reason: "is a symbolic link"}
		}
		return writeAtomic(target, e.data, e.mode&modeBits)
	}
	if err := os.MkdirAll(target, 0o755); err != nil {
		return &machine.PathError{Op: "download", Path: target, Reason: err.Error()}
	}
	root, err := os.OpenRoot(target)
	if err != nil {
		return &machine.PathError{Op: "download", Path: target, Reason: err.Error()}
	}
	defer root.Close()
	for _, e := range entries {
		if e.rel == "." {
			continue
		}
		var err error
		switch {
		case e.mode.IsDir():
			err = root.Mkdir(e.rel, 0o700)
			if errors.Is(err, fs.ErrExist) {
				var fi fs.FileInfo
				if fi, err = root.Lstat(e.rel); err == nil && !fi.IsDir() {
					err = fmt.Errorf("exists and is not a directory")
				}
			}
		case e.mode&fs.ModeSymlink != 0:
			if !insideTree(e.rel, e.target) {
				err = fmt.Errorf("symbolic link to %q points outside the tree", e.target)
				break
			}
			_ = root.Remove(e.rel)
			err = root.Symlink(e.target, e.rel)
		default:
			if fi, lerr := root.Lstat(e.rel); lerr == nil && !fi.Mode().IsRegular() {
				if rerr := root.Remove(e.rel); rerr != nil {
					err = rerr
					break
				}
			}
			err = root.WriteFile(e.rel, e.data, 0o600)
		}
		if err == nil && e.mode&fs.ModeSymlink == 0 {
			err = root.Chmod(e.rel, e.mode&modeBits)
		}
		if err != nil {
			return &machine.PathError{Op: "download", Path: filepath.Join(target, e.rel), Reason: err.Error()}
		}
	}
	return root.Chmod(".", rootInfo&modeBits)
}

func collect(fsys *vfs.FS, p, rel string, mode fs.FileMode, link string, out *[]fsEntry) error {
	e := fsEntry{rel: rel, mode: mode, target: link}
	switch {
	case mode.IsDir():
		*out = append(*out, e)
		kids, err := fsys.ReadDir(p)
		if err != nil {
			return &machine.PathError{Op: "download", Path: p, Reason: err.Error()}
		}
		for _, k := range kids {
			if err := collect(fsys, path.Join(p, k.Name), path.Join(rel, k.Name), k.Mode, k.Target, out); err != nil {
				return err
			}
		}
		return nil
	case mode&fs.ModeSymlink != 0:
		if e.target == "" {
			t, err := fsys.Readlink(p)
			if err != nil {
				return &machine.PathError{Op: "download", Path: p, Reason: err.Error()}
			}
			e.target = t
		}
	case mode.IsRegular():
		data, err := fsys.ReadFile(p)
		if err != nil {
			return &machine.PathError{Op: "download", Path: p, Reason: err.Error()}
		}
		e.data = data
	default:
		return &machine.PathError{Op: "download", Path: p, Reason: "is a special file"}
	}
	*out = append(*out, e)
	return nil
}

// writeAtomic writes data to target through a temporary file in its
// directory and a rename, so target is either untouched or complete.
func writeAtomic(target string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(target)
	// Like a tree download, a file download creates the target's parents.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &machine.PathError{Op: "download", Path: target, Reason: err.Error()}
	}
	tmp, err := os.CreateTemp(dir, ".shellsim-download-*")
	if err != nil {
		return &machine.PathError{Op: "download", Path: target, Reason: err.Error()}
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if fi, serr := os.Lstat(target); serr == nil && fi.IsDir() {
			err = fmt.Errorf("is a directory")
		} else {
			err = os.Rename(name, target)
		}
	}
	if err != nil {
		os.Remove(name)
		return &machine.PathError{Op: "download", Path: target, Reason: err.Error()}
	}
	return nil
}
