package vfs

import (
	"bytes"
	"io/fs"
	"path"
	"sort"
)

// DiffNode is one side of a Change.
type DiffNode struct {
	Type   string // "file", "directory", "symlink" or "other"
	Mode   fs.FileMode
	Data   []byte // a file's content
	Target string // a symlink's target
}

// Change is one difference between two filesystems: Before is nil for an
// added node, After for a deleted one.
type Change struct {
	Path          string
	Kind          string // "added", "modified" or "deleted"
	Before, After *DiffNode
}

func nodeType(n *node) string {
	switch {
	case n.isDir():
		return "directory"
	case n.isLink():
		return "symlink"
	case n.mode.IsRegular():
		return "file"
	}
	return "other"
}

func sameNode(a, b *node) bool {
	if nodeType(a) != nodeType(b) || a.mode != b.mode {
		return false
	}
	switch {
	case a.isLink():
		return a.target == b.target
	case a.mode.IsRegular():
		return bytes.Equal(a.data, b.data)
	}
	return true
}

// Diff lists, sorted by path, what changed under root from old to v:
// nodes added, modified (type, mode, content or link target) and deleted.
// Symbolic links are compared, not followed.
func (v *FS) Diff(old *FS, root string) []Change {
	var out []Change
	_, _, a, errA := old.walk(root, false)
	_, _, b, errB := v.walk(root, false)
	if errA != nil {
		a = nil
	}
	if errB != nil {
		b = nil
	}
	diffNodes(path.Clean(root), a, b, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func diffNode(n *node) *DiffNode {
	if n == nil {
		return nil
	}
	d := &DiffNode{Type: nodeType(n), Mode: n.mode}
	if n.mode.IsRegular() {
		d.Data = append([]byte{}, n.data...)
	}
	if n.isLink() {
		d.Target = n.target
	}
	return d
}

func change(p, kind string, a, b *node) Change {
	return Change{Path: p, Kind: kind, Before: diffNode(a), After: diffNode(b)}
}

func diffNodes(p string, a, b *node, out *[]Change) {
	switch {
	case a == nil && b == nil:
		return
	case a == nil:
		*out = append(*out, change(p, "added", nil, b))
	case b == nil:
		*out = append(*out, change(p, "deleted", a, nil))
	case !sameNode(a, b):
		*out = append(*out, change(p, "modified", a, b))
	}
	var ka, kb map[string]*node
	if a != nil && a.isDir() {
		ka = a.children
	}
	if b != nil && b.isDir() {
		kb = b.children
	}
	for name, ca := range ka {
		diffNodes(path.Join(p, name), ca, kb[name], out)
	}
	for name, cb := range kb {
		if _, ok := ka[name]; !ok {
			diffNodes(path.Join(p, name), nil, cb, out)
		}
	}
}

// RaisePeak makes the recorded disk peak at least peak (a filesystem
// restored from a baseline keeps the peak reached since).
func (v *FS) RaisePeak(peak int64) {
	if peak > v.peak {
		v.peak = peak
	}
}
