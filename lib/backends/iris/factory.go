package iris

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/user"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster/clusterconnect"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/job"
	iristime "github.com/shellbox/shellbox/lib/backends/iris/irispb/time"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/shwrap"
)

// Backend is this backend's name.
const Backend = "iris"

// Defaults, as marin-shellbox's.
const (
	DefaultMemoryMB          = 2048
	DefaultDiskMB            = 10240
	DefaultSchedulingTimeout = 600 * time.Second
	DefaultJobTTL            = 6 * time.Hour
)

// IdleEntrypoint keeps the task alive; PID 1 exits at once on TERM.
const IdleEntrypoint = "trap 'exit 0' TERM INT; sleep infinity & wait"

// EnvToken names the variable holding the controller's bearer token when
// the options give none.
const EnvToken = "IRIS_TOKEN"

func init() {
	machine.Register(Backend, func(raw json.RawMessage) (machine.Factory, error) {
		var o Options
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &o); err != nil {
				return nil, &machine.InvalidSpec{Field: "options", Reason: err.Error()}
			}
		}
		return New(o)
	})
}

// Options are the Python factory's keyword arguments.
type Options struct {
	// Cluster names the cluster whose config (see ResolveCluster) gives
	// the controller's URL; exactly one of Cluster and ControllerURL.
	Cluster       string `json:"cluster"`
	ControllerURL string `json:"controller_url"`
	// Token is sent as "Authorization: Bearer <token>" ("" : $IRIS_TOKEN,
	// else $MARIN_CLUSTER_TOKEN as marin-iris sends it, else no header).
	Token string `json:"token"`
	// User owns the jobs (their ids are /<user>/<name>); "" is the OS user.
	User string `json:"user"`
	// SchedulingTimeout bounds the wait for the task to run, in seconds
	// (nil: 600).
	SchedulingTimeout *float64 `json:"scheduling_timeout"`
	// JobTTL is each job's lifetime, in seconds (nil: 6 hours).
	JobTTL *float64 `json:"job_ttl"`
	// DiskMB is the disk of a machine whose spec names none (nil: 10240).
	DiskMB *int `json:"disk_mb"`
	// SecretEnv is set in every job's environment, resolved by the caller:
	// only for trusted graders, never for jobs that run an agent's code.
	SecretEnv map[string]string `json:"secret_env"`
}

// Factory launches Iris jobs as machines.
type Factory struct {
	rpc               clusterconnect.ControllerServiceClient
	http              *http.Client
	user              string
	schedulingTimeout time.Duration
	jobTTL            time.Duration
	diskMB            int
	secretEnv         map[string]string
	// lastStart is how long the last task took to run after its launch
	// (a time.Duration), for the poll that waits for the next.
	lastStart atomic.Int64
}

var userRe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// New checks the options and builds a factory; it does not contact the
// controller.
func New(o Options) (*Factory, error) {
	if (o.Cluster == "") == (o.ControllerURL == "") {
		return nil, &machine.InvalidSpec{Field: "cluster", Reason: "give exactly one of cluster and controller_url"}
	}
	if o.Cluster != "" {
		addr, err := ResolveCluster(o.Cluster, ClusterConfigDirs())
		if err != nil {
			return nil, err
		}
		o.ControllerURL = addr
	}
	u, err := url.Parse(o.ControllerURL)
	if o.ControllerURL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &machine.InvalidSpec{Field: "controller_url", Reason: fmt.Sprintf("need an http(s) URL of an Iris controller, got %q", o.ControllerURL)}
	}
	f := &Factory{user: o.User, schedulingTimeout: DefaultSchedulingTimeout, jobTTL: DefaultJobTTL, diskMB: DefaultDiskMB, secretEnv: o.SecretEnv}
	for _, d := range []struct {
		field string
		v     *float64
		dst   *time.Duration
	}{{"scheduling_timeout", o.SchedulingTimeout, &f.schedulingTimeout}, {"job_ttl", o.JobTTL, &f.jobTTL}} {
		if d.v == nil {
			continue
		}
		v, err := machine.DurationFromSeconds(d.field, *d.v)
		if err != nil {
			return nil, err
		}
		if v <= 0 {
			return nil, &machine.InvalidSpec{Field: d.field, Reason: "must be positive"}
		}
		*d.dst = v
	}
	if o.DiskMB != nil {
		if *o.DiskMB <= 0 {
			return nil, &machine.InvalidSpec{Field: "disk_mb", Reason: "must be positive"}
		}
		f.diskMB = *o.DiskMB
	}
	for k := range o.SecretEnv {
		if !shwrap.ValidEnvName(k) {
			return nil, &machine.InvalidSpec{Field: "secret_env", Reason: fmt.Sprintf("%q is not a variable name", k)}
		}
	}
	if f.user == "" {
		if cu, err := user.Current(); err == nil {
			f.user = cu.Username
		}
	}
	if f.user = userRe.ReplaceAllString(f.user, "-"); f.user == "" {
		f.user = "shellbox"
	}
	token := o.Token
	for _, env := range []string{EnvToken, EnvClusterToken} {
		if token == "" {
			token = os.Getenv(env)
		}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	f.http = &http.Client{Transport: tr}
	opts := []connect.ClientOption{connect.WithInterceptors(bearer(token))}
	f.rpc = clusterconnect.NewControllerServiceClient(f.http, strings.TrimRight(o.ControllerURL, "/"), opts...)
	return f, nil
}

// bearer adds the token to every call.
func bearer(token string) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			if token != "" {
				req.Header().Set("Authorization", "Bearer "+token)
			}
			return next(ctx, req)
		}
	}
}

func (f *Factory) Backend() string { return Backend }

func (f *Factory) unsupported(field, reason string) error {
	return &machine.UnsupportedSpec{Backend: Backend, Field: field, Reason: reason}
}

// CheckEnvironment refuses what Iris cannot run.
func (f *Factory) CheckEnvironment(req machine.Requirements, spec machine.Spec) error {
	if err := spec.Validate(); err != nil {
		return err
	}
	return f.check(spec)
}

func (f *Factory) check(spec machine.Spec) error {
	if spec.GPUs > 0 {
		return f.unsupported("gpus", "the SANDBOX profile is CPU-only")
	}
	if _, ok := spec.Source.(machine.RegistryImage); !ok {
		return f.unsupported("source", fmt.Sprintf("%s (Iris runs RegistryImage sources)", spec.Source.Kind()))
	}
	for k := range spec.Env {
		if !shwrap.ValidEnvName(k) {
			return &machine.InvalidSpec{Field: "env", Reason: fmt.Sprintf("%q is not a variable name a shell can export", k)}
		}
	}
	return nil
}

func newName() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "shellbox-" + hex.EncodeToString(b)
}

func durationMS(d time.Duration) *iristime.Duration {
	return &iristime.Duration{Milliseconds: proto.Int64(d.Milliseconds())}
}

// Create launches the job and waits until its task runs (bounded by the
// scheduling timeout, or the spec's startup_timeout when shorter).
func (f *Factory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if err := f.check(spec); err != nil {
		return nil, err
	}
	cpus, memMB, diskMB := 1, DefaultMemoryMB, f.diskMB
	if spec.CPUs != nil {
		cpus = *spec.CPUs
	}
	if spec.MemoryMB != nil {
		memMB = *spec.MemoryMB
	}
	if spec.StorageMB != nil {
		diskMB = *spec.StorageMB
	}
	egress := job.EgressPolicy_EGRESS_POLICY_NONE
	if spec.Network == machine.NetworkAllow {
		egress = job.EgressPolicy_EGRESS_POLICY_INTERNET
	}
	env := map[string]string{}
	for k, v := range f.secretEnv {
		env[k] = v
	}
	name := "/" + f.user + "/" + newName()
	req := &cluster.Controller_LaunchJobRequest{
		Name: proto.String(name),
		Entrypoint: &job.RuntimeEntrypoint{RunCommand: &job.CommandEntrypoint{
			Argv: []string{"sh", "-c", IdleEntrypoint}}},
		Resources: &job.ResourceSpecProto{
			CpuMillicores: proto.Int32(int32(cpus * 1000)),
			MemoryBytes:   proto.Int64(int64(memMB) << 20),
			DiskBytes:     proto.Int64(int64(diskMB) << 20),
		},
		Environment:          &job.EnvironmentConfig{EnvVars: env, SetupScripts: []string{}},
		TaskImage:            proto.String(spec.Source.(machine.RegistryImage).Reference),
		ContainerProfile:     job.ContainerProfile_CONTAINER_PROFILE_SANDBOX.Enum(),
		EgressPolicy:         egress.Enum(),
		SchedulingTimeout:    durationMS(f.schedulingTimeout),
		Timeout:              durationMS(f.jobTTL),
		MaxRetriesFailure:    proto.Int32(0),
		MaxRetriesPreemption: proto.Int32(0),
	}
	limit := f.schedulingTimeout
	if spec.StartupTimeout > 0 && spec.StartupTimeout < limit {
		limit = spec.StartupTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	resp, err := f.rpc.LaunchJob(cctx, connect.NewRequest(req))
	if err != nil {
		return nil, f.createErr(ctx, cctx, limit, err)
	}
	jobID := resp.Msg.GetJobId()
	m, err := f.start(cctx, jobID, spec)
	if err != nil {
		tctx, tcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer tcancel()
		if _, terr := f.rpc.TerminateJob(tctx, connect.NewRequest(&cluster.Controller_TerminateJobRequest{JobId: proto.String(jobID)})); terr != nil {
			err = errors.Join(err, fmt.Errorf("terminating job %s: %w", jobID, terr))
		}
		return nil, f.createErr(ctx, cctx, limit, err)
	}
	return m, nil
}

func (f *Factory) createErr(ctx, cctx context.Context, limit time.Duration, err error) error {
	var us *machine.UnsupportedSpec
	if errors.As(err, &us) {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if cctx.Err() != nil {
		err = fmt.Errorf("the task did not run within %v (scheduling_timeout or startup_timeout): %w", limit, context.DeadlineExceeded)
	}
	return &machine.StartupError{Backend: Backend, Err: err}
}

// The wait for a task to run polls ListTasks after pollInitial, each wait
// half again as long as the last, up to pollMax. Once a task of this
// factory ran, the next poll also lands at four fifths of the time that
// took, about where the next task starts to run, and the polls
// after it start again from pollNear, each wait a quarter of the time
// since (at most the regular one).
const (
	pollInitial = 5 * time.Millisecond
	pollMax     = 250 * time.Millisecond
	pollNear    = 10 * time.Millisecond
)

// pollWait is how long to wait before the next poll, elapsed after the
// launch, when the regular wait is regular and the last task took
// expected (0: none yet) to run.
func pollWait(elapsed, regular, expected time.Duration) time.Duration {
	if expected <= 0 {
		return regular
	}
	lo := expected * 4 / 5
	if elapsed < lo {
		return min(regular, lo-elapsed)
	}
	return min(regular, max(pollNear, (elapsed-lo)/4))
}

// start waits for the job's task to run and prepares the machine.
func (f *Factory) start(ctx context.Context, jobID string, spec machine.Spec) (*Machine, error) {
	// Iris has no call that waits for a state (its own client polls too),
	// so the poll starts fast, as a sandbox on an idle worker runs within
	// a few hundred milliseconds, and slows to pollMax for one that waits
	// for a worker, polling more often when the last task started.
	delay, begin := pollInitial, time.Now()
	expected := time.Duration(f.lastStart.Load())
	var task *job.TaskStatus
	for task == nil {
		resp, err := f.rpc.ListTasks(ctx, connect.NewRequest(&cluster.Controller_ListTasksRequest{JobId: proto.String(jobID)}))
		if err != nil {
			return nil, err
		}
		for _, t := range resp.Msg.GetTasks() {
			switch t.GetState() {
			case job.TaskState_TASK_STATE_RUNNING:
				task = t
			case job.TaskState_TASK_STATE_PENDING, job.TaskState_TASK_STATE_BUILDING, job.TaskState_TASK_STATE_ASSIGNED,
				job.TaskState_TASK_STATE_UNSPECIFIED:
			default:
				return nil, fmt.Errorf("task %s is %s: %s", t.GetTaskId(), t.GetState(), t.GetError())
			}
		}
		if task != nil {
			break
		}
		if err := sleep(ctx, pollWait(time.Since(begin), delay, expected)); err != nil {
			return nil, err
		}
		delay = min(delay*3/2, pollMax)
	}
	f.lastStart.Store(int64(time.Since(begin)))
	// The workdir is made, and setsid looked for, by the first command.
	return newMachine(f, jobID, task.GetTaskId(), spec), nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
