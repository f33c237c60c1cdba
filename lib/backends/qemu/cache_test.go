package qemu

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentCreatesStageOnce: factories sharing a cache (as separate
// processes would) create machines of one image at once; the disk is
// staged once and the state saved once, and every machine works.
func TestConcurrentCreatesStageOnce(t *testing.T) {
	cache := t.TempDir()
	const n = 3
	var wg sync.WaitGroup
	errs := make([]error, n)
	machines := make([]*Machine, n)
	for i := 0; i < n; i++ {
		f := newTestFactory(t, Options{CacheDir: cache})
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			m, err := f.Create(context.Background(), testSpec())
			errs[i] = err
			if err == nil {
				machines[i] = m.(*Machine)
			}
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("create %d: %v", i, err)
		}
		defer machines[i].Close(context.Background())
		r := run(t, machines[i], sh("echo ok"))
		if string(r.Stdout) != "ok\n" {
			t.Fatalf("machine %d: %q", i, r.Stdout)
		}
	}
	count := func(dir string) (n int) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				n++
			}
		}
		return n
	}
	if d, s := count(filepath.Join(cache, "disks")), count(filepath.Join(cache, "states")); d != 1 || s != 1 {
		t.Fatalf("%d staged disks and %d saved states, want 1 and 1", d, s)
	}
	leftovers, _ := filepath.Glob(filepath.Join(cache, "*", ".stage-*"))
	saves, _ := filepath.Glob(filepath.Join(cache, "*", ".save-*"))
	if len(leftovers)+len(saves) > 0 {
		t.Fatalf("temporary staging directories remain: %v %v", leftovers, saves)
	}
}
