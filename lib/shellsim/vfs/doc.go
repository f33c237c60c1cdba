// Package vfs is ShellSim's in-memory filesystem: a tree of nodes (files,
// directories, symlinks, hard links, devices) with modes, owners, inode
// numbers, virtual mtimes and a disk quota enforced on every mutation, plus a
// read-only /proc generated on demand by a provider.
package vfs
