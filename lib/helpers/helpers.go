// Package helpers finds the helper binaries that ship beside the shared
// library (for example shellbox-sandboxd, which runs inside a local sandbox).
package helpers

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

var (
	mu  sync.RWMutex
	dir string
)

// SetDir records the directory that holds the helper binaries; the Python
// package calls it with its own _bin directory when it loads the library.
func SetDir(d string) {
	mu.Lock()
	dir = d
	mu.Unlock()
}

// Path finds a helper: $SHELLBOX_BIN_DIR, the directory given to SetDir,
// the running executable's directory, then PATH.
func Path(name string) (string, error) {
	mu.RLock()
	dirs := []string{os.Getenv("SHELLBOX_BIN_DIR"), dir}
	mu.RUnlock()
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return filepath.Abs(p)
	}
	return "", fmt.Errorf("helper %s not found (set SHELLBOX_BIN_DIR or reinstall shellbox): %w", name, errors.ErrUnsupported)
}
