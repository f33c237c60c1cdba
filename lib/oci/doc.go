// Package oci brings linux/amd64 images into OCI image layouts on disk
// (pulled from registries with containers/image, exported from the Docker
// daemon), reads them back verified, and unpacks their layers into a
// directory with umoci (used as a library: whiteouts, ownership and modes
// as the layers say).
//
// A registry pull must satisfy a containers-policy.json (containers/image's
// signature.PolicyContext evaluates it; signatures come through its docker
// transport: registries.d lookaside or sigstore attachments). The package
// containing that evaluation, go.podman.io/image/v5/signature, links GPGME
// through cgo unless built with the tag containers_image_openpgp (BuildTag),
// which selects a pure-Go OpenPGP verifier (ProtonMail/go-crypto). We build
// with that tag (Makefile, setup.py) rather than evaluate policies some
// other way: signature is the only implementation of the policy language
// (scopes, signedBy, sigstoreSigned, identity matching), GPGME is neither
// installed nor wanted (our helpers are static, cgo-free binaries), and
// the tag's one loss, GPG signing, is a thing pulls never do. The third
// choice, containers_image_sequoia, needs Sequoia's C library at run time.
//
// Without the tag the package still builds (so tools and packages that
// never pull keep working untagged) but every registry pull fails with
// ErrNoSignatureSupport, which names the tag: a build cannot silently skip
// signature checks.
package oci
