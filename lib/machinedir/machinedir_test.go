package machinedir

import (
	"os"
	"path/filepath"
	"testing"
)

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestSweepRemovesOnlyUnlockedDirectories: a directory whose lock is held
// stays; one whose lock was released goes, unless alive says it is in use;
// directories of other names are never looked at.
func TestSweepRemovesOnlyUnlockedDirectories(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	const prefix = "machinedir-test-"
	live, liveLock, err := Create(prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer liveLock.Close()
	dead, deadLock, err := Create(prefix)
	if err != nil {
		t.Fatal(err)
	}
	deadLock.Close()
	kept, keptLock, err := Create(prefix)
	if err != nil {
		t.Fatal(err)
	}
	keptLock.Close()
	other := filepath.Join(os.TempDir(), "other-"+prefix)
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	var removed []string
	Sweep(prefix, func(dir string) bool { return dir == kept }, func(dir string) {
		removed = append(removed, dir)
		os.RemoveAll(dir)
	})
	if len(removed) != 1 || removed[0] != dead {
		t.Fatalf("removed %v, want only %s", removed, dead)
	}
	for _, d := range []string{live, kept, other} {
		if !exists(d) {
			t.Fatalf("%s was removed", d)
		}
	}
	// Its lock released, the live one goes at the next sweep.
	liveLock.Close()
	Sweep(prefix, nil, func(dir string) { os.RemoveAll(dir) })
	if exists(live) || exists(kept) || !exists(other) {
		t.Fatalf("after the second sweep: live %v, kept %v, other %v", exists(live), exists(kept), exists(other))
	}
}

// TestCreateLocksTheDirectory: Create returns the directory locked, so a
// sweep leaves it alone.
func TestCreateLocksTheDirectory(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir, lock, err := Create("machinedir-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	swept := false
	Sweep("machinedir-test-", nil, func(string) { swept = true })
	if swept || !exists(dir) {
		t.Fatal("a sweep took a directory whose creator holds its lock")
	}
}
