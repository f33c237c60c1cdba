package docker_test

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/registry"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// pushUnique imports a busybox image with a marker file of its own (so its
// layer exists nowhere else in the daemon), pushes it to ref, and removes
// it from the daemon's image store; it returns the marker.
func pushUnique(t *testing.T, ref string, auth registry.AuthConfig) string {
	t.Helper()
	ctx := context.Background()
	cli := factory.Client()
	marker := t.Name() + "-" + time.Now().Format(time.RFC3339Nano)
	if err := dockertest.ImportBusybox(ctx, cli, ref, map[string]string{"etc/shellbox-marker": marker}); err != nil {
		t.Fatal(err)
	}
	remove := func() error {
		_, err := cli.ImageRemove(ctx, ref, image.RemoveOptions{Force: true, PruneChildren: true})
		if cerrdefs.IsNotFound(err) {
			return nil
		}
		return err
	}
	t.Cleanup(func() {
		if err := remove(); err != nil {
			t.Errorf("removing %s: %v", ref, err)
		}
	})
	if err := dockertest.Push(ctx, cli, ref, auth); err != nil {
		t.Fatal(err)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := cli.ImageInspect(ctx, ref); !cerrdefs.IsNotFound(err) {
		t.Fatalf("%s still in the daemon after removal: %v", ref, err)
	}
	return marker
}

// waitCount polls the registry's access log (written when a response
// completes) until it counts more than before, or a few seconds pass.
func waitCount(t *testing.T, reg *dockertest.Registry, prefix string, before int) int {
	t.Helper()
	n := reg.Requests(t, prefix)
	for i := 0; i < 50 && n <= before; i++ {
		time.Sleep(100 * time.Millisecond)
		n = reg.Requests(t, prefix)
	}
	return n
}

// TestLoopbackRegistryInsecure: the daemon talks plain HTTP to registries
// on 127.0.0.0/8 without any insecure-registries configuration, which the
// registry tests rely on.
func TestLoopbackRegistryInsecure(t *testing.T) {
	info, err := factory.Client().Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.RegistryConfig == nil || !slices.ContainsFunc(info.RegistryConfig.InsecureRegistryCIDRs, func(n *registry.NetIPNet) bool {
		return n != nil && n.String() == "127.0.0.0/8"
	}) {
		t.Fatalf("the daemon does not treat 127.0.0.0/8 as insecure: %+v", info.RegistryConfig)
	}
}

// TestRegistryPull: a RegistryImage missing from the daemon is pulled from
// a real registry on loopback; a second machine from the same reference
// uses the daemon's copy without asking the registry again.
func TestRegistryPull(t *testing.T) {
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // no credentials from the host
	reg := dockertest.StartRegistry(t, nil)
	ref := reg.Addr + "/shellbox-test/busybox:latest"
	marker := pushUnique(t, ref, registry.AuthConfig{})
	const manifests, blobs = "GET /v2/shellbox-test/busybox/manifests/", "GET /v2/shellbox-test/busybox/blobs/"
	manifestsBefore, blobsBefore := reg.Requests(t, manifests), reg.Requests(t, blobs)

	start := time.Now()
	m := dockertest.NewMachine(t, factory, func(s *machine.Spec) { s.Source = machine.RegistryImage{Reference: ref} })
	t.Logf("machine from a pulled image in %v", time.Since(start))
	if r := dockertest.Sh(t, m, "cat /etc/shellbox-marker"); string(r.Stdout) != marker {
		t.Fatalf("marker %q, want %q", r.Stdout, marker)
	}
	manifestsAfter := waitCount(t, reg, manifests, manifestsBefore)
	blobsAfter := waitCount(t, reg, blobs, blobsBefore)
	if manifestsAfter <= manifestsBefore || blobsAfter <= blobsBefore {
		t.Fatalf("no pull reached the registry: manifests %d→%d, blobs %d→%d", manifestsBefore, manifestsAfter, blobsBefore, blobsAfter)
	}
	t.Logf("pull: %d manifest and %d blob requests", manifestsAfter-manifestsBefore, blobsAfter-blobsBefore)
	if _, err := factory.Client().ImageInspect(context.Background(), ref); err != nil {
		t.Fatalf("pulled image not in the daemon: %v", err)
	}

	m2 := dockertest.NewMachine(t, factory, func(s *machine.Spec) { s.Source = machine.RegistryImage{Reference: ref} })
	if r := dockertest.Sh(t, m2, "cat /etc/shellbox-marker"); string(r.Stdout) != marker {
		t.Fatalf("second machine: marker %q", r.Stdout)
	}
	time.Sleep(300 * time.Millisecond)
	if n, b := reg.Requests(t, manifests), reg.Requests(t, blobs); n != manifestsAfter || b != blobsAfter {
		t.Fatalf("the second machine pulled again: manifests %d→%d, blobs %d→%d", manifestsAfter, n, blobsAfter, b)
	}
}

// writeDockerConfig writes a config.json holding auths for one registry
// into a fresh DOCKER_CONFIG directory and points the environment at it.
func writeDockerConfig(t *testing.T, server, user, pass string) {
	t.Helper()
	dir := t.TempDir()
	conf := `{"auths": {"` + server + `": {"auth": "` + base64.StdEncoding.EncodeToString([]byte(user+":"+pass)) + `"}}}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DOCKER_CONFIG", dir)
}

// TestRegistryAuthPull: a registry behind basic auth is pulled from with
// the credentials of the Docker login configuration named by
// DOCKER_CONFIG; without them, or with a wrong password, creation fails
// with a StartupError that names the registry and says what is missing.
func TestRegistryAuthPull(t *testing.T) {
	const user, pass = "sbuser", "s3cret-pass"
	reg := dockertest.StartRegistry(t, map[string]string{user: pass})
	ref := reg.Addr + "/shellbox-test/busybox:latest"
	ctx := context.Background()
	cli := factory.Client()
	// Pushing without credentials is refused.
	if err := dockertest.ImportBusybox(ctx, cli, reg.Addr+"/shellbox-test/refused:latest", nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cli.ImageRemove(ctx, reg.Addr+"/shellbox-test/refused:latest", image.RemoveOptions{Force: true})
	})
	if err := dockertest.Push(ctx, cli, reg.Addr+"/shellbox-test/refused:latest", registry.AuthConfig{}); err == nil {
		t.Fatal("a push without credentials was accepted")
	}
	marker := pushUnique(t, ref, registry.AuthConfig{Username: user, Password: pass, ServerAddress: reg.Addr})

	spec := machine.Spec{Source: machine.RegistryImage{Reference: ref}, Network: machine.NetworkDeny}
	var se *machine.StartupError
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	_, err := factory.Create(ctx, spec)
	if !errors.As(err, &se) || machine.KindOf(err) != machine.KindStartup || !strings.Contains(err.Error(), reg.Addr) ||
		!strings.Contains(err.Error(), "no credentials") {
		t.Fatalf("without credentials: %v", err)
	}
	t.Logf("without credentials: %v", err)

	writeDockerConfig(t, reg.Addr, user, "wrong")
	_, err = factory.Create(ctx, spec)
	if !errors.As(err, &se) || !strings.Contains(err.Error(), reg.Addr) || strings.Contains(err.Error(), "no credentials") {
		t.Fatalf("wrong password: %v", err)
	}
	t.Logf("wrong password: %v", err)
	if _, err := cli.ImageInspect(ctx, ref); !cerrdefs.IsNotFound(err) {
		t.Fatalf("image present after refused pulls: %v", err)
	}

	writeDockerConfig(t, "http://"+reg.Addr, user, pass)
	m := dockertest.NewMachine(t, factory, func(s *machine.Spec) { s.Source = machine.RegistryImage{Reference: ref} })
	if r := dockertest.Sh(t, m, "cat /etc/shellbox-marker"); string(r.Stdout) != marker {
		t.Fatalf("marker %q, want %q", r.Stdout, marker)
	}
}
