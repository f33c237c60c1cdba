package oci

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/apex/log"
	ispec "github.com/opencontainers/image-spec/specs-go/v1"
	rspec "github.com/opencontainers/runtime-spec/specs-go"
	"github.com/opencontainers/umoci/oci/cas/dir"
	"github.com/opencontainers/umoci/oci/layer"
)

var digestRE = regexp.MustCompile(`^sha256:([0-9a-f]{64})$`)

// ErrPlatform is returned for an image that is not linux/amd64.
var ErrPlatform = fmt.Errorf("only linux/amd64 images are supported")

// Image is one verified image of a layout.
type Image struct {
	Layout         string
	ManifestDigest string
	Manifest       ispec.Manifest
	Config         ispec.Image
}

// ReadBlob reads a blob of a layout and checks it against its digest.
func ReadBlob(layout, digest string) ([]byte, error) {
	m := digestRE.FindStringSubmatch(digest)
	if m == nil {
		return nil, fmt.Errorf("digest %q is not sha256:<64 hex digits>", digest)
	}
	data, err := os.ReadFile(filepath.Join(layout, "blobs", "sha256", m[1]))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != m[1] {
		return nil, fmt.Errorf("blob %s does not match its digest", digest)
	}
	return data, nil
}

// Open reads and verifies the manifest and config of the image whose
// manifest has the given digest; a platform other than linux/amd64 gives
// ErrPlatform.
func Open(layout, manifestDigest string) (*Image, error) {
	data, err := ReadBlob(layout, manifestDigest)
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	img := &Image{Layout: layout, ManifestDigest: manifestDigest}
	if err := json.Unmarshal(data, &img.Manifest); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	cfg, err := ReadBlob(layout, string(img.Manifest.Config.Digest))
	if err != nil {
		return nil, fmt.Errorf("image config: %w", err)
	}
	if err := json.Unmarshal(cfg, &img.Config); err != nil {
		return nil, fmt.Errorf("image config: %w", err)
	}
	if img.Config.OS != "linux" || img.Config.Architecture != "amd64" {
		return nil, ErrPlatform
	}
	// umoci indexes one by the other without checking.
	if len(img.Config.RootFS.DiffIDs) != len(img.Manifest.Layers) {
		return nil, fmt.Errorf("image config lists %d layer diff IDs for %d layers", len(img.Config.RootFS.DiffIDs), len(img.Manifest.Layers))
	}
	return img, nil
}

// quietUmoci turns off umoci's per-layer progress logging.
var quietUmoci sync.Once

// Unpack extracts the image's layers into dest (which must not exist). As
// root the layers' owners are kept; otherwise every file belongs to the
// caller (umoci's rootless mode).
func (img *Image) Unpack(ctx context.Context, dest string) error {
	engine, err := dir.Open(img.Layout)
	if err != nil {
		return fmt.Errorf("opening the layout: %w", err)
	}
	defer engine.Close()
	mapOpts := layer.MapOptions{}
	if uid, gid := os.Geteuid(), os.Getegid(); uid != 0 {
		mapOpts = layer.MapOptions{Rootless: true,
			UIDMappings: []rspec.LinuxIDMapping{{HostID: uint32(uid), ContainerID: 0, Size: 1}},
			GIDMappings: []rspec.LinuxIDMapping{{HostID: uint32(gid), ContainerID: 0, Size: 1}}}
	}
	quietUmoci.Do(func() { log.SetLevel(log.WarnLevel) })
	opts := &layer.UnpackOptions{OnDiskFormat: layer.DirRootfs{MapOptions: mapOpts}}
	if err := layer.UnpackRootfs(ctx, engine, dest, img.Manifest, opts); err != nil {
		return fmt.Errorf("unpacking %s: %w", img.ManifestDigest, err)
	}
	return nil
}

// ResolveTag finds the manifest of an OCI layout's index.json named tag
// (org.opencontainers.image.ref.name); with tag "" the index must hold
// exactly one manifest.
func ResolveTag(layout, tag string) (string, error) {
	data, err := os.ReadFile(filepath.Join(layout, "index.json"))
	if err != nil {
		return "", fmt.Errorf("OCI layout %s: %w", layout, err)
	}
	var idx ispec.Index
	if err := json.Unmarshal(data, &idx); err != nil {
		return "", fmt.Errorf("OCI layout %s: index.json: %w", layout, err)
	}
	var found []string
	for _, m := range idx.Manifests {
		if tag == "" || m.Annotations[ispec.AnnotationRefName] == tag {
			found = append(found, string(m.Digest))
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case tag == "":
		return "", fmt.Errorf("OCI layout %s holds %d manifests: name one with :TAG", layout, len(found))
	case len(found) == 0:
		return "", fmt.Errorf("OCI layout %s has no manifest tagged %q", layout, tag)
	}
	return "", fmt.Errorf("OCI layout %s has %d manifests tagged %q", layout, len(found), tag)
}
