package daytonad_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/daytonad"
	"github.com/shellbox/shellbox/lib/remote/remotetest"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// SDKVersion is the official SDK the server is checked with (the version
// marin-shellbox pins).
const SDKVersion = "0.200.2"

// SDKPythonEnv names a Python that has daytona==SDKVersion installed; without
// it the test makes (once, cached) a virtual environment with it.
const SDKPythonEnv = "SHELLBOX_DAYTONA_SDK_PYTHON"

// The official Python SDK drives the server: snapshots, sandboxes from a
// snapshot and from an image, exec, files, sessions, network blocking,
// 404 and 401. Every sandbox is gone afterwards (a failed machine Close
// would have been a 500 to the SDK).
func TestOfficialSDK(t *testing.T) {
	py := remotetest.Venv(t, SDKPythonEnv, "daytona-sdk-"+SDKVersion, "", []string{"daytona==" + SDKVersion})
	ctx := context.Background()
	lock, err := dockertest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	if err := dockertest.StartDaemon(ctx); err != nil {
		t.Fatal(err)
	}
	df, err := docker.New(ctx, docker.Config{Backend: "docker"})
	if err != nil {
		t.Fatal(err)
	}
	if err := dockertest.EnsureBusybox(ctx, df.Client()); err != nil {
		t.Fatal(err)
	}
	const image = "shellbox-test/busybox:daytona"
	if err := df.Client().ImageTag(ctx, dockertest.BusyboxImage, image); err != nil {
		t.Fatal(err)
	}
	srv, err := daytonad.New(daytonad.Config{APIKey: "sdk-key", Factory: df, Resources: true,
		Source: func(ref string) (machine.Source, error) { return machine.DockerImage{Reference: ref}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	defer srv.Close(ctx)
	cctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, py, "testdata/sdk_check.py", hs.URL+"/api", "sdk-key", image)
	cmd.Env = append(os.Environ(), "DAYTONA_API_KEY=", "DAYTONA_API_URL=")
	// Once the deadline kills python, output held open by anything it
	// started does not keep the test waiting.
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil || !strings.Contains(string(out), "SDK CHECK OK") {
		t.Fatalf("the SDK check failed: %v", err)
	}
	if n := srv.Sandboxes(); n != 0 {
		t.Fatalf("%d sandboxes remain after the SDK deleted its own", n)
	}
}
