package compose_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
	"github.com/shellbox/shellbox/lib/task/compose"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// harborBase is Harbor's docker-compose-build.yaml.
const harborBase = `services:
  main:
    build:
      context: ${CONTEXT_DIR}
    pull_policy: build
    command: [ "sh", "-c", "sleep infinity" ]
`

// taskCompose is a task's environment/docker-compose.yaml: an HTTP
// service that main queries.
const taskCompose = `services:
  main:
    environment:
      - SERVICE_URL=http://web:8080/
    depends_on:
      web:
        condition: service_healthy
  web:
    image: ` + dockertest.BusyboxImage + `
    command: ["sh", "-c", "mkdir -p /www && echo \"$$GREETING\" > /www/index.html && exec httpd -f -p 8080 -h /www"]
    environment:
      GREETING: hello from compose
    expose: ["8080"]
    healthcheck:
      test: ["CMD-SHELL", "wget -q -O /dev/null http://127.0.0.1:8080/"]
      interval: 200ms
      timeout: 5s
      retries: 50
`

func project(t *testing.T, taskFile string) (dir string, files []string) {
	t.Helper()
	dir = t.TempDir()
	env := filepath.Join(dir, "environment")
	os.MkdirAll(env, 0o755)
	os.WriteFile(filepath.Join(env, "Dockerfile"), []byte("FROM "+dockertest.BusyboxImage+"\nRUN mkdir -p /workspace\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "base.yaml"), []byte(harborBase), 0o644)
	os.WriteFile(filepath.Join(env, "docker-compose.yaml"), []byte(taskFile), 0o644)
	return env, []string{filepath.Join(dir, "base.yaml"), filepath.Join(env, "docker-compose.yaml")}
}

func TestLoadMapsServices(t *testing.T) {
	env, files := project(t, taskCompose)
	spec, err := compose.Load(context.Background(), compose.Options{Files: files, WorkingDir: env, Env: map[string]string{"CONTEXT_DIR": env}, Workdir: "/workspace"})
	if err != nil {
		t.Fatal(err)
	}
	if spec.Primary != "main" || len(spec.Containers) != 2 {
		t.Fatalf("%+v", spec)
	}
	main, web := spec.Containers[0], spec.Containers[1]
	if src, ok := main.Machine.Source.(machine.DockerfileSource); !ok || src.Context != env || main.Command != nil || main.Machine.Workdir != "/workspace" || main.Machine.Env["SERVICE_URL"] != "http://web:8080/" {
		t.Fatalf("main: %+v", main)
	}
	if src, ok := web.Machine.Source.(machine.RegistryImage); !ok || src.Reference != dockertest.BusyboxImage || web.Args[0] != "sh" || web.Command != nil ||
		web.Machine.Env["GREETING"] != "hello from compose" || web.Machine.Network != machine.NetworkDeny {
		t.Fatalf("web: %+v", web)
	}
	p := web.Readiness
	if p == nil || p.Command[0] != "/bin/sh" || p.Interval != 200*time.Millisecond || p.Timeout != 5*time.Second || p.Attempts != 50 || web.Endpoints[0].Port != 8080 {
		t.Fatalf("web readiness: %+v %+v", p, web.Endpoints)
	}
}

func TestLoadRefusesWhatAGroupCannotHonour(t *testing.T) {
	cases := map[string]string{
		"services.web.ports":        "  web:\n    image: x\n    ports: [\"8080:8080\"]\n",
		"services.web.privileged":   "  web:\n    image: x\n    privileged: true\n",
		"services.web.volumes":      "  web:\n    image: x\n    volumes: [\"/etc:/host-etc\"]\n",
		"services.web.network_mode": "  web:\n    image: x\n    network_mode: host\n",
		"services.web.build.args":   "  web:\n    build:\n      context: .\n      args: {A: b}\n",
		"services.web.restart":      "  web:\n    image: x\n    restart: always\n",
		"networks.outside":          "  web:\n    image: x\n    networks: [outside]\nnetworks:\n  outside: {}\n",
	}
	for field, svc := range cases {
		_, files := project(t, "services:\n"+svc)
		_, err := compose.Load(context.Background(), compose.Options{Files: files, Env: map[string]string{"CONTEXT_DIR": "/nonexistent"}})
		var un *machine.UnsupportedSpec
		if !errors.As(err, &un) || (un.Field != field && !strings.HasPrefix(field, un.Field)) {
			t.Errorf("%s: %v", field, err)
		}
	}
	_, files := project(t, "services:\n  web:\n    image: x\n")
	os.WriteFile(files[0], []byte("services:\n  other:\n    image: x\n"), 0o644)
	if _, err := compose.Load(context.Background(), compose.Options{Files: files}); err == nil || !strings.Contains(err.Error(), `"main"`) {
		t.Fatalf("a project without main: %v", err)
	}
}

// A Harbor-style two-service project runs as a Docker group: main is
// built from its Dockerfile, web starts from its image with the compose
// command, its healthcheck gates readiness, and main reaches it by name.
func TestComposeGroupOnDocker(t *testing.T) {
	helperstest.Build(t) // the readiness helper (shellbox-probe)
	lock, err := dockertest.Shared()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	ctx := context.Background()
	f, err := docker.New(ctx, docker.Config{Backend: "docker"})
	if err != nil {
		t.Fatal(err)
	}
	if err := dockertest.EnsureBusybox(ctx, f.Client()); err != nil {
		t.Fatal(err)
	}
	env, files := project(t, taskCompose)
	// Harbor's base file given as PrimaryBuild instead of a file.
	spec, err := compose.Load(ctx, compose.Options{Files: files[1:], PrimaryBuild: env, PrimaryEnv: map[string]string{"TASK_VAR": "from-task"}, Workdir: "/workspace"})
	if err != nil {
		t.Fatal(err)
	}
	tk, err := task.Create(ctx, f, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close(ctx)
	if err := tk.WaitReady(ctx, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	res, err := tk.Members()["main"].Run(ctx, machine.Command{Argv: []string{"sh", "-c", `wget -q -O- "$SERVICE_URL"; pwd; echo $TASK_VAR`}, OutputLimit: 4096})
	if err != nil || res.ExitCode == nil || *res.ExitCode != 0 || string(res.Stdout) != "hello from compose\n/workspace\nfrom-task\n" {
		t.Fatalf("main querying web: %+v %v", res, err)
	}
}

// Every member gets the project's one policy: DENY by default, ALLOW for a
// task that allows internet; nothing else.
func TestNetworkPolicy(t *testing.T) {
	env, files := project(t, taskCompose)
	ctx := context.Background()
	for _, c := range []struct {
		in, want machine.NetworkPolicy
	}{{"", machine.NetworkDeny}, {machine.NetworkDeny, machine.NetworkDeny}, {machine.NetworkAllow, machine.NetworkAllow}} {
		spec, err := compose.Load(ctx, compose.Options{Files: files, Env: map[string]string{"CONTEXT_DIR": env}, Network: c.in})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range spec.Containers {
			if m.Machine.Network != c.want {
				t.Fatalf("Network %q: member %s has %q", c.in, m.Name, m.Machine.Network)
			}
		}
	}
	_, err := compose.Load(ctx, compose.Options{Files: files, Env: map[string]string{"CONTEXT_DIR": env}, Network: machine.NetworkAllowlist})
	var inv *machine.InvalidSpec
	if !errors.As(err, &inv) || inv.Field != "network" {
		t.Fatalf("an allowlist project: %v", err)
	}
}
