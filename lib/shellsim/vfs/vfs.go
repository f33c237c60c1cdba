package vfs

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// NodeOverhead is the disk cost of every node except the root.
const NodeOverhead = 256

const maxLinks = 40

// Device kinds of special nodes under /dev.
const (
	devNone = iota
	devNull
	devZero
	devStdin
	devStdout
	devStderr
)

type node struct {
	mode     fs.FileMode
	uid, gid int
	mtime    time.Time
	ino      uint64
	nlink    int
	data     []byte
	target   string
	children map[string]*node
	dev      int
	// proc is the path relative to /proc of a generated node ("." for /proc
	// itself); generated nodes are read-only and cost no disk.
	proc   string
	isProc bool
	nodisk bool
	// shared: data is shared with a copy (CloneShared); copy before writing.
	shared bool
}

func (n *node) isDir() bool  { return n.mode.IsDir() }
func (n *node) isLink() bool { return n.mode&fs.ModeSymlink != 0 }

// FS is an in-memory filesystem implementing command.FS. It is not safe for
// concurrent use; ShellSim's scheduler runs one process at a time.
type FS struct {
	root    *node
	clock   func() time.Time
	quota   int64
	used    int64
	peak    int64
	nextIno uint64
	proc    ProcProvider
	uid     int
	gid     int
	umask   fs.FileMode
}

var _ command.FS = (*FS)(nil)

// Options configures New.
type Options struct {
	Quota int64            // disk quota in bytes; <= 0 means unlimited
	Clock func() time.Time // mtime source; nil means the fixed epoch
	UID   int              // owner of created nodes
	GID   int
}

// Epoch is the default virtual wall-clock origin.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// New returns a filesystem with only the root directory.
func New(o Options) *FS {
	v := &FS{quota: o.Quota, clock: o.Clock, uid: o.UID, gid: o.GID}
	if v.clock == nil {
		v.clock = func() time.Time { return Epoch }
	}
	v.root = v.newNode(fs.ModeDir | 0o755)
	v.root.children = map[string]*node{}
	v.root.nlink = 2
	return v
}

// NewDefault returns a filesystem with the standard layout: /root /tmp /work
// /bin /usr/bin /etc /dev /proc /home, and the /dev devices.
func NewDefault(o Options) *FS {
	v := New(o)
	root := v.root
	dir := func(parent *node, name string, mode fs.FileMode) *node {
		n := v.newNode(fs.ModeDir | mode)
		n.nlink = 2
		setChild(parent, name, n)
		parent.nlink++
		v.used += NodeOverhead
		return n
	}
	dir(root, "bin", 0o755)
	dev := dir(root, "dev", 0o755)
	dir(root, "etc", 0o755)
	dir(root, "home", 0o755)
	proc := dir(root, "proc", 0o555)
	dir(root, "root", 0o700)
	dir(root, "tmp", fs.ModeSticky|0o777)
	usr := dir(root, "usr", 0o755)
	dir(usr, "bin", 0o755)
	dir(root, "work", 0o755)
	dev.nodisk, proc.nodisk = true, true
	proc.isProc, proc.proc = true, "."
	for _, d := range [...]struct {
		name string
		kind int
	}{{"null", devNull}, {"stderr", devStderr}, {"stdin", devStdin}, {"stdout", devStdout}, {"zero", devZero}} {
		n := v.newNode(fs.ModeCharDevice | fs.ModeDevice | 0o666)
		n.dev, n.nodisk = d.kind, true
		n.nlink = 1
		setChild(dev, d.name, n)
	}
	v.used -= 2 * NodeOverhead // /dev and /proc are free
	v.peak = v.used
	return v
}

func (v *FS) newNode(mode fs.FileMode) *node {
	v.nextIno++
	return &node{mode: mode, uid: v.uid, gid: v.gid, mtime: v.clock(), ino: v.nextIno}
}

// SetClock replaces the mtime source.
func (v *FS) SetClock(c func() time.Time) { v.clock = c }

// SetOwner sets the uid/gid given to new nodes.
func (v *FS) SetOwner(uid, gid int) { v.uid, v.gid = uid, gid }

// SetUmask sets the mask applied to the permissions of created nodes.
func (v *FS) SetUmask(m fs.FileMode) { v.umask = m & fs.ModePerm }

// SetProc installs the /proc generator.
func (v *FS) SetProc(p ProcProvider) { v.proc = p }

// SetQuota changes the disk quota (<= 0: unlimited).
func (v *FS) SetQuota(q int64) { v.quota = q }

// Usage reports the quota, current use and peak use in bytes.
func (v *FS) Usage() (quota, used, peak int64) { return v.quota, v.used, v.peak }

// Clone returns a deep copy sharing nothing mutable with v (hard links stay
// hard links within the copy). The proc provider and clock are shared.
func (v *FS) Clone() *FS {
	c := *v
	seen := map[*node]*node{}
	c.root = cloneNode(v.root, seen)
	return &c
}

func cloneNode(n *node, seen map[*node]*node) *node {
	if m, ok := seen[n]; ok {
		return m
	}
	m := *n
	seen[n] = &m
	if n.data != nil {
		m.data = append([]byte(nil), n.data...)
	}
	if n.children != nil {
		m.children = make(map[string]*node, len(n.children))
		for k, ch := range n.children {
			m.children[k] = cloneNode(ch, seen)
		}
	}
	return &m
}

// charge adjusts disk use by delta, failing with ErrNoSpace over quota.
func (v *FS) charge(delta int64) error {
	if delta > 0 && v.quota > 0 && v.used+delta > v.quota {
		return command.ErrNoSpace
	}
	v.used += delta
	if v.used > v.peak {
		v.peak = v.used
	}
	return nil
}

func perr(op, p string, err error) error { return &fs.PathError{Op: op, Path: p, Err: err} }

func split(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

// child looks up name in dir, generating /proc entries on demand.
func (v *FS) child(dir *node, name string) *node {
	if dir.isProc {
		if v.proc == nil {
			return nil
		}
		rel := name
		if dir.proc != "." {
			rel = dir.proc + "/" + name
		}
		pn, ok := v.proc.Node(rel)
		if !ok {
			return nil
		}
		return v.procNode(rel, pn)
	}
	return dir.children[name]
}

// walk resolves p. It returns the final node's parent directory, the final
// name and the node; n is nil (with err nil) when only the last element is
// missing. resolved is the symlink-free absolute path.
func (v *FS) walk(p string, followLast bool) (parent *node, name string, n *node, err error) {
	parent, name, n, _, err = v.walkPath(p, followLast)
	return
}

func (v *FS) walkPath(p string, followLast bool) (parent *node, name string, n *node, resolved string, err error) {
	comps := split(p)
	stack := []*node{v.root}
	names := []string{}
	links := 0
	for i := 0; i < len(comps); i++ {
		c := comps[i]
		cur := stack[len(stack)-1]
		last := i == len(comps)-1
		if c == "." {
			if last {
				break
			}
			continue
		}
		if c == ".." {
			if len(stack) > 1 {
				stack, names = stack[:len(stack)-1], names[:len(names)-1]
			}
			continue
		}
		if !cur.isDir() {
			return nil, "", nil, "", command.ErrNotDir
		}
		ch := v.child(cur, c)
		if ch == nil {
			if last {
				return cur, c, nil, "/" + strings.Join(append(names, c), "/"), nil
			}
			return nil, "", nil, "", fs.ErrNotExist
		}
		if ch.isLink() && (!last || followLast) {
			links++
			if links > maxLinks {
				return nil, "", nil, "", command.ErrLoop
			}
			rest := comps[i+1:]
			tc := split(ch.target)
			if strings.HasPrefix(ch.target, "/") {
				stack, names = stack[:1], names[:0]
			}
			comps = append(tc, rest...)
			i = -1
			if len(comps) == 0 {
				break
			}
			continue
		}
		stack = append(stack, ch)
		names = append(names, c)
	}
	n = stack[len(stack)-1]
	resolved = "/" + strings.Join(names, "/")
	if len(stack) == 1 {
		return v.root, "/", n, resolved, nil
	}
	return stack[len(stack)-2], names[len(names)-1], n, resolved, nil
}

func (v *FS) info(name string, n *node) command.FileInfo {
	fi := command.FileInfo{Name: name, Mode: n.mode, Size: int64(len(n.data)), ModTime: n.mtime,
		UID: n.uid, GID: n.gid, Nlink: n.nlink, Ino: n.ino}
	if n.isLink() {
		fi.Target = n.target
		fi.Size = int64(len(n.target))
	}
	if n.isDir() {
		fi.Size = 4096
	}
	if n.nlink == 0 {
		fi.Nlink = 1
	}
	return fi
}

// Stat implements command.FS.
func (v *FS) Stat(p string) (command.FileInfo, error) {
	_, name, n, err := v.walk(p, true)
	if err == nil && n == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return command.FileInfo{}, perr("stat", p, err)
	}
	return v.info(name, n), nil
}

// Lstat implements command.FS.
func (v *FS) Lstat(p string) (command.FileInfo, error) {
	_, name, n, err := v.walk(p, false)
	if err == nil && n == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return command.FileInfo{}, perr("lstat", p, err)
	}
	return v.info(name, n), nil
}

// ReadDir implements command.FS.
func (v *FS) ReadDir(p string) ([]command.FileInfo, error) {
	_, _, n, err := v.walk(p, true)
	if err == nil && n == nil {
		err = fs.ErrNotExist
	}
	if err == nil && !n.isDir() {
		err = command.ErrNotDir
	}
	if err != nil {
		return nil, perr("readdir", p, err)
	}
	var names []string
	if n.isProc {
		if v.proc != nil {
			names = v.proc.List(n.proc)
		}
	} else {
		names = make([]string, 0, len(n.children))
		for k := range n.children {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	out := make([]command.FileInfo, 0, len(names))
	for _, k := range names {
		ch := v.child(n, k)
		if ch == nil {
			continue
		}
		out = append(out, v.info(k, ch))
	}
	return out, nil
}

// ReadFile implements command.FS.
func (v *FS) ReadFile(p string) ([]byte, error) {
	_, _, n, err := v.walk(p, true)
	if err == nil && n == nil {
		err = fs.ErrNotExist
	}
	if err == nil && n.isDir() {
		err = command.ErrIsDir
	}
	if err != nil {
		return nil, perr("read", p, err)
	}
	switch n.dev {
	case devNull, devZero, devStdin, devStdout, devStderr:
		return nil, nil
	}
	return append([]byte(nil), n.data...), nil
}

// WriteFile implements command.FS: create or truncate, then write.
func (v *FS) WriteFile(p string, data []byte, perm fs.FileMode) error {
	f, err := v.OpenFile(p, 0x1|0x40|0x200, perm) // O_WRONLY|O_CREATE|O_TRUNC
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (v *FS) writable(op, p string, n *node) error {
	if n.isProc || (n.nodisk && n.dev == devNone) {
		return perr(op, p, command.ErrReadOnly)
	}
	return nil
}

// Mkdir implements command.FS.
func (v *FS) Mkdir(p string, perm fs.FileMode) error {
	parent, name, n, err := v.walk(p, false)
	if err != nil {
		return perr("mkdir", p, err)
	}
	if n != nil {
		return perr("mkdir", p, fs.ErrExist)
	}
	if err := v.writable("mkdir", p, parent); err != nil {
		return err
	}
	if err := v.charge(NodeOverhead); err != nil {
		return perr("mkdir", p, err)
	}
	d := v.newNode(fs.ModeDir | perm.Perm()&^v.umask)
	d.nlink = 2
	setChild(parent, name, d)
	parent.nlink++
	parent.mtime = v.clock()
	return nil
}

// MkdirAll implements command.FS.
func (v *FS) MkdirAll(p string, perm fs.FileMode) error {
	_, _, n, err := v.walk(p, true)
	if err == nil && n != nil {
		if n.isDir() {
			return nil
		}
		return perr("mkdir", p, command.ErrNotDir)
	}
	if p != "/" {
		if err := v.MkdirAll(path.Dir(p), perm); err != nil {
			return err
		}
	}
	err = v.Mkdir(p, perm)
	if err != nil && isExist(err) {
		return nil
	}
	return err
}

func isExist(err error) bool {
	pe, ok := err.(*fs.PathError)
	return ok && pe.Err == fs.ErrExist
}

// unlink removes the entry name from parent and frees its disk.
func (v *FS) unlink(parent *node, name string, n *node) {
	delete(parent.children, name)
	parent.mtime = v.clock()
	if n.isDir() {
		parent.nlink--
	}
	n.nlink--
	free := int64(NodeOverhead)
	if n.nlink <= 0 || n.isDir() {
		free += int64(len(n.data)) + int64(len(n.target))
	}
	v.used -= free
}

// Remove implements command.FS.
func (v *FS) Remove(p string) error {
	parent, name, n, err := v.walk(p, false)
	if err == nil && n == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return perr("remove", p, err)
	}
	if n == v.root || n.nodisk || n.isProc || parent.isProc {
		return perr("remove", p, fs.ErrPermission)
	}
	if n.isDir() && len(n.children) > 0 {
		return perr("remove", p, command.ErrNotEmpty)
	}
	v.unlink(parent, name, n)
	return nil
}

// RemoveAll implements command.FS.
func (v *FS) RemoveAll(p string) error {
	parent, name, n, err := v.walk(p, false)
	if err != nil {
		return perr("remove", p, err)
	}
	if n == nil {
		return nil
	}
	if n == v.root || n.nodisk || n.isProc || parent.isProc {
		return perr("remove", p, fs.ErrPermission)
	}
	if n.isDir() {
		v.removeTree(n)
	}
	v.unlink(parent, name, n)
	return nil
}

func (v *FS) removeTree(d *node) {
	for name, ch := range d.children {
		if ch.isDir() {
			v.removeTree(ch)
		}
		v.unlink(d, name, ch)
	}
}

// Rename implements command.FS.
func (v *FS) Rename(oldp, newp string) error {
	op, oname, on, err := v.walk(oldp, false)
	if err == nil && on == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return &fs.PathError{Op: "rename", Path: oldp, Err: err}
	}
	np, nname, nn, err := v.walk(newp, false)
	if err != nil {
		return perr("rename", newp, err)
	}
	if on.isProc || op.isProc || np.isProc || on.nodisk {
		return perr("rename", oldp, command.ErrReadOnly)
	}
	if on == nn {
		return nil
	}
	if on.isDir() {
		// Refuse moving a directory into itself.
		for _, a := range v.ancestors(newp) {
			if a == on {
				return perr("rename", oldp, fs.ErrInvalid)
			}
		}
	}
	if nn != nil {
		switch {
		case on.isDir() && !nn.isDir():
			return perr("rename", newp, command.ErrNotDir)
		case !on.isDir() && nn.isDir():
			return perr("rename", newp, command.ErrIsDir)
		case nn.isDir() && len(nn.children) > 0:
			return perr("rename", newp, command.ErrNotEmpty)
		}
		v.unlink(np, nname, nn)
	}
	delete(op.children, oname)
	if on.isDir() {
		op.nlink--
		np.nlink++
	}
	setChild(np, nname, on)
	now := v.clock()
	op.mtime, np.mtime = now, now
	return nil
}

func (v *FS) ancestors(p string) []*node {
	var out []*node
	for {
		_, _, n, err := v.walk(p, true)
		if err == nil && n != nil {
			out = append(out, n)
		}
		if p == "/" || p == "." || p == "" {
			return out
		}
		p = path.Dir(p)
	}
}

// Symlink implements command.FS.
func (v *FS) Symlink(target, link string) error {
	parent, name, n, err := v.walk(link, false)
	if err != nil {
		return perr("symlink", link, err)
	}
	if n != nil {
		return perr("symlink", link, fs.ErrExist)
	}
	if err := v.writable("symlink", link, parent); err != nil {
		return err
	}
	if err := v.charge(NodeOverhead + int64(len(target))); err != nil {
		return perr("symlink", link, err)
	}
	s := v.newNode(fs.ModeSymlink | 0o777)
	s.target = target
	s.nlink = 1
	setChild(parent, name, s)
	parent.mtime = v.clock()
	return nil
}

// Link implements command.FS (hard link).
func (v *FS) Link(oldp, newp string) error {
	_, _, on, err := v.walk(oldp, false)
	if err == nil && on == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return perr("link", oldp, err)
	}
	if on.isDir() {
		return perr("link", oldp, fs.ErrPermission)
	}
	parent, name, nn, err := v.walk(newp, false)
	if err != nil {
		return perr("link", newp, err)
	}
	if nn != nil {
		return perr("link", newp, fs.ErrExist)
	}
	if err := v.writable("link", newp, parent); err != nil {
		return err
	}
	if err := v.charge(NodeOverhead); err != nil {
		return perr("link", newp, err)
	}
	on.nlink++
	setChild(parent, name, on)
	parent.mtime = v.clock()
	return nil
}

// Readlink implements command.FS.
func (v *FS) Readlink(p string) (string, error) {
	_, _, n, err := v.walk(p, false)
	if err == nil && n == nil {
		err = fs.ErrNotExist
	}
	if err == nil && !n.isLink() {
		err = fs.ErrInvalid
	}
	if err != nil {
		return "", perr("readlink", p, err)
	}
	return n.target, nil
}

// Chmod implements command.FS.
func (v *FS) Chmod(p string, mode fs.FileMode) error {
	n, err := v.existing("chmod", p)
	if err != nil {
		return err
	}
	n.mode = n.mode.Type() | mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	return nil
}

// Chown implements command.FS; a negative id leaves that id unchanged.
func (v *FS) Chown(p string, uid, gid int) error {
	n, err := v.existing("chown", p)
	if err != nil {
		return err
	}
	if uid >= 0 {
		n.uid = uid
	}
	if gid >= 0 {
		n.gid = gid
	}
	return nil
}

// Chtimes implements command.FS; a zero mtime stamps the current time.
func (v *FS) Chtimes(p string, mtime time.Time) error {
	n, err := v.existing("chtimes", p)
	if err != nil {
		return err
	}
	if mtime.IsZero() {
		mtime = v.clock()
	}
	n.mtime = mtime
	return nil
}

func (v *FS) existing(op, p string) (*node, error) {
	_, _, n, err := v.walk(p, true)
	if err == nil && n == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return nil, perr(op, p, err)
	}
	if n.isProc {
		return nil, perr(op, p, command.ErrReadOnly)
	}
	return n, nil
}

// Realpath implements command.FS.
func (v *FS) Realpath(p string) (string, error) {
	_, _, n, resolved, err := v.walkPath(p, true)
	if err == nil && n == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return "", perr("realpath", p, err)
	}
	return resolved, nil
}

// setChild links n under name, allocating the directory map lazily.
func setChild(dir *node, name string, n *node) {
	if dir.children == nil {
		dir.children = map[string]*node{}
	}
	dir.children[name] = n
}

// Clear drops every file (for a closed environment, so that its data can be
// garbage-collected while the FS value is still referenced).
func (v *FS) Clear() {
	v.root = v.newNode(fs.ModeDir | 0o755)
	v.root.children = map[string]*node{}
	v.root.nlink = 2
	v.used = 0
}
