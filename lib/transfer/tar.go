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
	"syscall"

	"github.com/shellbox/shellbox/lib/machine"
)

// RootName is the tar entry name of the transferred file or directory
// itself; the entries below a directory are named relative to it.
const RootName = "."

// WriteTar writes the file or directory at p as a tar stream. A directory's
// symbolic links must stay inside it (see linkInside); files are read
// through an os.Root without following symbolic links, so nothing outside
// p is ever read even if the tree changes meanwhile; devices, sockets and
// fifos are skipped; a hard link is written as the file's contents;
// setuid, setgid and sticky bits are kept. A missing p gives a
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
	if st.Mode().IsRegular() {
		if dry {
			return nil
		}
		root, err := os.OpenRoot(filepath.Dir(p))
		if err != nil {
			return pathErr("read", p, err)
		}
		defer root.Close()
		if err := writeFile(tw, root, filepath.Base(p), RootName, p, buf); err != nil {
			return err
		}
		return tw.Close()
	}
	if !st.IsDir() {
		return &machine.PathError{Op: "read", Path: p, Reason: "not a regular file or directory"}
	}
	root, err := os.OpenRoot(p)
	if err != nil {
		return pathErr("read", p, err)
	}
	defer root.Close()
	err = fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		full := filepath.Join(p, name)
		if err != nil {
			return pathErr("read", full, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return pathErr("read", full, err)
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			if dry {
				return nil
			}
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: TarMode(mode), ModTime: info.ModTime()})
		case mode.IsRegular():
			if dry {
				return nil
			}
			return writeFile(tw, root, name, name, full, buf)
		case mode&fs.ModeSymlink != 0:
			target, err := root.Readlink(name)
			if err != nil {
				return pathErr("read", full, err)
			}
			if !LinkInside(name, target) {
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

// writeFile sends the regular file rel (inside root) as the entry name.
// It is opened without following a symbolic link and described by the
// opened file, so a file swapped for a link after the walk is refused.
func writeFile(tw *tar.Writer, root *os.Root, rel, name, full string, buf []byte) error {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return &machine.PathError{Op: "read", Path: full, Reason: "became a symbolic link while it was read"}
		}
		return pathErr("read", full, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return pathErr("read", full, err)
	}
	if !info.Mode().IsRegular() {
		return &machine.PathError{Op: "read", Path: full, Reason: "is no longer a regular file"}
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: info.Size(), Mode: TarMode(info.Mode()), ModTime: info.ModTime()}
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

// Extract unpacks a stream made by WriteTar at target: a file stream
// replaces target atomically, a directory stream merges into target
// (created when missing). See the package documentation for what is
// refused; on any error target is left as it was.
func Extract(ctx context.Context, r io.Reader, target string, opts ExtractOptions) error {
	tr := tar.NewReader(r)
	hdr, err := tr.Next()
	if err != nil {
		return fmt.Errorf("transfer: reading the archive: %w", err)
	}
	if hdr.Name != RootName && hdr.Name != RootName+"/" {
		return fmt.Errorf("transfer: the archive does not start with %q", RootName)
	}
	x := &extractor{ctx: ctx, tr: tr, target: target, opts: opts, buf: make([]byte, 32<<10)}
	switch regular(hdr) {
	case tar.TypeReg:
		return x.file(hdr)
	case tar.TypeDir:
		return x.dir(hdr)
	}
	return fmt.Errorf("transfer: unsupported archive root type %q", hdr.Typeflag)
}

type extractor struct {
	ctx    context.Context
	tr     *tar.Reader
	target string
	opts   ExtractOptions
	space  *space
	total  int64 // bytes of regular files so far
	buf    []byte
}

// claim accounts for a regular file of size bytes before it is written.
func (x *extractor) claim(size int64) error {
	if size < 0 {
		return fmt.Errorf("transfer: negative entry size")
	}
	x.total += size
	if x.opts.Bounded && x.total > x.opts.MaxBytes {
		return &machine.DownloadLimitExceeded{Path: x.target, Limit: x.opts.MaxBytes}
	}
	return x.space.claim(size, true)
}

// file writes a one-file archive to target through a temporary file and
// a rename.
func (x *extractor) file(hdr *tar.Header) (err error) {
	if st, err := os.Lstat(x.target); err == nil && st.IsDir() {
		return &machine.PathError{Op: "write", Path: x.target, Reason: "is a directory"}
	}
	dir := filepath.Dir(x.target)
	if x.space, err = newSpace(existingDir(dir), x.target, x.opts.Reserve); err != nil {
		return err
	}
	if err := x.claim(hdr.Size); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return pathErr("write", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".shellbox-download-*")
	if err != nil {
		return pathErr("write", dir, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := x.copy(tmp, hdr.Size); err != nil {
		return err
	}
	if err := tmp.Chmod(modeBits(hdr.FileInfo().Mode(), x.opts.KeepSpecialBits)); err != nil {
		return err
	}
	if _, err := x.tr.Next(); err != io.EOF {
		return fmt.Errorf("transfer: a file archive holds more than one entry")
	}
	if err := tmp.Close(); err != nil {
		return x.space.fullErr(err)
	}
	return os.Rename(tmp.Name(), x.target)
}

// copy writes the current entry's size bytes to f, looking at the free
// space again every recheckEvery bytes.
func (x *extractor) copy(f *os.File, size int64) error {
	for left := size; left > 0; {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		chunk := min(left, recheckEvery)
		if left < size { // the whole size was claimed before the first chunk
			if err := x.space.claim(left, false); err != nil {
				return err
			}
		}
		n, err := io.CopyBuffer(f, ctxReader{x.ctx, io.LimitReader(x.tr, chunk)}, x.buf)
		left -= n
		if err != nil {
			return x.space.fullErr(err)
		}
		if n < chunk {
			return fmt.Errorf("transfer: reading the archive: %w", io.ErrUnexpectedEOF)
		}
	}
	return nil
}

// dir extracts a directory archive into a staging directory and then moves
// it into place: renamed to target when target is missing, merged into it
// otherwise.
func (x *extractor) dir(rootHdr *tar.Header) (err error) {
	merge := false
	switch st, err := os.Lstat(x.target); {
	case err == nil && st.Mode()&fs.ModeSymlink != 0:
		return &machine.PathError{Op: "write", Path: x.target, Reason: "refusing to follow a symbolic link"}
	case err == nil && !st.IsDir():
		return &machine.PathError{Op: "write", Path: x.target, Reason: "exists and is not a directory"}
	case err == nil:
		merge = true
	case !errors.Is(err, fs.ErrNotExist):
		return pathErr("write", x.target, err)
	}
	parent := filepath.Dir(x.target)
	// The target itself when it exists: it may be a mount point.
	if x.space, err = newSpace(existingDir(x.target), x.target, x.opts.Reserve); err != nil {
		return err
	}
	stageIn := parent
	if merge {
		stageIn = x.target
	} else if err := os.MkdirAll(parent, 0o755); err != nil {
		return pathErr("write", parent, err)
	}
	stage, err := os.MkdirTemp(stageIn, ".shellbox-download-*")
	if err != nil {
		return pathErr("write", stageIn, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(stage)
		}
	}()
	root, err := os.OpenRoot(stage)
	if err != nil {
		return pathErr("write", stage, err)
	}
	defer root.Close()
	dirs := map[string]fs.FileMode{".": rootHdr.FileInfo().Mode()}
	if err := x.entries(root, dirs); err != nil {
		return err
	}
	if !merge {
		if err := applyModes(root, dirs, x.opts.KeepSpecialBits); err != nil {
			return err
		}
		if err := os.Rename(stage, x.target); err != nil {
			return pathErr("write", x.target, err)
		}
		return nil
	}
	troot, err := os.OpenRoot(x.target)
	if err != nil {
		return pathErr("write", x.target, err)
	}
	defer troot.Close()
	from := filepath.Base(stage)
	if err := mergeTree(troot, from, ".", true); err != nil {
		return err
	}
	if err := mergeTree(troot, from, ".", false); err != nil {
		return err
	}
	if err := troot.RemoveAll(from); err != nil {
		return pathErr("write", stage, err)
	}
	return applyModes(troot, dirs, x.opts.KeepSpecialBits)
}

// entries extracts every entry after the root into root (a fresh
// directory), recording the directories and their modes in dirs.
func (x *extractor) entries(root *os.Root, dirs map[string]fs.FileMode) error {
	for {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		hdr, err := x.tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("transfer: reading the archive: %w", err)
		}
		name, ok := cleanName(hdr.Name)
		if !ok {
			return &machine.PathError{Op: "write", Path: hdr.Name, Reason: "archive entry escapes the target directory"}
		}
		full := filepath.Join(x.target, name)
		hdr.Typeflag = regular(hdr)
		switch hdr.Typeflag {
		case tar.TypeDir, tar.TypeReg, tar.TypeSymlink, tar.TypeLink:
		default:
			continue // devices, fifos, sockets and unknown types are never created
		}
		if err := x.parents(root, dirs, name, full); err != nil {
			return err
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			if st, err := root.Lstat(name); err == nil && !st.IsDir() {
				if err := root.Remove(name); err != nil {
					return pathErr("write", full, err)
				}
			}
			if _, seen := dirs[name]; !seen {
				if err := x.space.claim(0, true); err != nil {
					return err
				}
			}
			if err := root.Mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
				return pathErr("write", full, err)
			}
			dirs[name] = hdr.FileInfo().Mode()
		case tar.TypeReg:
			if err := x.claim(hdr.Size); err != nil {
				return err
			}
			if err := replaceable(root, name, full); err != nil {
				return err
			}
			f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
			if err != nil {
				return pathErr("write", full, err)
			}
			err = x.copy(f, hdr.Size)
			if err == nil {
				err = f.Chmod(modeBits(hdr.FileInfo().Mode(), x.opts.KeepSpecialBits))
			}
			if cerr := f.Close(); err == nil && cerr != nil {
				err = x.space.fullErr(cerr)
			}
			if err != nil {
				return pathErr("write", full, err)
			}
		case tar.TypeSymlink:
			if !LinkInside(name, hdr.Linkname) {
				return &machine.PathError{Op: "write", Path: full, Reason: fmt.Sprintf("symbolic link to %q points outside the target directory", hdr.Linkname)}
			}
			if err := replaceable(root, name, full); err != nil {
				return err
			}
			if err := x.space.claim(0, true); err != nil {
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
			// Only a regular file from this archive: a link to a symbolic
			// link would resolve from another directory.
			if st, err := root.Lstat(old); err != nil || !st.Mode().IsRegular() {
				return &machine.PathError{Op: "write", Path: full, Reason: fmt.Sprintf("hard link to %q, which is not a regular file extracted before it", hdr.Linkname)}
			}
			if old == name {
				continue
			}
			if err := replaceable(root, name, full); err != nil {
				return err
			}
			if err := root.Link(old, name); err != nil {
				return pathErr("write", full, err)
			}
		}
	}
}

// regular folds the other spellings of a regular file into TypeReg: an
// old GNU sparse file reads as its full contents, holes as zeros.
func regular(hdr *tar.Header) byte {
	switch hdr.Typeflag {
	case tar.TypeGNUSparse, tar.TypeRegA, tar.TypeCont:
		return tar.TypeReg
	}
	return hdr.Typeflag
}

// parents makes sure every directory above name is a real directory of
// this archive (created 0755 when the archive did not list it), so that no
// entry is ever written through a symbolic link.
func (x *extractor) parents(root *os.Root, dirs map[string]fs.FileMode, name, full string) error {
	dir := path.Dir(name)
	if _, ok := dirs[dir]; ok {
		return nil
	}
	cur := ""
	for _, part := range strings.Split(dir, "/") {
		cur = path.Join(cur, part)
		if _, ok := dirs[cur]; ok {
			continue
		}
		_, err := root.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := x.space.claim(0, true); err != nil {
				return err
			}
			if err := root.Mkdir(cur, 0o700); err != nil {
				return pathErr("write", full, err)
			}
			dirs[cur] = 0o755
		case err != nil:
			return pathErr("write", full, err)
		default:
			return &machine.PathError{Op: "write", Path: full, Reason: fmt.Sprintf("archive entry below %q, which is not a directory", cur)}
		}
	}
	return nil
}

// mergeTree moves the staged tree at from into to (both inside root). With
// check set it only looks for conflicts (a directory where the archive has
// something else), so that nothing moves unless everything can.
func mergeTree(root *os.Root, from, to string, check bool) error {
	d, err := root.Open(from)
	if err != nil {
		return pathErr("write", from, err)
	}
	kids, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return pathErr("write", from, err)
	}
	for _, k := range kids {
		src, dst := path.Join(from, k.Name()), path.Join(to, k.Name())
		st, err := root.Lstat(dst)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if !check {
				if err := root.Rename(src, dst); err != nil {
					return pathErr("write", dst, err)
				}
			}
		case err != nil:
			return pathErr("write", dst, err)
		case st.IsDir() && k.IsDir():
			if err := mergeTree(root, src, dst, check); err != nil {
				return err
			}
		case st.IsDir():
			return &machine.PathError{Op: "write", Path: dst, Reason: "a directory is in the way"}
		case !check:
			// A file or a symbolic link (never followed) is replaced.
			if err := root.Remove(dst); err != nil {
				return pathErr("write", dst, err)
			}
			if err := root.Rename(src, dst); err != nil {
				return pathErr("write", dst, err)
			}
		}
	}
	return nil
}

// applyModes gives the archive's directories their modes, deepest first
// (a directory without write permission is finished last).
func applyModes(root *os.Root, dirs map[string]fs.FileMode, keepSpecial bool) error {
	names := make([]string, 0, len(dirs))
	for name := range dirs {
		names = append(names, name)
	}
	depth := func(n string) int {
		if n == "." {
			return -1
		}
		return strings.Count(n, "/")
	}
	// Deepest first; the order among equals does not matter.
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && depth(names[j]) > depth(names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
	for _, name := range names {
		if err := root.Chmod(name, modeBits(dirs[name], keepSpecial)); err != nil {
			return pathErr("write", name, err)
		}
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
	if name == "" || path.IsAbs(name) || strings.ContainsRune(name, 0) {
		return "", false
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return "", false
		}
	}
	clean := path.Clean(name)
	if clean == "." {
		return "", false
	}
	return clean, true
}

// LinkInside says whether a symbolic link at name (relative to the tree)
// with the given target stays inside the tree however the tree's other
// links resolve: the target is relative, climbs ("..") only before its
// first named component, and no higher than the link's own directory.
// (A lexical check alone is not enough: "l/.." leaves the tree when l is a
// link to ".".) Entry parents are real directories, so the climb ends in
// the tree and the rest only descends.
func LinkInside(name, target string) bool {
	if target == "" || path.IsAbs(target) || strings.ContainsRune(target, 0) {
		return false
	}
	ups, named := 0, false
	for _, part := range strings.Split(target, "/") {
		switch part {
		case "", ".":
		case "..":
			if named {
				return false
			}
			ups++
		default:
			named = true
		}
	}
	return ups <= strings.Count(path.Clean(name), "/")
}

// modeBits keeps the permission bits, and the setuid, setgid and sticky
// bits only when keepSpecial is set.
func modeBits(m fs.FileMode, keepSpecial bool) fs.FileMode {
	bits := m.Perm()
	if !keepSpecial {
		return bits
	}
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

// TarMode is m's permission, setuid, setgid and sticky bits as a tar
// header holds them (Unix bits, not Go's fs.FileMode bits).
func TarMode(m fs.FileMode) int64 {
	bits := int64(m.Perm())
	if m&fs.ModeSetuid != 0 {
		bits |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		bits |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		bits |= 0o1000
	}
	return bits
}

// pathErr converts a filesystem error into a *machine.PathError.
func pathErr(op, p string, err error) error {
	var pe *machine.PathError
	var se *SpaceError
	var le *machine.DownloadLimitExceeded
	if errors.As(err, &pe) || errors.As(err, &se) || errors.As(err, &le) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
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

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
