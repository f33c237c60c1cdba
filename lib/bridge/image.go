package bridge

import (
	"context"
	"errors"
	"fmt"

	"github.com/docker/docker/client"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci"
)

func init() {
	extraRoot["prepare_image"] = prepareImage
}

// imagePreparer is a factory that can turn an image source into a prepared
// OCI layout (the Docker backend: the daemon builds a Dockerfile).
type imagePreparer interface {
	PrepareImage(ctx context.Context, src machine.Source, dir string, policy *oci.Policy) (machine.PreparedImage, error)
}

// prepareImage: {"source": <tagged source>, "cache": dir, "options": docker
// factory options, "authfile", "cert_dir"} returns {"layout",
// "manifest_digest"}. A RegistryImage is copied from its registry by
// containers/image (lib/oci) without a daemon; either kind must satisfy
// the signature policy.
func prepareImage(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
	var r wire.PrepareImageRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	src := sourceOf(r.Source.Value)
	if src == nil {
		return Reply{}, &machine.InvalidSpec{Field: "source", Reason: "a RegistryImage or DockerfileSource is required"}
	}
	if r.Cache == "" {
		return Reply{}, &machine.InvalidSpec{Field: "cache", Reason: "a cache directory is required"}
	}
	policy, err := oci.ReadPolicy(r.Policy)
	if err != nil {
		return Reply{}, &machine.InvalidSpec{Field: "policy", Reason: err.Error()}
	}
	if reg, ok := registrySource(src); ok {
		return prepareRegistryImage(ctx, reg, r, policy)
	}
	f, err := machine.Open("docker", r.Options)
	if err != nil {
		return Reply{}, err
	}
	// The factory lives for this call only; its client's connections go with it.
	if c, ok := f.(interface{ Client() *client.Client }); ok {
		defer c.Client().Close()
	}
	p, ok := f.(imagePreparer)
	if !ok {
		return Reply{}, fmt.Errorf("the docker backend cannot prepare images")
	}
	img, err := p.PrepareImage(ctx, src, r.Cache, policy)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Header: wire.PrepareImageReply{Layout: img.Layout, ManifestDigest: img.ManifestDigest}}, nil
}

func registrySource(src machine.Source) (machine.RegistryImage, bool) {
	switch s := src.(type) {
	case machine.RegistryImage:
		return s, true
	case *machine.RegistryImage:
		return *s, true
	}
	return machine.RegistryImage{}, false
}

func prepareRegistryImage(ctx context.Context, src machine.RegistryImage, r wire.PrepareImageRequest, policy *oci.Policy) (Reply, error) {
	ref, err := oci.ParseSource(src.Reference)
	if err == nil && ref.Transport().Name() != "docker" {
		err = errors.New("not a registry reference")
	}
	if err != nil {
		return Reply{}, &machine.InvalidSpec{Field: "source", Reason: fmt.Sprintf("RegistryImage %q: %v", src.Reference, err)}
	}
	layout, d, err := oci.Prepare(ctx, ref, r.Cache, oci.PullOptions{AuthFile: r.AuthFile, CertDir: r.CertDir, Policy: policy})
	if errors.Is(err, oci.ErrPlatform) {
		return Reply{}, &machine.InvalidSpec{Field: "source", Reason: err.Error()}
	}
	if err != nil {
		// RuntimeError in Python, as marin-shellbox's failed copy.
		return Reply{}, fmt.Errorf("pulling %s: %w", src.Reference, err)
	}
	return Reply{Header: wire.PrepareImageReply{Layout: layout, ManifestDigest: d}}, nil
}
