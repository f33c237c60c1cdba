package shellsimbackend

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
	"github.com/shellbox/shellbox/lib/transfer"
)

// Upload copies a host file or tree into the machine (modes kept; symlinks
// that stay inside the tree are kept, others and special files refused).
// It is all-or-nothing: on failure (e.g. the disk limit) nothing new stays.
func (m *Machine) Upload(ctx context.Context, source, target string) error {
	if err := m.check(); err != nil {
		return err
	}
	if err := machine.ValidateHostPath("source", source); err != nil {
		return err
	}
	if err := machine.ValidateGuestPath("target", target); err != nil {
		return err
	}
	entries, _, err := shellsim.ReadHostTreeWith(source, shellsim.HostImportOptions{MaxBytes: m.env.Limits().Disk, KeepLinks: true})
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
	path   string // in the guest
	rel    string
	mode   fs.FileMode
	size   int64
	target string
}

// Download copies a guest file or tree to the host through
// transfer.Extract, like every backend: opts bound the total bytes of the
// files (see transfer.Bound), the host keeps its disk reserve, setuid bits
// are stripped, links must stay inside the tree and target is left
// untouched on failure. Special files inside a tree are skipped. A file's
// data is copied out of the simulation only once Extract has accepted its
// header, so a refused 200 MB file costs no host memory.
func (m *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	if err := m.check(); err != nil {
		return err
	}
	if err := machine.ValidateGuestPath("source", source); err != nil {
		return err
	}
	if err := machine.ValidateHostPath("target", target); err != nil {
		return err
	}
	src := m.resolve(source)
	var entries []fsEntry
	err := m.env.WithFS(func(fsys *vfs.FS) error {
		fi, err := fsys.Lstat(src)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return &machine.PathError{Op: "download", Path: source, Reason: "no such file or directory", NotFound: true}
			}
			return &machine.PathError{Op: "download", Path: source, Reason: err.Error()}
		}
		switch {
		case fi.Mode&fs.ModeSymlink != 0:
			return &machine.PathError{Op: "download", Path: source, Reason: "is a symbolic link"}
		case !fi.Mode.IsDir() && !fi.Mode.IsRegular():
			return &machine.PathError{Op: "download", Path: source, Reason: "is a special file"}
		}
		return collect(fsys, src, ".", fi, &entries)
	})
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(m.writeEntries(pw, entries)) }()
	err = transfer.Extract(ctx, pr, target, transfer.ForDownload(opts))
	pr.CloseWithError(errors.New("download abandoned"))
	return err
}

// writeEntries writes a collected tree as the tar stream Extract reads.
func (m *Machine) writeEntries(w io.Writer, entries []fsEntry) error {
	tw := tar.NewWriter(w)
	for _, e := range entries {
		h := &tar.Header{Name: e.rel, Mode: transfer.TarMode(e.mode)}
		switch {
		case e.mode.IsDir():
			h.Typeflag = tar.TypeDir
			h.Name += "/"
		case e.mode&fs.ModeSymlink != 0:
			h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, e.target, 0o777
		default:
			h.Typeflag, h.Size = tar.TypeReg, e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		var data []byte
		err := m.env.WithFS(func(fsys *vfs.FS) error {
			var err error
			data, err = fsys.ReadFile(e.path)
			return err
		})
		if err != nil {
			return &machine.PathError{Op: "download", Path: e.path, Reason: err.Error()}
		}
		if int64(len(data)) != e.size {
			return fmt.Errorf("shellsim: %s changed while it was downloaded", e.path)
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	return tw.Close()
}

// collect appends the node at p and, for a directory, everything below it.
func collect(fsys *vfs.FS, p, rel string, fi command.FileInfo, out *[]fsEntry) error {
	e := fsEntry{path: p, rel: rel, mode: fi.Mode, size: fi.Size, target: fi.Target}
	switch {
	case fi.Mode.IsDir():
		*out = append(*out, e)
		kids, err := fsys.ReadDir(p)
		if err != nil {
			return &machine.PathError{Op: "download", Path: p, Reason: err.Error()}
		}
		for _, k := range kids {
			if err := collect(fsys, path.Join(p, k.Name), path.Join(rel, k.Name), k, out); err != nil {
				return err
			}
		}
		return nil
	case fi.Mode&fs.ModeSymlink != 0:
		if e.target == "" {
			t, err := fsys.Readlink(p)
			if err != nil {
				return &machine.PathError{Op: "download", Path: p, Reason: err.Error()}
			}
			e.target = t
		}
	case !fi.Mode.IsRegular():
		return nil // fifos and devices are not transferred
	}
	*out = append(*out, e)
	return nil
}
