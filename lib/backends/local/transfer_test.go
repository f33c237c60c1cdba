package local

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

func writeTree(t *testing.T, dir string) {
	t.Helper()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub", "deep"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\necho ran\n"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "secret"), []byte("s\x00\xff"), 0o600))
	must(os.WriteFile(filepath.Join(dir, "sub", "deep", "name with\nnewline λ"), []byte("answer\x00"), 0o644))
	must(os.Symlink("../run.sh", filepath.Join(dir, "sub", "link")))
	must(os.Chmod(filepath.Join(dir, "sub"), 0o750))
}

func modes(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		info, _ := d.Info()
		desc := info.Mode().String()
		switch {
		case info.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			desc += " " + string(data)
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		}
		out[rel] = desc
		return nil
	})
	return out
}

func TestUploadDownloadRoundTrip(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	ctx := context.Background()
	src := t.TempDir()
	writeTree(t, src)
	if err := m.Upload(ctx, src, "/tmp/tree"); err != nil {
		t.Fatal(err)
	}
	r := run(t, m, sh("cd /tmp/tree && stat -c '%a %n' run.sh secret sub && ./sub/link && cat sub/deep/*"))
	if want := "755 run.sh\n600 secret\n750 sub\nran\nanswer\x00"; string(r.Stdout) != want {
		t.Fatalf("in machine: %q %q", r.Stdout, r.Stderr)
	}
	dst := filepath.Join(t.TempDir(), "back")
	if err := m.Download(ctx, "/tmp/tree", dst, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	got, want := modes(t, dst), modes(t, src)
	delete(got, ".")
	delete(want, ".")
	if len(got) != len(want) {
		t.Fatalf("got %v want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q: got %q want %q", k, got[k], v)
		}
	}

	// A single file, to a new directory, then read back from another cwd.
	file := filepath.Join(src, "run.sh")
	if err := m.Upload(ctx, file, "/tests/inputs/single.txt"); err != nil {
		t.Fatal(err)
	}
	cmd := sh("cat inputs/single.txt; stat -c %a inputs/single.txt")
	cmd.Cwd = "/tests"
	if r := run(t, m, cmd); string(r.Stdout) != "#!/bin/sh\necho ran\n755\n" {
		t.Fatalf("single file: %q %q", r.Stdout, r.Stderr)
	}
	run(t, m, sh("mkdir -p /logs/a && printf log > /logs/a/out.txt"))
	out := filepath.Join(t.TempDir(), "x", "out.txt")
	if err := m.Download(ctx, "/logs/a/out.txt", out, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(out); string(data) != "log" {
		t.Fatalf("downloaded %q", data)
	}
	// Host system files are readable through the machine.
	pw := filepath.Join(t.TempDir(), "passwd")
	if err := m.Download(ctx, "/etc/passwd", pw, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile("/etc/passwd")
	b, _ := os.ReadFile(pw)
	if !bytes.Equal(a, b) {
		t.Fatal("passwd differs")
	}
}

func TestTransferRejections(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	ctx := context.Background()
	var pe *machine.PathError
	var us *machine.UnsupportedSpec

	// Source trees with links out of the tree.
	for name, target := range map[string]string{"abs": "/etc/passwd", "up": "../../outside"} {
		src := t.TempDir()
		os.WriteFile(filepath.Join(src, "ok"), []byte("x"), 0o644)
		os.Symlink(target, filepath.Join(src, name))
		if err := m.Upload(ctx, src, "/tmp/rejected-"+name); !errors.As(err, &pe) || pe.NotFound {
			t.Errorf("%s link: %v", name, err)
		}
		if r := run(t, m, sh("ls /tmp/rejected-"+name)); code(r) == 0 {
			t.Errorf("%s: partial upload %q", name, r.Stdout)
		}
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, []byte("x"), 0o644)
	if err := m.Upload(ctx, file, "/tmp/../etc/x"); machine.KindOf(err) != machine.KindInvalid {
		t.Errorf("dotdot target: %v", err)
	}
	if err := m.Upload(ctx, file, "/usr/local/x"); !errors.As(err, &us) {
		t.Errorf("read-only target: %v", err)
	}
	if err := m.Download(ctx, "/tmp/../etc/passwd", filepath.Join(t.TempDir(), "x"), machine.DownloadOptions{}); machine.KindOf(err) != machine.KindInvalid {
		t.Errorf("dotdot source: %v", err)
	}

	// A planted link in the machine is never followed out.
	outside := t.TempDir()
	run(t, m, sh("mkdir -p /workspace/dst && ln -s /home /workspace/planted && ln -s /home /workspace/dst/link && ln -s "+outside+" /workspace/dst/host"))
	if err := m.Upload(ctx, file, "/workspace/planted/stolen"); !errors.As(err, &pe) || !strings.Contains(pe.Reason, "symbolic link") {
		t.Errorf("upload through planted link: %v", err)
	}
	tree := t.TempDir()
	os.MkdirAll(filepath.Join(tree, "link"), 0o755)
	os.WriteFile(filepath.Join(tree, "link", "evil"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(tree, "host"), 0o755)
	os.WriteFile(filepath.Join(tree, "host", "evil"), []byte("x"), 0o644)
	// The planted links are replaced by the uploaded directories, never
	// followed.
	if err := m.Upload(ctx, tree, "/workspace/dst"); err != nil {
		t.Errorf("upload over planted links: %v", err)
	}
	if r := run(t, m, sh("ls /home/evil")); code(r) == 0 {
		t.Errorf("file written through planted link")
	}
	if _, err := os.Stat(filepath.Join(outside, "evil")); err == nil {
		t.Errorf("file written to the host through a planted link")
	}
	if r := run(t, m, sh("test -d /workspace/dst/link && ! test -L /workspace/dst/link && cat /workspace/dst/link/evil")); string(r.Stdout) != "x" {
		t.Errorf("upload result: %q %q", r.Stdout, r.Stderr)
	}
	if err := m.Download(ctx, "/workspace/planted", filepath.Join(t.TempDir(), "x"), machine.DownloadOptions{}); !errors.As(err, &pe) {
		t.Errorf("download of planted link: %v", err)
	}
	// A downloaded tree with a link out of it is refused on the host.
	run(t, m, sh("mkdir -p /workspace/out && echo x > /workspace/out/f && ln -s /etc/passwd /workspace/out/pw"))
	hostDst := filepath.Join(t.TempDir(), "dl")
	if err := m.Download(ctx, "/workspace/out", hostDst, machine.DownloadOptions{}); !errors.As(err, &pe) {
		t.Errorf("download with a link out: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(hostDst, "pw")); err == nil {
		t.Errorf("link out created on the host")
	}

	// Missing sources.
	if err := m.Download(ctx, "/missing", filepath.Join(t.TempDir(), "x"), machine.DownloadOptions{}); !errors.As(err, &pe) || !pe.NotFound || machine.KindOf(err) != machine.KindNotFound {
		t.Errorf("missing download: %v", err)
	}
	if err := m.Upload(ctx, filepath.Join(t.TempDir(), "missing"), "/tmp/x"); !errors.As(err, &pe) || !pe.NotFound {
		t.Errorf("missing upload: %v", err)
	}
}

func TestDownloadMaxBytes(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	ctx := context.Background()
	run(t, m, sh("head -c 100 /dev/urandom > /tmp/f; chmod 640 /tmp/f; mkdir -p /tmp/d/e; head -c 6 /dev/zero > /tmp/d/a; head -c 5 /dev/zero > /tmp/d/e/b"))
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("original"), 0o644)
	var lim *machine.DownloadLimitExceeded
	if err := m.Download(ctx, "/tmp/f", target, machine.DownloadOptions{MaxBytes: 99}); !errors.As(err, &lim) {
		t.Fatalf("limit-1: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "original" {
		t.Fatalf("target touched: %q", data)
	}
	if err := m.Download(ctx, "/tmp/f", target, machine.DownloadOptions{MaxBytes: 100}); err != nil {
		t.Fatalf("exact limit: %v", err)
	}
	st, _ := os.Stat(target)
	if st.Size() != 100 || st.Mode().Perm() != 0o640 {
		t.Fatalf("got %v %v", st.Size(), st.Mode())
	}
	// A directory's bound is the total of its files; a negative MaxBytes
	// (the bridge's max_bytes=0) allows none.
	if err := m.Download(ctx, "/tmp/d", filepath.Join(dir, "d"), machine.DownloadOptions{MaxBytes: 10}); !errors.As(err, &lim) {
		t.Fatalf("directory over its bound: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "d")); err == nil {
		t.Fatal("a refused directory download left files")
	}
	if err := m.Download(ctx, "/tmp/d", filepath.Join(dir, "d"), machine.DownloadOptions{MaxBytes: 11}); err != nil {
		t.Fatalf("directory within its bound: %v", err)
	}
	if err := m.Download(ctx, "/tmp/f", filepath.Join(dir, "zero"), machine.DownloadOptions{MaxBytes: -1}); !errors.As(err, &lim) {
		t.Fatalf("zero bound: %v", err)
	}
	var pe *machine.PathError
	if err := m.Download(ctx, "/tmp/nope", filepath.Join(dir, "n"), machine.DownloadOptions{MaxBytes: 10}); !errors.As(err, &pe) || !pe.NotFound {
		t.Fatalf("missing: %v", err)
	}
	// A large file with a large bound keeps memory bounded.
	run(t, m, sh("head -c 268435456 /dev/zero > /tmp/big"))
	runtime.GC()
	rss0 := rssBytes(t)
	if err := m.Download(ctx, "/tmp/big", filepath.Join(dir, "big"), machine.DownloadOptions{MaxBytes: 1 << 30}); err != nil {
		t.Fatal(err)
	}
	growth := rssBytes(t) - rss0
	t.Logf("256 MiB bounded download: RSS growth %d KiB", growth>>10)
	if growth > 16<<20 {
		t.Fatalf("RSS grew by %d", growth)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".shellbox-download-") {
			t.Fatalf("temp file left: %s", e.Name())
		}
	}
}

// TestDirectTransfersKeepTheSandboxView: files that move straight through
// the machine's root directory (direct_linux.go) land where commands see
// them, and paths the sandbox mounts over, or links, still take the helper.
func TestDirectTransfersKeepTheSandboxView(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, []byte("payload"), 0o644)
	os.Chmod(file, 0o750|os.ModeSetgid)
	for _, target := range []string{"/workspace/f", "/dev/shm/f", "/tmp/f"} {
		if err := m.Upload(ctx, file, target); err != nil {
			t.Fatalf("upload to %s: %v", target, err)
		}
		if r := run(t, m, sh("cat "+target+"; stat -c ' %a' "+target)); string(r.Stdout) != "payload 2750\n" {
			t.Errorf("%s in the sandbox: %q %q", target, r.Stdout, r.Stderr)
		}
		back := filepath.Join(t.TempDir(), "back")
		if err := m.Download(ctx, target, back, machine.DownloadOptions{}); err != nil {
			t.Fatalf("download of %s: %v", target, err)
		}
		if data, _ := os.ReadFile(back); string(data) != "payload" {
			t.Errorf("%s downloaded as %q", target, data)
		}
		if err := m.Download(ctx, target, filepath.Join(t.TempDir(), "small"), machine.DownloadOptions{MaxBytes: 3}); machine.KindOf(err) != machine.KindDownloadLimit {
			t.Errorf("bounded download of %s: %v", target, err)
		}
	}
	// A link planted as the target file is replaced, never written through.
	outside := filepath.Join(t.TempDir(), "host-file")
	os.WriteFile(outside, []byte("host"), 0o644)
	run(t, m, sh("ln -s "+outside+" /workspace/link && ln -s /etc/hostname /workspace/link2"))
	m.Upload(ctx, file, "/workspace/link")
	if data, _ := os.ReadFile(outside); string(data) != "host" {
		t.Errorf("upload wrote through a planted link to the host: %q", data)
	}
	var pe *machine.PathError
	if err := m.Download(ctx, "/workspace/link2", filepath.Join(t.TempDir(), "x"), machine.DownloadOptions{}); !errors.As(err, &pe) {
		t.Errorf("download of a planted link: %v", err)
	}
}
