package vfs

import (
	"bytes"
	"io/fs"
	"path"
	"sort"
)

// Change is one difference between two filesystems.
type Change struct {
	Path    string      `json:"path"`
	Kind    string      `json:"kind"` // "added", "modified" or "deleted"
	Type    string      `json:"type"` // "file", "directory", "symlink" or "other" (the new node's; the old one's when deleted)
	Mode    fs.FileMode `json:"-"`
	Content []byte      `json:"-"` // a file's new content (added, modified)
	Target  string      `json:"target,omitempty"`
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

func change(p, kind string, n *node) Change {
	c := Change{Path: p, Kind: kind, Type: nodeType(n), Mode: n.mode}
	if kind != "deleted" {
		if n.mode.IsRegular() {
			c.Content = append([]byte{}, n.data...)
		}
		if n.isLink() {
			c.Target = n.target
		}
	} else if n.isLink() {
		c.Target = n.target
	}
	return c
}

func diffNodes(p string, a, b *node, out *[]Change) {
	switch {
	case a == nil && b == nil:
		return
	case a == nil:
		*out = append(*out, change(p, "added", b))
	case b == nil:
		*out = append(*out, change(p, "deleted", a))
	case !sameNode(a, b):
		*out = append(*out, change(p, "modified", b))
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
