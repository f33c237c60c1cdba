package dockertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/registry"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/jsonmessage"
	"golang.org/x/crypto/bcrypt"
)

// RegistryBinary is the CNCF distribution registry (Debian's
// docker-registry package, installed by .ci/docker.sh).
const RegistryBinary = "/usr/bin/docker-registry"

// Registry is a registry process of one test, listening on loopback
// (which dockerd treats as an insecure, plain-HTTP registry by default).
type Registry struct {
	// Addr is host:port, the registry part of image references.
	Addr string
	// Log is the file holding the registry's output, access log included.
	Log string
}

// StartRegistry runs a registry with its storage in a temporary directory;
// users (name → password), when given, are required through basic auth.
// The process is killed and its files removed when the test ends.
func StartRegistry(t testing.TB, users map[string]string) *Registry {
	t.Helper()
	if _, err := os.Stat(RegistryBinary); err != nil {
		t.Fatalf("%s is missing (Debian package docker-registry; .ci/docker.sh installs it): %v", RegistryBinary, err)
	}
	dir := t.TempDir()
	authConf := ""
	if len(users) > 0 {
		var htpasswd strings.Builder
		for user, pass := range users {
			hash, err := bcrypt.GenerateFromPassword([]byte(pass), bcrypt.MinCost)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&htpasswd, "%s:%s\n", user, hash)
		}
		path := filepath.Join(dir, "htpasswd")
		if err := os.WriteFile(path, []byte(htpasswd.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		authConf = "auth:\n  htpasswd:\n    realm: shellbox-test\n    path: " + path + "\n"
	}
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		reg, err := startRegistry(t, dir, attempt, authConf)
		if err == nil {
			return reg
		}
		lastErr = err
	}
	t.Fatalf("starting %s: %v", RegistryBinary, lastErr)
	return nil
}

func startRegistry(t testing.TB, dir string, attempt int, authConf string) (*Registry, error) {
	// A free port: bind, note it, release it for the registry.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	secret := make([]byte, 16)
	rand.Read(secret)
	conf := fmt.Sprintf(`version: 0.1
log:
  level: info
  accesslog:
    disabled: false
storage:
  filesystem:
    rootdirectory: %s
  delete:
    enabled: true
http:
  addr: %s
  secret: %s
%s`, filepath.Join(dir, fmt.Sprintf("data%d", attempt)), addr, hex.EncodeToString(secret), authConf)
	confPath := filepath.Join(dir, fmt.Sprintf("config%d.yml", attempt))
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, fmt.Sprintf("registry%d.log", attempt))
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(RegistryBinary, "serve", confPath)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); logFile.Close() }()
	stop := func() {
		cmd.Process.Kill()
		<-exited
	}
	deadline := time.Now().Add(20 * time.Second)
	httpc := &http.Client{Timeout: time.Second}
	for {
		select {
		case err := <-exited:
			out, _ := os.ReadFile(logPath)
			exited <- err
			return nil, fmt.Errorf("exited (%v): %s", err, tail(out))
		default:
		}
		resp, err := httpc.Get("http://" + addr + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusUnauthorized {
				break
			}
		}
		if time.Now().After(deadline) {
			stop()
			out, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("no answer at %s within 20 s: %s", addr, tail(out))
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Cleanup(stop)
	return &Registry{Addr: addr, Log: logPath}, nil
}

func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// Requests counts the access-log lines of requests whose method and path
// start with prefix, e.g. "GET /v2/shellbox-test/busybox/blobs/".
func (r *Registry) Requests(t testing.TB, prefix string) int {
	t.Helper()
	data, err := os.ReadFile(r.Log)
	if err != nil {
		t.Fatal(err)
	}
	// Combined log format: ... "GET /v2/name/manifests/tag HTTP/1.1" 200 ...
	return bytes.Count(data, []byte(`"`+prefix))
}

// ImportBusybox imports BusyboxRootfsWith(extra) into the daemon as ref.
func ImportBusybox(ctx context.Context, cli *client.Client, ref string, extra map[string]string) error {
	rootfs, err := BusyboxRootfsWith(extra)
	if err != nil {
		return err
	}
	rc, err := cli.ImageImport(ctx, image.ImportSource{Source: bytes.NewReader(rootfs), SourceName: "-"}, ref,
		image.ImportOptions{Changes: []string{
			"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			`CMD ["/bin/sh"]`,
		}})
	if err != nil {
		return fmt.Errorf("importing %s: %w", ref, err)
	}
	defer rc.Close()
	if err := jsonmessage.DisplayJSONMessagesStream(rc, io.Discard, 0, false, nil); err != nil {
		return fmt.Errorf("importing %s: %w", ref, err)
	}
	return nil
}

// Push pushes ref through the Engine API with auth as its X-Registry-Auth
// header (the zero AuthConfig for an open registry).
func Push(ctx context.Context, cli *client.Client, ref string, auth registry.AuthConfig) error {
	enc, err := registry.EncodeAuthConfig(auth)
	if err != nil {
		return err
	}
	rc, err := cli.ImagePush(ctx, ref, image.PushOptions{RegistryAuth: enc})
	if err != nil {
		return fmt.Errorf("pushing %s: %w", ref, err)
	}
	defer rc.Close()
	if err := jsonmessage.DisplayJSONMessagesStream(rc, io.Discard, 0, false, nil); err != nil {
		return fmt.Errorf("pushing %s: %w", ref, err)
	}
	return nil
}
