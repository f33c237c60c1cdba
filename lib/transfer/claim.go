package transfer

import "path/filepath"

// ClaimSpace checks, as Extract does before it writes a file, that size
// more bytes at target still leave the host file system its download
// reserve (opts.Reserve). For callers that copy a single file themselves
// (the local backend's direct downloads) with the same guarantee.
func ClaimSpace(target string, size int64, opts ExtractOptions) error {
	s, err := newSpace(existingDir(filepath.Dir(target)), target, opts.Reserve)
	if err != nil {
		return err
	}
	return s.claim(size, true)
}
