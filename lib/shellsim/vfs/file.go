package vfs

import (
	"io"
	"io/fs"
	"os"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// Open implements command.FS (read-only).
func (v *FS) Open(p string) (command.File, error) { return v.OpenFile(p, os.O_RDONLY, 0) }

// OpenFile implements command.FS with os.O_* flags.
func (v *FS) OpenFile(p string, flag int, perm fs.FileMode) (command.File, error) {
	parent, name, n, err := v.walk(p, true)
	if err != nil {
		return nil, perr("open", p, err)
	}
	write := flag&(os.O_WRONLY|os.O_RDWR) != 0
	if n == nil {
		if flag&os.O_CREATE == 0 {
			return nil, perr("open", p, fs.ErrNotExist)
		}
		if err := v.writable("open", p, parent); err != nil {
			return nil, err
		}
		if err := v.charge(NodeOverhead); err != nil {
			return nil, perr("open", p, err)
		}
		n = v.newNode(perm.Perm() &^ v.umask)
		n.nlink = 1
		setChild(parent, name, n)
		parent.mtime = v.clock()
	} else {
		if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
			return nil, perr("open", p, fs.ErrExist)
		}
		if n.isDir() && write {
			return nil, perr("open", p, command.ErrIsDir)
		}
		if write {
			if err := v.writable("open", p, n); err != nil {
				return nil, err
			}
		}
		if flag&os.O_TRUNC != 0 && write && n.dev == devNone && len(n.data) > 0 {
			v.used -= int64(len(n.data))
			n.data = nil
			n.mtime = v.clock()
		}
	}
	f := &file{v: v, n: n, path: p, name: name, flag: flag}
	if flag&os.O_APPEND != 0 {
		f.off = int64(len(n.data))
	}
	return f, nil
}

type file struct {
	v      *FS
	n      *node
	path   string
	name   string
	flag   int
	off    int64
	closed bool
}

func (f *file) readable() bool { return f.flag&os.O_WRONLY == 0 }
func (f *file) writable() bool { return f.flag&(os.O_WRONLY|os.O_RDWR) != 0 }

func (f *file) Read(b []byte) (int, error) {
	if f.closed {
		return 0, perr("read", f.path, fs.ErrClosed)
	}
	if !f.readable() {
		return 0, perr("read", f.path, fs.ErrPermission)
	}
	if f.n.isDir() {
		return 0, perr("read", f.path, command.ErrIsDir)
	}
	switch f.n.dev {
	case devZero:
		clear(b)
		return len(b), nil
	case devNull, devStdin, devStdout, devStderr:
		return 0, io.EOF
	}
	if f.off >= int64(len(f.n.data)) {
		return 0, io.EOF
	}
	k := copy(b, f.n.data[f.off:])
	f.off += int64(k)
	return k, nil
}

func (f *file) Write(b []byte) (int, error) {
	f.n.unshare()
	if f.closed {
		return 0, perr("write", f.path, fs.ErrClosed)
	}
	if !f.writable() {
		return 0, perr("write", f.path, fs.ErrPermission)
	}
	if f.n.dev != devNone {
		return len(b), nil
	}
	if f.flag&os.O_APPEND != 0 {
		f.off = int64(len(f.n.data))
	}
	end := f.off + int64(len(b))
	if grow := end - int64(len(f.n.data)); grow > 0 {
		if err := f.v.charge(grow); err != nil {
			return 0, perr("write", f.path, err)
		}
		if end > int64(cap(f.n.data)) {
			nd := make([]byte, end, f.v.growCap(int64(cap(f.n.data)), end))
			copy(nd, f.n.data)
			f.n.data = nd
		} else {
			f.n.data = f.n.data[:end]
		}
	}
	copy(f.n.data[f.off:], b)
	f.off = end
	f.n.mtime = f.v.clock()
	return len(b), nil
}

func (f *file) Seek(off int64, whence int) (int64, error) {
	var base int64
	switch whence {
	case io.SeekCurrent:
		base = f.off
	case io.SeekEnd:
		base = int64(len(f.n.data))
	}
	if base+off < 0 {
		return 0, perr("seek", f.path, fs.ErrInvalid)
	}
	f.off = base + off
	return f.off, nil
}

func (f *file) Close() error {
	f.closed = true
	return nil
}

func (f *file) Truncate(size int64) error {
	f.n.unshare()
	if !f.writable() {
		return perr("truncate", f.path, fs.ErrPermission)
	}
	if size < 0 {
		return perr("truncate", f.path, fs.ErrInvalid)
	}
	delta := size - int64(len(f.n.data))
	if err := f.v.charge(delta); err != nil {
		return perr("truncate", f.path, err)
	}
	if delta > 0 {
		f.n.data = append(f.n.data, make([]byte, delta)...)
	} else {
		f.n.data = f.n.data[:size]
	}
	f.n.mtime = f.v.clock()
	return nil
}

func (f *file) Stat() (command.FileInfo, error) { return f.v.info(f.name, f.n), nil }

// growCap is the capacity for file data growing from old to at least end
// bytes: doubling (fewer copies, so less garbage, than slower growth), but
// never more than the quota leaves room for: file data is host memory.
func (v *FS) growCap(old, end int64) int64 {
	c := max(2*old, end)
	if v.quota > 0 {
		c = min(c, max(end, end+v.quota-v.used))
	}
	return c
}
