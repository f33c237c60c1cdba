package qemu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci"
)

// StageOptions say where and how Stage stages an image.
type StageOptions struct {
	// CacheDir is the factory's cache ("" = the default one).
	CacheDir string
	// DockerHost is the daemon DockerImage sources come from.
	DockerHost string
	// DiskSizeMB is the disk's size (0 = the factory's default).
	DiskSizeMB int
	// Output, when set, is a directory (absent or empty) that receives a
	// QemuBundle: rootfs.ext4 and image.json. Otherwise the disk is staged
	// into the cache, where machines of the same image find it.
	Output string
	// AuthFile, RegistryCertDir, Policy and RegistriesDir are Options'
	// for RegistryImage sources.
	AuthFile, RegistryCertDir, Policy, RegistriesDir string
	// Provenance recorded in an Output bundle's image.json.
	OCITag, ImageReference, DockerfileSHA256 string
}

// Stage turns a PreparedImage or a DockerImage into a staged disk and
// returns its directory (a QemuBundle path). It needs neither QEMU nor a
// kernel: only the image and mkfs.ext4.
func Stage(ctx context.Context, src machine.Source, o StageOptions) (string, error) {
	if o.DiskSizeMB < 0 {
		return "", &machine.InvalidSpec{Field: "disk_size_mb", Reason: "must not be negative"}
	}
	if o.DiskSizeMB == 0 {
		o.DiskSizeMB = defaultDiskSizeMB
	}
	f := &Factory{opts: Options{DockerHost: o.DockerHost, DiskSizeMB: o.DiskSizeMB, AuthFile: o.AuthFile, RegistryCertDir: o.RegistryCertDir,
		Policy: o.Policy, RegistriesDir: o.RegistriesDir}, cacheDir: o.CacheDir,
		cacheMax: defaultCacheMaxMB << 20}
	if f.cacheDir == "" {
		f.cacheDir = defaultCacheDir()
	}
	p, layoutUse, err := f.prepare(ctx, src)
	if err != nil {
		return "", err
	}
	if layoutUse != nil {
		defer layoutUse.Close()
	}
	defer func() {
		if f.grew.Swap(false) {
			f.evict()
		}
	}()
	prepared, ok := p.(machine.PreparedImage)
	if !ok {
		return "", &machine.UnsupportedSpec{Backend: Name, Field: "source", Reason: fmt.Sprintf("%s cannot be staged (use a RegistryImage, a DockerfileSource, a PreparedImage or a DockerImage)", src.Kind())}
	}
	if o.Output == "" {
		d, use, err := f.stageImage(ctx, prepared, o.DiskSizeMB)
		if err != nil {
			return "", err
		}
		use.Close()
		return filepath.Dir(d.path), nil
	}
	return stageBundle(ctx, prepared, o)
}

// stageBundle builds the disk beside o.Output and renames it into place,
// so an interrupted stage leaves no half-written bundle.
func stageBundle(ctx context.Context, src machine.PreparedImage, o StageOptions) (string, error) {
	img, err := oci.Open(src.Layout, src.ManifestDigest)
	if err != nil {
		return "", &machine.InvalidSpec{Field: "source", Reason: err.Error()}
	}
	out, err := filepath.Abs(o.Output)
	if err != nil {
		return "", err
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return "", fmt.Errorf("output %s exists and is not empty", out)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".stage-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	extra := imageMeta{OCITag: o.OCITag, ImageReference: o.ImageReference, DockerfileSHA256: o.DockerfileSHA256}
	if err := buildDisk(ctx, img, tmp, o.DiskSizeMB, extra); err != nil {
		return "", fmt.Errorf("staging %s: %w", src.ManifestDigest, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	os.Remove(out) // an empty directory given as the output
	if err := os.Rename(tmp, out); err != nil {
		return "", err
	}
	return out, nil
}

// ResolveTag finds the manifest of an OCI layout's index.json named tag
// (oci.ResolveTag).
func ResolveTag(layout, tag string) (string, error) { return oci.ResolveTag(layout, tag) }
