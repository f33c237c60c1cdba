package local

import (
	"errors"

	"golang.org/x/sys/unix"
)

// replaceAt gives the file named tmp in directory dirfd the name name,
// replacing whatever file had it, atomically. Renaming over an existing
// file makes ext4 (its auto_da_alloc default) start writing the new file
// out at once, which cost a 10 MiB upload about 10 ms on top of the copy;
// exchanging the two names and unlinking the old file is as atomic for
// readers of name and leaves write-back to the kernel's own pace (nothing
// here promised durability: a machine's files live as long as it does).
// When name holds a directory the exchange is undone and EISDIR returned,
// as a plain rename would fail; tmp is then still the caller's.
func replaceAt(dirfd int, tmp, name string) error {
	err := unix.Renameat2(dirfd, tmp, dirfd, name, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		// Nothing to replace (no flush then), or a file system without
		// exchange.
		return unix.Renameat(dirfd, tmp, dirfd, name)
	}
	if err != nil {
		return err
	}
	// tmp now names what name held; if it cannot go (a directory raced
	// in), the exchange is undone and the caller keeps tmp.
	if err := unix.Unlinkat(dirfd, tmp, 0); err != nil {
		if unix.Renameat2(dirfd, tmp, dirfd, name, unix.RENAME_EXCHANGE) != nil {
			return nil // the new file stays in place; the old one keeps tmp's name
		}
		return err
	}
	return nil
}
