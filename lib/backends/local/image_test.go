package local

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

// busyboxLayout builds an OCI image layout holding a static busybox, with
// the umoci CLI, and returns it with its manifest digest.
func busyboxLayout(t *testing.T, config ...string) machine.PreparedImage {
	return busyboxLayoutWith(t, nil, config...)
}

// busyboxLayoutWith is busyboxLayout with a second layer made by editing
// the unpacked first one.
func busyboxLayoutWith(t *testing.T, edit func(rootfs string), config ...string) machine.PreparedImage {
	t.Helper()
	for _, tool := range []string{"umoci", "busybox"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not installed (apt-get install umoci busybox-static; .ci/run does)", tool)
		}
	}
	bb, _ := exec.LookPath("busybox")
	dir := t.TempDir()
	layout, bundle := filepath.Join(dir, "layout"), filepath.Join(dir, "bundle")
	sh := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	sh("umoci", "init", "--layout", layout)
	sh("umoci", "new", "--image", layout+":image")
	var rootless []string
	if os.Geteuid() != 0 {
		rootless = []string{"--rootless"}
	}
	sh(append([]string{"umoci", "unpack"}, append(rootless, "--image", layout+":image", bundle)...)...)
	rootfs := filepath.Join(bundle, "rootfs")
	for _, d := range []string{"bin", "etc", "app", "var/tmp", "root"} {
		os.MkdirAll(filepath.Join(rootfs, d), 0o755)
	}
	sh("cp", bb, filepath.Join(rootfs, "bin", "busybox"))
	list, err := exec.Command(bb, "--list").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, applet := range strings.Fields(string(list)) {
		if applet != "busybox" {
			os.Symlink("busybox", filepath.Join(rootfs, "bin", applet))
		}
	}
	os.WriteFile(filepath.Join(rootfs, "etc", "passwd"), []byte("root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\napp:x:1000:1000::/home/app:/bin/sh\n"), 0o644)
	os.WriteFile(filepath.Join(rootfs, "etc", "group"), []byte("root:x:0:\nnogroup:x:65534:\n"), 0o644)
	os.WriteFile(filepath.Join(rootfs, "app", "hello.txt"), []byte("from the image\n"), 0o644)
	sh("umoci", "repack", "--image", layout+":image", bundle)
	if edit != nil {
		bundle2 := filepath.Join(dir, "bundle2")
		sh(append([]string{"umoci", "unpack"}, append(rootless, "--image", layout+":image", bundle2)...)...)
		edit(filepath.Join(bundle2, "rootfs"))
		sh("umoci", "repack", "--image", layout+":image", bundle2)
	}
	args := append([]string{"umoci", "config", "--image", layout + ":image", "--config.env", "FOO=bar", "--config.env", "PATH=/bin"}, config...)
	sh(args...)
	data, err := os.ReadFile(filepath.Join(layout, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var index struct {
		Manifests []struct {
			Digest      string            `json:"digest"`
			Annotations map[string]string `json:"annotations"`
		} `json:"manifests"`
	}
	json.Unmarshal(data, &index)
	for _, m := range index.Manifests {
		if m.Annotations["org.opencontainers.image.ref.name"] == "image" {
			return machine.PreparedImage{Layout: layout, ManifestDigest: m.Digest}
		}
	}
	t.Fatalf("no image in %s", data)
	return machine.PreparedImage{}
}

func TestPreparedImage(t *testing.T) {
	img := busyboxLayout(t, "--config.workingdir", "/app")
	cache := t.TempDir()
	f := newFactory(t, Options{CacheDir: cache})
	spec := machine.Spec{Source: img, Network: machine.NetworkDeny}
	m := newMachine(t, f, spec)
	r := run(t, m, sh(`pwd; echo $FOO; cat hello.txt; echo new > new.txt; touch /tmp/t /var/tmp/t && echo writable; touch /bin/x 2>/dev/null || echo ro; id -u`))
	if want := "/app\nbar\nfrom the image\nwritable\nro\n0\n"; string(r.Stdout) != want {
		t.Fatalf("got %q %q", r.Stdout, r.Stderr)
	}
	if os.Geteuid() == 0 {
		cmd := sh("id -u; echo $HOME")
		cmd.User = "nobody"
		if r := run(t, m, cmd); string(r.Stdout) != "65534\n/nonexistent\n" {
			t.Fatalf("user switch: %q %q", r.Stdout, r.Stderr)
		}
	}
	// A second machine starts from the image again, from the cache.
	m2 := newMachine(t, f, spec)
	if r := run(t, m2, sh("ls /app")); string(r.Stdout) != "hello.txt\n" {
		t.Fatalf("fresh machine sees %q", r.Stdout)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 || entries[0].Name() != strings.Replace(img.ManifestDigest, ":", "-", 1) {
		t.Fatalf("cache holds %v", entries)
	}
	// Downloads and uploads work on the image's writable places.
	dst := filepath.Join(t.TempDir(), "new.txt")
	if err := m.Download(context.Background(), "/app/new.txt", dst, machine.DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	var us *machine.UnsupportedSpec
	if err := m.Upload(context.Background(), dst, "/bin/new"); !errors.As(err, &us) {
		t.Fatalf("upload to a read-only image dir: %v", err)
	}
}

func TestPreparedImageConcurrentUnpack(t *testing.T) {
	img := busyboxLayout(t, "--config.user", "nobody")
	cache := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Separate factories stand for separate processes.
			f := newFactory(t, Options{CacheDir: cache})
			m, err := f.Create(context.Background(), machine.Spec{Source: img, Workdir: "/work", Network: machine.NetworkDeny})
			if err != nil {
				errs <- err
				return
			}
			defer m.Close(context.Background())
			r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "id -u; pwd"}, OutputLimit: 100})
			want := "65534\n/work\n"
			if err != nil || string(r.Stdout) != want {
				errs <- errors.New(string(r.Stdout) + string(r.Stderr))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 {
		t.Fatalf("cache holds %v", entries)
	}
}

func TestPreparedImageBadDigest(t *testing.T) {
	img := busyboxLayout(t)
	f := newFactory(t, Options{CacheDir: t.TempDir()})
	img.ManifestDigest = "sha256:" + strings.Repeat("0", 64)
	_, err := f.Create(context.Background(), machine.Spec{Source: img, Network: machine.NetworkDeny})
	if machine.KindOf(err) != machine.KindInvalid {
		t.Fatalf("got %v", err)
	}
}

func TestPreparedImageWhiteout(t *testing.T) {
	img := busyboxLayoutWith(t, func(rootfs string) {
		os.Remove(filepath.Join(rootfs, "app", "hello.txt"))
		os.WriteFile(filepath.Join(rootfs, "app", "second.txt"), []byte("layer two\n"), 0o600)
	})
	f := newFactory(t, Options{CacheDir: t.TempDir()})
	m := newMachine(t, f, machine.Spec{Source: img, Workdir: "/app", Network: machine.NetworkDeny})
	if r := run(t, m, sh("ls -A /app; stat -c %a /app/second.txt; cat /app/second.txt")); string(r.Stdout) != "second.txt\n600\nlayer two\n" {
		t.Fatalf("got %q %q", r.Stdout, r.Stderr)
	}
}
