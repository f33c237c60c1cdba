package irisd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/cluster/clusterconnect"
	"github.com/shellbox/shellbox/lib/backends/iris/irispb/job"
	iristime "github.com/shellbox/shellbox/lib/backends/iris/irispb/time"
	"github.com/shellbox/shellbox/lib/machine"
)

// Exec timeouts, as the real controller applies them.
const (
	DefaultExecTimeout = 60 * time.Second
	MaxExecTimeout     = 900 * time.Second
)

// Config configures a Server.
type Config struct {
	// Token, when set, is the bearer token every call must carry (else
	// UNAUTHENTICATED); "" serves everyone (Iris's null-auth mode).
	Token string
	// Factory creates the tasks' machines; SandboxFactory, when set, those
	// of SANDBOX jobs.
	Factory        machine.Factory
	SandboxFactory machine.Factory
	// Source maps a task image to a machine source (nil: RegistryImage).
	Source func(image string) (machine.Source, error)
	// Resources passes cpu and memory to the machines.
	Resources bool
	// ExecSlots bounds the execs running at once (0: 64).
	ExecSlots int
	// MaxOutput bounds each stream of an exec's reply (0: 64 MiB).
	MaxOutput int
}

// Server is the controller.
type Server struct {
	clusterconnect.UnimplementedControllerServiceHandler
	cfg   Config
	slots chan struct{}

	mu     sync.Mutex
	jobs   map[string]*jobRec
	tasks  map[string]*task
	closed bool
	// releasing counts the machines of killed tasks still being removed
	// in the background; releaseErrs holds their failures for Close.
	releasing   int
	releaseErrs []error
	// work tracks the tasks' goroutines and the background removals.
	work sync.WaitGroup
}

type jobRec struct {
	req       *cluster.Controller_LaunchJobRequest
	id        string
	submitted time.Time
	tasks     []*task
}

type task struct {
	s   *Server
	job *jobRec
	id  string

	mu       sync.Mutex
	state    job.TaskState
	exitCode int32
	err      string
	started  time.Time
	finished time.Time
	m        machine.Machine
	stop     context.CancelFunc // ends the task's start and its timer
}

// New builds a controller; Handler serves it.
func New(cfg Config) (*Server, error) {
	if cfg.Factory == nil {
		return nil, errors.New("irisd: a machine factory is required")
	}
	if cfg.SandboxFactory == nil {
		cfg.SandboxFactory = cfg.Factory
	}
	if cfg.Source == nil {
		cfg.Source = func(image string) (machine.Source, error) { return machine.RegistryImage{Reference: image}, nil }
	}
	if cfg.ExecSlots <= 0 {
		cfg.ExecSlots = 64
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = 64 << 20
	}
	return &Server{cfg: cfg, slots: make(chan struct{}, cfg.ExecSlots), jobs: map[string]*jobRec{}, tasks: map[string]*task{}}, nil
}

// Handler serves the ControllerService at /iris.cluster.ControllerService/.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	path, h := clusterconnect.NewControllerServiceHandler(s, connect.WithInterceptors(s.auth()))
	mux.Handle(path, h)
	return mux
}

func (s *Server) auth() connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			if s.cfg.Token != "" {
				h := req.Header().Get("Authorization")
				if !strings.HasPrefix(h, "Bearer ") {
					return nil, connect.NewError(connect.CodeUnauthenticated, errors.New("missing or malformed Authorization header"))
				}
				if strings.TrimPrefix(h, "Bearer ") != s.cfg.Token {
					return nil, connect.NewError(connect.CodeUnauthenticated, errors.New("invalid token"))
				}
			}
			return next(ctx, req)
		}
	}
}

// Machines is the number of task machines, counting those of killed tasks
// still being removed.
func (s *Server) Machines() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.releasing
	for _, t := range s.tasks {
		t.mu.Lock()
		if t.m != nil {
			n++
		}
		t.mu.Unlock()
	}
	return n
}

// Releasing is the number of killed tasks' machines still being removed.
func (s *Server) Releasing() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.releasing
}

// Close kills every task and waits for every machine's removal.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	var all []*task
	for _, t := range s.tasks {
		all = append(all, t)
	}
	s.mu.Unlock()
	var errs []error
	for _, t := range all {
		errs = append(errs, t.end(ctx, job.TaskState_TASK_STATE_KILLED, -1, "the controller stopped"))
	}
	s.work.Wait()
	s.mu.Lock()
	errs = append(errs, s.releaseErrs...)
	s.releaseErrs = nil
	s.mu.Unlock()
	return errors.Join(errs...)
}

// release removes a killed task's machine in the background, as the real
// controller's TerminateJob only records the kill and its worker stops the
// container afterwards.
func (s *Server) release(m machine.Machine) {
	s.mu.Lock()
	s.releasing++
	s.work.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.work.Done()
		err := m.Close(context.Background())
		s.mu.Lock()
		defer s.mu.Unlock()
		s.releasing--
		if err != nil {
			s.releaseErrs = append(s.releaseErrs, err)
		}
	}()
}

func invalid(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}

func ms(d *iristime.Duration) time.Duration {
	return time.Duration(d.GetMilliseconds()) * time.Millisecond
}

func stamp(t time.Time) *iristime.Timestamp {
	if t.IsZero() {
		return nil
	}
	return &iristime.Timestamp{EpochMs: proto.Int64(t.UnixMilli())}
}

func terminal(st job.TaskState) bool {
	switch st {
	case job.TaskState_TASK_STATE_SUCCEEDED, job.TaskState_TASK_STATE_FAILED, job.TaskState_TASK_STATE_KILLED,
		job.TaskState_TASK_STATE_WORKER_FAILED, job.TaskState_TASK_STATE_UNSCHEDULABLE, job.TaskState_TASK_STATE_PREEMPTED:
		return true
	}
	return false
}

// LaunchJob validates the job and starts its tasks in the background.
func (s *Server) LaunchJob(ctx context.Context, req *connect.Request[cluster.Controller_LaunchJobRequest]) (*connect.Response[cluster.Controller_LaunchJobResponse], error) {
	r := req.Msg
	name := r.GetName()
	if name == "" {
		return nil, invalid("job name is required")
	}
	if !strings.HasPrefix(name, "/") {
		name = "/anonymous/" + name
	}
	argv := r.GetEntrypoint().GetRunCommand().GetArgv()
	if len(argv) == 0 {
		return nil, invalid("entrypoint.run_command.argv is required")
	}
	profile := r.GetContainerProfile()
	egress := r.GetEgressPolicy()
	sandbox := profile == job.ContainerProfile_CONTAINER_PROFILE_SANDBOX
	switch {
	case sandbox && egress == job.EgressPolicy_EGRESS_POLICY_CLUSTER:
		return nil, invalid("SANDBOX jobs cannot use EGRESS_POLICY_CLUSTER")
	case sandbox && r.GetResources().GetDevice().GetCpu() == nil && r.GetResources().GetDevice() != nil:
		return nil, invalid("SANDBOX jobs are CPU-only")
	case egress == job.EgressPolicy_EGRESS_POLICY_UNSPECIFIED && sandbox:
		egress = job.EgressPolicy_EGRESS_POLICY_INTERNET
	}
	if _, ok := job.EgressPolicy_name[int32(egress)]; !ok {
		return nil, invalid("unknown egress policy %d", egress)
	}
	if r.GetTaskImage() == "" {
		return nil, invalid("task_image is required (this controller has no default task image)")
	}
	src, err := s.cfg.Source(r.GetTaskImage())
	if err != nil {
		return nil, invalid("task_image %s: %v", r.GetTaskImage(), err)
	}
	spec := machine.Spec{Source: src, Env: r.GetEnvironment().GetEnvVars(), Network: machine.NetworkAllow}
	if egress == job.EgressPolicy_EGRESS_POLICY_NONE {
		spec.Network = machine.NetworkDeny
	}
	if s.cfg.Resources {
		if mc := r.GetResources().GetCpuMillicores(); mc > 0 {
			c := int(math.Ceil(float64(mc) / 1000))
			spec.CPUs = &c
		}
		if b := r.GetResources().GetMemoryBytes(); b > 0 {
			mb := int((b + 1<<20 - 1) >> 20)
			spec.MemoryMB = &mb
		}
	}
	if err := spec.Validate(); err != nil {
		return nil, invalid("%v", err)
	}
	replicas := int(r.GetReplicas())
	if replicas <= 0 {
		replicas = 1
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, connect.NewError(connect.CodeUnavailable, errors.New("the controller is stopping"))
	}
	if old, ok := s.jobs[name]; ok {
		running := false
		for _, t := range old.tasks {
			t.mu.Lock()
			running = running || !terminal(t.state)
			t.mu.Unlock()
		}
		if running || r.GetFailIfExists() {
			s.mu.Unlock()
			return nil, connect.NewError(connect.CodeAlreadyExists, fmt.Errorf("job %s already exists", name))
		}
		for _, t := range old.tasks {
			delete(s.tasks, t.id)
		}
	}
	j := &jobRec{req: proto.Clone(r).(*cluster.Controller_LaunchJobRequest), id: name, submitted: time.Now()}
	for i := 0; i < replicas; i++ {
		t := &task{s: s, job: j, id: name + "/" + strconv.Itoa(i), state: job.TaskState_TASK_STATE_PENDING}
		j.tasks = append(j.tasks, t)
		s.tasks[t.id] = t
	}
	s.jobs[name] = j
	f := s.cfg.Factory
	if sandbox {
		f = s.cfg.SandboxFactory
	}
	for _, t := range j.tasks {
		s.work.Add(1)
		go func() {
			defer s.work.Done()
			t.run(f, spec)
		}()
	}
	s.mu.Unlock()
	return connect.NewResponse(&cluster.Controller_LaunchJobResponse{JobId: proto.String(name)}), nil
}

// run creates the task's machine and runs the entrypoint in it.
func (t *task) run(f machine.Factory, spec machine.Spec) {
	r := t.job.req
	ctx, cancel := context.WithCancel(context.Background())
	t.mu.Lock()
	if terminal(t.state) {
		t.mu.Unlock()
		cancel()
		return
	}
	t.stop = cancel
	// As a worker's: BUILDING (started_at stamped) while the container
	// starts, RUNNING once it runs.
	t.state, t.started = job.TaskState_TASK_STATE_BUILDING, time.Now()
	t.mu.Unlock()
	cctx := ctx
	if d := ms(r.GetSchedulingTimeout()); d > 0 {
		var c context.CancelFunc
		cctx, c = context.WithTimeout(ctx, d)
		defer c()
	}
	m, err := f.Create(cctx, spec)
	if err != nil {
		state := job.TaskState_TASK_STATE_FAILED
		if cctx.Err() != nil && ctx.Err() == nil {
			state = job.TaskState_TASK_STATE_UNSCHEDULABLE
		}
		_ = t.end(context.Background(), state, -1, "starting the task: "+err.Error())
		return
	}
	t.mu.Lock()
	if terminal(t.state) { // killed while starting
		t.mu.Unlock()
		_ = m.Close(context.Background())
		return
	}
	t.m = m
	t.mu.Unlock()
	// The job's environment is the machine's (spec.Env).
	for _, script := range append(append([]string{}, r.GetEntrypoint().GetSetupCommands()...), r.GetEnvironment().GetSetupScripts()...) {
		res, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 64 << 10})
		if err != nil || *res.ExitCode != 0 {
			_ = t.end(context.Background(), job.TaskState_TASK_STATE_FAILED, 1, fmt.Sprintf("setup %q failed: %v %s", script, err, res.Stderr))
			return
		}
	}
	t.mu.Lock()
	if terminal(t.state) { // killed while setting up
		t.mu.Unlock()
		return
	}
	t.state = job.TaskState_TASK_STATE_RUNNING
	t.mu.Unlock()
	if d := ms(r.GetTimeout()); d > 0 {
		timer := time.AfterFunc(d, func() {
			_ = t.end(context.Background(), job.TaskState_TASK_STATE_KILLED, -1, fmt.Sprintf("the task ran longer than its timeout of %v", d))
		})
		defer timer.Stop()
	}
	// The entrypoint is the machine's command until it ends or end stops
	// it (by cancelling ctx and closing the machine).
	res, err := m.Run(ctx, machine.Command{Argv: r.GetEntrypoint().GetRunCommand().GetArgv(), OutputLimit: 64 << 10})
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, machine.ErrClosed)):
	case err != nil:
		_ = t.end(context.Background(), job.TaskState_TASK_STATE_WORKER_FAILED, -1, err.Error())
	case *res.ExitCode == 0:
		_ = t.end(context.Background(), job.TaskState_TASK_STATE_SUCCEEDED, 0, "")
	default:
		_ = t.end(context.Background(), job.TaskState_TASK_STATE_FAILED, int32(*res.ExitCode), fmt.Sprintf("exit code %d: %s", *res.ExitCode, res.Stderr))
	}
}

// end moves the task to a terminal state (the first such call wins) and
// removes its machine.
func (t *task) end(ctx context.Context, state job.TaskState, code int32, msg string) error {
	if m := t.mark(state, code, msg); m != nil {
		return m.Close(ctx)
	}
	return nil
}

// mark moves the task to a terminal state (the first such call wins),
// stops its start and its timer, and returns its machine (nil: none) for
// the caller to remove.
func (t *task) mark(state job.TaskState, code int32, msg string) machine.Machine {
	t.mu.Lock()
	if terminal(t.state) {
		t.mu.Unlock()
		return nil
	}
	t.state, t.exitCode, t.err, t.finished = state, code, msg, time.Now()
	m, stop := t.m, t.stop
	t.m = nil
	t.mu.Unlock()
	if stop != nil {
		stop()
	}
	return m
}

func (t *task) status() *job.TaskStatus {
	t.mu.Lock()
	defer t.mu.Unlock()
	return &job.TaskStatus{
		TaskId: proto.String(t.id), State: t.state.Enum(), ExitCode: proto.Int32(t.exitCode), Error: proto.String(t.err),
		StartedAt: stamp(t.started), FinishedAt: stamp(t.finished), WorkerId: proto.String("shellbox-irisd"),
		BackendId: proto.String("default"), Cluster: proto.String("local"),
	}
}

func (s *Server) findJob(id string) (*jobRec, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	if !ok {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("job %s not found", id))
	}
	return j, nil
}

func (s *Server) findTask(id string) (*task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[id]
	if !ok {
		return nil, connect.NewError(connect.CodeNotFound, fmt.Errorf("task %s not found", id))
	}
	return t, nil
}

// jobState summarizes the tasks (the first task's terminal state, else
// RUNNING when one is building or runs, as the real controller's, else
// PENDING).
func (j *jobRec) state() (job.JobState, *job.TaskStatus) {
	var first *job.TaskStatus
	running := false
	for _, t := range j.tasks {
		st := t.status()
		if first == nil {
			first = st
		}
		if terminal(st.GetState()) && st.GetState() != job.TaskState_TASK_STATE_SUCCEEDED {
			return job.JobState(st.GetState()), st
		}
		running = running || st.GetState() == job.TaskState_TASK_STATE_RUNNING || st.GetState() == job.TaskState_TASK_STATE_BUILDING
		if !terminal(st.GetState()) {
			first = st
		}
	}
	switch {
	case first != nil && first.GetState() == job.TaskState_TASK_STATE_SUCCEEDED:
		return job.JobState_JOB_STATE_SUCCEEDED, first
	case running:
		return job.JobState_JOB_STATE_RUNNING, first
	}
	return job.JobState_JOB_STATE_PENDING, first
}

func (s *Server) GetJobStatus(ctx context.Context, req *connect.Request[cluster.Controller_GetJobStatusRequest]) (*connect.Response[cluster.Controller_GetJobStatusResponse], error) {
	j, err := s.findJob(req.Msg.GetJobId())
	if err != nil {
		return nil, err
	}
	state, first := j.state()
	st := &job.JobStatus{JobId: proto.String(j.id), State: state.Enum(), Name: proto.String(j.id),
		SubmittedAt: stamp(j.submitted), Resources: j.req.GetResources()}
	if first != nil {
		st.ExitCode, st.Error, st.StartedAt, st.FinishedAt = proto.Int32(first.GetExitCode()), proto.String(first.GetError()), first.StartedAt, first.FinishedAt
	}
	for _, t := range j.tasks {
		st.Tasks = append(st.Tasks, t.status())
	}
	return connect.NewResponse(&cluster.Controller_GetJobStatusResponse{Job: st, Request: j.req}), nil
}

func (s *Server) GetJobState(ctx context.Context, req *connect.Request[cluster.Controller_GetJobStateRequest]) (*connect.Response[cluster.Controller_GetJobStateResponse], error) {
	out := map[string]job.JobState{}
	for _, id := range req.Msg.GetJobIds() {
		if j, err := s.findJob(id); err == nil {
			out[id], _ = j.state()
		}
	}
	return connect.NewResponse(&cluster.Controller_GetJobStateResponse{States: out}), nil
}

func (s *Server) ListTasks(ctx context.Context, req *connect.Request[cluster.Controller_ListTasksRequest]) (*connect.Response[cluster.Controller_ListTasksResponse], error) {
	j, err := s.findJob(req.Msg.GetJobId())
	if err != nil {
		return nil, err
	}
	resp := &cluster.Controller_ListTasksResponse{}
	for _, t := range j.tasks {
		resp.Tasks = append(resp.Tasks, t.status())
	}
	return connect.NewResponse(resp), nil
}

func (s *Server) GetTaskStatus(ctx context.Context, req *connect.Request[cluster.Controller_GetTaskStatusRequest]) (*connect.Response[cluster.Controller_GetTaskStatusResponse], error) {
	t, err := s.findTask(req.Msg.GetTaskId())
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&cluster.Controller_GetTaskStatusResponse{Task: t.status(), JobResources: t.job.req.GetResources()}), nil
}

func (s *Server) TerminateJob(ctx context.Context, req *connect.Request[cluster.Controller_TerminateJobRequest]) (*connect.Response[job.Empty], error) {
	j, err := s.findJob(req.Msg.GetJobId())
	if err != nil {
		return nil, err
	}
	// The kill is recorded at once (the tasks are KILLED, their execs
	// refused); the machines are removed in the background.
	for _, t := range j.tasks {
		if m := t.mark(job.TaskState_TASK_STATE_KILLED, -1, "terminated by the user"); m != nil {
			s.release(m)
		}
	}
	return connect.NewResponse(&job.Empty{}), nil
}

// ExecInContainer runs the argv in the task's machine, or sheds the call
// when every exec slot is taken.
func (s *Server) ExecInContainer(ctx context.Context, req *connect.Request[cluster.Controller_ExecInContainerRequest]) (*connect.Response[cluster.Controller_ExecInContainerResponse], error) {
	t, err := s.findTask(req.Msg.GetTaskId())
	if err != nil {
		return nil, err
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		return nil, connect.NewError(connect.CodeResourceExhausted, errors.New("the exec pool is full"))
	}
	fail := func(format string, args ...any) (*connect.Response[cluster.Controller_ExecInContainerResponse], error) {
		return connect.NewResponse(&cluster.Controller_ExecInContainerResponse{ExitCode: proto.Int32(-1), Error: proto.String(fmt.Sprintf(format, args...))}), nil
	}
	t.mu.Lock()
	m, state := t.m, t.state
	t.mu.Unlock()
	if state != job.TaskState_TASK_STATE_RUNNING || m == nil {
		return fail("task %s is not running (%s)", t.id, state)
	}
	timeout := time.Duration(req.Msg.GetTimeoutSeconds()) * time.Second
	switch {
	case timeout == 0:
		timeout = DefaultExecTimeout
	case timeout < 0 || timeout > MaxExecTimeout:
		timeout = MaxExecTimeout
	}
	argv := req.Msg.GetCommand()
	if len(argv) == 0 {
		return nil, invalid("command is required")
	}
	cmd := machine.Command{Argv: argv, Timeout: timeout, OutputLimit: s.cfg.MaxOutput}
	if err := cmd.Validate(); err != nil {
		return fail("%v", err)
	}
	res, err := m.Run(ctx, cmd)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, connect.NewError(connect.CodeCanceled, ctx.Err())
	case err != nil:
		return fail("exec failed: %v", err)
	case res.Reason == machine.TimedOut:
		return fail("exec timed out after %v", timeout)
	}
	return connect.NewResponse(&cluster.Controller_ExecInContainerResponse{
		ExitCode: proto.Int32(int32(*res.ExitCode)),
		Stdout:   proto.String(strings.ToValidUTF8(string(res.Stdout), "\uFFFD")),
		Stderr:   proto.String(strings.ToValidUTF8(string(res.Stderr), "\uFFFD")),
	}), nil
}
