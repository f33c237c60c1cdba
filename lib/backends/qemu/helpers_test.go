package qemu

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opencontainers/go-digest"
	ispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shellbox/shellbox/lib/machine"
)

// testRoot holds what the tests of this package share: the guest build,
// the boot assets and staged disk cache, and the busybox image.
var (
	testOnce   sync.Once
	testRoot   string
	testGuest  string
	testImage  machine.PreparedImage
	testSetErr error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if testRoot != "" {
		os.RemoveAll(testRoot)
	}
	os.Exit(code)
}

// setup builds the guest program and a busybox image once.
func setup(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("qemu-system-x86_64"); err != nil {
		t.Fatalf("QEMU tests need qemu-system-x86 installed: %v", err)
	}
	testOnce.Do(func() {
		testRoot, testSetErr = os.MkdirTemp("", "shellbox-qemu-test-")
		if testSetErr != nil {
			return
		}
		_, file, _, _ := runtime.Caller(0)
		repo := filepath.Join(filepath.Dir(file), "..", "..", "..")
		testGuest = filepath.Join(testRoot, "shellbox-guest")
		cmd := exec.Command("go", "build", "-o", testGuest, "./cmd/shellbox-guest")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			testSetErr = fmt.Errorf("building the guest: %v: %s", err, out)
			return
		}
		testImage, testSetErr = busyboxLayout(filepath.Join(testRoot, "busybox-oci"))
	})
	if testSetErr != nil {
		t.Fatal(testSetErr)
	}
}

// newTestFactory is a TCG factory using the shared cache.
func newTestFactory(t testing.TB, o Options) *Factory {
	t.Helper()
	setup(t)
	if o.Acceleration == "" {
		o.Acceleration = AccelTCG
	}
	if o.Guest == "" {
		o.Guest = testGuest
	}
	if o.CacheDir == "" {
		o.CacheDir = filepath.Join(testRoot, "cache")
	}
	if o.DiskSizeMB == 0 {
		o.DiskSizeMB = 64
	}
	f, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func testSpec() machine.Spec {
	return machine.Spec{Source: testImage, Workdir: "/workspace", Network: machine.NetworkDeny,
		Env: map[string]string{"SPEC_VAR": "from-spec"}, StartupTimeout: 5 * time.Minute}
}

// newTestMachine boots a busybox machine, closed at the end of the test.
func newTestMachine(t testing.TB, f *Factory, spec machine.Spec) *Machine {
	t.Helper()
	m, err := f.Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m.(*Machine)
}

// busyboxLayout writes an OCI layout of one image: the host's static
// busybox with a link per applet, an account besides root, an ENV and a
// WORKDIR.
func busyboxLayout(dir string) (machine.PreparedImage, error) {
	bb, err := exec.LookPath("busybox")
	if err != nil {
		return machine.PreparedImage{}, fmt.Errorf("the test image needs busybox-static: %w", err)
	}
	out, err := exec.Command(bb, "--list").Output()
	if err != nil {
		return machine.PreparedImage{}, err
	}
	bin, err := os.ReadFile(bb)
	if err != nil {
		return machine.PreparedImage{}, err
	}
	var layer bytes.Buffer
	gz := gzip.NewWriter(&layer)
	tw := tar.NewWriter(gz)
	add := func(h *tar.Header, data []byte) {
		h.Size = int64(len(data))
		h.ModTime = time.Unix(1700000000, 0)
		tw.WriteHeader(h)
		tw.Write(data)
	}
	for _, d := range []string{"bin/", "etc/", "root/", "home/", "home/alice/", "srv/"} {
		add(&tar.Header{Name: d, Typeflag: tar.TypeDir, Mode: 0o755}, nil)
	}
	add(&tar.Header{Name: "home/alice/", Typeflag: tar.TypeDir, Mode: 0o755, Uid: 1000, Gid: 1000}, nil)
	add(&tar.Header{Name: "bin/busybox", Typeflag: tar.TypeReg, Mode: 0o755}, bin)
	for _, a := range strings.Fields(string(out)) {
		if a != "busybox" {
			add(&tar.Header{Name: "bin/" + a, Typeflag: tar.TypeSymlink, Linkname: "busybox", Mode: 0o777}, nil)
		}
	}
	add(&tar.Header{Name: "etc/passwd", Typeflag: tar.TypeReg, Mode: 0o644},
		[]byte("root:x:0:0:root:/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n"))
	add(&tar.Header{Name: "etc/group", Typeflag: tar.TypeReg, Mode: 0o644}, []byte("root:x:0:\nalice:x:1000:\n"))
	add(&tar.Header{Name: "srv/data.txt", Typeflag: tar.TypeReg, Mode: 0o640}, []byte("image data\n"))
	tw.Close()
	gz.Close()

	blobs := filepath.Join(dir, "blobs", "sha256")
	if err := os.MkdirAll(blobs, 0o755); err != nil {
		return machine.PreparedImage{}, err
	}
	put := func(data []byte) ispec.Descriptor {
		sum := sha256.Sum256(data)
		h := hex.EncodeToString(sum[:])
		os.WriteFile(filepath.Join(blobs, h), data, 0o644)
		return ispec.Descriptor{Digest: digest.Digest("sha256:" + h), Size: int64(len(data))}
	}
	zr, _ := gzip.NewReader(bytes.NewReader(layer.Bytes()))
	uncompressed, _ := io.ReadAll(zr)
	diffID := sha256.Sum256(uncompressed)
	cfg := ispec.Image{Platform: ispec.Platform{OS: "linux", Architecture: "amd64"},
		Config: ispec.ImageConfig{Env: []string{"PATH=/bin", "IMAGE_VAR=from-image"}, WorkingDir: "/srv"},
		RootFS: ispec.RootFS{Type: "layers", DiffIDs: []digest.Digest{digest.Digest("sha256:" + hex.EncodeToString(diffID[:]))}}}
	cfgData, _ := json.Marshal(cfg)
	cfgDesc := put(cfgData)
	cfgDesc.MediaType = ispec.MediaTypeImageConfig
	layerDesc := put(layer.Bytes())
	layerDesc.MediaType = ispec.MediaTypeImageLayerGzip
	man := ispec.Manifest{MediaType: ispec.MediaTypeImageManifest, Config: cfgDesc, Layers: []ispec.Descriptor{layerDesc}}
	man.SchemaVersion = 2
	manData, _ := json.Marshal(man)
	manDesc := put(manData)
	manDesc.MediaType = ispec.MediaTypeImageManifest
	manDesc.Annotations = map[string]string{ispec.AnnotationRefName: "latest"}
	idx := ispec.Index{Manifests: []ispec.Descriptor{manDesc}}
	idx.SchemaVersion = 2
	idxData, _ := json.Marshal(idx)
	os.WriteFile(filepath.Join(dir, "index.json"), idxData, 0o644)
	os.WriteFile(filepath.Join(dir, "oci-layout"), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644)
	return machine.PreparedImage{Layout: dir, ManifestDigest: string(manDesc.Digest)}, nil
}
