package irisd_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/irisd"
	"github.com/shellbox/shellbox/lib/remote/remotetest"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// IrisVersion is the marin-iris whose generated client checks the
// controller (the wheel the protos come from).
const IrisVersion = remotetest.MarinIrisVersion

// IrisPythonEnv names a Python with marin-iris's rpc modules importable;
// without it the test makes (once, cached) a virtual environment with the
// wheel and the Connect runtime it needs (marin-iris's other dependencies,
// for its CLI and cluster code, are not installed).
const IrisPythonEnv = "SHELLBOX_IRIS_PYTHON"

// marin-iris's own generated client drives the controller in binary proto
// and in Iris's JSON codec: launch, list, exec, status, terminate, and the
// error codes (NOT_FOUND, UNAUTHENTICATED, INVALID_ARGUMENT).
func TestOfficialClient(t *testing.T) {
	py := remotetest.Venv(t, IrisPythonEnv, "marin-iris-"+IrisVersion, remotetest.Python312(t),
		[]string{"--no-deps", "marin-iris==" + IrisVersion},
		[]string{"connect-python==0.9.0", "protobuf", "zstandard"})
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
	srv, err := irisd.New(irisd.Config{Token: "client-token", Factory: df, Resources: true,
		Source: func(ref string) (machine.Source, error) { return machine.DockerImage{Reference: ref}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv.Handler())
	hs.Config.Protocols = new(http.Protocols)
	hs.Config.Protocols.SetHTTP1(true)
	hs.Config.Protocols.SetUnencryptedHTTP2(true)
	hs.Start()
	defer hs.Close()
	defer srv.Close(ctx)
	cctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(cctx, py, "testdata/client_check.py", hs.URL, "client-token", dockertest.BusyboxImage)
	cmd.Env = os.Environ()
	// Once the deadline kills python, output held open by anything it
	// started does not keep the test waiting.
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil || !strings.Contains(string(out), "CLIENT CHECK OK") {
		t.Fatalf("the client check failed: %v", err)
	}
	// Terminated tasks' machines are removed in the background.
	for deadline := time.Now().Add(time.Minute); srv.Releasing() > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if n := srv.Machines(); n != 0 {
		t.Fatalf("%d task machines remain after every job was terminated", n)
	}
}
