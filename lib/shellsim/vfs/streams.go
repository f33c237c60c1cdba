package vfs

import (
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Streams are one process's standard streams, seen through /dev/stdin,
// /dev/stdout and /dev/stderr.
type Streams struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// View is a per-process window on a shared FS that resolves /dev/std* to the
// process's own streams, and /dev/fd/N paths of process substitutions to
// their pipes.
type View struct {
	*FS
	Streams Streams
	Pipes   map[string]Streams // "/dev/fd/63" -> the pipe end (Stdin or Stdout)
}

func (w *View) pipe(p string) (Streams, bool) {
	if w.Pipes == nil {
		return Streams{}, false
	}
	s, ok := w.Pipes[p]
	return s, ok
}

// Stat implements command.FS.
func (w *View) Stat(p string) (command.FileInfo, error) {
	if _, ok := w.pipe(p); ok {
		return command.FileInfo{Name: p[strings.LastIndexByte(p, '/')+1:], Mode: fs.ModeNamedPipe | 0o600, Nlink: 1}, nil
	}
	return w.FS.Stat(p)
}

// StdDevice reports which standard stream p names after symlinks: 0, 1, 2,
// or -1 for none.
func (v *FS) StdDevice(p string) int {
	_, _, n, err := v.walk(p, true)
	if err != nil || n == nil {
		return -1
	}
	switch n.dev {
	case devStdin:
		return 0
	case devStdout:
		return 1
	case devStderr:
		return 2
	}
	return -1
}

// IsNull reports whether p resolves to /dev/null.
func (v *FS) IsNull(p string) bool {
	_, _, n, err := v.walk(p, true)
	return err == nil && n != nil && n.dev == devNull
}

// Open implements command.FS.
func (w *View) Open(p string) (command.File, error) { return w.OpenFile(p, os.O_RDONLY, 0) }

// OpenFile implements command.FS.
func (w *View) OpenFile(p string, flag int, perm fs.FileMode) (command.File, error) {
	if s, ok := w.pipe(p); ok {
		return &streamFile{r: s.Stdin, w: s.Stdout, name: p}, nil
	}
	switch w.StdDevice(p) {
	case 0:
		return &streamFile{r: w.Streams.Stdin, name: p}, nil
	case 1:
		return &streamFile{w: w.Streams.Stdout, name: p}, nil
	case 2:
		return &streamFile{w: w.Streams.Stderr, name: p}, nil
	}
	return w.FS.OpenFile(p, flag, perm)
}

// ReadFile implements command.FS.
func (w *View) ReadFile(p string) ([]byte, error) {
	if s, ok := w.pipe(p); ok && s.Stdin != nil {
		return io.ReadAll(s.Stdin)
	}
	if w.StdDevice(p) == 0 && w.Streams.Stdin != nil {
		return io.ReadAll(w.Streams.Stdin)
	}
	return w.FS.ReadFile(p)
}

// WriteFile implements command.FS.
func (w *View) WriteFile(p string, data []byte, perm fs.FileMode) error {
	if s, ok := w.pipe(p); ok && s.Stdout != nil {
		_, err := s.Stdout.Write(data)
		return err
	}
	switch w.StdDevice(p) {
	case 1:
		_, err := w.Streams.Stdout.Write(data)
		return err
	case 2:
		_, err := w.Streams.Stderr.Write(data)
		return err
	}
	return w.FS.WriteFile(p, data, perm)
}

type streamFile struct {
	r    io.Reader
	w    io.Writer
	name string
}

func (s *streamFile) Read(b []byte) (int, error) {
	if s.r == nil {
		return 0, io.EOF
	}
	return s.r.Read(b)
}

func (s *streamFile) Write(b []byte) (int, error) {
	if s.w == nil {
		return 0, perr("write", s.name, fs.ErrPermission)
	}
	return s.w.Write(b)
}

func (s *streamFile) Seek(int64, int) (int64, error) {
	return 0, perr("seek", s.name, fs.ErrInvalid)
}
func (s *streamFile) Close() error         { return nil }
func (s *streamFile) Truncate(int64) error { return nil }
func (s *streamFile) Stat() (command.FileInfo, error) {
	return command.FileInfo{Name: s.name, Mode: fs.ModeCharDevice | fs.ModeDevice | 0o620, Nlink: 1}, nil
}
