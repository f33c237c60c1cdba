package relay_test

import (
	"context"
	"encoding/json"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/relay"
	"github.com/shellbox/shellbox/lib/task"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

func dockerFactory(t *testing.T, backend string) *docker.Factory {
	t.Helper()
	helperstest.Build(t)
	cfg := docker.Config{Backend: "docker"}
	if backend == "gvisor" {
		cfg = docker.GvisorConfig(docker.Options{})
	}
	f, lock, err := dockertest.Setup(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lock.Release)
	return f
}

func busybox() machine.Spec {
	return machine.Spec{Source: machine.DockerImage{Reference: dockertest.BusyboxImage}, Workdir: "/workspace", Network: machine.NetworkDeny}
}

// The guest program is static: a busybox image without libc or Python
// runs it, under runc and under gVisor.
func TestRelayInBusyboxContainers(t *testing.T) {
	for _, backend := range []string{"docker", "gvisor"} {
		t.Run(backend, func(t *testing.T) {
			m := newMachine(t, dockerFactory(t, backend), busybox())
			serve(t, m, 8130, echo)
			code, out, errOut := sh(t, m, `wget -q -O- --header 'Authorization: Bearer guest-secret' 'http://127.0.0.1:8130/v1/chat?stream=0'`)
			var got map[string]any
			if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got["path"] != "/v1/chat" || got["query"] != "stream=0" || strings.Contains(out, "guest-secret") {
				t.Fatalf("GET: %d %q %s", code, out, errOut)
			}
			code, out, _ = sh(t, m, `i=0; while [ $i -lt 256 ]; do printf "\\$(printf %o $i)"; i=$((i+1)); done > /tmp/bytes
				sha256sum /tmp/bytes | cut -d' ' -f1
				{ printf 'POST /bin HTTP/1.0\r\nContent-Length: 256\r\n\r\n'; cat /tmp/bytes; sleep 5; } | nc 127.0.0.1 8130 | tail -n 1`)
			// (busybox wget posts a file as a C string: raw HTTP through nc,
			// whose input stays open, since a half-closed connection is a
			// client that went away.)
			lines := strings.SplitN(out, "\n", 2)
			if code != 0 || json.Unmarshal([]byte(lines[1]), &got) != nil || got["sha256"] != lines[0] || got["len"] != float64(256) {
				t.Fatalf("binary POST: %d %q", code, out)
			}
			_, _, errOut = sh(t, m, `head -c 4194305 /dev/zero | tr '\0' a > /tmp/over; wget -q -O- --post-file /tmp/over http://127.0.0.1:8130/; true`)
			if !strings.Contains(errOut, "413") {
				t.Fatalf("an oversized POST: %q", errOut)
			}
		})
	}
}

func TestRelayServesADockerGroup(t *testing.T) {
	f := dockerFactory(t, "docker")
	tk, err := task.Create(context.Background(), f, task.Spec{Primary: "agent", Containers: []task.Container{
		{Name: "agent", Machine: busybox()}, {Name: "app", Machine: busybox(), Command: []string{"sleep", "1000"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close(context.Background())
	r := serve(t, tk.Members()["agent"], 8131, func(_ context.Context, req relay.Request) (relay.Response, error) {
		return relay.Response{Status: 200, Body: []byte("from the host to " + req.Path)}, nil
	})
	if _, out, _ := sh(t, tk.Members()["app"], `wget -q -O- http://127.0.0.1:8131/app`); out != "from the host to /app" {
		t.Fatalf("the app member got %q", out)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	code, out, _ := sh(t, tk.Members()["app"], `wget -q -O- http://127.0.0.1:8131/app; echo "wget=$?"; ls -a /tmp | grep -c '[s]hellbox-relay'; true`)
	if code != 0 || !strings.Contains(out, "wget=1\n0\n") {
		t.Fatalf("after Close: %q", out)
	}
}
