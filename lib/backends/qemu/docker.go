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
func (f *Factory) dockerImage(ctx context.Context, src machine.DockerImage) (machine.PreparedImage, *os.File, error) {
	startup := func(err error) (machine.PreparedImage, *os.File, error) {
		return machine.PreparedImage{}, nil, &machine.StartupError{Backend: Name, Err: err}
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
		return machine.PreparedImage{}, nil, &machine.UnsupportedSpec{Backend: Name, Field: "source",
			Reason: fmt.Sprintf("Docker image %s is %s/%s; only linux/amd64 images are supported", src.Reference, info.Os, info.Architecture)}
	}
	id := strings.TrimPrefix(info.ID, "sha256:")
	return f.cachedLayout(ctx, filepath.Join(f.cacheDir, "docker", id), src, func(tmp string) (string, error) {
		return oci.SaveDockerImage(ctx, cli, info.ID, tmp)
	})
}
