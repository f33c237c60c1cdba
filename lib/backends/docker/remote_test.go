package docker_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// A second dockerd on a loopback TCP port with TLS (a test CA): a factory
// reaches it with DOCKER_TLS_VERIFY and DOCKER_CERT_PATH as the docker CLI
// would, runs a machine there, and without a client certificate, or with
// another CA's, it is refused with an error that says so.
func TestRemoteHostTLS(t *testing.T) {
	d := dockertest.StartTLSDaemon(t)
	host, certs, dir := d.Host, d.Certs, t.TempDir()
	t.Setenv(docker.EnvTLSVerify, "1")
	t.Setenv(docker.EnvCertPath, certs)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var f *docker.Factory
	var err error
	for deadline := time.Now().Add(60 * time.Second); ; {
		if f, err = docker.New(ctx, docker.Config{Host: host}); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the TLS daemon did not answer: %v\n%s", err, d.Log())
		}
		time.Sleep(300 * time.Millisecond)
	}
	if f.Host() != host {
		t.Fatalf("host %s", f.Host())
	}
	if err := dockertest.EnsureBusybox(ctx, f.Client()); err != nil {
		t.Fatal(err)
	}
	m, err := f.Create(ctx, machine.Spec{Source: dockertest.Busybox, Workdir: "/workspace", Network: machine.NetworkDeny})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "echo over tls; pwd"}, OutputLimit: 100})
	if err != nil || string(r.Stdout) != "over tls\n/workspace\n" {
		t.Fatalf("%+v %v", r, err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}

	// Another CA's certificates: the daemon is not trusted, nor is the client.
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	dockertest.WritePKI(t, other)
	t.Setenv(docker.EnvCertPath, other)
	_, err = docker.New(ctx, docker.Config{Host: host})
	var su *machine.SandboxUnavailable
	if !errors.As(err, &su) || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("a daemon of another CA: %v", err)
	}
	// No client certificate at all: refused before connecting, naming the file.
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(docker.EnvCertPath, empty)
	if _, err = docker.New(ctx, docker.Config{Host: host}); !errors.As(err, &su) || !strings.Contains(err.Error(), "ca.pem") {
		t.Fatalf("missing certificates: %v", err)
	}
	// Without TLS the daemon does not speak to us.
	t.Setenv(docker.EnvTLSVerify, "")
	if _, err = docker.New(ctx, docker.Config{Host: host}); !errors.As(err, &su) {
		t.Fatalf("plain HTTP to a TLS daemon: %v", err)
	}
}
