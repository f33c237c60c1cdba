package oci

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"

	"github.com/shellbox/shellbox/lib/oci/ocitest"
)

func opts(r *ocitest.Registry) PullOptions {
	return PullOptions{AuthFile: r.AuthFile, CertDir: r.CertDir}
}

// testImage is one layer holding /arch (the platform's name) and
// /etc/hello; its config says the platform and an ENV.
func testImage(t *testing.T, arch string) v1.Image {
	t.Helper()
	// A fixed tar (crane.Layer's map order would give a new digest on
	// every read).
	data := archive(entry{name: "arch", data: []byte(arch)}, entry{name: "etc/hello", data: []byte("hello from the registry\n")})
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
	if err != nil {
		t.Fatal(err)
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := img.ConfigFile()
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", arch
	cfg.Config.Env = []string{"PATH=/bin", "BUILT_FOR=" + arch}
	cfg.Config.WorkingDir = "/srv"
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		t.Fatal(err)
	}
	return img
}

func multiArch(t *testing.T) v1.ImageIndex {
	var adds []mutate.IndexAddendum
	for _, arch := range []string{"arm64", "amd64"} {
		adds = append(adds, mutate.IndexAddendum{Add: testImage(t, arch),
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: arch}}})
	}
	return mutate.AppendManifests(empty.Index, adds...)
}

func pull(t *testing.T, ref string, o PullOptions) (string, string, error) {
	t.Helper()
	src, err := ParseSource(ref)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "layout")
	d, err := Pull(context.Background(), src, dir, o)
	return dir, d, err
}

// A tag naming a manifest list gives its linux/amd64 image, converted to
// an OCI manifest whose layers umoci unpacks; credentials come from the
// auth file and the registry's CA from the cert directory.
func TestPullChoosesAmd64FromAManifestList(t *testing.T) {
	r := ocitest.NewRegistry(t)
	ref := r.Push(t, "shellbox/multi:v1", multiArch(t))
	dir, d, err := pull(t, ref, opts(r))
	if err != nil {
		t.Fatal(err)
	}
	img, err := Open(dir, d)
	if err != nil {
		t.Fatal(err)
	}
	if img.Manifest.MediaType != "application/vnd.oci.image.manifest.v1+json" || img.Config.Config.WorkingDir != "/srv" ||
		!strings.Contains(strings.Join(img.Config.Config.Env, " "), "BUILT_FOR=amd64") {
		t.Fatalf("manifest %+v config %+v", img.Manifest, img.Config.Config)
	}
	got, err := ResolveTag(dir, LayoutTag)
	if err != nil || got != d {
		t.Fatalf("layout tag %q: %s %v", LayoutTag, got, err)
	}
	rootfs := filepath.Join(t.TempDir(), "rootfs")
	if err := img.Unpack(context.Background(), rootfs); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(rootfs, "arch")); string(b) != "amd64" {
		t.Fatalf("unpacked /arch = %q", b)
	}

	// The same image by the list's digest: the same manifest.
	idxDigest, _ := multiArch(t).Digest()
	_, d2, err := pull(t, r.Host+"/shellbox/multi@"+idxDigest.String(), opts(r))
	if err != nil || d2 != d {
		t.Fatalf("by digest: %s %v (want %s)", d2, err, d)
	}
}

func TestPullRefusals(t *testing.T) {
	r := ocitest.NewRegistry(t)
	ref := r.Push(t, "shellbox/one:latest", testImage(t, "amd64"))
	cases := map[string]struct {
		ref  string
		o    PullOptions
		want string
	}{
		"no credentials":  {ref, PullOptions{CertDir: r.CertDir, AuthFile: filepath.Join(t.TempDir(), "none.json")}, "unauthorized"},
		"untrusted TLS":   {ref, PullOptions{AuthFile: r.AuthFile}, "certificate"},
		"absent tag":      {r.Host + "/shellbox/one:absent", opts(r), "manifest unknown"},
		"absent repo":     {r.Host + "/shellbox/absent:latest", opts(r), "unknown"},
		"wrong digest":    {r.Host + "/shellbox/one@sha256:" + strings.Repeat("ab", 32), opts(r), "unknown"},
		"arm64 only":      {r.Push(t, "shellbox/arm:latest", testImage(t, "arm64")), opts(r), "linux/amd64"},
		"listless arm64 ": {r.Push(t, "shellbox/armlist:latest", mutate.AppendManifests(empty.Index, mutate.IndexAddendum{Add: testImage(t, "arm64"), Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: "arm64"}}})), opts(r), "amd64"},
	}
	for n, c := range cases {
		_, _, err := pull(t, c.ref, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", n, err, c.want)
		}
	}
	_, _, err := pull(t, r.Host+"/shellbox/arm:latest", opts(r))
	if !errors.Is(err, ErrPlatform) {
		t.Errorf("arm64 image: %v is not ErrPlatform", err)
	}
}

// A registry (or a path to it) that changes a layer's bytes is caught
// by the digest, and the layout keeps no blob of it.
func TestPullRefusesATamperedLayer(t *testing.T) {
	r := ocitest.NewRegistry(t)
	img := testImage(t, "amd64")
	ref := r.Push(t, "shellbox/tampered:latest", img)
	layers, _ := img.Layers()
	ld, _ := layers[0].Digest()
	r.Tamper(ld.String())
	dir, _, err := pull(t, ref, opts(r))
	if err == nil || !strings.Contains(err.Error(), "does not match its digest") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "blobs", "sha256", ld.Hex)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the tampered blob was kept: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "oci-put-blob") {
			t.Fatalf("a partial blob was left: %s", e.Name())
		}
	}
}

func TestParseSource(t *testing.T) {
	for in, want := range map[string]string{
		"busybox":                      "docker",
		"docker://ghcr.io/org/img:1.0": "docker",
		"docker-daemon:img:tag":        "docker-daemon",
		"oci:/tmp/layout:tag":          "oci",
	} {
		ref, err := ParseSource(in)
		if err != nil || ref.Transport().Name() != want {
			t.Errorf("%s: %v %v", in, ref, err)
		}
	}
	for _, bad := range []string{"a//b", "docker://", "a b"} {
		if _, err := ParseSource(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
