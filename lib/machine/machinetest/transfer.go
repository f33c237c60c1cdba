package machinetest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

func writeFile(t testing.TB, p, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func perm(t testing.TB, p string) os.FileMode {
	t.Helper()
	st, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// transferFiles: single files both ways, binary, with their modes, to new
// nested paths; an upload replaces content and mode; relative guest paths
// are taken from the workdir; missing sources are FileNotFound.
func (s *suite) transferFiles(t *testing.T) {
	ctx := context.Background()
	m := s.machine(t, nil)
	host := t.TempDir()
	bin := string([]byte{0, 1, 2, '\r', '\n', 0xff}) + strings.Repeat("x", 3<<20)
	writeFile(t, filepath.Join(host, "tool"), bin, 0o751)
	if err := m.Upload(ctx, filepath.Join(host, "tool"), Workdir+"/new/dir/tool"); err != nil {
		t.Fatal(err)
	}
	want(t, sh(t, m, "stat -c %a new/dir/tool; wc -c < new/dir/tool | tr -d ' '"), 0, "751\n3145734\n", "")
	writeFile(t, filepath.Join(host, "tool"), "small", 0o640)
	if err := m.Upload(ctx, filepath.Join(host, "tool"), Workdir+"/new/dir/tool"); err != nil {
		t.Fatal(err)
	}
	want(t, sh(t, m, "stat -c %a new/dir/tool; cat new/dir/tool"), 0, "640\nsmall", "")
	// A file uploaded into an existing directory leaves the directory's
	// mode alone.
	sh(t, m, "mkdir -p shared && chmod 1777 shared")
	if err := m.Upload(ctx, filepath.Join(host, "tool"), Workdir+"/shared/tool"); err != nil {
		t.Fatal(err)
	}
	want(t, sh(t, m, "stat -c %a shared; cat shared/tool"), 0, "1777\nsmall", "")
	// Downloading a file made in the machine.
	sh(t, m, "printf 'made\\000inside' > out.bin; chmod 600 out.bin")
	out := filepath.Join(host, "dl", "new", "out.bin")
	if err := m.Download(ctx, Workdir+"/out.bin", out, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, out); got != "made\x00inside" || perm(t, out) != 0o600 {
		t.Fatalf("downloaded %q mode %v", got, perm(t, out))
	}
	// The 3 MiB file back, byte for byte.
	big := filepath.Join(host, "big")
	writeFile(t, big, bin, 0o644)
	if err := m.Upload(ctx, big, Workdir+"/big"); err != nil {
		t.Fatal(err)
	}
	if err := m.Download(ctx, Workdir+"/big", big+".back", machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if readFile(t, big+".back") != bin {
		t.Fatal("a 3 MiB binary file changed on its round trip")
	}
	// Missing sources.
	var pe *machine.PathError
	if err := m.Download(ctx, "/no/such/file", filepath.Join(host, "x"), machine.DownloadOptions{}); !errors.As(err, &pe) || !pe.NotFound || machine.KindOf(err) != machine.KindNotFound {
		t.Fatalf("a missing download source: %v", err)
	}
	if err := m.Upload(ctx, filepath.Join(host, "missing"), "/x"); !errors.As(err, &pe) || !pe.NotFound {
		t.Fatalf("a missing upload source: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(host, "x")); err == nil {
		t.Fatal("a failed download created its target")
	}
}

// transferTrees: directories both ways: the contents land in the target
// without an extra level, with modes, nesting and symbolic links inside
// the tree kept as links.
func (s *suite) transferTrees(t *testing.T) {
	ctx := context.Background()
	m := s.machine(t, nil)
	host := t.TempDir()
	tree := filepath.Join(host, "tree")
	writeFile(t, filepath.Join(tree, "a.txt"), "A", 0o644)
	writeFile(t, filepath.Join(tree, "sub", "run.sh"), "#!/bin/sh\necho ran\n", 0o755)
	writeFile(t, filepath.Join(tree, "sub", "deep", "secret"), "s", 0o600)
	if err := os.MkdirAll(filepath.Join(tree, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/run.sh", filepath.Join(tree, "link")); err != nil {
		t.Fatal(err)
	}
	if err := m.Upload(ctx, tree, "/logs/artifacts"); err != nil {
		t.Fatal(err)
	}
	want(t, sh(t, m, "cd /logs/artifacts && cat a.txt && sub/run.sh && stat -c %a sub/run.sh sub/deep/secret && test -d empty && echo empty"), 0, "Aran\n755\n600\nempty\n", "")
	want(t, sh(t, m, "cd /logs/artifacts && ./link && readlink link"), 0, "ran\nsub/run.sh\n", "")
	// A tree uploaded onto an existing directory merges with it.
	sh(t, m, "mkdir -p /merge && echo old > /merge/old")
	if err := m.Upload(ctx, filepath.Join(tree, "sub"), "/merge"); err != nil {
		t.Fatal(err)
	}
	want(t, sh(t, m, "cat /merge/old; /merge/run.sh; cat /merge/deep/secret"), 0, "old\nran\ns", "")

	back := filepath.Join(host, "back")
	if err := m.Download(ctx, "/logs/artifacts", back, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if readFile(t, filepath.Join(back, "a.txt")) != "A" || perm(t, filepath.Join(back, "sub", "run.sh")) != 0o755 ||
		perm(t, filepath.Join(back, "sub", "deep", "secret")) != 0o600 {
		t.Fatal("a downloaded tree lost content or modes")
	}
	if st, err := os.Stat(filepath.Join(back, "empty")); err != nil || !st.IsDir() {
		t.Fatalf("an empty directory: %v", err)
	}
	if l, err := os.Readlink(filepath.Join(back, "link")); err != nil || l != "sub/run.sh" {
		t.Fatalf("a link inside the tree: %q %v", l, err)
	}
	// Guest paths that are relative or hold ".." are refused before any
	// I/O, naming the field.
	sh(t, m, "mkdir -p rel/x && echo r > rel/x/f")
	for _, p := range []string{"rel", "rel/x/f", Workdir + "/../" + Workdir + "/rel", "/../etc", ""} {
		var invalid *machine.InvalidSpec
		if err := m.Download(ctx, p, filepath.Join(host, "bad"), machine.DownloadOptions{}); !errors.As(err, &invalid) || invalid.Field != "source" {
			t.Fatalf("a download from %q: %v, want an InvalidSpec on source", p, err)
		}
		if err := m.Upload(ctx, filepath.Join(tree, "a.txt"), p); !errors.As(err, &invalid) || invalid.Field != "target" {
			t.Fatalf("an upload to %q: %v, want an InvalidSpec on target", p, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(host, "bad")); err == nil {
		t.Fatal("a refused download created its target")
	}
	want(t, sh(t, m, "ls "+Workdir+"; ls "+Workdir+"/rel"), 0, "rel\nx\n", "")
}

// transferEscapes: links leaving the tree are refused in both directions
// (nothing is created), and a host link at a download target is never
// followed.
func (s *suite) transferEscapes(t *testing.T) {
	ctx := context.Background()
	m := s.machine(t, nil)
	host := t.TempDir()
	var pe *machine.PathError
	evil := filepath.Join(host, "evil")
	writeFile(t, filepath.Join(evil, "ok.txt"), "ok", 0o644)
	if err := os.Symlink("/etc/passwd", filepath.Join(evil, "passwd")); err != nil {
		t.Fatal(err)
	}
	if err := m.Upload(ctx, evil, "/evil"); !errors.As(err, &pe) || pe.NotFound || machine.KindOf(err) != machine.KindPermission {
		t.Fatalf("an upload with a link out of the tree: %v", err)
	}
	if err := os.Remove(filepath.Join(evil, "passwd")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../../../../../etc", filepath.Join(evil, "up")); err != nil {
		t.Fatal(err)
	}
	if err := m.Upload(ctx, evil, "/evil"); !errors.As(err, &pe) || pe.NotFound {
		t.Fatalf("an upload with a relative link out of the tree: %v", err)
	}
	want(t, sh(t, m, "test -e /evil || echo none"), 0, "none\n", "")

	sh(t, m, "mkdir -p /planted && echo fine > /planted/ok && ln -s /etc/passwd /planted/passwd && ln -s ../../../../../../tmp /planted/up")
	dst := filepath.Join(host, "planted")
	if err := m.Download(ctx, "/planted", dst, machine.DownloadOptions{}); !errors.As(err, &pe) || pe.NotFound {
		t.Fatalf("a download with links out of the tree: %v", err)
	}
	for _, name := range []string{"passwd", "up"} {
		if _, err := os.Lstat(filepath.Join(dst, name)); err == nil {
			t.Fatalf("the escaping link %s was created on the host", name)
		}
	}
	// A host link already inside the download target is not followed.
	outside := filepath.Join(host, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	trap := filepath.Join(host, "trap")
	writeFile(t, filepath.Join(trap, "keep"), "k", 0o644)
	if err := os.Symlink(outside, filepath.Join(trap, "sub")); err != nil {
		t.Fatal(err)
	}
	sh(t, m, "mkdir -p /src/sub && echo stolen > /src/sub/file")
	_ = m.Download(ctx, "/src", trap, machine.DownloadOptions{})
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatal("a download followed a host link out of its target")
	}
}

// downloadMaxBytes: a bounded download larger than its bound fails with
// DownloadLimitExceeded and leaves the target untouched; a directory's
// bound is the total of its files.
func (s *suite) downloadMaxBytes(t *testing.T) {
	ctx := context.Background()
	m := s.machine(t, nil)
	host := t.TempDir()
	sh(t, m, "head -c 1000 /dev/zero | tr '\\000' a > k")
	target := filepath.Join(host, "k")
	writeFile(t, target, "previous", 0o644)
	var le *machine.DownloadLimitExceeded
	if err := m.Download(ctx, Workdir+"/k", target, machine.DownloadOptions{MaxBytes: 999}); !errors.As(err, &le) || machine.KindOf(err) != machine.KindDownloadLimit {
		t.Fatalf("over the limit: %v", err)
	}
	if readFile(t, target) != "previous" {
		t.Fatal("a refused download changed its target")
	}
	fresh := filepath.Join(host, "fresh")
	if err := m.Download(ctx, Workdir+"/k", fresh, machine.DownloadOptions{MaxBytes: 1}); !errors.As(err, &le) {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := os.Lstat(fresh); err == nil {
		t.Fatal("a refused download created its target")
	}
	if err := m.Download(ctx, Workdir+"/k", target, machine.DownloadOptions{MaxBytes: 1000}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, target); got != strings.Repeat("a", 1000) {
		t.Fatalf("got %d bytes", len(got))
	}
	// A directory's bound is the total of its files' bytes.
	sh(t, m, "mkdir -p d/e && head -c 6 /dev/zero > d/a && head -c 5 /dev/zero > d/e/b")
	if err := m.Download(ctx, Workdir+"/d", filepath.Join(host, "d"), machine.DownloadOptions{MaxBytes: 10}); !errors.As(err, &le) {
		t.Fatalf("a directory over its bound: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(host, "d")); err == nil {
		t.Fatal("a refused directory download left files")
	}
	if err := m.Download(ctx, Workdir+"/d", filepath.Join(host, "d"), machine.DownloadOptions{MaxBytes: 11}); err != nil {
		t.Fatalf("a directory within its bound: %v", err)
	}
	if readFile(t, filepath.Join(host, "d", "e", "b")) != "\x00\x00\x00\x00\x00" {
		t.Fatal("a bounded directory download")
	}
	entries, _ := os.ReadDir(host)
	for _, e := range entries {
		if e.Name() != "k" && e.Name() != "d" {
			t.Fatalf("left on the host: %s", e.Name())
		}
	}
}
