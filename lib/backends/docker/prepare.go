package docker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci"
)

// PrepareImage makes src (a RegistryImage the daemon pulls, or a
// DockerfileSource it builds) an OCI layout in dir named by its manifest
// digest, as shellbox.image.prepare_image promises. A layout already there
// (the same content prepared before, perhaps by another process) is reused.
func (f *Factory) PrepareImage(ctx context.Context, src machine.Source, dir string) (machine.PreparedImage, error) {
	switch src.(type) {
	case machine.RegistryImage, *machine.RegistryImage, machine.DockerfileSource, *machine.DockerfileSource:
	default:
		return machine.PreparedImage{}, &machine.InvalidSpec{Field: "source",
			Reason: fmt.Sprintf("prepare_image takes a RegistryImage or DockerfileSource, not %s", src.Kind())}
	}
	id, err := f.resolveImage(ctx, src)
	if err != nil {
		return machine.PreparedImage{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return machine.PreparedImage{}, err
	}
	tmp, err := os.MkdirTemp(dir, "image-")
	if err != nil {
		return machine.PreparedImage{}, err
	}
	defer os.RemoveAll(tmp)
	layout := filepath.Join(tmp, "oci")
	if err := os.Mkdir(layout, 0o755); err != nil {
		return machine.PreparedImage{}, err
	}
	digest, err := oci.SaveDockerImage(ctx, f.cli, id, layout)
	if err != nil {
		return machine.PreparedImage{}, err
	}
	dest := filepath.Join(dir, strings.Replace(digest, ":", "-", 1))
	if err := os.Rename(layout, dest); err != nil && !errors.Is(err, os.ErrExist) && !isNotEmpty(err) {
		return machine.PreparedImage{}, err
	}
	return machine.PreparedImage{Layout: dest, ManifestDigest: digest, Origin: src}, nil
}

// isNotEmpty: renaming onto a non-empty directory (another preparer won)
// fails with ENOTEMPTY or EEXIST depending on the file system.
func isNotEmpty(err error) bool {
	return strings.Contains(err.Error(), "directory not empty")
}
