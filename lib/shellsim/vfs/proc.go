package vfs

import "io/fs"

// ProcProvider generates /proc lazily. Paths are relative to /proc ("" or
// "." is /proc itself, "self", "12/status").
type ProcProvider interface {
	// List names the entries of a generated directory.
	List(dir string) []string
	// Node describes one generated entry.
	Node(rel string) (ProcNode, bool)
}

// ProcNode is one generated /proc entry: a directory, a symlink (Target) or
// a file (Data).
type ProcNode struct {
	Dir    bool
	Target string
	Data   []byte
}

func (v *FS) procNode(rel string, pn ProcNode) *node {
	n := &node{uid: 0, gid: 0, mtime: v.clock(), nlink: 1, isProc: true, proc: rel, nodisk: true}
	// Stable inode numbers derived from the path keep ls -i deterministic.
	var h uint64 = 1469598103934665603
	for i := 0; i < len(rel); i++ {
		h = (h ^ uint64(rel[i])) * 1099511628211
	}
	n.ino = 1<<40 | h&(1<<40-1)
	switch {
	case pn.Dir:
		n.mode = fs.ModeDir | 0o555
		n.nlink = 2
	case pn.Target != "":
		n.mode = fs.ModeSymlink | 0o777
		n.target = pn.Target
		n.isProc = false
	default:
		n.mode = 0o444
		n.data = pn.Data
		n.isProc = false
	}
	return n
}
