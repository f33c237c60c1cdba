package daytonad_test

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/daytonad"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// SDKVersion is the official SDK the server is checked with (the version
// marin-shellbox pins).
const SDKVersion = "0.200.2"

// SDKPythonEnv names a Python that has daytona==SDKVersion installed; without
// it the test makes (once, cached) a virtual environment with it.
const SDKPythonEnv = "SHELLBOX_DAYTONA_SDK_PYTHON"

// sdkPython returns a Python interpreter with the official SDK.
func sdkPython(t *testing.T) string {
	if p := os.Getenv(SDKPythonEnv); p != "" {
		return p
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "shellbox", "daytona-sdk-"+SDKVersion)
	py := filepath.Join(dir, "bin", "python")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if exec.Command(py, "-c", "import daytona").Run() == nil {
		return py
	}
	os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for _, argv := range [][]string{
		{"python3", "-m", "venv", dir},
		{py, "-m", "pip", "install", "-q", "daytona==" + SDKVersion},
	} {
		if out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			t.Fatalf("installing the official SDK (%s): %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
	return py
}

// The official Python SDK drives the server: snapshots, sandboxes from a
// snapshot and from an image, exec, files, sessions, network blocking,
// 404 and 401. Every sandbox is gone afterwards (a failed machine Close
// would have been a 500 to the SDK).
func TestOfficialSDK(t *testing.T) {
	py := sdkPython(t)
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
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil || !strings.Contains(string(out), "SDK CHECK OK") {
		t.Fatalf("the SDK check failed: %v", err)
	}
	if n := srv.Sandboxes(); n != 0 {
		t.Fatalf("%d sandboxes remain after the SDK deleted its own", n)
	}
}
