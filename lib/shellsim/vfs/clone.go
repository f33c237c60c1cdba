package vfs

// CloneShared is Clone with copy-on-write file contents: the copy and v
// share each file's bytes until either writes to it (Write and Truncate
// copy first), so a copy costs the node structure, not the data.
func (v *FS) CloneShared() *FS {
	c := *v
	seen := map[*node]*node{}
	c.root = cloneShared(v.root, seen)
	return &c
}

func cloneShared(n *node, seen map[*node]*node) *node {
	if m, ok := seen[n]; ok {
		return m
	}
	m := *n
	seen[n] = &m
	if n.data != nil {
		n.shared, m.shared = true, true
	}
	if n.children != nil {
		m.children = make(map[string]*node, len(n.children))
		for k, ch := range n.children {
			m.children[k] = cloneShared(ch, seen)
		}
	}
	return &m
}

// unshare gives n its own copy of shared data before a write.
func (n *node) unshare() {
	if n.shared {
		n.data = append(make([]byte, 0, cap(n.data)), n.data...)
		n.shared = false
	}
}
