package docker

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/docker/docker/api/types/registry"
)

func decodeAuth(t *testing.T, s string) registry.AuthConfig {
	t.Helper()
	raw, err := base64.URLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	var a registry.AuthConfig
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestRegistryAuth reads credentials from the Docker login configuration.
func TestRegistryAuth(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DOCKER_CONFIG", dir)
	if got, err := registryAuth("ghcr.io/org/image:tag"); err != nil || got != "" {
		t.Fatalf("no config: %q %v", got, err)
	}
	conf := `{"auths": {
		"https://index.docker.io/v1/": {"auth": "` + base64.StdEncoding.EncodeToString([]byte("hubuser:hubpass")) + `"},
		"ghcr.io": {"auth": "` + base64.StdEncoding.EncodeToString([]byte("gh:tok:en")) + `"},
		"https://registry.example.com:5000/v2/": {"identitytoken": "idtok"}
	}}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]registry.AuthConfig{
		"busybox":                            {Username: "hubuser", Password: "hubpass", ServerAddress: dockerHubKey},
		"docker.io/library/alpine:3":         {Username: "hubuser", Password: "hubpass", ServerAddress: dockerHubKey},
		"ghcr.io/org/image:tag":              {Username: "gh", Password: "tok:en", ServerAddress: "ghcr.io"},
		"registry.example.com:5000/team/x:1": {IdentityToken: "idtok", ServerAddress: "registry.example.com:5000"},
	} {
		got, err := registryAuth(ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if a := decodeAuth(t, got); a != want {
			t.Fatalf("%s: got %+v want %+v", ref, a, want)
		}
	}
	if got, err := registryAuth("quay.io/other/image"); err != nil || got != "" {
		t.Fatalf("unknown registry: %q %v", got, err)
	}
}

// TestShellWord checks the quoting used for the command line.
func TestShellWord(t *testing.T) {
	var q quoter
	if w := q.word("it's"); w != `'it'\''s'` || len(q.pre) != 0 {
		t.Fatal(w)
	}
	if w := q.word("a\nb%\\"); w != `"$_sbw0"` || q.pre[0] != `_sbw0=$(printf 'a\012b%%\\.'); _sbw0=${_sbw0%.}` {
		t.Fatal(w, q.pre)
	}
}
