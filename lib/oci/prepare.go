package oci

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"go.podman.io/image/v5/types"
)

// Prepare copies src (any transport ParseSource takes) with Pull into
// cache/<algorithm>-<hex of the manifest digest>, the content-addressed
// layout shellbox.image.prepare_image returns (marin-shellbox's cache
// layout): the copy goes to a temporary directory inside cache first and
// is renamed into place, so a reader never sees half a layout, and a
// layout already there (the same image prepared before, perhaps by
// another process) is kept as it is.
func Prepare(ctx context.Context, src types.ImageReference, cache string, o PullOptions) (layout, manifestDigest string, err error) {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", "", err
	}
	tmp, err := os.MkdirTemp(cache, "image-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(tmp)
	staged := filepath.Join(tmp, "oci")
	d, err := Pull(ctx, src, staged, o)
	if err != nil {
		return "", "", err
	}
	dest := filepath.Join(cache, strings.Replace(d, ":", "-", 1))
	// Another preparer may have published the same digest meanwhile:
	// renaming onto its non-empty directory fails, and its layout is as good.
	if err := os.Rename(staged, dest); err != nil && !errors.Is(err, syscall.ENOTEMPTY) && !errors.Is(err, syscall.EEXIST) {
		return "", "", err
	}
	return dest, d, nil
}
