package transfer

import "golang.org/x/sys/unix"

type fsStat struct {
	size, avail  int64 // bytes
	files, ffree int64 // inodes
}

func statfs(dir string) (fsStat, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return fsStat{}, err
	}
	bs := int64(st.Bsize)
	return fsStat{size: int64(st.Blocks) * bs, avail: int64(st.Bavail) * bs, files: int64(st.Files), ffree: int64(st.Ffree)}, nil
}
