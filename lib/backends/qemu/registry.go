package qemu

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellbox/shellbox/lib/dockerbuild"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci"
)

// registryImage pulls a RegistryImage into an OCI layout with
// containers/image, once per reference and signature policy: like the
// Docker backend, an image already pulled is not pulled again (pin a
// digest to follow a moving tag), but one admitted under another policy
// is pulled and checked again.
func (f *Factory) registryImage(ctx context.Context, src machine.RegistryImage) (machine.PreparedImage, *os.File, error) {
	ref, err := oci.ParseSource(src.Reference)
	if err == nil && ref.Transport().Name() != "docker" {
		err = errors.New("not a registry reference")
	}
	if err != nil {
		return machine.PreparedImage{}, nil, &machine.InvalidSpec{Field: "source", Reason: fmt.Sprintf("RegistryImage %q: %v", src.Reference, err)}
	}
	// Read per pull: an edited policy takes effect without a new factory.
	policy, err := oci.ReadPolicy(f.opts.Policy)
	if err != nil {
		return machine.PreparedImage{}, nil, &machine.InvalidSpec{Field: "policy", Reason: err.Error()}
	}
	key := ref.StringWithinTransport()
	if id := policy.ID(); id != "" {
		key += "\x00" + id
	}
	sum := sha256.Sum256([]byte(key))
	dir := filepath.Join(f.cacheDir, "registry", hex.EncodeToString(sum[:]))
	return f.cachedLayout(ctx, dir, src, func(tmp string) (string, error) {
		d, err := oci.Pull(ctx, ref, tmp, oci.PullOptions{AuthFile: f.opts.AuthFile, CertDir: f.opts.RegistryCertDir,
			Policy: policy, RegistriesDir: f.opts.RegistriesDir})
		if err != nil {
			return "", fmt.Errorf("pulling %s: %w", src.Reference, err)
		}
		return d, nil
	})
}

// cachedLayout returns the OCI layout cached at dir, making it first with
// fill (into a temporary directory renamed into place under a lock, so
// concurrent creates fill it once); fill returns the manifest digest. The
// layout's use lock is held (returned) until the caller staged from it.
func (f *Factory) cachedLayout(ctx context.Context, dir string, origin machine.Source, fill func(tmp string) (string, error)) (machine.PreparedImage, *os.File, error) {
	hold, err := useLock(dir + ".use")
	if err != nil {
		return machine.PreparedImage{}, nil, &machine.StartupError{Backend: Name, Err: err}
	}
	img, err := f.fillLayout(dir, origin, fill)
	if err != nil {
		hold.Close()
		return machine.PreparedImage{}, nil, err
	}
	return img, hold, nil
}

func (f *Factory) fillLayout(dir string, origin machine.Source, fill func(tmp string) (string, error)) (machine.PreparedImage, error) {
	digestFile := filepath.Join(dir, "manifest-digest")
	read := func() (machine.PreparedImage, error) {
		d, err := os.ReadFile(digestFile)
		if err != nil {
			return machine.PreparedImage{}, err
		}
		return machine.PreparedImage{Layout: dir, ManifestDigest: strings.TrimSpace(string(d)), Origin: origin}, nil
	}
	if img, err := read(); err == nil {
		return img, nil
	}
	err := withLock(dir+".lock", func() error {
		if _, err := read(); err == nil {
			return nil
		}
		f.grew.Store(true)
		tmp, err := os.MkdirTemp(filepath.Dir(dir), ".pull-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		digest, err := fill(tmp)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, "manifest-digest"), []byte(digest+"\n"), 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, dir)
	})
	if errors.Is(err, oci.ErrPlatform) {
		return machine.PreparedImage{}, &machine.UnsupportedSpec{Backend: Name, Field: "source", Reason: err.Error()}
	}
	if err != nil {
		return machine.PreparedImage{}, &machine.StartupError{Backend: Name, Err: err}
	}
	return read()
}

// prepare resolves an image source to what a disk is staged from: a
// RegistryImage, DockerImage or DockerfileSource becomes a PreparedImage
// (an OCI layout in the cache, whose use lock is returned held); other
// sources are returned as they are.
func (f *Factory) prepare(ctx context.Context, src machine.Source) (machine.Source, *os.File, error) {
	var img machine.PreparedImage
	var hold *os.File
	var err error
	switch s := src.(type) {
	case machine.RegistryImage:
		img, hold, err = f.registryImage(ctx, s)
	case machine.DockerImage:
		img, hold, err = f.dockerImage(ctx, s)
	case machine.DockerfileSource:
		img, hold, err = f.dockerfileImage(ctx, s)
	default:
		return src, nil, nil
	}
	return img, hold, err
}

// dockerfileImage builds a DockerfileSource with the local Docker daemon
// (Engine API, the daemon's layer cache) and exports the result as a
// DockerImage is: an unchanged Dockerfile and context give the same
// image id, so neither the export nor the disk is made again.
func (f *Factory) dockerfileImage(ctx context.Context, src machine.DockerfileSource) (machine.PreparedImage, *os.File, error) {
	cli, err := f.dockerClient()
	if err != nil {
		return machine.PreparedImage{}, nil, &machine.StartupError{Backend: Name, Err: err}
	}
	id, err := dockerbuild.Build(ctx, cli, src, map[string]string{"shellbox.backend": Name})
	var invalid *machine.InvalidSpec
	if errors.As(err, &invalid) {
		return machine.PreparedImage{}, nil, err
	}
	if err != nil {
		return machine.PreparedImage{}, nil, &machine.StartupError{Backend: Name, Err: fmt.Errorf("building %s: %w", src.Dockerfile, err)}
	}
	img, hold, err := f.dockerImage(ctx, machine.DockerImage{Reference: id})
	img.Origin = src
	return img, hold, err
}
