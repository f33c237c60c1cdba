package oci

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strings"

	"github.com/distribution/reference"
	"github.com/opencontainers/go-digest"
	ispec "github.com/opencontainers/image-spec/specs-go/v1"
	"go.podman.io/image/v5/docker"
	"go.podman.io/image/v5/docker/daemon"
	"go.podman.io/image/v5/image"
	"go.podman.io/image/v5/manifest"
	"go.podman.io/image/v5/oci/layout"
	"go.podman.io/image/v5/pkg/blobinfocache/none"
	"go.podman.io/image/v5/pkg/compression"
	"go.podman.io/image/v5/types"
)

// Why not containers/image's copy package: staging copies one
// linux/amd64 image into a layout, which is the loop below (every blob
// verified), with the policy check copy makes (admit) before anything of
// the image but its manifest is read; copy would also link the signature
// package in untagged builds, which this package keeps buildable.

// LayoutTag is the ref.name the pulled image gets in its layout (as
// marin-shellbox's OCI_TAG).
const LayoutTag = "image"

// PullOptions are the registry settings of a pull.
type PullOptions struct {
	// AuthFile is a containers-auth.json or Docker config.json with
	// registry credentials; "" uses containers/image's lookup
	// ($REGISTRY_AUTH_FILE, ${XDG_RUNTIME_DIR}/containers/auth.json,
	// ~/.docker/config.json, credential helpers).
	AuthFile string
	// CertDir holds the registry's CA (*.crt) and client certificates
	// (*.cert/*.key); "" uses /etc/containers/certs.d/<host:port>.
	CertDir string
	// Insecure allows plain HTTP and unverified TLS.
	Insecure bool
	// DaemonHost is the Docker daemon a docker-daemon: source is read
	// from ("" is containers/image's default, the local socket).
	DaemonHost string
	// DaemonCertDir holds a TLS daemon's ca.pem, cert.pem and key.pem.
	DaemonCertDir string
	// Policy is the containers-policy.json the image must satisfy; nil
	// reads the default one (ReadPolicy("")).
	Policy *Policy
	// RegistriesDir is a registries.d directory: where signatures are
	// looked up (lookaside, sigstore attachments); "" uses
	// containers/image's (~/.config/containers/registries.d, else
	// /etc/containers/registries.d).
	RegistriesDir string
}

func (o PullOptions) system() *types.SystemContext {
	return &types.SystemContext{
		OSChoice: "linux", ArchitectureChoice: "amd64",
		AuthFilePath:                o.AuthFile,
		DockerCertPath:              o.CertDir,
		DockerInsecureSkipTLSVerify: types.NewOptionalBool(o.Insecure),
		DockerRegistryUserAgent:     "shellbox",
		DockerDaemonHost:            o.DaemonHost,
		DockerDaemonCertPath:        o.DaemonCertDir,
		RegistriesDirPath:           o.RegistriesDir,
	}
}

// ParseSource reads an image reference in one of the transports staging
// takes: a registry reference (optionally prefixed docker://),
// docker-daemon:NAME[:TAG], or oci:PATH[:TAG].
func ParseSource(s string) (types.ImageReference, error) {
	switch {
	case strings.HasPrefix(s, "docker-daemon:"):
		return daemon.ParseReference(strings.TrimPrefix(s, "docker-daemon:"))
	case strings.HasPrefix(s, "oci:"):
		return layout.ParseReference(strings.TrimPrefix(s, "oci:"))
	}
	named, err := reference.ParseNormalizedNamed(strings.TrimPrefix(s, "docker://"))
	if err != nil {
		return nil, fmt.Errorf("image reference %q: %w", s, err)
	}
	return docker.NewReference(reference.TagNameOnly(named))
}

// Pull copies the linux/amd64 image src names (choosing it from a
// manifest list) into a new OCI layout at dir, tagged LayoutTag, with an
// OCI manifest (Docker schema 2 manifests are converted; the layers are
// the registry's bytes), and returns the digest of that manifest. Every
// blob is checked against its digest as it arrives. The chosen image must
// satisfy the signature policy (its refusal is a *PolicyError).
func Pull(ctx context.Context, src types.ImageReference, dir string, o PullOptions) (string, error) {
	policy := o.Policy
	if policy == nil {
		var err error
		if policy, err = ReadPolicy(""); err != nil {
			return "", err
		}
	}
	sys := o.system()
	source, err := src.NewImageSource(ctx, sys)
	if err != nil {
		return "", err
	}
	defer source.Close()
	// As containers/image's copy: the instance is chosen from the list's
	// manifest alone, and its signatures are checked before anything else
	// of it is read.
	unparsed := image.UnparsedInstance(source, nil)
	top, mime, err := unparsed.Manifest(ctx)
	if err != nil {
		return "", err
	}
	if manifest.MIMETypeIsMultiImage(mime) {
		list, err := manifest.ListFromBlob(top, mime)
		if err != nil {
			return "", fmt.Errorf("manifest list: %w", err)
		}
		d, err := list.ChooseInstance(sys)
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrPlatform, err)
		}
		unparsed = image.UnparsedInstance(source, &d)
	}
	if err := policy.admit(ctx, unparsed); err != nil {
		return "", err
	}
	img, err := image.FromUnparsedImage(ctx, sys, unparsed)
	if err != nil {
		return "", err
	}
	if _, mime, err = img.Manifest(ctx); err != nil {
		return "", err
	}
	if mime == manifest.DockerV2Schema1MediaType || mime == manifest.DockerV2Schema1SignedMediaType {
		return "", errors.New("Docker schema 1 images are not supported (push the image again with a current client)")
	}
	if err := checkPlatform(img.Inspect(ctx)); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	destRef, err := layout.NewReference(dir, LayoutTag)
	if err != nil {
		return "", err
	}
	dest, err := destRef.NewImageDestination(ctx, sys)
	if err != nil {
		return "", err
	}
	defer dest.Close()
	// The layers are the source's bytes. A docker-daemon source names its
	// uncompressed layers with the gzip media type (docker save's
	// archive), so each layer's media type follows what its bytes are.
	layers := img.LayerInfos()
	relabel := false
	for i, b := range layers {
		if b.Digest.Algorithm() != digest.SHA256 {
			return "", fmt.Errorf("blob %s: only sha256 digests are supported", b.Digest)
		}
		rc, _, err := source.GetBlob(ctx, b, none.NoCache)
		if err != nil {
			return "", fmt.Errorf("fetching blob %s: %w", b.Digest, err)
		}
		algo, decompress, r, err := compression.DetectCompressionFormat(rc)
		if err != nil {
			rc.Close()
			return "", fmt.Errorf("fetching blob %s: %w", b.Digest, err)
		}
		if compressed := decompress != nil; compressed != compressedType(b.MediaType) {
			relabel = true
		}
		if decompress == nil {
			layers[i].CompressionOperation = types.Decompress
		} else {
			layers[i].CompressionAlgorithm = &algo
		}
		if err := putBlob(ctx, dest, readCloser{r, rc}, b, false); err != nil {
			return "", err
		}
	}
	converted := img
	if mime != ispec.MediaTypeImageManifest || relabel {
		opts := types.ManifestUpdateOptions{ManifestMIMEType: ispec.MediaTypeImageManifest}
		if relabel {
			opts.LayerInfos = layers
		}
		if converted, err = img.UpdatedImage(ctx, opts); err != nil {
			return "", fmt.Errorf("converting the manifest to OCI: %w", err)
		}
	}
	// The config is the converted one (a Docker config becomes an OCI
	// config, so it has a new digest).
	cfg, err := converted.ConfigBlob(ctx)
	if err != nil {
		return "", err
	}
	if err := putBlob(ctx, dest, io.NopCloser(bytes.NewReader(cfg)), converted.ConfigInfo(), true); err != nil {
		return "", err
	}
	man, _, err := converted.Manifest(ctx)
	if err != nil {
		return "", err
	}
	if err := dest.PutManifest(ctx, man, nil); err != nil {
		return "", err
	}
	if err := dest.Commit(ctx, image.UnparsedInstance(source, nil)); err != nil {
		return "", err
	}
	d, err := manifest.Digest(man)
	if err != nil {
		return "", err
	}
	if _, err := Open(dir, string(d)); err != nil {
		return "", err
	}
	return string(d), nil
}

// compressedType: a layer media type that says its bytes are compressed.
func compressedType(mediaType string) bool {
	return strings.HasSuffix(mediaType, "gzip") || strings.HasSuffix(mediaType, "zstd")
}

// readCloser reads r (a blob with its first bytes peeked) and closes c
// (the blob's stream).
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

func checkPlatform(info *types.ImageInspectInfo, err error) error {
	if err != nil {
		return err
	}
	if info.Os != "linux" || info.Architecture != "amd64" {
		return fmt.Errorf("%w (the image is %s/%s)", ErrPlatform, info.Os, info.Architecture)
	}
	return nil
}

// putBlob streams one blob into dest (and closes rc), failing (so dest
// drops it) when its bytes do not match its digest or size.
func putBlob(ctx context.Context, dest types.ImageDestination, rc io.ReadCloser, b types.BlobInfo, isConfig bool) error {
	defer rc.Close()
	v := &verifier{r: rc, want: b.Digest, size: b.Size, h: digest.SHA256.Hash()}
	got, err := dest.PutBlob(ctx, v, types.BlobInfo{Digest: b.Digest, Size: b.Size, MediaType: b.MediaType}, none.NoCache, isConfig)
	if err != nil {
		return fmt.Errorf("storing blob %s: %w", b.Digest, err)
	}
	if got.Digest != b.Digest {
		return fmt.Errorf("blob %s stored as %s", b.Digest, got.Digest)
	}
	return nil
}

// verifier passes a blob through and turns its end into an error when
// the bytes do not hash to the expected digest: the destination then
// deletes what it stored.
type verifier struct {
	r    io.Reader
	want digest.Digest
	size int64 // -1: unknown
	n    int64
	h    hash.Hash
}

func (v *verifier) Read(p []byte) (int, error) {
	n, err := v.r.Read(p)
	v.h.Write(p[:n])
	v.n += int64(n)
	if v.size >= 0 && v.n > v.size {
		return n, fmt.Errorf("blob %s is longer than its %d bytes", v.want, v.size)
	}
	if err == io.EOF {
		if got := digest.NewDigest(digest.SHA256, v.h); got != v.want {
			return n, fmt.Errorf("blob %s does not match its digest (got %s)", v.want, got)
		}
	}
	return n, err
}
