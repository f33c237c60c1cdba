package local

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

// webMember serves /tmp/www (holding body) with the host's python3 on port.
func webMember(name string, port int, body string) task.Container {
	script := fmt.Sprintf(`mkdir -p /tmp/www && printf %%s '%s' > /tmp/www/index.html && exec /usr/bin/python3 -m http.server %d --bind 127.0.0.1 --directory /tmp/www`, body, port)
	return task.Container{Name: name, Machine: hostSpec(), Command: []string{"sh", "-c", script},
		Endpoints: []task.Endpoint{{Name: "http", Port: port, Protocol: "tcp"}},
		Readiness: &task.Probe{Command: []string{"wget", "-q", "-O", "/dev/null", fmt.Sprintf("http://127.0.0.1:%d/", port)},
			Timeout: 5 * time.Second, Interval: 100 * time.Millisecond, Attempts: 100}}
}

func agentMember() task.Container { return task.Container{Name: "agent", Machine: hostSpec()} }

func createTask(t *testing.T, f *Factory, spec task.Spec) *task.Task {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tk, err := task.Create(ctx, f, spec)
	if err != nil {
		t.Fatalf("task.Create: %v", err)
	}
	t.Cleanup(func() { tk.Close(context.Background()) })
	return tk
}

func waitReady(t *testing.T, tk *task.Task) {
	t.Helper()
	if err := tk.WaitReady(context.Background(), 60*time.Second); err != nil {
		t.Fatalf("WaitReady: %v", err)
	}
}

func TestTaskGroupMembersReachEachOtherByName(t *testing.T) {
	f := newFactory(t, Options{})
	tk := createTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), webMember("web", 8000, "hello from web")}})
	waitReady(t, tk)
	ep, err := tk.Endpoint("web", "http")
	if err != nil || ep != "web:8000" {
		t.Fatalf("Endpoint = %q, %v", ep, err)
	}
	agent := tk.Members()["agent"]
	res := run(t, agent, sh("wget -q -O- http://"+ep+"/index.html"))
	if code(res) != 0 || string(res.Stdout) != "hello from web" {
		t.Fatalf("agent fetching web: %d %q %q", code(res), res.Stdout, res.Stderr)
	}
	// Separate PID namespaces: the agent does not see the web server.
	res = run(t, agent, sh("cat /proc/[0-9]*/cmdline | tr '\\0' ' '"))
	if strings.Contains(string(res.Stdout), "http.server") {
		t.Fatalf("the agent sees the web member's processes: %q", res.Stdout)
	}
	// The group's network has loopback only.
	res = run(t, agent, sh("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"))
	if strings.TrimSpace(string(res.Stdout)) != "lo" {
		t.Fatalf("interfaces in the group: %q", res.Stdout)
	}
}

func TestTaskGroupHasNoRouteToTheHost(t *testing.T) {
	f := newFactory(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
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
	tk := createTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), {Name: "idle", Machine: hostSpec(), Command: []string{"sleep", "1000"}}}})
	for _, name := range []string{"agent", "idle"} {
		res := run(t, tk.Members()[name], sh(fmt.Sprintf("busybox nc -w 2 127.0.0.1 %d </dev/null; wget -q -O- -T 2 http://10.0.2.2:%d/ ; true", port, port)))
		if strings.Contains(string(res.Stdout), "HOST-SECRET") {
			t.Fatalf("member %s reached a host listener", name)
		}
	}
	// A group with a route out is the docker backend's; local refuses it.
	allow := func(s *machine.Spec) { s.Network = machine.NetworkAllow }
	_, err = task.Create(context.Background(), f, task.Spec{Primary: "agent", Containers: []task.Container{{Name: "agent", Machine: hostSpec(allow)}, {Name: "idle", Machine: hostSpec(allow), Command: []string{"sleep", "1000"}}}})
	var un *machine.UnsupportedSpec
	if !errors.As(err, &un) || un.Field != "network" {
		t.Fatalf("an ALLOW group on local: %v", err)
	}
	// Sanity: the same command reaches the listener from an ALLOW machine.
	m := newMachine(t, f, hostSpec(allow))
	res := run(t, m, sh(fmt.Sprintf("busybox nc -w 2 127.0.0.1 %d </dev/null", port)))
	if !strings.Contains(string(res.Stdout), "HOST-SECRET") {
		t.Fatalf("the control machine did not reach the listener: %q %q", res.Stdout, res.Stderr)
	}
}

func TestTaskGroupsShareNoPorts(t *testing.T) {
	f := newFactory(t, Options{})
	var tasks []*task.Task
	for i := range 2 {
		tasks = append(tasks, createTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), webMember("web", 8000, fmt.Sprintf("group %d", i))}}))
	}
	for i, tk := range tasks {
		waitReady(t, tk)
		res := run(t, tk.Members()["agent"], sh("wget -q -O- http://web:8000/"))
		if string(res.Stdout) != fmt.Sprintf("group %d", i) {
			t.Fatalf("group %d got %q %q", i, res.Stdout, res.Stderr)
		}
	}
}

func TestTaskFailingProbeClosesGroup(t *testing.T) {
	f := newFactory(t, Options{})
	web := webMember("web", 8000, "x")
	web.Readiness = &task.Probe{Command: []string{"sh", "-c", "echo not-yet-listening >&2; exit 4"}, Timeout: 5 * time.Second, Interval: 50 * time.Millisecond, Attempts: 3}
	tk := createTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), web}})
	err := tk.WaitReady(context.Background(), 60*time.Second)
	var me *task.MemberError
	if !errors.As(err, &me) || me.Member != "web" || !strings.Contains(err.Error(), "3 readiness attempts") || !strings.Contains(err.Error(), "not-yet-listening") || !strings.Contains(err.Error(), "status 4") {
		t.Fatalf("WaitReady = %v", err)
	}
	for name, m := range tk.Members() {
		if _, err := m.Run(context.Background(), sh("true")); !errors.Is(err, machine.ErrClosed) {
			t.Fatalf("member %s after a failed readiness: %v", name, err)
		}
	}
}

func TestTaskHangingProbeIsKilledPerAttempt(t *testing.T) {
	f := newFactory(t, Options{})
	web := webMember("web", 8000, "served")
	// The first attempt hangs (and records its pid); the second passes.
	web.Readiness = &task.Probe{Command: []string{"sh", "-c", `if [ -e /tmp/once ]; then exec wget -q -O /dev/null http://127.0.0.1:8000/; fi; touch /tmp/once; echo $$ > /tmp/hung; exec sleep 1000`},
		Timeout: 700 * time.Millisecond, Interval: 50 * time.Millisecond, Attempts: 50}
	tk := createTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), web}})
	waitReady(t, tk)
	res := run(t, tk.Members()["web"], aliveScript("/tmp/hung"))
	if strings.TrimSpace(string(res.Stdout)) != "gone" {
		t.Fatalf("the hung probe attempt is %q", res.Stdout)
	}
	res = run(t, tk.Members()["agent"], sh("wget -q -O- http://web:8000/"))
	if string(res.Stdout) != "served" {
		t.Fatalf("the service after a killed probe: %q %q", res.Stdout, res.Stderr)
	}
}

func TestTaskMemberExitTearsDownGroup(t *testing.T) {
	f := newFactory(t, Options{})
	tk := createTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(),
		{Name: "crash", Machine: hostSpec(), Command: []string{"sh", "-c", "echo dying; sleep 0.5; exit 3"}}}})
	select {
	case <-tk.Done():
	case <-time.After(60 * time.Second):
		t.Fatal("the group outlived its member's main process")
	}
	if err := tk.Err(); err == nil || !strings.Contains(err.Error(), `"crash"`) || !strings.Contains(err.Error(), "status 3") || !strings.Contains(err.Error(), "dying") {
		t.Fatalf("Err = %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := tk.Members()["agent"].Run(context.Background(), sh("true"))
		if errors.Is(err, machine.ErrClosed) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the primary still runs commands: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := tk.WaitReady(context.Background(), time.Second); err == nil {
		t.Fatal("WaitReady on an ended group succeeded")
	}
}

func TestTaskGroupsLeaveNothing(t *testing.T) {
	f := newFactory(t, Options{})
	dirs := map[string]bool{}
	// One group first, so that lazily started runtime threads do not count.
	createTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), {Name: "svc", Machine: hostSpec(), Command: []string{"sleep", "1000"}}}}).Close(context.Background())
	before := snapshot(t, dirs)
	for i := range 50 {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		tk, err := task.Create(ctx, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), {Name: "svc", Machine: hostSpec(), Command: []string{"sleep", "1000"}}}})
		cancel()
		if err != nil {
			t.Fatalf("group %d: %v", i, err)
		}
		for _, m := range tk.Members() {
			dirs[m.(*Machine).dir] = true
		}
		if i%2 == 0 {
			tk.Close(context.Background())
		} else {
			// Closing any member tears the group down too.
			tk.Members()["svc"].Close(context.Background())
			<-tk.Done()
			tk.Close(context.Background())
		}
	}
	var after hostState
	for range 100 { // goroutines of closed connections and services wind down
		after = snapshot(t, dirs)
		if after.goroutines <= before.goroutines+2 && len(after.descendants) == len(before.descendants) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("before: %d processes, %d helpers, %d mounts, %d temp dirs, %d fds, %d goroutines",
		len(before.descendants), before.sandboxd, len(before.mounts), len(before.tempDirs), before.fds, before.goroutines)
	t.Logf("after:  %d processes, %d helpers, %d mounts, %d temp dirs, %d fds, %d goroutines",
		len(after.descendants), after.sandboxd, len(after.mounts), len(after.tempDirs), after.fds, after.goroutines)
	if !slices.Equal(before.descendants, after.descendants) || after.sandboxd != 0 {
		t.Errorf("processes: before %v after %v (%d helpers)", before.descendants, after.descendants, after.sandboxd)
	}
	if !slices.Equal(before.mounts, after.mounts) {
		t.Errorf("mounts: %q -> %q", before.mounts, after.mounts)
	}
	if len(after.tempDirs) != 0 {
		t.Errorf("machine dirs left: %v", after.tempDirs)
	}
	if after.fds > before.fds {
		t.Errorf("fds: %d -> %d", before.fds, after.fds)
	}
	if after.goroutines > before.goroutines+2 {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("goroutines: %d -> %d\n%s", before.goroutines, after.goroutines, buf[:n])
	}
}

// An image member with no command starts its image's entrypoint and
// command in its working directory.
func TestTaskImageServiceOnLocal(t *testing.T) {
	f := newFactory(t, Options{})
	img := busyboxLayout(t, "--config.entrypoint", "httpd", "--config.entrypoint", "-f", "--config.cmd", "-p", "--config.cmd", "8081", "--config.workingdir", "/app")
	spec := machine.Spec{Source: img, Workdir: "/workspace", Network: machine.NetworkDeny}
	web := task.Container{Name: "web", Machine: spec, Readiness: &task.Probe{Command: []string{"wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8081/hello.txt"},
		Timeout: 5 * time.Second, Interval: 100 * time.Millisecond, Attempts: 100}}
	tk := createTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), web}})
	waitReady(t, tk)
	res := run(t, tk.Members()["agent"], sh("wget -q -O- http://web:8081/hello.txt"))
	if string(res.Stdout) != "from the image\n" {
		t.Fatalf("the image's service: %q %q", res.Stdout, res.Stderr)
	}
	// HostImage has nothing to start: a supporting member needs a command.
	_, err := task.Create(context.Background(), f, task.Spec{Primary: "agent", Containers: []task.Container{agentMember(), {Name: "idle", Machine: hostSpec()}}})
	var un *machine.UnsupportedSpec
	if !errors.As(err, &un) || un.Field != "command" {
		t.Fatalf("a HostImage member without a command: %v", err)
	}
}
