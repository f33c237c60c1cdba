package docker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.podman.io/image/v5/docker/daemon"

	"github.com/opencontainers/go-digest"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci"
)

// PrepareImage builds a DockerfileSource with the daemon and copies the
// built image out of it with containers/image (lib/oci: the docker-daemon
// transport) into an OCI layout in dir named by its manifest digest, as
// shellbox.image.prepare_image promises; the copy must satisfy policy (nil:
// the host's). (A RegistryImage needs no daemon: lib/oci pulls it straight
// from its registry.)
func (f *Factory) PrepareImage(ctx context.Context, src machine.Source, dir string, policy *oci.Policy) (machine.PreparedImage, error) {
	var s machine.DockerfileSource
	switch v := src.(type) {
	case machine.DockerfileSource:
		s = v
	case *machine.DockerfileSource:
		s = *v
	default:
		return machine.PreparedImage{}, &machine.InvalidSpec{Field: "source",
			Reason: fmt.Sprintf("the Docker daemon prepares DockerfileSource images, not %s", src.Kind())}
	}
	id, err := f.buildImage(ctx, s)
	if err != nil {
		return machine.PreparedImage{}, err
	}
	d, err := digest.Parse(id)
	if err != nil {
		return machine.PreparedImage{}, f.startupErr("reading the built image's id", err)
	}
	ref, err := daemon.NewReference(d, nil)
	if err != nil {
		return machine.PreparedImage{}, f.startupErr("naming the built image", err)
	}
	o, err := f.daemonPullOptions()
	if err != nil {
		return machine.PreparedImage{}, err
	}
	o.Policy = policy
	layout, manifest, err := oci.Prepare(ctx, ref, dir, o)
	if errors.Is(err, oci.ErrPlatform) {
		return machine.PreparedImage{}, &machine.InvalidSpec{Field: "source", Reason: err.Error()}
	}
	if err != nil {
		return machine.PreparedImage{}, f.startupErr("copying the built image "+id+" into an OCI layout", err)
	}
	return machine.PreparedImage{Layout: layout, ManifestDigest: manifest, Origin: src}, nil
}

// daemonPullOptions point containers/image's docker-daemon transport at
// this factory's daemon, with the docker CLI's TLS files when
// DOCKER_TLS_VERIFY asks for them (as clientOptions does).
func (f *Factory) daemonPullOptions() (oci.PullOptions, error) {
	if strings.HasPrefix(f.host, "ssh://") {
		return oci.PullOptions{}, f.unsupported("source", "prepare_image copies built images from a unix or tcp Docker daemon, not one reached over ssh ("+f.host+")")
	}
	o := oci.PullOptions{DaemonHost: f.host}
	if os.Getenv(EnvTLSVerify) == "" {
		// containers/image speaks TLS to every tcp:// daemon; the docker CLI
		// only when asked.
		if rest, ok := strings.CutPrefix(f.host, "tcp://"); ok {
			o.DaemonHost = "http://" + rest
		}
	} else {
		o.DaemonCertDir = os.Getenv(EnvCertPath)
		if o.DaemonCertDir == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return oci.PullOptions{}, f.startupErr("finding the Docker TLS files", err)
			}
			o.DaemonCertDir = filepath.Join(home, ".docker")
		}
	}
	return o, nil
}
