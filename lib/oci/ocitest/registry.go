// Package ocitest runs a real OCI distribution registry on loopback for
// tests (these machines reach no registry): go-containerregistry's
// registry behind TLS with its own CA and basic authentication, filled
// with go-containerregistry's client. Its command, ocitest-registry, serves
// one to tests outside Go.
package ocitest

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// User and Password are the registry's only credentials.
const User, Password = "shellbox", "s3cret"

// Registry is a registry serving on loopback until the test ends.
type Registry struct {
	srv *httptest.Server
	// Host is host:port, the registry part of references.
	Host string
	// CertDir holds the registry's CA as ca.crt (containers/image's
	// certs.d layout); AuthFile a Docker config.json with User/Password.
	CertDir, AuthFile string
	tamper            atomic.Value // string: a digest
	// Pulls counts manifest GETs.
	Pulls atomic.Int64
}

// NewRegistry starts a registry, stopped at the end of t.
func NewRegistry(t testing.TB) *Registry {
	t.Helper()
	r, err := Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// Start starts a registry whose CA and auth file are written under dir
// (for a process outside go test: cmd/ocitest-registry); Close stops it.
func Start(dir string) (*Registry, error) {
	r := &Registry{}
	r.tamper.Store("")
	h := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	r.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if u, p, ok := req.BasicAuth(); !ok || u != User || p != Password {
			w.Header().Set("WWW-Authenticate", `Basic realm="shellbox-test"`)
			http.Error(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`, http.StatusUnauthorized)
			return
		}
		if req.Method == http.MethodGet && strings.Contains(req.URL.Path, "/manifests/") {
			r.Pulls.Add(1)
		}
		if d := r.tamper.Load().(string); d != "" && req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/blobs/"+d) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body := rec.Body.Bytes()
			if len(body) > 0 {
				body[len(body)/2] ^= 0xff
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(body)
			return
		}
		h.ServeHTTP(w, req)
	}))
	r.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are tested
	r.srv.StartTLS()
	r.Host = strings.TrimPrefix(r.srv.URL, "https://")
	r.CertDir = filepath.Join(dir, "certs")
	r.AuthFile = filepath.Join(dir, "config.json")
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.srv.Certificate().Raw})
	auth, _ := json.Marshal(map[string]any{"auths": map[string]any{r.Host: map[string]string{
		"auth": base64.StdEncoding.EncodeToString([]byte(User + ":" + Password))}}})
	err := os.MkdirAll(r.CertDir, 0o755)
	if err == nil {
		err = os.WriteFile(filepath.Join(r.CertDir, "ca.crt"), cert, 0o644)
	}
	if err == nil {
		err = os.WriteFile(r.AuthFile, auth, 0o600)
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Close stops the registry.
func (r *Registry) Close() { r.srv.Close() }

// Tamper makes the registry flip a byte of the blob with this digest
// ("" stops it).
func (r *Registry) Tamper(digest string) { r.tamper.Store(digest) }

// Push uploads a v1.Image or v1.ImageIndex as repo (NAME:TAG) and returns
// its full reference.
func (r *Registry) Push(t testing.TB, repo string, v any) string {
	t.Helper()
	ref, err := r.Upload(repo, v)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// Upload is Push returning its error.
func (r *Registry) Upload(repo string, v any) (string, error) {
	ref, err := name.ParseReference(r.Host + "/" + repo)
	if err != nil {
		return "", err
	}
	o := []remote.Option{remote.WithTransport(r.srv.Client().Transport),
		remote.WithAuth(&authn.Basic{Username: User, Password: Password})}
	switch v := v.(type) {
	case v1.Image:
		err = remote.Write(ref, v, o...)
	case v1.ImageIndex:
		err = remote.WriteIndex(ref, v, o...)
	default:
		err = fmt.Errorf("cannot push a %T", v)
	}
	if err != nil {
		return "", err
	}
	return ref.String(), nil
}

// PushLayout uploads the one image of an OCI layout as repo.
func (r *Registry) PushLayout(t testing.TB, dir, repo string) string {
	t.Helper()
	ref, err := r.UploadLayout(dir, repo)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// UploadLayout is PushLayout returning its error.
func (r *Registry) UploadLayout(dir, repo string) (string, error) {
	idx, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		return "", err
	}
	man, err := idx.IndexManifest()
	if err != nil {
		return "", err
	}
	if len(man.Manifests) != 1 {
		return "", fmt.Errorf("layout %s holds %d manifests, not 1", dir, len(man.Manifests))
	}
	img, err := idx.Image(man.Manifests[0].Digest)
	if err != nil {
		return "", err
	}
	return r.Upload(repo, img)
}
