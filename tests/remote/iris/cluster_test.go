package iris_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"connectrpc.com/connect"
	cerrdefs "github.com/containerd/errdefs"

	"github.com/shellbox/shellbox/lib/backends/iris"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/job"
	"github.com/shellbox/shellbox/lib/machine"
)

// A factory made from a cluster name, as marin-shellbox's cluster=, finds
// the cluster's config in the user's directory, reaches the manual
// controller it names with the token marin-iris sends
// ($MARIN_CLUSTER_TOKEN), runs a command, and on close leaves no job
// running and no container behind.
func TestClusterByName(t *testing.T) {
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(iris.EnvToken, "")
	t.Setenv(iris.EnvClusterToken, token)
	dir := filepath.Join(home, ".config", "marin", "clusters")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	config := "name: loopback\nplatform:\n  manual: {}\ndefaults:\n  worker:\n    docker_image: w:1\n" +
		"controller:\n  manual:\n    host: " + u.Hostname() + "\n    port: " + u.Port() + "\n"
	if err := os.WriteFile(filepath.Join(dir, "loopback.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := iris.New(iris.Options{Cluster: "loopback", User: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	// Machines of earlier tests may still be being removed.
	before := settledMachines(t)
	m := create(t, f, spec(machine.NetworkDeny))
	r := sh(t, m, "echo via cluster; hostname")
	lines := strings.Fields(string(r.Stdout))
	if r.ExitCode == nil || *r.ExitCode != 0 || len(lines) != 3 || lines[0]+" "+lines[1] != "via cluster" {
		t.Fatalf("got %+v", r)
	}
	container := lines[2] // Docker names a container's host after its id
	if _, err := dockerFactory.Client().ContainerInspect(context.Background(), container); err != nil {
		t.Fatalf("the task's container %s: %v", container, err)
	}
	if server.Machines() != before+1 {
		t.Fatalf("%d task machines, want %d", server.Machines(), before+1)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	st, err := rpc().GetJobState(context.Background(), connect.NewRequest(&cluster.Controller_GetJobStateRequest{JobIds: []string{m.JobID()}}))
	if err != nil {
		t.Fatal(err)
	}
	if s := st.Msg.GetStates()[m.JobID()]; s != job.JobState_JOB_STATE_KILLED {
		t.Errorf("the closed machine's job is %v", s)
	}
	// The controller removes a killed task's container in the background.
	if n := settledMachines(t); n != before {
		t.Errorf("%d task machines after close, want %d", n, before)
	}
	if _, err := dockerFactory.Client().ContainerInspect(context.Background(), container); !cerrdefs.IsNotFound(err) {
		t.Errorf("the task's container %s after close: %v", container, err)
	}
}
