// Package machinedir makes the per-machine runtime directories of the
// backends that keep one on the host (local, QEMU) and removes those whose
// owner died without closing its machine (SIGKILL, os._exit): a directory
// is locked (flock on the directory itself) for as long as its machine
// may use it, so one whose lock is free belongs to nobody.
package machinedir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Create makes a directory named prefix plus a random suffix in the
// temporary directory and returns it locked: the lock is held until the
// returned file is closed (or its process ends). Close it only after the
// directory is removed.
func Create(prefix string) (dir string, lock *os.File, err error) {
	for attempt := 0; ; attempt++ {
		dir, err = os.MkdirTemp("", prefix)
		if err != nil {
			return "", nil, err
		}
		lock, err = os.Open(dir)
		if err == nil {
			err = unix.Flock(int(lock.Fd()), unix.LOCK_EX)
		}
		var st unix.Stat_t
		if err == nil {
			err = unix.Fstat(int(lock.Fd()), &st)
		}
		if err == nil && st.Nlink > 0 {
			return dir, lock, nil
		}
		// A sweep took the directory between its creation and the lock.
		if lock != nil {
			lock.Close()
			lock = nil
		}
		if err != nil || attempt > 3 {
			os.RemoveAll(dir)
			if err == nil {
				err = errors.New("the machine directory keeps disappearing")
			}
			return "", nil, err
		}
	}
}

// Sweep removes, with remove, every directory named prefix* in the
// temporary directory whose lock is free, unless alive says it is still
// in use (for directories made before they were locked). It holds the
// directory's lock while removing it, so a creator racing with it retries.
func Sweep(prefix string, alive func(dir string) bool, remove func(dir string)) {
	tmp := os.TempDir()
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		sweep(filepath.Join(tmp, e.Name()), alive, remove)
	}
}

func sweep(dir string, alive func(string) bool, remove func(string)) {
	lock, err := os.Open(dir)
	if err != nil {
		return // another user's, or gone
	}
	defer lock.Close()
	if unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return // its owner lives
	}
	if alive != nil && alive(dir) {
		return
	}
	remove(dir)
}
