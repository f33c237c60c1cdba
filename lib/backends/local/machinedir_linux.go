package local

import (
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machinedir"
)

// machineDirPrefix names per-machine directories in the temp directory.
const machineDirPrefix = "shellbox-local-"

// newMachineDir makes the per-machine directory, locked for as long as the
// machine may use it: the owner and the machine's launcher hold the lock,
// so a directory whose lock is free belongs to nobody and the next factory
// removes it (sweepMachineDirs).
func newMachineDir() (dir, root string, lock *os.File, err error) {
	startErr := func(err error) (string, string, *os.File, error) {
		return "", "", nil, &machine.StartupError{Backend: Name, Err: err}
	}
	if dir, lock, err = machinedir.Create(machineDirPrefix); err != nil {
		return startErr(err)
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
	machinedir.Sweep(machineDirPrefix, helperAnswers, func(dir string) { removeTree(dir) })
	f.cgroups.Sweep(machineDirPrefix)
	if f.limits != nil {
		f.limits.Sweep(machineDirPrefix)
	}
}

// helperAnswers says whether the helper of a directory made before
// machines locked theirs still answers on its socket.
func helperAnswers(dir string) bool {
	c, err := net.DialTimeout("unix", filepath.Join(dir, "ctl.sock"), time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
