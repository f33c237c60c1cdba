package local

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/machine"
)

// machineDirPrefix names per-machine directories in the temp directory.
const machineDirPrefix = "shellbox-local-"

// newMachineDir makes the per-machine directory, locked (flock on the
// directory itself) for as long as the machine may use it: the owner and
// the machine's launcher hold the lock, so a directory whose lock is free
// belongs to nobody and the next factory removes it (sweepMachineDirs).
func newMachineDir() (dir, root string, lock *os.File, err error) {
	startErr := func(err error) (string, string, *os.File, error) {
		return "", "", nil, &machine.StartupError{Backend: Name, Err: err}
	}
	for attempt := 0; ; attempt++ {
		dir, err = os.MkdirTemp("", machineDirPrefix)
		if err != nil {
			return startErr(err)
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
			break
		}
		// A sweep took the directory between its creation and the lock.
		if lock != nil {
			lock.Close()
		}
		if err != nil || attempt > 3 {
			os.RemoveAll(dir)
			if err == nil {
				err = errors.New("the machine directory keeps disappearing")
			}
			return startErr(err)
		}
	}
	root = filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		os.RemoveAll(dir)
		lock.Close()
		return startErr(err)
	}
	if err := os.Chmod(root, 0o755); err != nil {
		os.RemoveAll(dir)
		lock.Close()
		return startErr(err)
	}
	return dir, root, lock, nil
}

// sweepMachineDirs removes the machine directories of dead owners (a
// process killed by SIGKILL or leaving by os._exit) and their cgroups.
func (f *Factory) sweepMachineDirs() {
	tmp := os.TempDir()
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), machineDirPrefix) {
			continue
		}
		sweepMachineDir(filepath.Join(tmp, e.Name()))
	}
	f.cgroups.Sweep(machineDirPrefix)
	if f.limits != nil {
		f.limits.Sweep(machineDirPrefix)
	}
}

func sweepMachineDir(dir string) {
	lock, err := os.Open(dir)
	if err != nil {
		return // another user's, or gone
	}
	defer lock.Close()
	if unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return // its owner lives
	}
	// A directory made before machines locked theirs: a helper that still
	// answers on its socket is alive.
	if c, err := net.DialTimeout("unix", filepath.Join(dir, "ctl.sock"), time.Second); err == nil {
		c.Close()
		return
	}
	removeTree(dir) // under the lock: a creator racing with us retries
}
