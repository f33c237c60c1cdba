package qemu

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/image"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci/ocitest"
)

// TestRegistryImage pulls the busybox image from a real registry on
// loopback (TLS with its own CA, basic authentication from an auth file)
// with containers/image, boots it, and pulls it only once.
func TestRegistryImage(t *testing.T) {
	setup(t)
	reg := ocitest.NewRegistry(t)
	ref := reg.PushLayout(t, testImage.Layout, "shellbox/busybox:v1")
	cache := filepath.Join(t.TempDir(), "cache")
	no := false
	f := newTestFactory(t, Options{CacheDir: cache, AuthFile: reg.AuthFile, RegistryCertDir: reg.CertDir, Restore: &no})
	spec := testSpec()
	spec.Source = machine.RegistryImage{Reference: ref}
	m := newTestMachine(t, f, spec)
	r := run(t, m, sh(`cat /srv/data.txt; echo "$IMAGE_VAR"`))
	if string(r.Stdout) != "image data\nfrom-image\n" {
		t.Fatalf("got %q %q", r.Stdout, r.Stderr)
	}
	pulls := reg.Pulls.Load()
	_, use, err := f.prepare(context.Background(), spec.Source)
	if use != nil {
		use.Close()
	}
	if err != nil || reg.Pulls.Load() != pulls {
		t.Fatalf("a second create pulled again (%d -> %d manifest GETs): %v", pulls, reg.Pulls.Load(), err)
	}

	// No credentials: a startup error naming the refusal, before any boot.
	bare := newTestFactory(t, Options{CacheDir: filepath.Join(t.TempDir(), "cache"), AuthFile: filepath.Join(t.TempDir(), "none.json"), RegistryCertDir: reg.CertDir})
	var se *machine.StartupError
	if _, err := bare.Create(context.Background(), spec); !errors.As(err, &se) || !strings.Contains(err.Error(), "unauthorized") {
		t.Fatalf("without credentials: %v", err)
	}
	// Another transport is not a registry reference.
	spec.Source = machine.RegistryImage{Reference: "oci:" + testImage.Layout}
	var inv *machine.InvalidSpec
	if _, err := f.Create(context.Background(), spec); !errors.As(err, &inv) {
		t.Fatalf("oci: reference: %v", err)
	}
}

// TestDockerfileSource builds a Dockerfile with the local Docker daemon
// through the Engine API (.dockerignore applied to the context) and boots
// the result; the image needs no shell: argv runs through the agent.
func TestDockerfileSource(t *testing.T) {
	setup(t)
	bb, err := exec.LookPath("busybox")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin, _ := os.ReadFile(bb)
	files := map[string]string{
		"busybox":       string(bin),
		"greeting":      "built by the daemon\n",
		"secret.txt":    "must not reach the image\n",
		".dockerignore": "secret.txt\n",
		"Dockerfile":    "FROM scratch\nCOPY busybox /bin/busybox\nCOPY . /ctx/\nENV VIA=dockerfile\nWORKDIR /ctx\n",
	}
	for n, d := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	no := false
	f := newTestFactory(t, Options{CacheDir: filepath.Join(t.TempDir(), "cache"), Restore: &no})
	spec := testSpec()
	spec.Workdir = ""
	spec.Source = machine.DockerfileSource{Context: dir, Dockerfile: filepath.Join(dir, "Dockerfile")}
	t.Cleanup(func() { removeBuilt(t, f) })
	m := newTestMachine(t, f, spec)
	r := run(t, m, machine.Command{Argv: []string{"/bin/busybox", "sh", "-c", `busybox cat greeting; echo "$VIA $PWD"; busybox ls`}})
	if code(r) != 0 || !strings.HasPrefix(string(r.Stdout), "built by the daemon\ndockerfile /ctx\n") || strings.Contains(string(r.Stdout), "secret") {
		t.Fatalf("got %d %q %q", code(r), r.Stdout, r.Stderr)
	}

	// A Dockerfile that does not build: a startup error with the
	// builder's message; a missing context: the source is invalid.
	os.WriteFile(filepath.Join(dir, "Bad"), []byte("FROM scratch\nCOPY absent /x\n"), 0o644)
	spec.Source = machine.DockerfileSource{Context: dir, Dockerfile: filepath.Join(dir, "Bad")}
	var se *machine.StartupError
	if _, err := f.Create(context.Background(), spec); !errors.As(err, &se) || !strings.Contains(err.Error(), "absent") {
		t.Fatalf("failing build: %v", err)
	}
	spec.Source = machine.DockerfileSource{Context: filepath.Join(dir, "nope"), Dockerfile: filepath.Join(dir, "Dockerfile")}
	var inv *machine.InvalidSpec
	if _, err := f.Create(context.Background(), spec); !errors.As(err, &inv) {
		t.Fatalf("missing context: %v", err)
	}
}

// removeBuilt removes from the daemon the images f exported (named by
// their ids in its cache).
func removeBuilt(t *testing.T, f *Factory) {
	cli, err := f.dockerClient()
	if err != nil {
		return
	}
	// Bounded: a busy shared daemon must not hold up the test's end.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	entries, _ := os.ReadDir(filepath.Join(f.cacheDir, "docker"))
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if _, err := cli.ImageRemove(ctx, "sha256:"+e.Name(), image.RemoveOptions{Force: true, PruneChildren: true}); err != nil {
				t.Logf("removing the built image: %v", err)
			}
		}
	}
}
