package qemu

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The cache (staged disks, saved states, OCI layouts) is bounded by
// Options.CacheMaxMB. Each entry has a use lock beside it: whoever uses
// the entry (a machine, for its whole life, or a staging from a layout)
// holds a shared flock on it, and its mtime is the entry's last use.
// After a create that added to the cache, the least recently used entries
// are removed until the cache fits; an entry is removed only under an
// exclusive flock taken without waiting, so one in use is never removed.
// A staged disk goes together with the saved states made from it (their
// qcow2 overlays read it as their backing file). Use locks are never
// deleted: a process waiting on a deleted lock file would hold a lock
// nobody else sees.

// defaultCacheMaxMB bounds the cache when Options.CacheMaxMB is 0.
const defaultCacheMaxMB = 20 << 10

// holds are the shared use locks a machine or a staging keeps.
type holds []*os.File

func (h *holds) release() {
	for _, f := range *h {
		f.Close()
	}
	*h = nil
}

// useLock takes a shared flock on lockPath (created as needed) and marks
// its entry used now; closing the file releases it.
func useLock(lockPath string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o755); err != nil {
		return nil, err
	}
	l, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, err
	}
	if err := flock(l, unix.LOCK_SH); err != nil {
		l.Close()
		return nil, err
	}
	now := time.Now()
	os.Chtimes(lockPath, now, now)
	return l, nil
}

func flock(l *os.File, how int) error {
	for {
		err := unix.Flock(int(l.Fd()), how)
		if err != unix.EINTR {
			return err
		}
	}
}

// cacheUnit is what eviction removes at once.
type cacheUnit struct {
	dirs, locks []string
	lastUsed    time.Time
	size        int64
}

func (u *cacheUnit) add(dir, lock string) {
	u.dirs, u.locks = append(u.dirs, dir), append(u.locks, lock)
	t := modTime(lock)
	if t.IsZero() {
		t = modTime(dir)
	}
	if t.After(u.lastUsed) {
		u.lastUsed = t
	}
	u.size += diskUsage(dir)
}

func modTime(p string) time.Time {
	st, err := os.Stat(p)
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// diskUsage is the space the files under dir take (allocated blocks:
// staged disks are sparse).
func diskUsage(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		var st unix.Stat_t
		if unix.Lstat(p, &st) == nil {
			n += st.Blocks * 512
		}
		return nil
	})
	return n
}

// entries lists the complete entries of a cache directory (temporary
// directories start with a dot).
func entries(dir string) []string {
	list, _ := os.ReadDir(dir)
	var names []string
	for _, e := range list {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// cacheUnits lists the cache's evictable units.
func (f *Factory) cacheUnits() []*cacheUnit {
	disks := map[string]*cacheUnit{}
	var units []*cacheUnit
	for _, key := range entries(filepath.Join(f.cacheDir, "disks")) {
		u := &cacheUnit{}
		u.add(filepath.Join(f.cacheDir, "disks", key), diskUseLock(f.cacheDir, key))
		disks[key] = u
		units = append(units, u)
	}
	states := filepath.Join(f.cacheDir, "states")
	for _, key := range entries(states) {
		dir := filepath.Join(states, key)
		var meta struct {
			DiskKey string `json:"disk_key"`
		}
		if b, err := os.ReadFile(filepath.Join(dir, "meta.json")); err == nil {
			json.Unmarshal(b, &meta)
		}
		u := disks[meta.DiskKey]
		if u == nil {
			u = &cacheUnit{}
			units = append(units, u)
		}
		u.add(dir, stateUseLock(f.cacheDir, key))
	}
	for _, kind := range []string{"docker", "registry"} {
		for _, name := range entries(filepath.Join(f.cacheDir, kind)) {
			dir := filepath.Join(f.cacheDir, kind, name)
			u := &cacheUnit{}
			u.add(dir, dir+".use")
			units = append(units, u)
		}
	}
	return units
}

func diskUseLock(cacheDir, key string) string {
	return filepath.Join(cacheDir, "disks", "."+key+".use")
}

func stateUseLock(cacheDir, key string) string {
	return filepath.Join(cacheDir, "states", "."+key+".use")
}

// evict removes least recently used units until the cache fits in
// f.cacheMax bytes, skipping units in use. One evictor at a time: a
// create that finds another evicting leaves it to that one.
func (f *Factory) evict() {
	if f.cacheMax <= 0 {
		return
	}
	l, err := os.OpenFile(filepath.Join(f.cacheDir, ".evict.lock"), os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return
	}
	defer l.Close()
	if flock(l, unix.LOCK_EX|unix.LOCK_NB) != nil {
		return
	}
	units := f.cacheUnits()
	var total int64
	for _, u := range units {
		total += u.size
	}
	sort.Slice(units, func(i, j int) bool { return units[i].lastUsed.Before(units[j].lastUsed) })
	for _, u := range units {
		if total <= f.cacheMax {
			return
		}
		if u.remove() {
			total -= u.size
		}
	}
}

// remove deletes the unit's directories when none of its locks is held.
func (u *cacheUnit) remove() bool {
	var held []*os.File
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	for _, p := range u.locks {
		l, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o644)
		if err != nil {
			return false
		}
		held = append(held, l)
		if flock(l, unix.LOCK_EX|unix.LOCK_NB) != nil {
			return false // in use
		}
	}
	for _, d := range u.dirs {
		// Renamed first, so no reader ever sees half an entry.
		trash := filepath.Join(filepath.Dir(d), ".evict-"+filepath.Base(d)+"-"+strconv.FormatInt(time.Now().UnixNano(), 36))
		if os.Rename(d, trash) == nil {
			os.RemoveAll(trash)
		}
	}
	return true
}
