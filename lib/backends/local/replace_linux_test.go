package local

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/machine"
)

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestReplaceAt(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fd := int(d.Fd())
	put := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Nothing to replace.
	put("tmp", "one")
	if err := replaceAt(fd, "tmp", "fresh"); err != nil || read(t, filepath.Join(dir, "fresh")) != "one" {
		t.Fatalf("into a free name: %v", err)
	}
	// A file with a second name: the name is replaced, the other keeps
	// the old contents and nothing is left under tmp.
	os.Link(filepath.Join(dir, "fresh"), filepath.Join(dir, "alias"))
	put("tmp", "two")
	if err := replaceAt(fd, "tmp", "fresh"); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dir, "fresh")) != "two" || read(t, filepath.Join(dir, "alias")) != "one" {
		t.Fatal("a hard link was written through")
	}
	if _, err := os.Lstat(filepath.Join(dir, "tmp")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("tmp left behind: %v", err)
	}
	// A symbolic link is replaced, never followed.
	outside := filepath.Join(t.TempDir(), "outside")
	os.WriteFile(outside, []byte("host"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "link"))
	put("tmp", "three")
	if err := replaceAt(fd, "tmp", "link"); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(filepath.Join(dir, "link")); !st.Mode().IsRegular() || read(t, outside) != "host" {
		t.Fatal("a symbolic link was followed")
	}
	// A directory is left as it was, and tmp stays the caller's.
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	put("sub/inside", "kept")
	put("tmp", "four")
	if err := replaceAt(fd, "tmp", "sub"); !errors.Is(err, unix.EISDIR) {
		t.Fatalf("over a directory: %v", err)
	}
	if read(t, filepath.Join(dir, "sub", "inside")) != "kept" || read(t, filepath.Join(dir, "tmp")) != "four" {
		t.Fatal("the directory or tmp changed")
	}
}

// TestDirectTransfersReplaceWithoutWritingThrough: the direct path
// replaces a target's name on either side; a second hard link, a link out
// of the machine and the host's own links keep what they had.
func TestDirectTransfersReplaceWithoutWritingThrough(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "src")
	os.WriteFile(src, []byte("new"), 0o644)

	run(t, m, sh("echo old > /workspace/t && ln /workspace/t /workspace/alias"))
	if err := m.Upload(ctx, src, "/workspace/t"); err != nil {
		t.Fatal(err)
	}
	if r := run(t, m, sh("cat /workspace/t /workspace/alias; ls -A /workspace")); string(r.Stdout) != "newold\nalias\nt\n" {
		t.Fatalf("after the upload: %q", r.Stdout)
	}

	hostDir := t.TempDir()
	target, alias, pointee := filepath.Join(hostDir, "target"), filepath.Join(hostDir, "alias"), filepath.Join(hostDir, "pointee")
	os.WriteFile(target, []byte("host"), 0o644)
	os.Link(target, alias)
	os.WriteFile(pointee, []byte("pointee"), 0o644)
	if err := m.Download(ctx, "/workspace/t", target, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if read(t, target) != "new" || read(t, alias) != "host" {
		t.Fatalf("download wrote through a hard link: %q %q", read(t, target), read(t, alias))
	}
	link := filepath.Join(hostDir, "link")
	os.Symlink(pointee, link)
	if err := m.Download(ctx, "/workspace/t", link, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(link); !st.Mode().IsRegular() || read(t, pointee) != "pointee" {
		t.Fatal("download followed a host link")
	}
	entries, _ := os.ReadDir(hostDir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".shellbox") {
			t.Errorf("left behind on the host: %s", e.Name())
		}
	}
}

// TestDirectTransfersUnderARacingGuest: while transfers run, the guest
// keeps swapping the target and its parent between a directory, a file and
// links to host paths outside the machine. Nothing outside the machine is
// created, written or read into a download.
func TestDirectTransfersUnderARacingGuest(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	hostDir := t.TempDir()
	secret := filepath.Join(hostDir, "secret")
	os.WriteFile(secret, []byte("host secret"), 0o600)
	src := filepath.Join(t.TempDir(), "src")
	os.WriteFile(src, []byte("payload"), 0o644)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	script := `cd /workspace; mkdir -p real; while :; do
		rm -rf d; ln -s ` + hostDir + ` d; rm -f d; mkdir d
		rm -rf d/x; ln -s ` + secret + ` d/x; rm -f d/x; mkdir d/x; rmdir d/x; echo guest > d/x
		rm -rf x; ln -s ` + secret + ` x; rm -f x; ln -s ` + hostDir + `/new x; rm -f x; mkdir x; rmdir x
	done`
	racer := make(chan error, 1)
	go func() {
		_, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 1 << 10})
		racer <- err
	}()
	down := t.TempDir()
	deadline := time.Now().Add(3 * time.Second)
	for i := 0; time.Now().Before(deadline); i++ {
		for _, p := range []string{"/workspace/d/x", "/workspace/x"} {
			m.Upload(ctx, src, p)
			back := filepath.Join(down, "back")
			if err := m.Download(ctx, p, back, machine.DownloadOptions{}); err == nil {
				if data, _ := os.ReadFile(back); strings.Contains(string(data), "host secret") {
					t.Fatalf("a download of %s read the host's file", p)
				}
			}
			os.RemoveAll(back)
		}
	}
	cancel()
	<-racer
	entries, _ := os.ReadDir(hostDir)
	if len(entries) != 1 || read(t, secret) != "host secret" {
		t.Fatalf("the host directory changed: %v", entries)
	}
	if st, _ := os.Stat(secret); st.Mode().Perm() != 0o600 {
		t.Fatalf("the host file's mode changed: %v", st.Mode())
	}
}
