//go:build containers_image_openpgp

package oci

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"github.com/distribution/reference"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"go.podman.io/image/v5/copy"
	"go.podman.io/image/v5/docker"
	"go.podman.io/image/v5/signature"
	"go.podman.io/image/v5/signature/signer"
	"go.podman.io/image/v5/signature/sigstore"
	"go.podman.io/image/v5/types"

	"github.com/shellbox/shellbox/lib/oci/ocitest"
)

// signedRegistry is a loopback registry whose signatures are where
// containers/image looks for them: simple signing signatures on a
// lookaside web server (served over loopback HTTP), sigstore signatures
// as attachments in the registry, both configured by a registries.d.
type signedRegistry struct {
	*ocitest.Registry
	lookaside     string // the lookaside server's directory
	registriesDir string
}

func newSignedRegistry(t *testing.T) *signedRegistry {
	t.Helper()
	s := &signedRegistry{Registry: ocitest.NewRegistry(t), lookaside: t.TempDir(), registriesDir: t.TempDir()}
	web := httptest.NewServer(http.FileServer(http.Dir(s.lookaside)))
	t.Cleanup(web.Close)
	conf := fmt.Sprintf("docker:\n  %s:\n    lookaside: %s\n    use-sigstore-attachments: true\n", s.Host, web.URL)
	if err := os.WriteFile(filepath.Join(s.registriesDir, "shellbox-test.yaml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *signedRegistry) opts(p *Policy) PullOptions {
	return PullOptions{AuthFile: s.AuthFile, CertDir: s.CertDir, RegistriesDir: s.registriesDir, Policy: p}
}

func (s *signedRegistry) system() *types.SystemContext {
	return &types.SystemContext{AuthFilePath: s.AuthFile, DockerCertPath: s.CertDir, RegistriesDirPath: s.registriesDir}
}

// namedImage is a linux/amd64 image whose one layer holds /name: each
// name is an image of its own digest.
func namedImage(t *testing.T, name string) v1.Image {
	t.Helper()
	data := archive(entry{name: "name", data: []byte(name)})
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
	if err != nil {
		t.Fatal(err)
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := img.ConfigFile()
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", "amd64"
	if img, err = mutate.ConfigFile(img, cfg); err != nil {
		t.Fatal(err)
	}
	return img
}

// gpgKey is an OpenPGP key made in the test, its public key ring in a file.
type gpgKey struct {
	entity  *openpgp.Entity
	pubring string
}

func newGPGKey(t *testing.T, name string) gpgKey {
	t.Helper()
	e, err := openpgp.NewEntity(name, "", name+"@shellbox.test", &packet.Config{Algorithm: packet.PubKeyAlgoEdDSA})
	if err != nil {
		t.Fatal(err)
	}
	var ring bytes.Buffer
	if err := e.Serialize(&ring); err != nil {
		t.Fatal(err)
	}
	k := gpgKey{entity: e, pubring: filepath.Join(t.TempDir(), name+".gpg")}
	if err := os.WriteFile(k.pubring, ring.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return k
}

// Close, SupportsSigning, Sign, Verify and UntrustedSignatureContents make
// gpgKey a signature.SigningMechanism that signs with go-crypto (the
// library's pure-Go mechanism only verifies), so the signature payload
// is containers/image's own (signature.SignDockerManifest).
func (k gpgKey) Close() error           { return nil }
func (k gpgKey) SupportsSigning() error { return nil }
func (k gpgKey) Sign(input []byte, _ string) ([]byte, error) {
	var out bytes.Buffer
	w, err := openpgp.Sign(&out, k.entity, nil, nil)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(input); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
func (k gpgKey) Verify([]byte) ([]byte, string, error) { return nil, "", errors.New("sign only") }
func (k gpgKey) UntrustedSignatureContents([]byte) ([]byte, string, error) {
	return nil, "", errors.New("sign only")
}

// pushGPGSigned pushes img as repo (NAME:TAG) and, unless key is nil,
// puts key's simple signing signature of it where the registries.d's
// lookaside says; it returns the image's reference.
func (s *signedRegistry) pushGPGSigned(t *testing.T, repo string, img v1.Image, key *gpgKey) string {
	t.Helper()
	ref := s.Push(t, repo, img)
	if key == nil {
		return ref
	}
	man, err := img.RawManifest()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := img.Digest()
	sig, err := signature.SignDockerManifest(man, ref, key, strings.ToUpper(fmt.Sprintf("%x", key.entity.PrimaryKey.Fingerprint)))
	if err != nil {
		t.Fatal(err)
	}
	named, _ := reference.ParseNormalizedNamed(ref)
	// The lookaside layout of containers-registries.d(5).
	dir := filepath.Join(s.lookaside, reference.Path(named)+"@sha256="+d.Hex)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "signature-1"), sig, 0o644); err != nil {
		t.Fatal(err)
	}
	return ref
}

// sigstoreKey is a sigstore (cosign) key pair made in the test.
type sigstoreKey struct{ private, public string }

func newSigstoreKey(t *testing.T) sigstoreKey {
	t.Helper()
	kp, err := sigstore.GenerateKeyPair([]byte("pass"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	k := sigstoreKey{private: filepath.Join(dir, "cosign.key"), public: filepath.Join(dir, "cosign.pub")}
	if err := os.WriteFile(k.private, kp.PrivateKey, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k.public, kp.PublicKey, 0o644); err != nil {
		t.Fatal(err)
	}
	return k
}

// pushSigstoreSigned pushes img (a v1.Image or v1.ImageIndex) as repo
// and copies it onto itself with containers/image's copy and a sigstore
// signer, which stores the signatures (of a list: of every instance and
// the list) as sigstore attachments in the registry.
func (s *signedRegistry) pushSigstoreSigned(t *testing.T, repo string, img any, key sigstoreKey) string {
	t.Helper()
	ref := s.Push(t, repo, img)
	sg, err := sigstore.NewSigner(sigstore.WithPrivateKeyFile(key.private, []byte("pass")))
	if err != nil {
		t.Fatal(err)
	}
	defer sg.Close()
	src, err := ParseSource(ref)
	if err != nil {
		t.Fatal(err)
	}
	accept, _ := signature.NewPolicyContext(&signature.Policy{Default: signature.PolicyRequirements{signature.NewPRInsecureAcceptAnything()}})
	defer accept.Destroy()
	if _, err := copy.Image(context.Background(), accept, src, src, &copy.Options{
		Signers: []*signer.Signer{sg}, SourceCtx: s.system(), DestinationCtx: s.system(),
		ImageListSelection: copy.CopyAllImages}); err != nil {
		t.Fatal(err)
	}
	return ref
}

// writePolicy writes a containers-policy.json and reads it with ReadPolicy.
func writePolicy(t *testing.T, policy map[string]any) *Policy {
	t.Helper()
	data, err := json.Marshal(policy)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := ReadPolicy(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	reject = map[string]any{"type": "reject"}
	accept = map[string]any{"type": "insecureAcceptAnything"}
)

// scoped is a policy whose default is def and whose docker transport has
// the given scopes.
func scoped(def map[string]any, scopes map[string]any) map[string]any {
	return map[string]any{"default": []any{def}, "transports": map[string]any{"docker": scopes}}
}

func signedBy(k gpgKey) []any {
	return []any{map[string]any{"type": "signedBy", "keyType": "GPGKeys", "keyPath": k.pubring}}
}

func sigstoreSigned(k sigstoreKey) []any {
	return []any{map[string]any{"type": "sigstoreSigned", "keyPath": k.public, "signedIdentity": map[string]any{"type": "matchRepoDigestOrExact"}}}
}

// wantRefused checks that err is a *PolicyError naming the image and
// the policy file, whose reason contains reason.
func wantRefused(t *testing.T, what string, err error, ref string, p *Policy, reason string) {
	t.Helper()
	var pe *PolicyError
	if !errors.As(err, &pe) {
		t.Errorf("%s: got %v, want a *PolicyError", what, err)
		return
	}
	if !strings.Contains(pe.Image, ref) || pe.Policy != p.Path || !strings.Contains(pe.Err.Error(), reason) {
		t.Errorf("%s: %+v (want image %s, policy %s, reason with %q)", what, pe, ref, p.Path, reason)
	}
	if !strings.Contains(err.Error(), ref) || !strings.Contains(err.Error(), p.Path) {
		t.Errorf("%s: the message %q names neither the image nor the policy", what, err)
	}
}

// TestPullSignedByGPG: a signedBy (GPGKeys) scope for a repository
// admits its images signed by that key (signature on the lookaside
// server) and refuses unsigned ones and ones signed by another key;
// other repositories follow the default.
func TestPullSignedByGPG(t *testing.T) {
	s := newSignedRegistry(t)
	trusted, other := newGPGKey(t, "trusted"), newGPGKey(t, "other")
	good := s.pushGPGSigned(t, "shellbox/gpg:good", namedImage(t, "good"), &trusted)
	unsigned := s.pushGPGSigned(t, "shellbox/gpg:unsigned", namedImage(t, "unsigned"), nil)
	foreign := s.pushGPGSigned(t, "shellbox/gpg:foreign", namedImage(t, "foreign"), &other)
	elsewhere := s.pushGPGSigned(t, "shellbox/elsewhere:v1", namedImage(t, "elsewhere"), nil)
	p := writePolicy(t, scoped(reject, map[string]any{s.Host + "/shellbox/gpg": signedBy(trusted)}))

	dir, d, err := pull(t, good, s.opts(p))
	if err != nil {
		t.Fatalf("signed by the trusted key: %v", err)
	}
	if _, err := Open(dir, d); err != nil {
		t.Fatal(err)
	}
	_, _, err = pull(t, unsigned, s.opts(p))
	wantRefused(t, "unsigned", err, unsigned, p, "no signature exists")
	_, _, err = pull(t, foreign, s.opts(p))
	wantRefused(t, "signed by another key", err, foreign, p, "Key not found")
	_, _, err = pull(t, elsewhere, s.opts(p))
	wantRefused(t, "another repository (default reject)", err, elsewhere, p, "rejected by policy")

	// The same image under a tag it was not signed for: the signature's
	// identity does not match.
	retagged := s.Push(t, "shellbox/gpg:retagged", namedImage(t, "good"))
	_, _, err = pull(t, retagged, s.opts(p))
	wantRefused(t, "a signature for another tag", err, retagged, p, "is not accepted")

	// A refused pull leaves nothing in its layout.
	dir, _, _ = pull(t, unsigned, s.opts(p))
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a refused pull left %d entries in its layout", len(entries))
	}
}

// TestPullSigstoreSigned: a sigstoreSigned (public key) scope admits an
// image whose sigstore attachment that key signed and refuses unsigned
// images and ones signed by another key.
func TestPullSigstoreSigned(t *testing.T) {
	s := newSignedRegistry(t)
	trusted, other := newSigstoreKey(t), newSigstoreKey(t)
	good := s.pushSigstoreSigned(t, "shellbox/cosign:good", namedImage(t, "cosign-good"), trusted)
	foreign := s.pushSigstoreSigned(t, "shellbox/cosign:foreign", namedImage(t, "cosign-foreign"), other)
	unsigned := s.Push(t, "shellbox/cosign:unsigned", namedImage(t, "cosign-unsigned"))
	p := writePolicy(t, scoped(reject, map[string]any{s.Host + "/shellbox/cosign": sigstoreSigned(trusted)}))

	if _, _, err := pull(t, good, s.opts(p)); err != nil {
		t.Fatalf("signed by the trusted key: %v", err)
	}
	_, _, err := pull(t, foreign, s.opts(p))
	wantRefused(t, "signed by another key", err, foreign, p, "signature verification failed")
	_, _, err = pull(t, unsigned, s.opts(p))
	wantRefused(t, "unsigned", err, unsigned, p, "no signature exists")
}

// TestPullSignedManifestList: from a list, the policy is evaluated on
// the linux/amd64 instance Pull chose (as containers/image's copy does),
// so that instance's own signature admits it; a list whose amd64
// instance is unsigned is refused even though the list itself is signed
// elsewhere.
func TestPullSignedManifestList(t *testing.T) {
	s := newSignedRegistry(t)
	key := newSigstoreKey(t)
	ref := s.pushSigstoreSigned(t, "shellbox/multi:v1", multiArch(t), key)
	p := writePolicy(t, scoped(reject, map[string]any{s.Host + "/shellbox/multi": sigstoreSigned(key)}))
	dir, d, err := pull(t, ref, s.opts(p))
	if err != nil {
		t.Fatalf("signed list: %v", err)
	}
	if img, err := Open(dir, d); err != nil || img.Config.Architecture != "amd64" {
		t.Fatalf("signed list: %v", err)
	}

	// Only the list signed (a lookaside signature of its digest), not
	// its instances: the amd64 instance has no signature of its own.
	gk := newGPGKey(t, "list-only")
	idx := multiArch(t)
	unsignedInstances := s.Push(t, "shellbox/listonly:v1", idx)
	raw, _ := idx.RawManifest()
	idxDigest, _ := idx.Digest()
	sig, err := signature.SignDockerManifest(raw, unsignedInstances, gk, strings.ToUpper(fmt.Sprintf("%x", gk.entity.PrimaryKey.Fingerprint)))
	if err != nil {
		t.Fatal(err)
	}
	sigDir := filepath.Join(s.lookaside, "shellbox/listonly@sha256="+idxDigest.Hex)
	os.MkdirAll(sigDir, 0o755)
	if err := os.WriteFile(filepath.Join(sigDir, "signature-1"), sig, 0o644); err != nil {
		t.Fatal(err)
	}
	lp := writePolicy(t, scoped(reject, map[string]any{s.Host + "/shellbox/listonly": signedBy(gk)}))
	_, _, err = pull(t, unsignedInstances, s.opts(lp))
	wantRefused(t, "a list signed without its instances", err, unsignedInstances, lp, "no signature exists")
}

// TestPullPolicyScopes: reject refuses, insecureAcceptAnything accepts,
// and a scope applies to its registry (or repository) only, the most
// specific scope winning as containers/image orders them.
func TestPullPolicyScopes(t *testing.T) {
	s := newSignedRegistry(t)
	ref := s.Push(t, "shellbox/plain:v1", namedImage(t, "plain"))

	rejectAll := writePolicy(t, map[string]any{"default": []any{reject}})
	_, _, err := pull(t, ref, s.opts(rejectAll))
	wantRefused(t, "reject", err, ref, rejectAll, "rejected")

	if _, _, err := pull(t, ref, s.opts(writePolicy(t, map[string]any{"default": []any{accept}}))); err != nil {
		t.Errorf("insecureAcceptAnything: %v", err)
	}
	otherRegistry := writePolicy(t, scoped(accept, map[string]any{"registry.example:5000": []any{reject}, "127.0.0.2:" + strings.Split(s.Host, ":")[1]: []any{reject}}))
	if _, _, err := pull(t, ref, s.opts(otherRegistry)); err != nil {
		t.Errorf("a reject scope for other registries applied: %v", err)
	}
	thisRegistry := writePolicy(t, scoped(accept, map[string]any{s.Host: []any{reject}}))
	_, _, err = pull(t, ref, s.opts(thisRegistry))
	wantRefused(t, "a reject scope for this registry", err, ref, thisRegistry, "rejected")
	repoOverRegistry := writePolicy(t, scoped(reject, map[string]any{s.Host: []any{reject}, s.Host + "/shellbox/plain": []any{accept}}))
	if _, _, err := pull(t, ref, s.opts(repoOverRegistry)); err != nil {
		t.Errorf("the repository's scope did not win over its registry's: %v", err)
	}
}

// TestPullDefaultPolicy: without a policy, Pull reads the one
// containers/image would ($CONTAINERS_POLICY_JSON here) and names it
// when it refuses; with no policy file anywhere every image is accepted.
func TestPullDefaultPolicy(t *testing.T) {
	s := newSignedRegistry(t)
	ref := s.Push(t, "shellbox/default:v1", namedImage(t, "default"))
	rejectAll := writePolicy(t, map[string]any{"default": []any{reject}})
	t.Setenv("CONTAINERS_POLICY_JSON", rejectAll.Path)
	_, _, err := pull(t, ref, s.opts(nil))
	wantRefused(t, "the default policy", err, ref, rejectAll, "rejected")

	// No file: an empty root for the system paths, an empty home.
	os.Unsetenv("CONTAINERS_POLICY_JSON")
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	policyRoot = t.TempDir()
	t.Cleanup(func() { policyRoot = "" })
	p, err := ReadPolicy("")
	if err != nil || !p.None() || p.ID() != "" {
		t.Fatalf("no policy file: %+v %v", p, err)
	}
	if _, _, err := pull(t, ref, s.opts(nil)); err != nil {
		t.Fatalf("no policy file: %v", err)
	}
}

func TestReadPolicyRefusals(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadPolicy(filepath.Join(dir, "absent.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
	for name, body := range map[string]string{
		"empty":           "",
		"not JSON":        "{",
		"no default":      `{"transports": {}}`,
		"unknown type":    `{"default": [{"type": "trustMe"}]}`,
		"misspelled key":  `{"default": [{"type": "reject"}], "transport": {}}`,
		"signedBy no key": `{"default": [{"type": "signedBy", "keyType": "GPGKeys"}]}`,
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := ReadPolicy(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", name, err)
		}
	}
	a := writePolicy(t, map[string]any{"default": []any{reject}})
	b := writePolicy(t, map[string]any{"default": []any{accept}})
	if a.ID() == "" || a.ID() == b.ID() {
		t.Errorf("policy IDs %q %q", a.ID(), b.ID())
	}
}

// TestSignatureLookupIsTheLibrarys checks the fixture against
// containers/image: the lookaside base it derives for the test registry
// is the web server the registries.d names.
func TestSignatureLookupIsTheLibrarys(t *testing.T) {
	s := newSignedRegistry(t)
	named, _ := reference.ParseNormalizedNamed(s.Host + "/shellbox/gpg:v1")
	ref, err := docker.NewReference(named)
	if err != nil {
		t.Fatal(err)
	}
	base, err := docker.SignatureStorageBaseURL(s.system(), ref, false)
	if err != nil || base.Scheme != "http" || !strings.HasSuffix(base.Path, "/shellbox/gpg") {
		t.Fatalf("lookaside base %v %v", base, err)
	}
}
