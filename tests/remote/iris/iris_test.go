package iris_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/shellbox/shellbox/lib/backends/iris"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster/clusterconnect"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/job"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/irisd"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

func spec(network machine.NetworkPolicy) machine.Spec {
	return machine.Spec{Source: machine.RegistryImage{Reference: dockertest.BusyboxImage}, Workdir: "/workspace", Network: network}
}

func create(t *testing.T, f *iris.Factory, sp machine.Spec) *iris.Machine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := f.Create(ctx, sp)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m.(*iris.Machine)
}

func sh(t *testing.T, m machine.Machine, script string) machine.Result {
	t.Helper()
	r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func rpc() clusterconnect.ControllerServiceClient {
	return clusterconnect.NewControllerServiceClient(httpClient(), serverURL, connect.WithInterceptors(bearer()))
}

func launched(t *testing.T, m *iris.Machine) *cluster.Controller_LaunchJobRequest {
	t.Helper()
	st, err := rpc().GetJobStatus(context.Background(), connect.NewRequest(&cluster.Controller_GetJobStatusRequest{JobId: proto.String(m.JobID())}))
	if err != nil {
		t.Fatal(err)
	}
	return st.Msg.GetRequest()
}

// A job is a SANDBOX job whose egress follows the spec's network, owned by
// the factory's user, with no retries and the TTL as its timeout.
func TestLaunchRequest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		network machine.NetworkPolicy
		egress  job.EgressPolicy
	}{{machine.NetworkDeny, job.EgressPolicy_EGRESS_POLICY_NONE}, {machine.NetworkAllow, job.EgressPolicy_EGRESS_POLICY_INTERNET}} {
		m := create(t, factory, spec(c.network))
		req := launched(t, m)
		if req.GetContainerProfile() != job.ContainerProfile_CONTAINER_PROFILE_SANDBOX || req.GetEgressPolicy() != c.egress ||
			req.GetMaxRetriesFailure() != 0 || req.GetMaxRetriesPreemption() != 0 || req.GetTimeout().GetMilliseconds() != iris.DefaultJobTTL.Milliseconds() ||
			!strings.HasPrefix(m.JobID(), "/tester/shellbox-") || req.GetTaskImage() != dockertest.BusyboxImage ||
			req.GetResources().GetMemoryBytes() != iris.DefaultMemoryMB<<20 || len(req.GetEnvironment().GetEnvVars()) != 0 {
			t.Fatalf("network %s: %v", c.network, req)
		}
	}
}

// secret_env reaches the job's environment (and so the commands) but not
// the spec; a factory without it launches jobs with no environment.
func TestSecretEnv(t *testing.T) {
	t.Parallel()
	f, err := iris.New(iris.Options{ControllerURL: serverURL, Token: token, User: "grader", SecretEnv: map[string]string{"JUDGE_KEY": "s3cret"}})
	if err != nil {
		t.Fatal(err)
	}
	sp := spec(machine.NetworkDeny)
	sp.Env = map[string]string{"PUBLIC": "p"}
	m := create(t, f, sp)
	if r := sh(t, m, `echo "$JUDGE_KEY $PUBLIC"`); string(r.Stdout) != "s3cret p\n" {
		t.Fatalf("got %q", r.Stdout)
	}
	if env := launched(t, m).GetEnvironment().GetEnvVars(); len(env) != 1 || env["JUDGE_KEY"] != "s3cret" {
		t.Fatalf("the job's environment: %v", env)
	}
	if _, err := iris.New(iris.Options{ControllerURL: serverURL, SecretEnv: map[string]string{"BAD-NAME": "x"}}); machine.KindOf(err) != machine.KindInvalid {
		t.Fatalf("a secret with a bad name: %v", err)
	}
}

// A task that is no longer running makes every later call fail with
// machine.ErrTerminated, naming its state.
func TestTerminated(t *testing.T) {
	t.Parallel()
	m := create(t, factory, spec(machine.NetworkDeny))
	sh(t, m, "true")
	if _, err := rpc().TerminateJob(context.Background(), connect.NewRequest(&cluster.Controller_TerminateJobRequest{JobId: proto.String(m.JobID())})); err != nil {
		t.Fatal(err)
	}
	_, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}, OutputLimit: 10})
	if !errors.Is(err, machine.ErrTerminated) || !strings.Contains(err.Error(), "is TASK_STATE_KILLED") || machine.KindOf(err) != machine.KindTerminated {
		t.Fatalf("a run in a killed task: %v (kind %d)", err, machine.KindOf(err))
	}
	if err := m.Download(context.Background(), "/etc/passwd", t.TempDir()+"/p", machine.DownloadOptions{}); !errors.Is(err, machine.ErrTerminated) {
		t.Fatalf("a download from a killed task: %v", err)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatalf("Close of a killed task's machine: %v", err)
	}
}

// Users other than the container's, GPUs and non-registry sources are
// refused before anything runs.
func TestRefusals(t *testing.T) {
	t.Parallel()
	m := create(t, factory, spec(machine.NetworkDeny))
	for _, u := range []string{"0", "root"} {
		if r, err := m.Run(context.Background(), machine.Command{Argv: []string{"id", "-u"}, User: u, OutputLimit: 10}); err != nil || string(r.Stdout) != "0\n" {
			t.Fatalf("the container's own user %s: %+v %v", u, r, err)
		}
	}
	_, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}, User: "nobody", OutputLimit: 10})
	var us *machine.UnsupportedSpec
	if !errors.As(err, &us) || us.Field != "user" {
		t.Fatalf("another user: %v", err)
	}
	if _, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}, Env: map[string]string{"A-B": "x"}, OutputLimit: 10}); machine.KindOf(err) != machine.KindInvalid {
		t.Fatalf("an env name a shell cannot export: %v", err)
	}
	gpu := spec(machine.NetworkDeny)
	gpu.GPUs = 1
	if err := factory.CheckEnvironment(machine.Requirements{}, gpu); !errors.As(err, &us) || us.Field != "gpus" {
		t.Fatalf("a GPU: %v", err)
	}
	local := machine.Spec{Source: machine.DockerImage{Reference: "x"}, Network: machine.NetworkDeny}
	if _, err := factory.Create(context.Background(), local); !errors.As(err, &us) || us.Field != "source" {
		t.Fatalf("a DockerImage: %v", err)
	}
	if _, ok := machine.Machine(m).(machine.ProcessMachine); ok {
		t.Fatal("an Iris machine offers process sessions")
	}
}

// A wrong token fails creation with the controller's UNAUTHENTICATED.
func TestWrongToken(t *testing.T) {
	t.Parallel()
	f, err := iris.New(iris.Options{ControllerURL: serverURL, Token: "wrong"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Create(context.Background(), spec(machine.NetworkDeny))
	if machine.KindOf(err) != machine.KindStartup || connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Fatalf("got %v", err)
	}
}

// shedCounter counts the calls the controller shed, and the execs in
// flight.
type shedCounter struct {
	h        http.Handler
	shed     atomic.Int64
	inFlight atomic.Int64
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(s int) { w.status = s; w.ResponseWriter.WriteHeader(s) }

func (c *shedCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sw := &statusWriter{ResponseWriter: w, status: 200}
	if strings.HasSuffix(r.URL.Path, "/ExecInContainer") {
		c.inFlight.Add(1)
		defer c.inFlight.Add(-1)
	}
	c.h.ServeHTTP(sw, r)
	if sw.status == http.StatusTooManyRequests { // Connect's HTTP status of RESOURCE_EXHAUSTED
		c.shed.Add(1)
	}
}

// With one exec slot, an exec that arrives while another runs is shed by
// the controller and retried by the client until it runs.
func TestShedExecsAreRetried(t *testing.T) {
	t.Parallel()
	srv, err := irisd.New(irisd.Config{Factory: dockerFactory, ExecSlots: 1,
		Source: func(image string) (machine.Source, error) { return machine.DockerImage{Reference: image}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	counter := &shedCounter{h: srv.Handler()}
	hs := httptest.NewServer(counter)
	defer hs.Close()
	defer srv.Close(context.Background())
	f, err := iris.New(iris.Options{ControllerURL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	a, b := create(t, f, spec(machine.NetworkDeny)), create(t, f, spec(machine.NetworkDeny))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sh(t, a, "sleep 5")
	}()
	// b's command goes once a's holds the slot (however slow the host),
	// so its first exec is shed.
	for deadline := time.Now().Add(time.Minute); counter.inFlight.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a's command never reached the controller")
		}
	}
	if r := sh(t, b, "echo ran"); string(r.Stdout) != "ran\n" {
		t.Fatalf("got %q", r.Stdout)
	}
	wg.Wait()
	if counter.shed.Load() == 0 {
		t.Fatal("no exec was shed: the test did not exercise the retry")
	}
}

// failing answers ExecInContainer with UNAVAILABLE while on, counting the
// calls that carried a command's wrapper.
type failing struct {
	h     http.Handler
	on    atomic.Bool
	calls atomic.Int64
}

func (f *failing) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.on.Load() && strings.HasSuffix(r.URL.Path, "/ExecInContainer") {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte("setsid")) { // the command's wrapper, not a cleanup
			f.calls.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"code":"unavailable","message":"worker unreachable"}`))
		return
	}
	f.h.ServeHTTP(w, r)
}

// A failed exec other than a shed one is not repeated (the command may
// have run): one call, and the error says the exec failed while the task
// still runs.
func TestOtherFailuresAreNotRetried(t *testing.T) {
	t.Parallel()
	srv, err := irisd.New(irisd.Config{Factory: dockerFactory,
		Source: func(image string) (machine.Source, error) { return machine.DockerImage{Reference: image}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	fh := &failing{h: srv.Handler()}
	hs := httptest.NewServer(fh)
	defer hs.Close()
	defer srv.Close(context.Background())
	f, err := iris.New(iris.Options{ControllerURL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	m := create(t, f, spec(machine.NetworkDeny))
	fh.on.Store(true)
	_, err = m.Run(context.Background(), machine.Command{Argv: []string{"true"}, OutputLimit: 10})
	if err == nil || errors.Is(err, machine.ErrTerminated) || connect.CodeOf(err) != connect.CodeUnavailable || !strings.Contains(err.Error(), "Iris exec failed") {
		t.Fatalf("got %v", err)
	}
	if n := fh.calls.Load(); n != 1 {
		t.Fatalf("%d exec calls, want 1", n)
	}
	fh.on.Store(false)
	if r := sh(t, m, "echo back"); string(r.Stdout) != "back\n" {
		t.Fatalf("got %q", r.Stdout)
	}
}
