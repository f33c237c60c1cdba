// Package transfer moves file trees between a host and a sandbox as tar
// streams, treating every archive as hostile.
//
// WriteTar reads a tree without ever leaving it: files are opened through
// an os.Root with O_NOFOLLOW, symbolic links must resolve inside the tree,
// devices, fifos and sockets are skipped, and a hard link is sent as the
// file's contents.
//
// Extract writes an archive at a target directory or file:
//   - nothing is created outside the target: entry names must be relative
//     without "..", no entry may sit below a symbolic link, a symbolic link
//     may only climb ("..") at the start of its target and no higher than
//     its own directory, and a hard link may only name a regular file
//     extracted earlier from the same archive;
//   - files are created by the calling user (never chowned) with the
//     archive's permission bits; setuid, setgid and sticky bits are
//     stripped unless ExtractOptions.KeepSpecialBits (uploads into a guest);
//   - devices, fifos and sockets are never created;
//   - the archive is extracted into a fresh staging directory and moved
//     into place only when it is complete, so a failure (a hostile entry,
//     the byte limit, the disk reserve, a cancelled context) leaves the
//     target as it was and no partial file behind;
//   - MaxBytes bounds the total size of the regular files, checked against
//     each header before its data is read, so a huge (or sparse) file is
//     refused without reading it.
//
// # The disk reserve
//
// A download never fills the host's disk: before each file, and every
// 64 MiB while writing one, Extract compares the free space of the target's
// filesystem (statfs, the space available to unprivileged users) with what
// is left to write, and stops with a *SpaceError (Python's
// DownloadLimitExceeded) when less than the reserve would remain. The
// reserve defaults to the smaller of 1 GiB and 5% of the filesystem's size,
// is set in bytes by the environment variable SHELLBOX_DOWNLOAD_RESERVE_BYTES
// (0 keeps only the filesystem's own limit), or per call by
// ExtractOptions.Reserve. Free inodes are kept the same way (the smaller of
// 65536 and 5% of the filesystem's inodes).
package transfer
