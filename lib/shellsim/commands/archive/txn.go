package archive

import (
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Bounds from the reference implementation.
const (
	maxArchive  = 16 << 20 // bytes of archive input
	maxEntries  = 4096
	maxExpanded = 16 << 20 // bytes of decompressed output
)

// txn records what an extraction changed so it can be undone.
type txn struct {
	fs      command.FS
	created []string             // paths created, in order
	saved   map[string]savedFile // paths overwritten, with their old state
}

type savedFile struct {
	data  []byte
	mode  fs.FileMode
	mtime time.Time
	link  string
}

func newTxn(f command.FS) *txn { return &txn{fs: f, saved: map[string]savedFile{}} }

// prepare makes room for a new node at p: it records an existing file (or
// symlink) so it can be restored, removes it, and creates missing parent
// directories.
func (t *txn) prepare(p string) error {
	if err := t.mkdirAll(path.Dir(p)); err != nil {
		return err
	}
	fi, err := t.fs.Lstat(p)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return &fs.PathError{Op: "open", Path: p, Err: command.ErrIsDir}
	}
	if _, done := t.saved[p]; !done && !t.isCreated(p) {
		s := savedFile{mode: fi.Mode, mtime: fi.ModTime}
		if fi.Mode&fs.ModeSymlink != 0 {
			s.link = fi.Target
		} else if s.data, err = t.fs.ReadFile(p); err != nil {
			return err
		}
		t.saved[p] = s
	}
	return t.fs.Remove(p)
}

func (t *txn) isCreated(p string) bool {
	for _, c := range t.created {
		if c == p {
			return true
		}
	}
	return false
}

// mkdirAll creates p and its parents, recording the ones it made.
func (t *txn) mkdirAll(p string) error {
	fi, err := t.fs.Stat(p)
	if err == nil {
		if !fi.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: p, Err: command.ErrNotDir}
		}
		return nil
	}
	if p == "/" {
		return err
	}
	if err := t.mkdirAll(path.Dir(p)); err != nil {
		return err
	}
	if err := t.fs.Mkdir(p, 0o755); err != nil {
		return err
	}
	t.created = append(t.created, p)
	return nil
}

func (t *txn) writeFile(p string, data []byte, mode fs.FileMode) error {
	if err := t.prepare(p); err != nil {
		return err
	}
	// Recorded first: a write that fails half way may leave the file.
	t.created = append(t.created, p)
	if err := t.fs.WriteFile(p, data, mode); err != nil {
		return err
	}
	return t.fs.Chmod(p, mode)
}

func (t *txn) symlink(target, p string) error {
	if err := t.prepare(p); err != nil {
		return err
	}
	if err := t.fs.Symlink(target, p); err != nil {
		return err
	}
	t.created = append(t.created, p)
	return nil
}

func (t *txn) link(old, p string) error {
	if err := t.prepare(p); err != nil {
		return err
	}
	if err := t.fs.Link(old, p); err != nil {
		return err
	}
	t.created = append(t.created, p)
	return nil
}

// rollback undoes every change, newest first.
func (t *txn) rollback() {
	for i := len(t.created) - 1; i >= 0; i-- {
		p := t.created[i]
		if fi, err := t.fs.Lstat(p); err == nil && fi.IsDir() {
			t.fs.Remove(p)
		} else {
			t.fs.Remove(p)
		}
	}
	for p, s := range t.saved {
		if s.mode&fs.ModeSymlink != 0 {
			t.fs.Symlink(s.link, p)
			continue
		}
		if t.fs.WriteFile(p, s.data, s.mode.Perm()) == nil {
			t.fs.Chmod(p, s.mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
			t.fs.Chtimes(p, s.mtime)
		}
	}
}

// safeName cleans an archive member name. It returns the name relative to
// the extraction root, whether a leading "/" was removed, and false when
// the name has a ".." component (it would leave the root).
func safeName(name string) (string, bool, bool) {
	stripped := false
	for strings.HasPrefix(name, "/") {
		name = name[1:]
		stripped = true
	}
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			return "", stripped, false
		}
	}
	return path.Clean("/" + name)[1:], stripped, true
}

// linkInside reports whether a symlink at member path rel with target
// stays inside the extraction root.
func linkInside(rel, target string) bool {
	if path.IsAbs(target) {
		return false
	}
	depth := strings.Count(path.Dir("/"+rel), "/")
	if path.Dir("/"+rel) == "/" {
		depth = 0
	}
	for _, c := range strings.Split(target, "/") {
		switch c {
		case "..":
			depth--
			if depth < 0 {
				return false
			}
		case ".", "":
		default:
			depth++
		}
	}
	return true
}
