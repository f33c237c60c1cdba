package local

import (
	"io/fs"
	"syscall"
)

type owner struct{ uid, gid int }

func statOwner(info fs.FileInfo) (owner, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{}, false
	}
	return owner{int(st.Uid), int(st.Gid)}, true
}
