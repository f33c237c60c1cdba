package oci

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shellbox/shellbox/lib/oci/ocitest"
)

// Prepare publishes the pulled layout under the cache as
// sha256-<hex of its manifest digest>, once: preparing the same image
// again (here by several callers at once) gives the same layout, and no
// temporary directory is left in the cache; a failed pull leaves nothing.
func TestPrepareIsContentAddressedAndShared(t *testing.T) {
	r := ocitest.NewRegistry(t)
	ref := r.Push(t, "shellbox/prep:v1", testImage(t, "amd64"))
	src, err := ParseSource(ref)
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(t.TempDir(), "cache")
	type res struct{ layout, digest string }
	got := make([]res, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, d, err := Prepare(context.Background(), src, cache, opts(r))
			if err != nil {
				t.Error(err)
			}
			got[i] = res{l, d}
		}()
	}
	wg.Wait()
	for _, g := range got[1:] {
		if g != got[0] {
			t.Fatalf("callers got different layouts: %+v", got)
		}
	}
	if want := filepath.Join(cache, strings.Replace(got[0].digest, ":", "-", 1)); got[0].layout != want {
		t.Fatalf("layout %s, want %s", got[0].layout, want)
	}
	img, err := Open(got[0].layout, got[0].digest)
	if err != nil || img.Config.Config.WorkingDir != "/srv" {
		t.Fatalf("prepared image: %+v %v", img, err)
	}
	if d, err := ResolveTag(got[0].layout, LayoutTag); err != nil || d != got[0].digest {
		t.Fatalf("tag %q: %s %v", LayoutTag, d, err)
	}
	missing, _ := ParseSource(r.Host + "/shellbox/absent:v1")
	if _, _, err := Prepare(context.Background(), missing, cache, opts(r)); err == nil {
		t.Fatal("an absent image was prepared")
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 || entries[0].Name() != filepath.Base(got[0].layout) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("cache holds %v, want only the layout", names)
	}
}
