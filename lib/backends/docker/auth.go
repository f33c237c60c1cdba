package docker

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/distribution/reference"
	"github.com/docker/docker/api/types/registry"
)

// dockerHubKey is the key Docker Hub credentials are stored under.
const dockerHubKey = "https://index.docker.io/v1/"

// configFile is the part of the Docker CLI's config.json that holds
// registry credentials.
type configFile struct {
	Auths       map[string]configAuth `json:"auths"`
	CredsStore  string                `json:"credsStore"`
	CredHelpers map[string]string     `json:"credHelpers"`
}

type configAuth struct {
	Auth          string `json:"auth"`
	Username      string `json:"username"`
	Password      string `json:"password"`
	IdentityToken string `json:"identitytoken"`
	RegistryToken string `json:"registrytoken"`
}

// registryAuth returns the encoded X-Registry-Auth value for ref from the
// user's Docker login configuration ($DOCKER_CONFIG/config.json or
// ~/.docker/config.json, including credential helpers), or "" when there
// is none.
func registryAuth(ref string) (string, error) {
	named, err := reference.ParseNormalizedNamed(ref)
	if err != nil {
		return "", fmt.Errorf("invalid image reference %q: %w", ref, err)
	}
	domain := reference.Domain(named)
	conf, err := loadConfig()
	if err != nil || conf == nil {
		return "", err
	}
	auth, ok, err := conf.lookup(domain)
	if err != nil || !ok {
		return "", err
	}
	return registry.EncodeAuthConfig(auth)
}

// configPath is the Docker login configuration file:
// $DOCKER_CONFIG/config.json, else ~/.docker/config.json ("" without a
// home directory).
func configPath() string {
	dir := os.Getenv("DOCKER_CONFIG")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".docker")
	}
	return filepath.Join(dir, "config.json")
}

// authHint explains a pull the registry refused: which configuration file
// was read and whether it held credentials for the registry.
func authHint(ref string, sentAuth bool, err error) string {
	msg := strings.ToLower(err.Error())
	if !strings.Contains(msg, "no basic auth credentials") && !strings.Contains(msg, "unauthorized") &&
		!strings.Contains(msg, "authentication required") && !strings.Contains(msg, "denied") {
		return ""
	}
	domain := ref
	if named, err := reference.ParseNormalizedNamed(ref); err == nil {
		domain = reference.Domain(named)
	}
	if sentAuth {
		return fmt.Sprintf("the registry %s refused the credentials for it in %s", domain, configPath())
	}
	return fmt.Sprintf("no credentials for the registry %s in %s (log in with docker login %s, or set DOCKER_CONFIG to a directory whose config.json has them)", domain, configPath(), domain)
}

func loadConfig() (*configFile, error) {
	path := configPath()
	if path == "" {
		return nil, nil
	}
	dir := filepath.Dir(path)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var conf configFile
	if err := json.Unmarshal(data, &conf); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "config.json"), err)
	}
	return &conf, nil
}

// serverKey is the config key for a registry domain.
func serverKey(domain string) string {
	if domain == "docker.io" || domain == "index.docker.io" || domain == "registry-1.docker.io" {
		return dockerHubKey
	}
	return domain
}

// hostOf strips a config key down to its host[:port].
func hostOf(key string) string {
	key = strings.TrimPrefix(strings.TrimPrefix(key, "https://"), "http://")
	if i := strings.IndexByte(key, '/'); i >= 0 {
		key = key[:i]
	}
	switch key {
	case "index.docker.io", "registry-1.docker.io", "docker.io":
		return "docker.io"
	}
	return key
}

func (c *configFile) lookup(domain string) (registry.AuthConfig, bool, error) {
	key := serverKey(domain)
	if helper := c.CredHelpers[domain]; helper != "" {
		return helperGet(helper, key)
	}
	for k, a := range c.Auths {
		if hostOf(k) != hostOf(key) {
			continue
		}
		out := registry.AuthConfig{ServerAddress: key, Username: a.Username, Password: a.Password,
			IdentityToken: a.IdentityToken, RegistryToken: a.RegistryToken}
		if a.Auth != "" {
			raw, err := base64.StdEncoding.DecodeString(a.Auth)
			if err != nil {
				return out, false, fmt.Errorf("docker config: malformed auth for %s", k)
			}
			user, pass, ok := strings.Cut(string(raw), ":")
			if !ok {
				return out, false, fmt.Errorf("docker config: malformed auth for %s", k)
			}
			out.Username, out.Password = user, pass
		}
		if out.Username != "" || out.IdentityToken != "" || out.RegistryToken != "" {
			return out, true, nil
		}
	}
	if c.CredsStore != "" {
		return helperGet(c.CredsStore, key)
	}
	return registry.AuthConfig{}, false, nil
}

// helperGet asks a docker-credential-<helper> program for a server's
// credentials; a helper that knows none gives no credentials.
func helperGet(helper, server string) (registry.AuthConfig, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "docker-credential-"+helper, "get")
	cmd.Stdin = strings.NewReader(server)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if strings.Contains(stdout.String()+stderr.String(), "credentials not found") {
			return registry.AuthConfig{}, false, nil
		}
		return registry.AuthConfig{}, false, fmt.Errorf("docker-credential-%s: %v: %s", helper, err, strings.TrimSpace(stderr.String()))
	}
	var resp struct {
		Username string `json:"Username"`
		Secret   string `json:"Secret"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		return registry.AuthConfig{}, false, fmt.Errorf("docker-credential-%s: %w", helper, err)
	}
	out := registry.AuthConfig{ServerAddress: server}
	if resp.Username == "<token>" {
		out.IdentityToken = resp.Secret
	} else {
		out.Username, out.Password = resp.Username, resp.Secret
	}
	return out, true, nil
}
