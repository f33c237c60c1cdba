package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/transfer"
)

// Transfers of single files between the host and a HostImage machine's own
// root directory go straight through the host's file system, without the
// helper and its socket (issue 14: a 10 MiB round trip took twice as long
// as marin-shellbox's direct copy). Safety rests on openat2: the parent
// directory is resolved beneath the root with no symbolic link followed
// (a guest may plant any link) and without crossing a mount, and the file
// is then opened relative to it with O_NOFOLLOW. Whatever this path does
// not handle (a directory, a missing parent, a link, a path the sandbox
// mounts over) goes through the helper as before, so semantics and errors
// stay the helper's.

// sandboxMounts are guest prefixes the sandbox mounts over its root: the
// host root directory does not show what the sandbox sees there.
var sandboxMounts = []string{"/dev", "/proc", "/sys", "/etc", "/.shellbox"}

var errNotDirect = errors.New("not a direct transfer")

// uploadSeq names temporary upload files apart.
var uploadSeq atomic.Uint64

// directParent opens, O_PATH, the root directory's copy of p's parent, or
// returns errNotDirect.
func (m *Machine) directParent(p string) (*os.File, string, error) {
	p = path.Clean(p)
	if !m.plan.direct || p == "/" || underAny(p, sandboxMounts) || underAny(p, m.plan.readOnly) || underAny(p, m.plan.links) ||
		underAny(p, m.plan.overlaid) {
		return nil, "", errNotDirect
	}
	root, err := os.Open(m.Root())
	if err != nil {
		return nil, "", errNotDirect
	}
	defer root.Close()
	rel := strings.TrimPrefix(path.Dir(p), "/")
	if rel == "" {
		rel = "."
	}
	fd, err := unix.Openat2(int(root.Fd()), rel, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	})
	if err != nil {
		return nil, "", errNotDirect
	}
	return os.NewFile(uintptr(fd), path.Dir(p)), path.Base(p), nil
}

// uploadDirect copies the regular file source to target, atomically, with
// source's mode; errNotDirect when the helper must do it.
func (m *Machine) uploadDirect(source, target string) error {
	st, err := os.Lstat(source)
	if err != nil || !st.Mode().IsRegular() {
		return errNotDirect
	}
	dir, name, err := m.directParent(target)
	if err != nil {
		return err
	}
	defer dir.Close()
	var existing unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), name, &existing, unix.AT_SYMLINK_NOFOLLOW); err == nil && existing.Mode&unix.S_IFMT != unix.S_IFREG {
		return errNotDirect // a directory or link there: the helper says what happens
	}
	src, err := os.OpenFile(source, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return errNotDirect
	}
	defer src.Close()
	tmpName := fmt.Sprintf(".shellbox-upload-%d", uploadSeq.Add(1))
	fd, err := unix.Openat(int(dir.Fd()), tmpName, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return errNotDirect
	}
	dst := os.NewFile(uintptr(fd), tmpName)
	fail := func(err error) error {
		dst.Close()
		unix.Unlinkat(int(dir.Fd()), tmpName, 0)
		return err
	}
	// io.Copy between two files uses copy_file_range: no copy through user space.
	if _, err := io.Copy(dst, src); err != nil {
		return fail(&machine.PathError{Op: "write", Path: target, Reason: err.Error()})
	}
	if err := dst.Chmod(st.Mode().Perm() | st.Mode()&(os.ModeSetuid|os.ModeSetgid|os.ModeSticky)); err != nil {
		return fail(err)
	}
	if err := dst.Close(); err != nil {
		unix.Unlinkat(int(dir.Fd()), tmpName, 0)
		return &machine.PathError{Op: "write", Path: target, Reason: err.Error()}
	}
	if err := replaceAt(int(dir.Fd()), tmpName, name); err != nil {
		unix.Unlinkat(int(dir.Fd()), tmpName, 0)
		return errNotDirect
	}
	return nil
}

// downloadDirect copies the regular file source to target on the host with
// a download's guarantees (its byte bound, the host's disk reserve, target
// replaced atomically and untouched on failure, special mode bits
// dropped), reading it straight from the root directory; errNotDirect when
// the helper must do it.
func (m *Machine) downloadDirect(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	if st, err := os.Lstat(target); err == nil && st.IsDir() {
		return errNotDirect // the helper's path says what happens to a directory target
	}
	dir, name, err := m.directParent(source)
	if err != nil {
		return err
	}
	defer dir.Close()
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return errNotDirect
	}
	f := os.NewFile(uintptr(fd), source)
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return errNotDirect
	}
	extract := transfer.ForDownload(opts)
	if extract.Bounded && st.Size() > extract.MaxBytes {
		return &machine.DownloadLimitExceeded{Path: target, Limit: extract.MaxBytes}
	}
	if err := transfer.ClaimSpace(target, st.Size(), extract); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return &machine.PathError{Op: "write", Path: filepath.Dir(target), Reason: err.Error()}
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), ".shellbox-download-*")
	if err != nil {
		return &machine.PathError{Op: "write", Path: target, Reason: err.Error()}
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	// A guest may grow the file meanwhile: copy exactly the size checked
	// (io.Copy between files uses copy_file_range).
	n, err := io.Copy(tmp, io.LimitReader(f, st.Size()))
	if err != nil {
		return fail(&machine.PathError{Op: "write", Path: target, Reason: err.Error()})
	}
	if n < st.Size() {
		return fail(&machine.PathError{Op: "read", Path: source, Reason: "the file shrank while it was read"})
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return &machine.PathError{Op: "write", Path: target, Reason: err.Error()}
	}
	if err := replaceAt(unix.AT_FDCWD, tmp.Name(), target); err != nil {
		os.Remove(tmp.Name())
		return &machine.PathError{Op: "write", Path: target, Reason: err.Error()}
	}
	return nil
}
