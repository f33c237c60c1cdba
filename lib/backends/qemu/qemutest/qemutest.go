// Package qemutest builds what QEMU backend tests and benchmarks boot: the
// guest program and a busybox image as an OCI layout.
package qemutest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
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
	"time"

	"github.com/opencontainers/go-digest"
	ispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/shellbox/shellbox/lib/machine"
)

// BuildGuest compiles shellbox-guest (static, no cgo) into dir.
func BuildGuest(dir string) (string, error) {
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
	out := filepath.Join(dir, "shellbox-guest")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/shellbox-guest")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the guest: %v: %s", err, b)
	}
	return out, nil
}

// BusyboxLayout writes an OCI layout of one image: the host's static
// busybox with a link per applet, an account besides root, an ENV and a
// WORKDIR.
func BusyboxLayout(dir string) (machine.PreparedImage, error) {
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
