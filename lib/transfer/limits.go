package transfer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/shellbox/shellbox/lib/machine"
)

// ReserveEnv names the environment variable holding the free space, in
// bytes, that downloads leave on the host filesystem.
const ReserveEnv = "SHELLBOX_DOWNLOAD_RESERVE_BYTES"

const (
	defaultReserve      = 1 << 30
	defaultInodeReserve = 65536
	reservePercent      = 5
	// recheckEvery is how much of one file is written between two looks at
	// the free space (others may be filling the disk at the same time).
	recheckEvery = 64 << 20
)

// ExtractOptions tune Extract. The zero value suits a download to the
// host: no byte limit, special bits stripped, the default disk reserve.
type ExtractOptions struct {
	// MaxBytes bounds the total size of the regular files when Bounded is
	// set; zero then allows only empty files.
	MaxBytes int64
	Bounded  bool
	// KeepSpecialBits keeps setuid, setgid and sticky bits (an upload
	// extracted inside a guest).
	KeepSpecialBits bool
	// Reserve is the free space to leave on the target's filesystem: zero
	// takes ReserveEnv or the default, a negative value turns the check off.
	Reserve int64
}

// UploadOptions extract an upload inside a guest: the caller's own files,
// modes kept, no host disk reserve.
var UploadOptions = ExtractOptions{KeepSpecialBits: true, Reserve: -1}

// ForDownload turns a machine download bound into ExtractOptions. The
// bridge passes a bound of zero bytes as a negative MaxBytes (zero means
// no bound in machine.DownloadOptions).
func ForDownload(opts machine.DownloadOptions) ExtractOptions {
	max, bounded := Bound(opts)
	return ExtractOptions{MaxBytes: max, Bounded: bounded}
}

// Bound reads a machine.DownloadOptions: (n, true) for a bound of n bytes
// (a negative MaxBytes is a bound of zero), (0, false) for none.
func Bound(opts machine.DownloadOptions) (int64, bool) {
	switch {
	case opts.MaxBytes > 0:
		return opts.MaxBytes, true
	case opts.MaxBytes < 0:
		return 0, true
	}
	return 0, false
}

// SpaceError is a download stopped because the host filesystem would keep
// less than the reserve free. It unwraps to *machine.DownloadLimitExceeded.
type SpaceError struct {
	Path    string
	Need    int64 // bytes still to write
	Free    int64 // bytes free on the filesystem
	Reserve int64
	Inodes  bool // it was the free inodes, not bytes
	Full    bool // the filesystem ran out of space (the reserve was off or raced)
}

func (e *SpaceError) Error() string {
	if e.Full {
		return fmt.Sprintf("download to %s stopped: the host filesystem is full (downloads leave %d bytes free, set by %s)", e.Path, e.Reserve, ReserveEnv)
	}
	if e.Inodes {
		return fmt.Sprintf("download to %s stopped: the host filesystem has %d free inodes and downloads leave %d free (%s)", e.Path, e.Free, e.Reserve, ReserveEnv)
	}
	return fmt.Sprintf("download to %s stopped: it needs %d more bytes, the host filesystem has %d free and downloads leave %d bytes free (the reserve, set by %s)", e.Path, e.Need, e.Free, e.Reserve, ReserveEnv)
}

func (e *SpaceError) Unwrap() error {
	allowed := max(e.Free-e.Reserve, 0)
	return &machine.DownloadLimitExceeded{Path: e.Path, Limit: allowed}
}

// space watches the free space of the filesystem a download writes to.
type space struct {
	dir      string // a directory on that filesystem
	target   string // named in errors
	reserve  int64  // negative: no check
	inodes   int64
	disabled bool
}

func newSpace(dir, target string, reserve int64) (*space, error) {
	s := &space{dir: dir, target: target, reserve: reserve}
	if reserve < 0 {
		s.disabled = true
		return s, nil
	}
	st, err := statfs(dir)
	if err != nil {
		return nil, pathErr("write", dir, err)
	}
	if reserve == 0 {
		if env := os.Getenv(ReserveEnv); env != "" {
			n, err := strconv.ParseInt(env, 10, 64)
			if err != nil || n < 0 {
				return nil, &machine.InvalidSpec{Field: ReserveEnv, Reason: fmt.Sprintf("must be a number of bytes, got %q", env)}
			}
			s.reserve = n
			if n == 0 {
				return s, nil // no inode reserve either
			}
		} else {
			s.reserve = min(int64(defaultReserve), st.size*reservePercent/100)
		}
	}
	s.inodes = min(int64(defaultInodeReserve), st.files*reservePercent/100)
	return s, nil
}

// claim checks that need more bytes (and one more inode when newInode) can
// be written while keeping the reserve.
func (s *space) claim(need int64, newInode bool) error {
	if s.disabled {
		return nil
	}
	st, err := statfs(s.dir)
	if err != nil {
		return pathErr("write", s.dir, err)
	}
	if st.avail-need < s.reserve {
		return &SpaceError{Path: s.target, Need: need, Free: st.avail, Reserve: s.reserve}
	}
	if newInode && st.files > 0 && st.ffree-1 < s.inodes {
		return &SpaceError{Path: s.target, Free: st.ffree, Reserve: s.inodes, Inodes: true}
	}
	return nil
}

// fullErr turns a "no space" failure into a *SpaceError.
func (s *space) fullErr(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return &SpaceError{Path: s.target, Reserve: max(s.reserve, 0), Full: true}
	}
	return err
}

// existingDir is the deepest existing directory at or above p.
func existingDir(p string) string {
	for {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(p)
		if parent == p {
			return p
		}
		p = parent
	}
}
