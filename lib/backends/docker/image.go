package docker

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/docker/docker/api/types/image"

	"github.com/shellbox/shellbox/lib/dockerbuild"
	"github.com/shellbox/shellbox/lib/machine"
)

// resolveImage makes the source's image available in the daemon and
// returns its id.
func (f *Factory) resolveImage(ctx context.Context, src machine.Source) (string, error) {
	switch s := src.(type) {
	case *machine.RegistryImage:
		return f.registryImage(ctx, s.Reference)
	case machine.RegistryImage:
		return f.registryImage(ctx, s.Reference)
	case *machine.DockerImage:
		return f.localImage(ctx, s.Reference)
	case machine.DockerImage:
		return f.localImage(ctx, s.Reference)
	case *machine.DockerfileSource:
		return f.buildImage(ctx, *s)
	case machine.DockerfileSource:
		return f.buildImage(ctx, s)
	}
	return "", f.unsupported("source", fmt.Sprintf("%s sources are not container images", src.Kind()))
}

// localImage needs ref to exist in the daemon already.
func (f *Factory) localImage(ctx context.Context, ref string) (string, error) {
	insp, err := f.cli.ImageInspect(ctx, ref)
	if err != nil {
		if isNotFound(err) {
			return "", &machine.StartupError{Backend: f.backend, Err: fmt.Errorf("docker image %q is not in the local image store of the daemon at %s (a DockerImage is never pulled: build or pull it first, or use RegistryImage)", ref, f.host)}
		}
		return "", f.startupErr("inspecting image "+ref, err)
	}
	return insp.ID, nil
}

// registryImage pulls ref unless the daemon already has it.
func (f *Factory) registryImage(ctx context.Context, ref string) (string, error) {
	if insp, err := f.cli.ImageInspect(ctx, ref); err == nil {
		return insp.ID, nil
	} else if !isNotFound(err) {
		return "", f.startupErr("inspecting image "+ref, err)
	}
	auth, err := registryAuth(ref)
	if err != nil {
		return "", &machine.StartupError{Backend: f.backend, Err: fmt.Errorf("reading registry credentials for %s: %w", ref, err)}
	}
	pullErr := func(err error) error {
		if hint := authHint(ref, auth != "", err); hint != "" {
			err = fmt.Errorf("%w; %s", err, hint)
		}
		return f.startupErr("pulling "+ref, err)
	}
	rc, err := f.cli.ImagePull(ctx, ref, image.PullOptions{RegistryAuth: auth})
	if err != nil {
		return "", pullErr(err)
	}
	defer rc.Close()
	if _, err := readJSONStream(rc); err != nil {
		return "", pullErr(err)
	}
	insp, err := f.cli.ImageInspect(ctx, ref)
	if err != nil {
		return "", f.startupErr("inspecting pulled image "+ref, err)
	}
	return insp.ID, nil
}

// buildImage builds a Dockerfile with the daemon's layer cache
// (lib/dockerbuild: the context as the docker CLI sends it).
func (f *Factory) buildImage(ctx context.Context, src machine.DockerfileSource) (string, error) {
	id, err := dockerbuild.Build(ctx, f.cli, src, map[string]string{LabelBackend: f.backend})
	var invalid *machine.InvalidSpec
	if errors.As(err, &invalid) {
		return "", err
	}
	if err != nil {
		return "", f.startupErr("building "+src.Dockerfile, err)
	}
	return id, nil
}

// readJSONStream drains a pull progress stream (dockerbuild.ReadJSONStream).
func readJSONStream(r io.Reader) (string, error) { return dockerbuild.ReadJSONStream(r) }
