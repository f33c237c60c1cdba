package oci

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"go.podman.io/storage/pkg/configfile"
)

// BuildTag is the build tag registry pulls need: it selects containers/image's
// pure-Go OpenPGP signature mechanism (see the package doc).
const BuildTag = "containers_image_openpgp"

// ErrNoSignatureSupport is returned by every registry pull of a binary built
// without BuildTag.
var ErrNoSignatureSupport = errors.New("this build cannot check signature policies (containers-policy.json), so it pulls nothing: build with -tags " + BuildTag)

// Policy is a containers-policy.json as read for pulls.
type Policy struct {
	// Path is the file read; "" when there was none (see ReadPolicy).
	Path string
	data []byte
}

// ReadPolicy reads and checks the signature policy at path. With path ""
// it reads the one containers/image's DefaultPolicy would
// ($CONTAINERS_POLICY_JSON, ~/.config/containers/policy.json,
// /etc/containers/policy.json, /usr/share/containers/policy.json), so a
// host's policy binds our pulls as it binds podman's and skopeo's; when
// none of these exists, the policy accepts every image, as marin-shellbox
// pulls with skopeo --insecure-policy when given no policy.
//
// DefaultPolicy itself is not used because it does not say which file it
// read: errors name it, and ID hashes its bytes.
func ReadPolicy(path string) (*Policy, error) {
	p := &Policy{Path: path}
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("signature policy: %w", err)
		}
		p.data = data
	} else {
		// The same lookup as signature.DefaultPolicy's.
		files := configfile.File{Name: "policy", Extension: "json", DoNotLoadDropInFiles: true,
			EnvironmentName: "CONTAINERS_POLICY_JSON", ErrorIfNotFound: true,
			RootForImplicitAbsolutePaths: policyRoot}
		for item, err := range configfile.Read(&files) {
			if errors.Is(err, configfile.ErrConfigFileNotFound) {
				return &Policy{}, nil
			}
			if err != nil {
				return nil, fmt.Errorf("signature policy: %w", err)
			}
			if p.data, err = io.ReadAll(item.Reader); err != nil {
				return nil, fmt.Errorf("signature policy %s: %w", item.Name, err)
			}
			p.Path = item.Name
		}
	}
	if err := checkPolicy(p.data); err != nil {
		return nil, fmt.Errorf("signature policy %s: %w", p.Path, err)
	}
	return p, nil
}

// None reports whether no policy file exists (every image is accepted).
func (p *Policy) None() bool { return p.Path == "" }

// ID identifies the policy's content ("" for none): a cache of pulled
// images keys on it, so an image admitted under one policy is not reused
// under another. Files the policy names (keys) are not part of it.
func (p *Policy) ID() string {
	if p.None() {
		return ""
	}
	sum := sha256.Sum256(p.data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// policyRoot prefixes the system paths of the default policy's lookup
// (tests point it at an empty directory).
var policyRoot string

// PolicyError is a pull the signature policy refused.
type PolicyError struct {
	// Image is the image as containers/image names it
	// (docker://HOST/REPO:TAG or @DIGEST).
	Image string
	// Policy is the policy file.
	Policy string
	// Err is containers/image's reason (often a
	// signature.PolicyRequirementError).
	Err error
}

func (e *PolicyError) Error() string {
	return fmt.Sprintf("%s is refused by the signature policy %s: %v", e.Image, e.Policy, e.Err)
}

func (e *PolicyError) Unwrap() error { return e.Err }
