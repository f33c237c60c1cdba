package bridge

import (
	"context"
	"fmt"

	"github.com/docker/docker/client"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

func init() {
	extraRoot["prepare_image"] = prepareImage
}

// imagePreparer is a factory that can turn an image source into a prepared
// OCI layout (the Docker backend: the daemon pulls or builds it).
type imagePreparer interface {
	PrepareImage(ctx context.Context, src machine.Source, dir string) (machine.PreparedImage, error)
}

// prepareImage: {"source": <tagged source>, "cache": dir, "options": docker
// factory options} returns {"layout", "manifest_digest"}.
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
	img, err := p.PrepareImage(ctx, src, r.Cache)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Header: wire.PrepareImageReply{Layout: img.Layout, ManifestDigest: img.ManifestDigest}}, nil
}
