package qemu

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docker/docker/client"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci"
)

// dockerClient connects to the Docker daemon on first use.
func (f *Factory) dockerClient() (*client.Client, error) {
	f.dockerOnce.Do(func() {
		opts := []client.Opt{client.FromEnv, client.WithAPIVersionNegotiation()}
		if f.opts.DockerHost != "" {
			opts = append(opts, client.WithHost(f.opts.DockerHost))
		}
		f.docker, f.dockerErr = client.NewClientWithOpts(opts...)
	})
	return f.docker, f.dockerErr
}

// dockerImage exports an image of the local Docker daemon into an OCI
// layout, cached by image ID (the digest of its config), and returns it
// as a prepared image.
func (f *Factory) dockerImage(ctx context.Context, src machine.DockerImage) (machine.PreparedImage, error) {
	startup := func(err error) (machine.PreparedImage, error) {
		return machine.PreparedImage{}, &machine.StartupError{Backend: Name, Err: err}
	}
	cli, err := f.dockerClient()
	if err != nil {
		return startup(err)
	}
	info, err := cli.ImageInspect(ctx, src.Reference)
	if err != nil {
		return startup(fmt.Errorf("Docker image %s: %w", src.Reference, err))
	}
	if info.Os != "linux" || info.Architecture != "amd64" {
		return machine.PreparedImage{}, &machine.UnsupportedSpec{Backend: Name, Field: "source",
			Reason: fmt.Sprintf("Docker image %s is %s/%s; only linux/amd64 images are supported", src.Reference, info.Os, info.Architecture)}
	}
	id := strings.TrimPrefix(info.ID, "sha256:")
	dir := filepath.Join(f.cacheDir, "docker", id)
	digestFile := filepath.Join(dir, "manifest-digest")
	read := func() (machine.PreparedImage, error) {
		d, err := os.ReadFile(digestFile)
		if err != nil {
			return machine.PreparedImage{}, err
		}
		return machine.PreparedImage{Layout: dir, ManifestDigest: strings.TrimSpace(string(d)), Origin: src}, nil
	}
	if img, err := read(); err == nil {
		return img, nil
	}
	err = withLock(dir+".lock", func() error {
		if _, err := read(); err == nil {
			return nil
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dir), ".export-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		digest, err := oci.SaveDockerImage(ctx, cli, info.ID, tmp)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, "manifest-digest"), []byte(digest+"\n"), 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, dir)
	})
	if err != nil {
		return startup(err)
	}
	return read()
}
