package transfer

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/shellbox/shellbox/lib/machine"
)

// RootName is the tar entry name of the transferred file or directory
// itself; the entries below a directory are named relative to it.
const RootName = "."

// WriteTar writes the file or directory at p as a tar stream. A directory's
// symbolic links must stay inside it; devices, sockets and fifos are
// skipped; hard links are written as separate files. A missing p gives a
// *machine.PathError with NotFound set.
func WriteTar(ctx context.Context, w io.Writer, p string) error {
	return writeTar(ctx, w, p, false)
}

// Check walks what WriteTar would write and reports the error WriteTar
// would give, without reading file contents, so a transfer can be refused
// before anything is sent.
func Check(ctx context.Context, p string) error {
	return writeTar(ctx, io.Discard, p, true)
}

func writeTar(ctx context.Context, w io.Writer, p string, dry bool) error {
	st, err := os.Lstat(p)
	if err != nil {
		return pathErr("read", p, err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return &machine.PathError{Op: "read", Path: p, Reason: "refusing to transfer a symbolic link"}
	}
	tw := tar.NewWriter(w)
	buf := make([]byte, 32<<10)
	if dry {
		tw = tar.NewWriter(io.Discard)
	}
	if st.Mode().IsRegular() {
		if dry {
			return nil
		}
		if err := writeFile(tw, RootName, p, st, buf); err != nil {
			return err
		}
		return tw.Close()
	}
	if !st.IsDir() {
		return &machine.PathError{Op: "read", Path: p, Reason: "not a regular file or directory"}
	}
	err = filepath.WalkDir(p, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return pathErr("read", full, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(p, full)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return pathErr("read", full, err)
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			if dry {
				return nil
			}
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: int64(modeBits(mode)), ModTime: info.ModTime()})
		case mode.IsRegular():
			if dry {
				return nil
			}
			return writeFile(tw, name, full, info, buf)
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(full)
			if err != nil {
				return pathErr("read", full, err)
			}
			if !linkInside(name, target) {
				return &machine.PathError{Op: "read", Path: full, Reason: fmt.Sprintf("symbolic link to %q points outside the transferred tree", target)}
			}
			if dry {
				return nil
			}
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777, ModTime: info.ModTime()})
		}
		return nil // devices, fifos and sockets are not transferred
	})
	if err != nil {
		return err
	}
	return tw.Close()
}

func writeFile(tw *tar.Writer, name, full string, info fs.FileInfo, buf []byte) error {
	f, err := os.Open(full)
	if err != nil {
		return pathErr("read", full, err)
	}
	defer f.Close()
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: info.Size(), Mode: int64(modeBits(info.Mode())), ModTime: info.ModTime()}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	n, err := io.CopyBuffer(tw, io.LimitReader(f, info.Size()), buf)
	if err != nil {
		return err
	}
	if n != info.Size() {
		return fmt.Errorf("transfer: %s shrank while it was read", full)
	}
	return nil
}

// ExtractOptions tune Extract.
type ExtractOptions struct {
	// MaxBytes, when positive, bounds the total size of the regular files.
	MaxBytes int64
}

// Extract unpacks a stream made by WriteTar at target: a file stream
// replaces target atomically, a directory stream merges into target
// (created when missing). Entry names must be relative and stay inside
// target, symbolic links may only point inside target, and existing
// symbolic links under target are never followed out of it.
func Extract(ctx context.Context, r io.Reader, target string, opts ExtractOptions) error {
	tr := tar.NewReader(r)
	hdr, err := tr.Next()
	if err != nil {
		return fmt.Errorf("transfer: reading the archive: %w", err)
	}
	if hdr.Name != RootName && hdr.Name != RootName+"/" {
		return fmt.Errorf("transfer: the archive does not start with %q", RootName)
	}
	switch hdr.Typeflag {
	case tar.TypeReg:
		if opts.MaxBytes > 0 && hdr.Size > opts.MaxBytes {
			return &machine.DownloadLimitExceeded{Path: target, Limit: opts.MaxBytes}
		}
		if err := WriteFileAtomic(ctx, tr, target, fs.FileMode(hdr.Mode), 0); err != nil {
			return err
		}
		if _, err := tr.Next(); err != io.EOF {
			return fmt.Errorf("transfer: a file archive holds more than one entry")
		}
		return nil
	case tar.TypeDir:
	default:
		return fmt.Errorf("transfer: unsupported archive root type %q", hdr.Typeflag)
	}
	if err := mkdirTarget(target); err != nil {
		return err
	}
	root, err := os.OpenRoot(target)
	if err != nil {
		return pathErr("write", target, err)
	}
	defer root.Close()
	type dirMode struct {
		name string
		mode fs.FileMode
	}
	dirs := []dirMode{{".", fs.FileMode(hdr.Mode)}}
	var total int64
	buf := make([]byte, 32<<10)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("transfer: reading the archive: %w", err)
		}
		name, ok := cleanName(hdr.Name)
		if !ok {
			return &machine.PathError{Op: "write", Path: hdr.Name, Reason: "archive entry escapes the target directory"}
		}
		full := filepath.Join(target, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if st, err := root.Lstat(name); err == nil && !st.IsDir() {
				if err := root.Remove(name); err != nil {
					return pathErr("write", full, err)
				}
			}
			if err := root.MkdirAll(name, 0o700); err != nil {
				return pathErr("write", full, err)
			}
			dirs = append(dirs, dirMode{name, fs.FileMode(hdr.Mode)})
		case tar.TypeReg:
			total += hdr.Size
			if opts.MaxBytes > 0 && total > opts.MaxBytes {
				return &machine.DownloadLimitExceeded{Path: target, Limit: opts.MaxBytes}
			}
			if err := replaceable(root, name, full); err != nil {
				return err
			}
			f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				return pathErr("write", full, err)
			}
			_, err = io.CopyBuffer(f, tr, buf)
			if err == nil {
				err = f.Chmod(fs.FileMode(modeBits(fs.FileMode(hdr.Mode))))
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return pathErr("write", full, err)
			}
		case tar.TypeSymlink:
			if !linkInside(name, hdr.Linkname) {
				return &machine.PathError{Op: "write", Path: full, Reason: fmt.Sprintf("symbolic link to %q points outside the target directory", hdr.Linkname)}
			}
			if err := replaceable(root, name, full); err != nil {
				return err
			}
			if err := root.Symlink(hdr.Linkname, name); err != nil {
				return pathErr("write", full, err)
			}
		case tar.TypeLink:
			old, ok := cleanName(hdr.Linkname)
			if !ok {
				return &machine.PathError{Op: "write", Path: full, Reason: "hard link escapes the target directory"}
			}
			if err := replaceable(root, name, full); err != nil {
				return err
			}
			if err := root.Link(old, name); err != nil {
				return pathErr("write", full, err)
			}
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := root.Chmod(dirs[i].name, modeBits(dirs[i].mode)); err != nil {
			return pathErr("write", filepath.Join(target, dirs[i].name), err)
		}
	}
	return nil
}

// mkdirTarget makes target a directory, refusing a symbolic link there.
func mkdirTarget(target string) error {
	st, err := os.Lstat(target)
	switch {
	case err == nil && st.IsDir():
		return nil
	case err == nil && st.Mode()&fs.ModeSymlink != 0:
		return &machine.PathError{Op: "write", Path: target, Reason: "refusing to follow a symbolic link"}
	case err == nil:
		return &machine.PathError{Op: "write", Path: target, Reason: "exists and is not a directory"}
	case !errors.Is(err, fs.ErrNotExist):
		return pathErr("write", target, err)
	}
	if err := os.MkdirAll(target, 0o755); err != nil {
		return pathErr("write", target, err)
	}
	return nil
}

// replaceable removes what stands at name unless it is a directory.
func replaceable(root *os.Root, name, full string) error {
	st, err := root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return pathErr("write", full, err)
	}
	if st.IsDir() {
		return &machine.PathError{Op: "write", Path: full, Reason: "a directory is in the way"}
	}
	if err := root.Remove(name); err != nil {
		return pathErr("write", full, err)
	}
	return nil
}

// cleanName checks an entry name: relative, no "..", not the root.
func cleanName(name string) (string, bool) {
	name = strings.TrimSuffix(name, "/")
	if name == "" || path.IsAbs(name) {
		return "", false
	}
	clean := path.Clean(name)
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "", false
		}
	}
	return clean, true
}

// linkInside says whether a symbolic link at name (relative to the tree)
// with the given target resolves inside the tree.
func linkInside(name, target string) bool {
	if target == "" || path.IsAbs(target) {
		return false
	}
	resolved := path.Join(path.Dir(name), target)
	return resolved != ".." && !strings.HasPrefix(resolved, "../")
}

func modeBits(m fs.FileMode) fs.FileMode {
	bits := m.Perm()
	if m&fs.ModeSticky != 0 {
		bits |= fs.ModeSticky
	}
	if m&fs.ModeSetuid != 0 {
		bits |= fs.ModeSetuid
	}
	if m&fs.ModeSetgid != 0 {
		bits |= fs.ModeSetgid
	}
	return bits
}

// pathErr converts a filesystem error into a *machine.PathError.
func pathErr(op, p string, err error) error {
	var pe *machine.PathError
	if errors.As(err, &pe) {
		return err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &machine.PathError{Op: op, Path: p, Reason: "no such file or directory", NotFound: true}
	case strings.Contains(err.Error(), "escapes"):
		return &machine.PathError{Op: op, Path: p, Reason: "refusing to follow a symbolic link out of the target directory"}
	case errors.Is(err, fs.ErrPermission):
		return &machine.PathError{Op: op, Path: p, Reason: "permission denied"}
	}
	return fmt.Errorf("transfer: %s %s: %w", op, p, err)
}
