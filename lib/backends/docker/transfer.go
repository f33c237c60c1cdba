package docker

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/docker/docker/api/types/container"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/transfer"
)

// transferTimeout bounds the small exec-based checks around a transfer.
const transferTimeout = 60 * time.Second

// errAbandoned ends a transfer stream whose other side stopped reading.
var errAbandoned = errors.New("transfer abandoned")

// streamError carries a producer's error to the reader of a pipe. Pipe
// readers may compare errors with ==, which panics on an uncomparable
// error type (archive/tar's headerError is a slice): net/http does so in
// its write loop, where no recover can reach. A pointer always compares.
type streamError struct{ err error }

func (e *streamError) Error() string { return e.err.Error() }
func (e *streamError) Unwrap() error { return e.err }

// pipeErr makes err safe to hand to a pipe's reader.
func pipeErr(err error) error {
	if err == nil {
		return nil
	}
	return &streamError{err}
}

// checkTransfer refuses, before any I/O, guest paths that are relative,
// contain ".." or NUL bytes, and host paths that cannot be opened, the
// same way every backend does.
func checkTransfer(guestField, guest, hostField, host string) error {
	if err := machine.ValidateGuestPath(guestField, guest); err != nil {
		return err
	}
	return machine.ValidateHostPath(hostField, host)
}

// Upload copies a host file or directory to target in the container: a
// file becomes target, a directory's contents land in target. Missing
// parents are created (as root); permission bits are kept. Symbolic links
// that leave the source tree are refused before anything is sent.
func (m *Machine) Upload(ctx context.Context, source, target string) error {
	if err := checkTransfer("target", target, "source", source); err != nil {
		return err
	}
	if err := m.check(); err != nil {
		return err
	}
	target = path.Clean(target)
	if err := transfer.Check(ctx, source); err != nil {
		return err
	}
	parent, base := path.Dir(target), path.Base(target)
	if target == "/" {
		parent, base = "/", ""
	}
	var err error
	if m.f.execTransfers {
		err = m.uploadExec(ctx, source, parent, base)
	} else {
		err = m.uploadArchive(ctx, source, parent, base)
	}
	if err != nil {
		var pe *machine.PathError
		if errors.As(err, &pe) || errors.Is(err, machine.ErrClosed) || errors.Is(err, machine.ErrTerminated) || ctx.Err() != nil {
			return err
		}
		return fmt.Errorf("docker: upload %s to %s: %w", source, target, err)
	}
	return nil
}

// uploadArchive streams the tree through the archive endpoint, extracting
// at the deepest existing ancestor of target so that the daemon creates
// the missing directories without touching existing ones.
func (m *Machine) uploadArchive(ctx context.Context, source, parent, base string) error {
	dir := parent
	var missing []string
	for {
		st, err := m.cli.ContainerStatPath(ctx, m.id, dir)
		if err == nil {
			if st.Mode&fs.ModeSymlink == 0 && !st.Mode.IsDir() {
				return &machine.PathError{Op: "upload", Path: dir, Reason: "not a directory"}
			}
			break
		}
		if !isNotFound(err) {
			return m.opErr(ctx, "inspecting "+dir, err)
		}
		if dir == "/" {
			return m.opErr(ctx, "inspecting /", err)
		}
		missing = append([]string{path.Base(dir)}, missing...)
		dir = path.Dir(dir)
	}
	prefix := path.Join(append(missing, base)...)
	r := rewrittenUpload(ctx, source, missing, prefix)
	defer r.Close()
	err := m.cli.CopyToContainer(ctx, m.id, dir, r, container.CopyToContainerOptions{})
	if rerr := r.err(); rerr != nil {
		return rerr
	}
	if err != nil {
		return m.opErr(ctx, "copying into the container", err)
	}
	return nil
}

// uploadExec extracts the tree with tar inside the container, as root
// (gVisor keeps the container's files in its sandbox, where the archive
// endpoints cannot see them).
func (m *Machine) uploadExec(ctx context.Context, source, parent, base string) error {
	r := rewrittenUpload(ctx, source, nil, base)
	defer r.Close()
	code, stderr, err := m.rootExec(ctx, `mkdir -p -- "$1" && exec tar -xpf - -C "$1"`, []string{parent}, r, nil)
	if rerr := r.err(); rerr != nil {
		return rerr
	}
	if err != nil {
		return err
	}
	if code != 0 {
		return fmt.Errorf("tar in the container exited with %d: %s", code, strings.TrimSpace(string(stderr)))
	}
	return nil
}

// tarPipe is the reading end of a tar stream produced in the background.
type tarPipe struct {
	*io.PipeReader
	done    chan struct{}
	prodErr error
}

func (t *tarPipe) Close() error {
	t.PipeReader.CloseWithError(errAbandoned)
	<-t.done
	return nil
}

// err is the producer's own error once the stream was consumed or closed
// (not the one it got because the reader went away).
func (t *tarPipe) err() error {
	t.PipeReader.CloseWithError(errAbandoned)
	<-t.done
	if t.prodErr == nil || errors.Is(t.prodErr, errAbandoned) {
		return nil
	}
	return t.prodErr
}

// rewrittenUpload tars source with lib/transfer and renames its entries
// for extraction at the directory that holds prefix: the root entry
// becomes prefix, the others prefix/name; dirs (the missing ancestors) are
// created first with mode 0755.
func rewrittenUpload(ctx context.Context, source string, dirs []string, prefix string) *tarPipe {
	pr, pw := io.Pipe()
	t := &tarPipe{PipeReader: pr, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		ir, iw := io.Pipe()
		tarDone := make(chan error, 1)
		go func() {
			err := transfer.WriteTar(ctx, iw, source)
			iw.CloseWithError(pipeErr(err))
			tarDone <- err
		}()
		err := rewriteUpload(ir, pw, dirs, prefix)
		ir.CloseWithError(errAbandoned)
		// The reader's error is the pipe's; the walker's names the cause.
		if terr := <-tarDone; terr != nil && !errors.Is(terr, errAbandoned) {
			err = terr
		}
		t.prodErr = err
		pw.CloseWithError(pipeErr(err))
	}()
	return t
}

func rewriteUpload(r io.Reader, w io.Writer, dirs []string, prefix string) error {
	tr := tar.NewReader(r)
	tw := tar.NewWriter(w)
	now := time.Now()
	for i := range dirs {
		name := path.Join(dirs[:i+1]...) + "/"
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name, Mode: 0o755, ModTime: now}); err != nil {
			return err
		}
	}
	buf := make([]byte, 32<<10)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(hdr.Name, "/")
		if name == transfer.RootName {
			name = prefix
		} else if prefix != "" {
			name = prefix + "/" + name
		}
		if name == "" {
			continue // the root of an upload to /
		}
		if hdr.Typeflag == tar.TypeDir {
			name += "/"
		}
		if hdr.Typeflag == tar.TypeLink && prefix != "" {
			hdr.Linkname = prefix + "/" + hdr.Linkname
		}
		hdr.Name = name
		hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "", ""
		hdr.Format = tar.FormatUnknown
		hdr.PAXRecords = nil
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if hdr.Typeflag == tar.TypeReg {
			if _, err := io.CopyBuffer(tw, tr, buf); err != nil {
				return err
			}
		}
	}
	return tw.Close()
}

// guestKind is what a guest path is.
type guestKind string

const (
	kindFile    guestKind = "file"
	kindDir     guestKind = "dir"
	kindLink    guestKind = "link"
	kindOther   guestKind = "other"
	kindMissing guestKind = "missing"
)

// statScript prints what $1 is, without following a final symbolic link.
const statScript = `if [ -L "$1" ]; then echo link
elif [ -d "$1" ]; then echo dir
elif [ -f "$1" ]; then echo file
elif [ -e "$1" ]; then echo other
else echo missing; fi`

func (m *Machine) statGuest(ctx context.Context, p string) (guestKind, error) {
	if !m.f.execTransfers {
		st, err := m.cli.ContainerStatPath(ctx, m.id, p)
		if err != nil {
			if isNotFound(err) {
				return kindMissing, nil
			}
			return "", m.opErr(ctx, "inspecting "+p, err)
		}
		switch {
		case st.Mode&fs.ModeSymlink != 0:
			return kindLink, nil
		case st.Mode.IsDir():
			return kindDir, nil
		case st.Mode.IsRegular():
			return kindFile, nil
		}
		return kindOther, nil
	}
	var out limitedBuffer
	out.limit = 64
	sctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	code, stderr, err := m.rootExec(sctx, statScript, []string{p}, nil, &out)
	if err != nil {
		return "", err
	}
	if code != 0 {
		return "", fmt.Errorf("docker: inspecting %s exited with %d: %s", p, code, strings.TrimSpace(string(stderr)))
	}
	return guestKind(strings.TrimSpace(string(out.bytes()))), nil
}

// Download copies a file or directory from the container to target on the
// host (a directory's contents land in target) through transfer.Extract:
// opts bound the total bytes of the files (see transfer.Bound), the host
// keeps its disk reserve, setuid bits are stripped and target is left
// untouched on failure.
func (m *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	if err := checkTransfer("source", source, "target", target); err != nil {
		return err
	}
	if err := m.check(); err != nil {
		return err
	}
	source = path.Clean(source)
	kind, err := m.statGuest(ctx, source)
	if err != nil {
		return err
	}
	switch kind {
	case kindMissing:
		return &machine.PathError{Op: "download", Path: source, Reason: "no such file or directory", NotFound: true}
	case kindFile, kindDir:
	case kindLink:
		return &machine.PathError{Op: "download", Path: source, Reason: "refusing to transfer a symbolic link"}
	default:
		return &machine.PathError{Op: "download", Path: source, Reason: "not a regular file or directory"}
	}
	var rc io.ReadCloser
	if m.f.execTransfers {
		rc = m.tarFromExec(ctx, source)
	} else {
		var err error
		rc, _, err = m.cli.CopyFromContainer(ctx, m.id, source)
		if err != nil {
			if isNotFound(err) {
				return &machine.PathError{Op: "download", Path: source, Reason: "no such file or directory", NotFound: true}
			}
			return m.opErr(ctx, "copying from the container", err)
		}
	}
	defer rc.Close()
	base := path.Base(source)
	pr, pw := io.Pipe()
	rewriteDone := make(chan error, 1)
	go func() {
		err := rewriteDownload(rc, pw, base)
		pw.CloseWithError(pipeErr(err))
		rewriteDone <- err
	}()
	err = transfer.Extract(ctx, pr, target, transfer.ForDownload(opts))
	pr.CloseWithError(errAbandoned)
	rc.Close()
	rerr := <-rewriteDone
	if err != nil {
		var pe *machine.PathError
		var le *machine.DownloadLimitExceeded
		if errors.As(err, &pe) || errors.As(err, &le) || ctx.Err() != nil {
			return err
		}
		if rerr != nil && !errors.Is(rerr, errAbandoned) {
			err = rerr
		}
		if m.isClosed() {
			return machine.ErrClosed
		}
		return fmt.Errorf("docker: download %s to %s: %w", source, target, err)
	}
	return nil
}

// rewriteDownload renames the entries of a container archive (rooted at
// base, as both the archive endpoint and tar -C parent base produce them)
// into lib/transfer's form: the root is ".", the rest relative to it.
func rewriteDownload(r io.Reader, w io.Writer, base string) error {
	tr := tar.NewReader(r)
	tw := tar.NewWriter(w)
	buf := make([]byte, 32<<10)
	strip := func(name string) (string, bool) {
		name = strings.TrimPrefix(name, "./")
		name = strings.TrimSuffix(name, "/")
		if name == base {
			return transfer.RootName, true
		}
		if rest, ok := strings.CutPrefix(name, base+"/"); ok {
			return rest, true
		}
		return "", false
	}
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		name, ok := strip(hdr.Name)
		if !ok {
			return &machine.PathError{Op: "download", Path: hdr.Name, Reason: "archive entry outside the requested path"}
		}
		if hdr.Typeflag == tar.TypeLink {
			link, ok := strip(hdr.Linkname)
			if !ok || link == transfer.RootName {
				return &machine.PathError{Op: "download", Path: hdr.Name, Reason: "hard link outside the requested path"}
			}
			hdr.Linkname = link
		}
		if hdr.Typeflag == tar.TypeDir && name != transfer.RootName {
			name += "/"
		}
		hdr.Name = name
		hdr.Format = tar.FormatUnknown
		hdr.PAXRecords = nil
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if hdr.Typeflag == tar.TypeReg {
			if _, err := io.CopyBuffer(tw, tr, buf); err != nil {
				return err
			}
		}
	}
	return tw.Close()
}

// tarFromExec streams tar -c of p from inside the container, as root.
// Closing the reader ends the exec at once (a refused 20 GB file is not
// read to its end).
func (m *Machine) tarFromExec(ctx context.Context, p string) io.ReadCloser {
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, stderr, err := m.rootExec(ctx, `cd "$1" && exec tar -cf - -- "$2"`, []string{path.Dir(p), path.Base(p)}, nil, pw)
		if err == nil && code != 0 {
			err = fmt.Errorf("tar in the container exited with %d: %s", code, strings.TrimSpace(string(stderr)))
		}
		pw.CloseWithError(pipeErr(err))
	}()
	return &execReader{PipeReader: pr, done: done, cancel: cancel}
}

type execReader struct {
	*io.PipeReader
	done   chan struct{}
	cancel context.CancelFunc
}

func (r *execReader) Close() error {
	r.PipeReader.CloseWithError(errAbandoned)
	r.cancel()
	<-r.done
	return nil
}
