package docker_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/pkg/jsonmessage"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// webImage is busybox whose CMD serves /www with busybox httpd on 8080.
const webImage = "shellbox-test/busybox-web:1"

var webOnce sync.Once

func ensureWebImage(t *testing.T) {
	t.Helper()
	helperstest.Build(t) // the readiness helper (shellbox-probe)
	var err error
	webOnce.Do(func() {
		var rootfs []byte
		rootfs, err = dockertest.BusyboxRootfsWith(map[string]string{"www/index.html": "hello from the web member"})
		if err != nil {
			return
		}
		var rc io.ReadCloser
		rc, err = factory.Client().ImageImport(context.Background(), image.ImportSource{Source: bytes.NewReader(rootfs), SourceName: "-"}, webImage,
			image.ImportOptions{Changes: []string{"ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin", `ENTRYPOINT ["httpd", "-f"]`, `CMD ["-p", "8080", "-h", "/www"]`}})
		if err != nil {
			return
		}
		defer rc.Close()
		err = jsonmessage.DisplayJSONMessagesStream(rc, io.Discard, 0, false, nil)
	})
	if err != nil {
		t.Fatalf("importing %s: %v", webImage, err)
	}
}

func busyboxSpec(ref string) machine.Spec {
	return machine.Spec{Source: machine.DockerImage{Reference: ref}, Workdir: "/workspace", Network: machine.NetworkDeny}
}

func webContainer(name string) task.Container {
	return task.Container{Name: name, Machine: busyboxSpec(webImage), Endpoints: []task.Endpoint{{Name: "http", Port: 8080, Protocol: "tcp"}},
		Readiness: &task.Probe{Command: []string{"wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/"}, Timeout: 5 * time.Second, Interval: 100 * time.Millisecond, Attempts: 100}}
}

func agentContainer() task.Container {
	return task.Container{Name: "agent", Machine: busyboxSpec(dockertest.BusyboxImage)}
}

func newTask(t *testing.T, f machine.Factory, spec task.Spec) *task.Task {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tk, err := task.Create(ctx, f, spec)
	if err != nil {
		t.Fatalf("task.Create: %v", err)
	}
	t.Cleanup(func() { tk.Close(context.Background()) })
	return tk
}

func sh(t *testing.T, m machine.Machine, script string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 1 << 16})
	if err != nil {
		t.Fatalf("Run(%q): %v", script, err)
	}
	code := -1
	if res.ExitCode != nil {
		code = *res.ExitCode
	}
	return code, string(res.Stdout) + string(res.Stderr)
}

// taskContainers counts the daemon's containers of task groups made by
// this test process's factory.
func taskContainers(t *testing.T) int {
	t.Helper()
	cs, err := factory.Client().ContainerList(context.Background(), container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", docker.LabelTask))})
	if err != nil {
		t.Fatal(err)
	}
	return len(cs)
}

func TestTaskGroupImageServiceReachedByName(t *testing.T) {
	ensureWebImage(t)
	tk := newTask(t, factory, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), webContainer("web")}})
	if err := tk.WaitReady(context.Background(), 120*time.Second); err != nil {
		t.Fatalf("WaitReady: %v", err)
	}
	ep, _ := tk.Endpoint("web", "http")
	code, out := sh(t, tk.Members()["agent"], "wget -q -O- http://"+ep+"/index.html")
	if code != 0 || out != "hello from the web member" {
		t.Fatalf("agent fetching %s: %d %q", ep, code, out)
	}
	// One loopback-only namespace: no other interface, no route.
	_, out = sh(t, tk.Members()["agent"], "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; cat /proc/net/route | tail -n +2")
	if strings.TrimSpace(out) != "lo" {
		t.Fatalf("the group's network: %q", out)
	}
}

func TestTaskGroupCannotReachTheHost(t *testing.T) {
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("HOST-SECRET"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	tk := newTask(t, factory, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(),
		{Name: "side", Machine: busyboxSpec(dockertest.BusyboxImage), Command: []string{"sleep", "1000"}}}})
	// The host's addresses on Docker's default bridge and on loopback.
	for _, name := range []string{"agent", "side"} {
		_, out := sh(t, tk.Members()[name], fmt.Sprintf("for a in 172.17.0.1 127.0.0.1; do timeout 3 nc $a %d </dev/null; done; true", port))
		if strings.Contains(out, "HOST-SECRET") {
			t.Fatalf("member %s reached a host listener: %q", name, out)
		}
	}
	// Control: an ALLOW machine does reach it through the bridge.
	ctx := context.Background()
	allow := busyboxSpec(dockertest.BusyboxImage)
	allow.Network = machine.NetworkAllow
	m, err := factory.Create(ctx, allow)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	if _, out := sh(t, m, fmt.Sprintf("timeout 3 nc 172.17.0.1 %d </dev/null", port)); !strings.Contains(out, "HOST-SECRET") {
		t.Fatalf("the control machine did not reach the host: %q", out)
	}
}

func TestTaskGroupsOnTheSamePort(t *testing.T) {
	ensureWebImage(t)
	var tasks []*task.Task
	for i := range 2 {
		web := webContainer("web")
		web.Command = []string{"sh", "-c", fmt.Sprintf("mkdir -p /g && echo group%d > /g/index.html && exec httpd -f -p 8080 -h /g", i)}
		tasks = append(tasks, newTask(t, factory, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), web}}))
	}
	for i, tk := range tasks {
		if err := tk.WaitReady(context.Background(), 120*time.Second); err != nil {
			t.Fatal(err)
		}
		if _, out := sh(t, tk.Members()["agent"], "wget -q -O- http://web:8080/"); out != fmt.Sprintf("group%d\n", i) {
			t.Fatalf("group %d reached %q", i, out)
		}
	}
}

func TestTaskGroupFailuresTearDown(t *testing.T) {
	ensureWebImage(t)
	before := taskContainers(t)
	// A probe that never passes closes the group with its output.
	web := webContainer("web")
	web.Readiness = &task.Probe{Command: []string{"sh", "-c", "echo still-booting; exit 1"}, Timeout: 5 * time.Second, Interval: 50 * time.Millisecond, Attempts: 2}
	tk := newTask(t, factory, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), web}})
	err := tk.WaitReady(context.Background(), 120*time.Second)
	var me *task.MemberError
	if !errors.As(err, &me) || me.Member != "web" || !strings.Contains(err.Error(), "still-booting") {
		t.Fatalf("WaitReady = %v", err)
	}
	if n := taskContainers(t); n != before {
		t.Fatalf("%d task containers after a failed readiness, %d before", n, before)
	}
	// A probe that hangs is killed; the next attempt passes.
	web = webContainer("web")
	web.Readiness = &task.Probe{Command: []string{"sh", "-c", `if [ -e /tmp/once ]; then exec wget -q -O /dev/null http://127.0.0.1:8080/; fi; touch /tmp/once; echo $$ > /tmp/hung; exec sleep 1000`},
		Timeout: time.Second, Interval: 50 * time.Millisecond, Attempts: 20}
	tk = newTask(t, factory, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), web}})
	if err := tk.WaitReady(context.Background(), 120*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, out := sh(t, tk.Members()["web"], `s=$(cut -d' ' -f3 /proc/$(cat /tmp/hung)/stat 2>/dev/null); [ -n "$s" ] && [ "$s" != Z ] && echo alive || echo gone`); strings.TrimSpace(out) != "gone" {
		t.Fatalf("the hung attempt is %q", out)
	}
	// The static helper supervised the attempts (the image has no Python).
	if _, out := sh(t, tk.Members()["web"], "ls /tmp/.shellbox-probe-*"); !strings.Contains(out, "/tmp/.shellbox-probe-") {
		t.Fatalf("no readiness helper in the member: %q", out)
	}
	if _, out := sh(t, tk.Members()["agent"], "wget -q -O- http://web:8080/"); out != "hello from the web member" {
		t.Fatalf("the service after a killed probe: %q", out)
	}
	tk.Close(context.Background())
	// A member's main process exiting ends the group.
	tk = newTask(t, factory, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(),
		{Name: "crash", Machine: busyboxSpec(dockertest.BusyboxImage), Command: []string{"sh", "-c", "echo bye; sleep 1; exit 5"}}}})
	select {
	case <-tk.Done():
	case <-time.After(120 * time.Second):
		t.Fatal("the group outlived its member")
	}
	if err := tk.Err(); err == nil || !strings.Contains(err.Error(), "status 5") || !strings.Contains(err.Error(), "bye") {
		t.Fatalf("Err = %v", err)
	}
	tk.Close(context.Background())
	if n := taskContainers(t); n != before {
		t.Fatalf("%d task containers after the groups closed, %d before", n, before)
	}
}

func TestTaskGroupsLeaveNoContainers(t *testing.T) {
	before := taskContainers(t)
	for i := range 10 {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		svc := task.Container{Name: "svc", Machine: busyboxSpec(dockertest.BusyboxImage), Command: []string{"sleep", "1000"},
			Readiness: &task.Probe{Command: []string{"sleep", "1000"}, Timeout: time.Hour, Interval: time.Second}}
		tk, err := task.Create(ctx, factory, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), svc}})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if i%2 == 1 {
			// A readiness wait cancelled mid-probe closes the group.
			wctx, wcancel := context.WithTimeout(ctx, 300*time.Millisecond)
			err := tk.WaitReady(wctx, 0)
			wcancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("cancelled WaitReady: %v", err)
			}
		}
		tk.Close(ctx)
		cancel()
	}
	if n := taskContainers(t); n != before {
		t.Fatalf("%d task containers left, %d before", n, before)
	}
}
