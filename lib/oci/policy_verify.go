//go:build containers_image_openpgp

package oci

import (
	"context"
	"errors"

	"go.podman.io/image/v5/signature"
	"go.podman.io/image/v5/transports"
	"go.podman.io/image/v5/types"
)

func checkPolicy(data []byte) error {
	_, err := signature.NewPolicyFromBytes(data)
	return err
}

// admit asks containers/image whether the policy lets img run: its
// requirements for the image's scope, signatures fetched by the image's
// source (lookaside or sigstore attachments, as registries.d says).
func (p *Policy) admit(ctx context.Context, img types.UnparsedImage) error {
	if p.None() {
		return nil
	}
	// Parsed per pull: a Policy may be shared by concurrent pulls and
	// containers/image does not promise its requirements are safe to share.
	policy, err := signature.NewPolicyFromBytes(p.data)
	if err != nil {
		return err
	}
	pc, err := signature.NewPolicyContext(policy)
	if err != nil {
		return err
	}
	defer pc.Destroy()
	allowed, err := pc.IsRunningImageAllowed(ctx, img)
	if allowed && err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err == nil {
		err = errors.New("not allowed")
	}
	return &PolicyError{Image: transports.ImageName(img.Reference()), Policy: p.Path, Err: err}
}
