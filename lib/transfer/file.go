package transfer

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/shellbox/shellbox/lib/machine"
)

// WriteFileAtomic writes r to target through a temporary file in target's
// directory and a rename, so target is either untouched or complete. With
// maxBytes > 0, more than maxBytes bytes give a
// *machine.DownloadLimitExceeded and leave target untouched. Memory use is
// one small buffer whatever the size.
func WriteFileAtomic(ctx context.Context, r io.Reader, target string, mode fs.FileMode, maxBytes int64) (err error) {
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return pathErr("write", dir, err)
	}
	if st, err := os.Lstat(target); err == nil && st.IsDir() {
		return &machine.PathError{Op: "write", Path: target, Reason: "is a directory"}
	}
	tmp, err := os.CreateTemp(dir, ".shellbox-download-*")
	if err != nil {
		return pathErr("write", dir, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	src := r
	if maxBytes > 0 {
		src = io.LimitReader(r, maxBytes+1)
	}
	n, err := io.CopyBuffer(tmp, ctxReader{ctx, src}, make([]byte, 32<<10))
	if err != nil {
		return err
	}
	if maxBytes > 0 && n > maxBytes {
		return &machine.DownloadLimitExceeded{Path: target, Limit: maxBytes}
	}
	if err := tmp.Chmod(modeBits(mode, false)); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}
