package files

import (
	"io/fs"
	"math"
	"path"
	"strconv"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// callCost is the fixed CPU fuel a command spends per call.
const callCost = 50

// modeString renders a mode as ls -l and stat %A do: "drwxr-xr-x".
func modeString(m fs.FileMode) string {
	b := []byte("----------")
	switch {
	case m&fs.ModeDir != 0:
		b[0] = 'd'
	case m&fs.ModeSymlink != 0:
		b[0] = 'l'
	case m&fs.ModeNamedPipe != 0:
		b[0] = 'p'
	case m&fs.ModeCharDevice != 0:
		b[0] = 'c'
	case m&fs.ModeDevice != 0:
		b[0] = 'b'
	case m&fs.ModeSocket != 0:
		b[0] = 's'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		}
	}
	special := func(i int, set bool, lower, upper byte) {
		if !set {
			return
		}
		if b[i] == 'x' {
			b[i] = lower
		} else {
			b[i] = upper
		}
	}
	special(3, m&fs.ModeSetuid != 0, 's', 'S')
	special(6, m&fs.ModeSetgid != 0, 's', 'S')
	special(9, m&fs.ModeSticky != 0, 't', 'T')
	return string(b)
}

// octalMode renders the permission and special bits as chmod numbers them.
func octalMode(m fs.FileMode) uint32 {
	v := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		v |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		v |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		v |= 0o1000
	}
	return v
}

// fromOctal turns chmod bits into an fs.FileMode (permission and special bits).
func fromOctal(v uint32) fs.FileMode {
	m := fs.FileMode(v & 0o777)
	if v&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if v&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if v&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// diskUsage models st_blocks*512 the way ext4 allocates: whole 4 KiB blocks
// for files and directories, nothing for symlinks.
func diskUsage(fi command.FileInfo) int64 {
	if fi.Mode&fs.ModeSymlink != 0 {
		return 0
	}
	size := fi.Size
	if fi.IsDir() && size < 4096 {
		size = 4096
	}
	return (size + 4095) / 4096 * 4096
}

// human renders a byte count as ls -h and du -h do (powers of 1024,
// rounded up, one decimal below 10).
func human(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10)
	}
	const units = "KMGTPE"
	v := float64(n)
	i := -1
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v < 10 {
		r := math.Ceil(v*10) / 10
		if r >= 10 {
			return strconv.FormatFloat(r, 'f', 0, 64) + string(units[i])
		}
		return strconv.FormatFloat(r, 'f', 1, 64) + string(units[i])
	}
	r := math.Ceil(v)
	if r >= 1024 && i < len(units)-1 {
		return "1.0" + string(units[i+1])
	}
	return strconv.FormatFloat(r, 'f', 0, 64) + string(units[i])
}

func userName(inv *command.Invocation, uid int) string {
	if n, ok := inv.Sys.Users().UserName(uid); ok {
		return n
	}
	return strconv.Itoa(uid)
}

func groupName(inv *command.Invocation, gid int) string {
	if n, ok := inv.Sys.Users().GroupName(gid); ok {
		return n
	}
	return strconv.Itoa(gid)
}

// base is path.Base that keeps a trailing-slash operand's last name.
func base(p string) string { return path.Base(p) }

// fileType names a node as stat %F does.
func fileType(fi command.FileInfo) string {
	m := fi.Mode
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeCharDevice != 0:
		return "character special file"
	case m&fs.ModeDevice != 0:
		return "block special file"
	case m&fs.ModeSocket != 0:
		return "socket"
	case fi.Size == 0:
		return "regular empty file"
	}
	return "regular file"
}

// isSymlink reports whether fi describes a symbolic link.
func isSymlink(fi command.FileInfo) bool { return fi.Mode&fs.ModeSymlink != 0 }
