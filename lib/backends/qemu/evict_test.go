package qemu

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCacheEviction stages disks of one image at four sizes (four cache
// entries) under a bound that holds about two: the least recently used
// go first, an entry in use (its lock held, as a machine holds it) is
// never removed, and one released becomes evictable.
func TestCacheEviction(t *testing.T) {
	f := newTestFactory(t, Options{CacheDir: filepath.Join(t.TempDir(), "cache")})
	ctx := context.Background()
	stage := func(sizeMB int) (string, *os.File) {
		t.Helper()
		d, use, err := f.stageImage(ctx, testImage, sizeMB)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Dir(d.path), use
	}
	exists := func(dir string) bool { _, err := os.Stat(dir); return err == nil }

	a, useA := stage(16) // in use throughout, and the oldest
	b, useB := stage(17)
	useB.Close()
	one := diskUsage(b)
	// Last uses one second apart, B the least recent unused one.
	old := time.Now().Add(-time.Hour)
	for i, key := range []string{filepath.Base(a), filepath.Base(b)} {
		t0 := old.Add(time.Duration(i) * time.Second)
		os.Chtimes(diskUseLock(f.cacheDir, key), t0, t0)
	}
	// A saved state made from B goes with it; while a machine restored
	// from it runs, B stays too.
	state := filepath.Join(f.cacheDir, "states", "s1")
	os.MkdirAll(state, 0o755)
	os.WriteFile(filepath.Join(state, "meta.json"), []byte(`{"disk_key":"`+filepath.Base(b)+`"}`), 0o644)
	useS, err := useLock(stateUseLock(f.cacheDir, "s1"))
	if err != nil {
		t.Fatal(err)
	}
	os.Chtimes(stateUseLock(f.cacheDir, "s1"), old, old)
	f.cacheMax = one / 2
	f.evict()
	if !exists(b) || !exists(state) {
		t.Fatal("a disk whose saved state is in use was evicted")
	}
	useS.Close()
	f.cacheMax = 2*one + one/2
	c, useC := stage(18)
	useC.Close()
	f.evict() // three entries, room for two: B goes, A is in use
	if !exists(a) || exists(b) || exists(state) || !exists(c) {
		t.Fatalf("after the first eviction: a=%v b=%v c=%v", exists(a), exists(b), exists(c))
	}
	// A new entry while C was used recently and A is still in use: the
	// bound cannot be met without A, so the cache stays over it.
	d, useD := stage(19)
	if !exists(a) || !exists(d) {
		t.Fatal("an entry in use was evicted")
	}
	f.evict()
	if !exists(a) || exists(c) || !exists(d) {
		t.Fatalf("after the second eviction: a=%v c=%v d=%v", exists(a), exists(c), exists(d))
	}
	// Released, A is the least recently used: it goes next.
	useA.Close()
	useD.Close()
	f.cacheMax = one + one/2
	f.evict()
	if exists(a) || !exists(d) {
		t.Fatalf("after A's release: a=%v d=%v", exists(a), exists(d))
	}
	// An evicted disk is staged again on its next use.
	if a2, use := stage(16); a2 != a || !exists(a) {
		t.Fatal("the evicted disk was not staged again")
	} else {
		use.Close()
	}
}
