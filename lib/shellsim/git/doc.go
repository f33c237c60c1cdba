// Package git is ShellSim's git: a deterministic subset of Git over the
// virtual filesystem. Objects use Git's real format and hashing (zlib loose
// objects under .git/objects), so with the same author, committer and dates
// the blob, tree and commit ids equal real Git's. The index is kept in a
// private file. Network commands are unsupported and reported as such.
package git
