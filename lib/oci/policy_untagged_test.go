//go:build !containers_image_openpgp

package oci

import (
	"errors"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/oci/ocitest"
)

// TestUntaggedBuildPullsNothing: a build without BuildTag cannot check
// signatures, so it refuses every pull and says which tag it lacks (the
// other registry tests of this package fail in such a build).
func TestUntaggedBuildPullsNothing(t *testing.T) {
	r := ocitest.NewRegistry(t)
	ref := r.Push(t, "shellbox/one:latest", testImage(t, "amd64"))
	_, _, err := pull(t, ref, opts(r))
	if !errors.Is(err, ErrNoSignatureSupport) || !strings.Contains(err.Error(), "-tags "+BuildTag) {
		t.Fatalf("got %v", err)
	}
}
