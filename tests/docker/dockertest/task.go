package dockertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/jsonmessage"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/relay"
	"github.com/shellbox/shellbox/lib/task"
	"github.com/shellbox/shellbox/lib/task/compose"
)

// The task group suites run on the docker backend (runc: one shared
// loopback) and on gVisor (a hub link between per-member gates); services
// listen on all addresses, as a gVisor group needs.

// WebImage is busybox whose CMD serves /www with busybox httpd on 8080
// (all addresses).
const WebImage = "shellbox-test/busybox-web:1"

var webOnce sync.Once
var webErr error

// EnsureWebImage imports WebImage once per test process.
func EnsureWebImage(t *testing.T, f *docker.Factory) {
	t.Helper()
	helperstest.Build(t) // the readiness helper (shellbox-probe)
	webOnce.Do(func() {
		webErr = importImage(context.Background(), f.Client(), WebImage, map[string]string{"www/index.html": "hello from the web member"},
			`ENTRYPOINT ["httpd", "-f"]`, `CMD ["-p", "8080", "-h", "/www"]`)
	})
	if webErr != nil {
		t.Fatal(webErr)
	}
}

// BusyboxSpec is a DENY busybox machine of image ref.
func BusyboxSpec(ref string) machine.Spec {
	return machine.Spec{Source: machine.DockerImage{Reference: ref}, Workdir: "/workspace", Network: machine.NetworkDeny}
}

func webContainer(name string) task.Container {
	return task.Container{Name: name, Machine: BusyboxSpec(WebImage), Endpoints: []task.Endpoint{{Name: "http", Port: 8080, Protocol: "tcp"}},
		Readiness: &task.Probe{Command: []string{"wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/"}, Timeout: 10 * time.Second, Interval: 100 * time.Millisecond, Attempts: 300}}
}

func agentContainer() task.Container {
	return task.Container{Name: "agent", Machine: BusyboxSpec(BusyboxImage)}
}

// NewTask creates a task and closes it when the test ends.
func NewTask(t *testing.T, f machine.Factory, spec task.Spec) *task.Task {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	tk, err := task.Create(ctx, f, spec)
	if err != nil {
		t.Fatalf("task.Create: %v", err)
	}
	t.Cleanup(func() { tk.Close(context.Background()) })
	return tk
}

func shOut(t *testing.T, m machine.Machine, script string) (int, string) {
	t.Helper()
	r := Sh(t, m, script)
	return Code(r), string(r.Stdout) + string(r.Stderr)
}

func gvisor(f *docker.Factory) bool { return f.Runtime() != "" && f.Runtime() != "runc" }

// TaskGroupReachedByName: the agent reaches the web member's image service
// by name; the group's network has no default route (runc: loopback only;
// gVisor: loopback and the hub's link).
func TaskGroupReachedByName(t *testing.T, f *docker.Factory) {
	EnsureWebImage(t, f)
	tk := NewTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), webContainer("web")}})
	if err := tk.WaitReady(context.Background(), 300*time.Second); err != nil {
		t.Fatalf("WaitReady: %v", err)
	}
	ep, _ := tk.Endpoint("web", "http")
	if ep != "web:8080" {
		t.Fatalf("Endpoint = %q", ep)
	}
	code, out := shOut(t, tk.Members()["agent"], "wget -q -O- http://"+ep+"/index.html")
	if code != 0 || out != "hello from the web member" {
		t.Fatalf("agent fetching %s: %d %q", ep, code, out)
	}
	for _, name := range []string{"agent", "web"} {
		_, out = shOut(t, tk.Members()[name], "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '; echo; tail -n +2 /proc/net/route | awk '{print $2}'")
		lines := strings.SplitN(out, "\n", 2)
		links, routes := strings.TrimSpace(lines[0]), strings.Fields(lines[1])
		want := "lo"
		if gvisor(f) {
			want = "eth0 lo"
		}
		if links != want {
			t.Fatalf("member %s's links: %q, want %q", name, links, want)
		}
		for _, dst := range routes {
			if dst == "00000000" {
				t.Fatalf("member %s has a default route: %q", name, out)
			}
		}
	}
	if gvisor(f) {
		// A service bound to 127.0.0.1 stays inside its own member.
		if _, out := shOut(t, tk.Members()["web"], "httpd -p 127.0.0.1:9090 -h /www; wget -q -O- http://127.0.0.1:9090/"); out != "hello from the web member" {
			t.Fatalf("web's own loopback: %q", out)
		}
		if code, out := shOut(t, tk.Members()["agent"], "timeout 5 wget -q -O- http://web:9090/"); code == 0 {
			t.Fatalf("the agent reached web's loopback: %q", out)
		}
	}
}

// hostListener serves secret on addr until the test ends.
func hostListener(t *testing.T, addr, secret string) int {
	t.Helper()
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(secret))
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

// BridgeGateway is the host's address on Docker's default bridge.
func BridgeGateway(t *testing.T, f *docker.Factory) string {
	t.Helper()
	nw, err := f.Client().NetworkInspect(context.Background(), "bridge", network.InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range nw.IPAM.Config {
		if ip := net.ParseIP(c.Gateway); ip != nil && ip.To4() != nil {
			return c.Gateway
		}
	}
	t.Fatalf("the default bridge has no IPv4 gateway: %+v", nw.IPAM)
	return ""
}

// hostAddrs are the host's IPv4 addresses (the test runs beside the daemon).
func hostAddrs(t *testing.T) []string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
			out = append(out, n.IP.String())
		}
	}
	return out
}

// TaskGroupCannotReachTheHost: no member reaches a host listener on
// 0.0.0.0 (at any host address: loopback, the bridge's gateway, the
// host's cards) nor one bound to the bridge's gateway; an ALLOW machine,
// the control, reaches both.
func TaskGroupCannotReachTheHost(t *testing.T, f *docker.Factory) {
	gw := BridgeGateway(t, f)
	anyPort := hostListener(t, "0.0.0.0:0", "HOST-SECRET")
	gwPort := hostListener(t, gw+":0", "GATEWAY-SECRET")
	tk := NewTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(),
		{Name: "side", Machine: BusyboxSpec(BusyboxImage), Command: []string{"sleep", "1000"}}}})
	script := fmt.Sprintf("timeout 3 nc %s %d </dev/null;", gw, gwPort)
	for _, a := range hostAddrs(t) {
		script += fmt.Sprintf(" timeout 3 nc %s %d </dev/null;", a, anyPort)
	}
	for _, name := range []string{"agent", "side"} {
		_, out := shOut(t, tk.Members()[name], script+" true")
		if strings.Contains(out, "SECRET") {
			t.Fatalf("member %s reached a host listener: %q", name, out)
		}
	}
	allow := BusyboxSpec(BusyboxImage)
	allow.Network = machine.NetworkAllow
	m, err := f.Create(context.Background(), allow)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	_, out := shOut(t, m, fmt.Sprintf("timeout 5 nc %s %d </dev/null; timeout 5 nc %s %d </dev/null", gw, anyPort, gw, gwPort))
	if !strings.Contains(out, "HOST-SECRET") || !strings.Contains(out, "GATEWAY-SECRET") {
		t.Fatalf("the control machine did not reach the host: %q", out)
	}
}

// TaskGroupsOnTheSamePort: two groups serve the same port, each its own.
func TaskGroupsOnTheSamePort(t *testing.T, f *docker.Factory) {
	EnsureWebImage(t, f)
	var tasks []*task.Task
	for i := range 2 {
		web := webContainer("web")
		web.Command = []string{"sh", "-c", fmt.Sprintf("mkdir -p /g && echo group%d > /g/index.html && exec httpd -f -p 8080 -h /g", i)}
		tasks = append(tasks, NewTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), web}}))
	}
	for i, tk := range tasks {
		if err := tk.WaitReady(context.Background(), 300*time.Second); err != nil {
			t.Fatal(err)
		}
		if _, out := shOut(t, tk.Members()["agent"], "wget -q -O- http://web:8080/"); out != fmt.Sprintf("group%d\n", i) {
			t.Fatalf("group %d reached %q", i, out)
		}
	}
}

// TaskContainers counts the daemon's containers of task groups (members
// and gates) that this test process made (other processes may be making
// theirs meanwhile).
func TaskContainers(t *testing.T, f *docker.Factory) int {
	t.Helper()
	cs, err := f.Client().ContainerList(context.Background(), container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", docker.LabelTask))})
	if err != nil {
		t.Fatal(err)
	}
	n, mine := 0, fmt.Sprintf("/%d/", os.Getpid())
	for _, c := range cs {
		if strings.Contains(c.Labels[docker.LabelOwner], mine) {
			n++
		}
	}
	return n
}

// TaskGroupFailuresTearDown: a failing probe, a hanging probe, a member's
// exit.
func TaskGroupFailuresTearDown(t *testing.T, f *docker.Factory) {
	EnsureWebImage(t, f)
	before := TaskContainers(t, f)
	web := webContainer("web")
	web.Readiness = &task.Probe{Command: []string{"sh", "-c", "echo still-booting; exit 1"}, Timeout: 10 * time.Second, Interval: 50 * time.Millisecond, Attempts: 2}
	tk := NewTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), web}})
	err := tk.WaitReady(context.Background(), 300*time.Second)
	var me *task.MemberError
	if !errors.As(err, &me) || me.Member != "web" || !strings.Contains(err.Error(), "still-booting") {
		t.Fatalf("WaitReady = %v", err)
	}
	if n := TaskContainers(t, f); n != before {
		t.Fatalf("%d task containers after a failed readiness, %d before", n, before)
	}
	// A probe that hangs is killed; the next attempt passes.
	web = webContainer("web")
	web.Readiness = &task.Probe{Command: []string{"sh", "-c", `if [ -e /tmp/once ]; then exec wget -q -O /dev/null http://127.0.0.1:8080/; fi; touch /tmp/once; echo $$ > /tmp/hung; exec sleep 1000`},
		Timeout: 3 * time.Second, Interval: 50 * time.Millisecond, Attempts: 50}
	tk = NewTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), web}})
	if err := tk.WaitReady(context.Background(), 300*time.Second); err != nil {
		t.Fatal(err)
	}
	if _, out := shOut(t, tk.Members()["web"], `s=$(cut -d' ' -f3 /proc/$(cat /tmp/hung)/stat 2>/dev/null); [ -n "$s" ] && [ "$s" != Z ] && echo alive || echo gone`); strings.TrimSpace(out) != "gone" {
		t.Fatalf("the hung attempt is %q", out)
	}
	live := 2 // the members
	if gvisor(f) {
		live = 4 // and their gates
	}
	if n := TaskContainers(t, f); n != before+live {
		t.Fatalf("%d task containers with a group running, %d before", n, before)
	}
	if _, out := shOut(t, tk.Members()["web"], "ls /tmp/.shellbox-probe-*"); !strings.Contains(out, "/tmp/.shellbox-probe-") {
		t.Fatalf("no readiness helper in the member: %q", out)
	}
	if _, out := shOut(t, tk.Members()["agent"], "wget -q -O- http://web:8080/"); out != "hello from the web member" {
		t.Fatalf("the service after a killed probe: %q", out)
	}
	tk.Close(context.Background())
	// A member's main process exiting ends the group.
	tk = NewTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(),
		{Name: "crash", Machine: BusyboxSpec(BusyboxImage), Command: []string{"sh", "-c", "echo bye; sleep 1; exit 5"}}}})
	select {
	case <-tk.Done():
	case <-time.After(300 * time.Second):
		t.Fatal("the group outlived its member")
	}
	if err := tk.Err(); err == nil || !strings.Contains(err.Error(), "status 5") || !strings.Contains(err.Error(), "bye") {
		t.Fatalf("Err = %v", err)
	}
	tk.Close(context.Background())
	if n := TaskContainers(t, f); n != before {
		t.Fatalf("%d task containers after the groups closed, %d before", n, before)
	}
}

// leftovers is what a group could leave behind on the host: task
// containers, Docker networks of shellbox's, host links other than those
// of Docker's own networks (a hub's links live in its own namespace), and
// network namespaces this process holds open. Other processes' Docker
// networks and their links come and go meanwhile.
func leftovers(t *testing.T, f *docker.Factory) string {
	t.Helper()
	all, err := f.Client().NetworkList(context.Background(), network.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var nets []string
	for _, n := range all {
		if strings.Contains(n.Name, "shellbox") || n.Labels[docker.LabelTask] != "" || n.Driver == "macvlan" || n.Driver == "ipvlan" {
			nets = append(nets, n.Name)
		}
	}
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, i := range ifs {
		if !strings.HasPrefix(i.Name, "veth") && !strings.HasPrefix(i.Name, "br-") {
			links = append(links, i.Name)
		}
	}
	fds, _ := filepath.Glob("/proc/self/fd/*")
	netns := 0
	for _, fd := range fds {
		if l, err := os.Readlink(fd); err == nil && strings.HasPrefix(l, "net:[") {
			netns++
		}
	}
	return fmt.Sprintf("containers=%d networks=%v links=%v netns=%d", TaskContainers(t, f), nets, links, netns)
}

// TaskGroupsLeaveNothing: n groups in a row (some cancelled while a probe
// runs, some while being created, one failing at a member's start) leave
// nothing behind.
func TaskGroupsLeaveNothing(t *testing.T, f *docker.Factory, n int) {
	helperstest.Build(t) // the readiness helper (shellbox-probe)
	before := leftovers(t, f)
	for i := range n {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
		svc := task.Container{Name: "svc", Machine: BusyboxSpec(BusyboxImage), Command: []string{"sleep", "1000"},
			Readiness: &task.Probe{Command: []string{"sleep", "1000"}, Timeout: time.Hour, Interval: time.Second}}
		spec := task.Spec{Primary: "agent", Containers: []task.Container{agentContainer(), svc}}
		if i == n-1 {
			// The second member cannot start: the first is closed again.
			spec.Containers[1].Machine.Source = machine.DockerImage{Reference: "shellbox-test/no-such-image:1"}
			if _, err := task.Create(ctx, f, spec); err == nil {
				t.Fatal("a member with a missing image started")
			}
			cancel()
			continue
		}
		if i%3 == 2 {
			// Cancelled somewhere in the creation (a gate, the hub's
			// link, a container): what was made is removed.
			cctx, ccancel := context.WithTimeout(ctx, time.Duration(i)*150*time.Millisecond)
			tk, err := task.Create(cctx, f, spec)
			ccancel()
			if err == nil {
				tk.Close(ctx)
			} else if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("a cancelled creation: %v", err)
			}
			cancel()
			continue
		}
		tk, err := task.Create(ctx, f, spec)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if i%2 == 1 {
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
	// A cancelled creation removes what it made before it returns
	// (Factory.createContainer never abandons a create request); the short
	// grace is for the kernel's own teardown of a gate's namespace.
	after := leftovers(t, f)
	for deadline := time.Now().Add(10 * time.Second); after != before && time.Now().Before(deadline); after = leftovers(t, f) {
		time.Sleep(200 * time.Millisecond)
	}
	if after != before {
		t.Fatalf("after %d groups: %s; before: %s", n, after, before)
	}
}

// TaskComposeRouteOut: a compose project whose task allows internet
// (compose.Options.Network = ALLOW) reaches a host listener on the
// bridge's gateway (standing for the outside world), one that does not
// cannot; in both, main reaches web by name.
func TaskComposeRouteOut(t *testing.T, f *docker.Factory) {
	EnsureWebImage(t, f)
	gw := BridgeGateway(t, f)
	port := hostListener(t, gw+":0", "OUTSIDE")
	dir := t.TempDir()
	file := filepath.Join(dir, "docker-compose.yaml")
	project := fmt.Sprintf("services:\n  main:\n    image: %s\n  web:\n    image: %s\n    healthcheck:\n      test: [\"CMD\", \"wget\", \"-q\", \"-O\", \"/dev/null\", \"http://127.0.0.1:8080/\"]\n      interval: 1s\n      retries: 200\n", BusyboxImage, WebImage)
	if err := os.WriteFile(file, []byte(project), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, policy := range []machine.NetworkPolicy{machine.NetworkAllow, machine.NetworkDeny} {
		spec, err := compose.Load(context.Background(), compose.Options{Files: []string{file}, Network: policy})
		if err != nil {
			t.Fatal(err)
		}
		tk := NewTask(t, f, spec)
		if err := tk.WaitReady(context.Background(), 300*time.Second); err != nil {
			t.Fatal(err)
		}
		main := tk.Members()["main"]
		if _, out := shOut(t, main, "wget -q -O- http://web:8080/"); out != "hello from the web member" {
			t.Fatalf("%s: main fetching web: %q", policy, out)
		}
		_, out := shOut(t, main, fmt.Sprintf("timeout 5 nc %s %d </dev/null", gw, port))
		if reached := strings.Contains(out, "OUTSIDE"); reached != (policy == machine.NetworkAllow) {
			t.Fatalf("%s group reaching %s:%d: %q", policy, gw, port, out)
		}
		if gvisor(f) && policy == machine.NetworkAllow {
			// Each member has its own route out.
			if _, out := shOut(t, tk.Members()["web"], fmt.Sprintf("timeout 5 nc %s %d </dev/null", gw, port)); !strings.Contains(out, "OUTSIDE") {
				t.Fatalf("web in an ALLOW gVisor group: %q", out)
			}
		}
		tk.Close(context.Background())
	}
}

// importImage imports busybox with extra files as ref, with the Dockerfile
// instructions changes (its ENTRYPOINT and CMD).
func importImage(ctx context.Context, cli *client.Client, ref string, extra map[string]string, changes ...string) error {
	rootfs, err := BusyboxRootfsWith(extra)
	if err != nil {
		return err
	}
	rc, err := cli.ImageImport(ctx, image.ImportSource{Source: bytes.NewReader(rootfs), SourceName: "-"}, ref,
		image.ImportOptions{Changes: append([]string{"ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin"}, changes...)})
	if err != nil {
		return fmt.Errorf("importing %s: %w", ref, err)
	}
	defer rc.Close()
	if err := jsonmessage.DisplayJSONMessagesStream(rc, io.Discard, 0, false, nil); err != nil {
		return fmt.Errorf("importing %s: %w", ref, err)
	}
	return nil
}

// TaskGroupRelay: serve_http's relay in the primary answers the other
// members at the primary's name (runc: the shared loopback; gVisor: the
// primary's group address too) and the primary at 127.0.0.1; a relay in
// a gVisor group is not on the Docker bridge of an ALLOW group.
func TaskGroupRelay(t *testing.T, f *docker.Factory) {
	helperstest.Build(t) // the relay's guest program
	for _, policy := range []machine.NetworkPolicy{machine.NetworkDeny, machine.NetworkAllow} {
		agent, side := agentContainer(), task.Container{Name: "side", Machine: BusyboxSpec(BusyboxImage), Command: []string{"sleep", "1000"}}
		agent.Machine.Network, side.Machine.Network = policy, policy
		tk := NewTask(t, f, task.Spec{Primary: "agent", Containers: []task.Container{agent, side}})
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		r, err := relay.Serve(ctx, tk.Member("agent"), 9000, func(_ context.Context, req relay.Request) (relay.Response, error) {
			return relay.Response{Status: 200, Body: []byte("relayed " + req.Path)}, nil
		})
		cancel()
		if err != nil {
			t.Fatalf("%s: relay.Serve: %v", policy, err)
		}
		if _, out := shOut(t, tk.Members()["side"], "wget -q -O- http://agent:9000/from-side"); out != "relayed /from-side" {
			t.Fatalf("%s: the other member through the relay: %q", policy, out)
		}
		if _, out := shOut(t, tk.Members()["agent"], "wget -q -O- http://127.0.0.1:9000/from-agent"); out != "relayed /from-agent" {
			t.Fatalf("%s: the primary through the relay: %q", policy, out)
		}
		if gvisor(f) && policy == machine.NetworkAllow {
			// Not on the primary's bridge address: another ALLOW machine
			// (on the same bridge) does not reach it.
			_, addr := shOut(t, tk.Members()["agent"], "ip -4 -o addr show eth0 | awk '{print $4}' | cut -d/ -f1")
			addr = strings.TrimSpace(addr)
			if net.ParseIP(addr) == nil {
				t.Fatalf("the primary's bridge address: %q", addr)
			}
			allow := BusyboxSpec(BusyboxImage)
			allow.Network = machine.NetworkAllow
			m, err := f.Create(context.Background(), allow)
			if err != nil {
				t.Fatal(err)
			}
			if code, out := shOut(t, m, fmt.Sprintf("timeout 5 wget -q -O- http://%s:9000/", addr)); code == 0 || strings.Contains(out, "relayed") {
				t.Fatalf("a machine on the bridge reached the relay at %s: %q", addr, out)
			}
			m.Close(context.Background())
		}
		if err := r.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		tk.Close(context.Background())
	}
}
