package oci

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/docker/docker/client"
	"github.com/opencontainers/go-digest"
	"github.com/opencontainers/image-spec/specs-go"
	ispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// ImageSaver is the part of the Docker Engine API client that exports
// images (docker save).
type ImageSaver interface {
	ImageSave(ctx context.Context, images []string, opts ...client.ImageSaveOption) (io.ReadCloser, error)
}

// SaveDockerImage exports an image of the Docker daemon into a new OCI
// layout at dir and returns the digest of its linux/amd64 manifest. The
// daemon's archive is either an OCI layout already (Docker 25 and newer)
// or the older docker-archive format (manifest.json naming a config and
// uncompressed layer tars), which is converted; both give the same
// manifest digest for the same image content.
func SaveDockerImage(ctx context.Context, cli ImageSaver, ref, dir string) (string, error) {
	rc, err := cli.ImageSave(ctx, []string{ref})
	if err != nil {
		return "", fmt.Errorf("exporting %s from the Docker daemon: %w", ref, err)
	}
	defer rc.Close()
	arch := filepath.Join(dir, ".archive")
	links, err := extractArchive(rc, arch)
	if err != nil {
		return "", fmt.Errorf("exporting %s from the Docker daemon: %w", ref, err)
	}
	defer os.RemoveAll(arch)
	open := func(name string) (*os.File, error) {
		name = path.Clean(name)
		for i := 0; i < 16; i++ {
			t, ok := links[name]
			if !ok {
				break
			}
			name = t
		}
		return os.Open(filepath.Join(arch, filepath.FromSlash(name)))
	}
	blobs := filepath.Join(dir, "blobs", "sha256")
	if err := os.MkdirAll(blobs, 0o755); err != nil {
		return "", err
	}
	put := func(r io.Reader, mediaType string) (ispec.Descriptor, error) {
		tmp, err := os.CreateTemp(blobs, ".blob-")
		if err != nil {
			return ispec.Descriptor{}, err
		}
		defer os.Remove(tmp.Name())
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(tmp, h), r)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return ispec.Descriptor{}, err
		}
		sum := hex.EncodeToString(h.Sum(nil))
		if err := os.Rename(tmp.Name(), filepath.Join(blobs, sum)); err != nil {
			return ispec.Descriptor{}, err
		}
		return ispec.Descriptor{MediaType: mediaType, Digest: digest.Digest("sha256:" + sum), Size: n}, nil
	}
	putFile := func(name, mediaType string) (ispec.Descriptor, error) {
		f, err := open(name)
		if err != nil {
			return ispec.Descriptor{}, err
		}
		defer f.Close()
		return put(f, mediaType)
	}
	var legacy []struct {
		Config string
		Layers []string
	}
	data, err := os.ReadFile(filepath.Join(arch, "manifest.json"))
	if err != nil {
		return "", fmt.Errorf("the daemon's archive has no manifest.json: %w", err)
	}
	if err := json.Unmarshal(data, &legacy); err != nil || len(legacy) != 1 {
		return "", fmt.Errorf("the daemon's manifest.json does not describe one image: %v", err)
	}
	// Rebuild the image from the config and layer files named by
	// manifest.json (in an OCI-format archive they are blob paths), so
	// both archive formats give the same manifest.
	cfg, err := putFile(legacy[0].Config, ispec.MediaTypeImageConfig)
	if err != nil {
		return "", err
	}
	man := ispec.Manifest{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ispec.MediaTypeImageManifest, Config: cfg}
	for _, l := range legacy[0].Layers {
		d, err := putFile(l, layerMediaType(open, l))
		if err != nil {
			return "", err
		}
		man.Layers = append(man.Layers, d)
	}
	manData, _ := json.Marshal(man)
	desc, err := put(strings.NewReader(string(manData)), ispec.MediaTypeImageManifest)
	if err != nil {
		return "", err
	}
	desc.Annotations = map[string]string{ispec.AnnotationRefName: "image"}
	idx, _ := json.Marshal(ispec.Index{Versioned: specs.Versioned{SchemaVersion: 2}, MediaType: ispec.MediaTypeImageIndex,
		Manifests: []ispec.Descriptor{desc}})
	if err := os.WriteFile(filepath.Join(dir, "index.json"), idx, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ispec.ImageLayoutFile), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644); err != nil {
		return "", err
	}
	if _, err := Open(dir, string(desc.Digest)); err != nil {
		return "", err
	}
	return string(desc.Digest), nil
}

// extractArchive writes the regular files of a docker save stream under
// dir and returns its symbolic links (archive path -> archive path); any
// name or link leaving the archive is refused.
func extractArchive(r io.Reader, dir string) (map[string]string, error) {
	links := map[string]string{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return links, nil
		}
		if err != nil {
			return nil, err
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return nil, fmt.Errorf("archive entry %q leaves the archive", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
		case tar.TypeSymlink:
			t := path.Clean(path.Join(path.Dir(name), h.Linkname))
			if path.IsAbs(h.Linkname) || t == ".." || strings.HasPrefix(t, "../") {
				return nil, fmt.Errorf("archive link %q leaves the archive", h.Name)
			}
			links[name] = t
		case tar.TypeReg:
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				return nil, err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return nil, err
			}
		default:
			return nil, errors.New("unexpected entry type in the daemon's archive: " + h.Name)
		}
	}
}

// layerMediaType tells a compressed layer (a daemon with the containerd
// image store exports layers as pulled) from a plain tar by its magic.
func layerMediaType(open func(string) (*os.File, error), name string) string {
	f, err := open(name)
	if err != nil {
		return ispec.MediaTypeImageLayer
	}
	defer f.Close()
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	switch {
	case n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		return ispec.MediaTypeImageLayerGzip
	case n == 4 && magic == [4]byte{0x28, 0xb5, 0x2f, 0xfd}:
		return ispec.MediaTypeImageLayerZstd
	}
	return ispec.MediaTypeImageLayer
}
