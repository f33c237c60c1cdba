package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/system"
	"github.com/docker/docker/client"

	"github.com/shellbox/shellbox/lib/machine"
)

// Labels put on everything this backend creates, so leftovers can be
// found (and counted by tests) by label.
const (
	LabelMachine = "dev.shellbox.machine"
	LabelBackend = "dev.shellbox.backend"
)

// DefaultHost is the daemon address used when neither the options nor
// DOCKER_HOST name one.
const DefaultHost = "unix:///var/run/docker.sock"

// pingTimeout bounds the daemon check at factory construction.
const pingTimeout = 10 * time.Second

func init() {
	machine.Register("docker", func(raw json.RawMessage) (machine.Factory, error) {
		opts, err := ParseOptions(raw)
		if err != nil {
			return nil, err
		}
		return New(context.Background(), Config{Backend: "docker", Host: opts.Host, Runtime: opts.runtime(), PidsLimit: opts.PidsLimitConfig()})
	})
}

// Options are the Python factory's keyword arguments.
type Options struct {
	// Host is the daemon address; "" means DOCKER_HOST, else DefaultHost.
	Host string `json:"host"`
	// Runtime is the OCI runtime name registered with the daemon, e.g.
	// "runsc"; nil means the daemon's default.
	Runtime *string `json:"runtime"`
	// PidsLimit bounds the tasks (processes and threads) of each container;
	// nil means DefaultPidsLimit, 0 no limit.
	PidsLimit *int64 `json:"pids_limit"`
}

// DefaultPidsLimit is each container's task limit unless the factory
// options give another. Without one, a fork bomb in one container takes
// every PID of the host (32768 by default on small hosts) and the host
// process embedding shellbox dies when it next creates a thread. 4096 is
// far above what builds, test runners and browsers use (threads count),
// and leaves a default pid_max host room for several runaway containers.
const DefaultPidsLimit = 4096

func (o Options) runtime() string {
	if o.Runtime == nil {
		return ""
	}
	return *o.Runtime
}

// PidsLimitConfig is the option as Config.PidsLimit takes it.
func (o Options) PidsLimitConfig() int64 {
	switch {
	case o.PidsLimit == nil:
		return 0
	case *o.PidsLimit == 0:
		return -1
	}
	return *o.PidsLimit
}

// ParseOptions reads the factory options JSON; empty means defaults.
func ParseOptions(raw json.RawMessage) (Options, error) {
	var o Options
	if len(raw) == 0 || string(raw) == "null" {
		return o, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, &machine.InvalidSpec{Field: "options", Reason: err.Error()}
	}
	if o.PidsLimit != nil && *o.PidsLimit < 0 {
		return o, &machine.InvalidSpec{Field: "pids_limit", Reason: fmt.Sprintf("must be positive, or 0 for no limit, got %d", *o.PidsLimit)}
	}
	return o, nil
}

// Config builds a Factory.
type Config struct {
	// Backend is the name the factory reports ("docker", "gvisor").
	Backend string
	// Host is the daemon address; "" means DOCKER_HOST, else DefaultHost.
	Host string
	// Runtime is the OCI runtime name ("" for the daemon's default).
	Runtime string
	// Hint, when set, replaces the advice given when Runtime is not
	// registered with the daemon.
	RuntimeHint string
	// PidsLimit bounds the tasks of each container: 0 means
	// DefaultPidsLimit, a negative value no limit.
	PidsLimit int64
	// SpareExecs is how many wrapper execs each machine keeps started
	// ahead of its Runs: 0 means DefaultSpareExecs, a negative value none.
	SpareExecs int
}

// DefaultSpareExecs keeps back-to-back Runs from waiting on an exec's
// start (one is taken while the next is still starting) at the cost of a
// few idle shells per container.
const DefaultSpareExecs = 2

// Factory creates machines as containers of one Docker daemon.
type Factory struct {
	backend string
	host    string
	runtime string
	pids    int64  // each container's task limit, negative for none
	owner   string // this process's LabelOwner value
	cli     *client.Client
	info    system.Info
	// execTransfers moves files with tar inside the container instead of
	// the archive endpoints, which cannot see a gVisor sandbox's writes.
	execTransfers bool
	// stopTimeout bounds killing a process group and confirming it.
	stopTimeout time.Duration
	// removeTimeout bounds removing a machine's container on Close.
	removeTimeout time.Duration
	// spareExecs is Config.SpareExecs resolved.
	spareExecs int
	// stops tells machines that their container died (stopwatch.go).
	stops stopWatch
}

var _ machine.Factory = (*Factory)(nil)

// New connects to the daemon and checks that it answers (and, with a
// runtime, that the runtime is registered); otherwise it returns a
// *machine.SandboxUnavailable naming the daemon's address.
func New(ctx context.Context, cfg Config) (*Factory, error) {
	if cfg.Backend == "" {
		cfg.Backend = "docker"
	}
	host := cfg.Host
	if host == "" {
		host = os.Getenv("DOCKER_HOST")
	}
	if host == "" {
		host = DefaultHost
	}
	unavailable := func(hint string, err error) error {
		return &machine.SandboxUnavailable{Backend: cfg.Backend, Hint: hint,
			Candidates: []machine.CandidateError{{Candidate: host, Error: err.Error()}}}
	}
	opts, err := clientOptions(host)
	if err != nil {
		return nil, unavailable("invalid connection settings (TLS or ssh) for the Docker daemon at "+host, err)
	}
	cli, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, unavailable("invalid Docker daemon address "+host, err)
	}
	pctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	info, err := cli.Info(pctx)
	if err != nil {
		cli.Close()
		return nil, unavailable(fmt.Sprintf("cannot reach the Docker daemon at %s (is dockerd running and is its socket accessible?)", host), err)
	}
	if info.OSType != "" && info.OSType != "linux" {
		cli.Close()
		return nil, unavailable("the Docker daemon at "+host+" runs "+info.OSType+" containers, not linux", errors.New("unsupported daemon OS "+info.OSType))
	}
	pids := cfg.PidsLimit
	if pids == 0 {
		pids = DefaultPidsLimit
	}
	spares := cfg.SpareExecs
	switch {
	case spares == 0:
		spares = DefaultSpareExecs
	case spares < 0:
		spares = 0
	}
	f := &Factory{backend: cfg.Backend, host: host, runtime: cfg.Runtime, pids: pids, owner: ownerID(), cli: cli, info: info, stopTimeout: 15 * time.Second, removeTimeout: removeTimeout, spareExecs: spares}
	f.stops.cli = cli
	if cfg.Runtime != "" {
		rt, ok := info.Runtimes[cfg.Runtime]
		if !ok {
			cli.Close()
			hint := cfg.RuntimeHint
			if hint == "" {
				hint = fmt.Sprintf("the Docker daemon at %s has no runtime %q registered; add it under \"runtimes\" in /etc/docker/daemon.json and restart dockerd", host, cfg.Runtime)
			}
			return nil, unavailable(hint, fmt.Errorf("registered runtimes: %s", strings.Join(runtimeNames(info), ", ")))
		}
		if strings.Contains(cfg.Runtime, "runsc") || strings.Contains(rt.Path, "runsc") {
			f.execTransfers = true
			f.stopTimeout = 45 * time.Second
			f.removeTimeout = gvisorRemoveTimeout
		}
	}
	f.sweep()
	return f, nil
}

func runtimeNames(info system.Info) []string {
	names := make([]string, 0, len(info.Runtimes))
	for n := range info.Runtimes {
		names = append(names, n)
	}
	return names
}

// Backend names the backend ("docker" or "gvisor").
func (f *Factory) Backend() string { return f.backend }

// Client is the factory's Engine API client (tests and tools inspect
// containers with it).
func (f *Factory) Client() *client.Client { return f.cli }

// Host is the daemon address the factory talks to.
func (f *Factory) Host() string { return f.host }

// Runtime is the OCI runtime name containers are created with ("" for
// the daemon's default).
func (f *Factory) Runtime() string { return f.runtime }

// CheckEnvironment refuses, before anything is created, what this daemon
// cannot apply.
func (f *Factory) CheckEnvironment(req machine.Requirements, spec machine.Spec) error {
	switch req.CommandSemantics {
	case "", "linux_process":
	default:
		return f.unsupported("command_semantics", fmt.Sprintf("containers run real Linux processes, not %q", req.CommandSemantics))
	}
	if err := spec.Validate(); err != nil {
		return err
	}
	return f.checkSpec(spec)
}

func (f *Factory) unsupported(field, reason string) error {
	return &machine.UnsupportedSpec{Backend: f.backend, Field: field, Reason: reason}
}

func (f *Factory) checkSpec(spec machine.Spec) error {
	switch spec.Source.(type) {
	case machine.RegistryImage, machine.DockerfileSource, machine.DockerImage:
	case *machine.RegistryImage, *machine.DockerfileSource, *machine.DockerImage:
	default:
		return f.unsupported("source", fmt.Sprintf("%s sources are not container images (use RegistryImage, DockerfileSource or DockerImage)", spec.Source.Kind()))
	}
	if spec.CPUs != nil && f.info.NCPU > 0 && *spec.CPUs > f.info.NCPU {
		return f.unsupported("cpus", fmt.Sprintf("%d CPUs requested but the daemon's host has %d", *spec.CPUs, f.info.NCPU))
	}
	if err := f.checkEgress(spec); err != nil {
		return err
	}
	if spec.MemoryMB != nil && *spec.MemoryMB < 6 {
		return f.unsupported("memory_mb", "Docker needs a memory limit of at least 6 MB")
	}
	if spec.StorageMB != nil {
		if ok, why := f.storageLimitSupported(); !ok {
			return f.unsupported("storage_mb", why)
		}
	}
	if spec.GPUs > 0 {
		if f.execTransfers {
			return f.unsupported("gpus", "this gVisor runtime has no GPU support")
		}
		if _, ok := f.info.Runtimes["nvidia"]; !ok {
			if _, err := exec.LookPath("nvidia-container-runtime-hook"); err != nil {
				return f.unsupported("gpus", "the Docker daemon has no NVIDIA container toolkit (no \"nvidia\" runtime, no nvidia-container-runtime-hook) to satisfy GPU requests")
			}
		}
	}
	return nil
}

// storageLimitSupported says whether the daemon's storage driver can apply
// a per-container size limit (--storage-opt size).
func (f *Factory) storageLimitSupported() (bool, string) {
	driver := f.info.Driver
	backing := ""
	for _, kv := range f.info.DriverStatus {
		if kv[0] == "Backing Filesystem" {
			backing = kv[1]
		}
	}
	switch driver {
	case "btrfs", "zfs", "devicemapper", "windowsfilter":
		return true, ""
	case "overlay2", "vfs":
		if backing == "xfs" {
			return true, ""
		}
	}
	on := ""
	if backing != "" {
		on = " on " + backing
	}
	return false, fmt.Sprintf("the Docker daemon's storage driver %s%s cannot limit a container's size (that needs overlay2 or vfs on xfs mounted with pquota, btrfs, zfs or devicemapper)", driver, on)
}

// Create starts a container for spec and returns its machine.
func (f *Factory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	m, err := f.CreateMachine(ctx, spec)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// CreateMachine is Create returning the concrete type.
func (f *Factory) CreateMachine(ctx context.Context, spec machine.Spec) (*Machine, error) {
	return f.createMachine(ctx, spec, nil)
}

// createMachine is CreateMachine with the container's configuration
// adjusted by adjust, when not nil (a task group's network: task.go),
// which may return the network gate the container joins; the machine then
// owns it as it owns an egress gate.
func (f *Factory) createMachine(ctx context.Context, spec machine.Spec, adjust func(*container.Config, *container.HostConfig) (*egressGate, error)) (*Machine, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if err := f.checkSpec(spec); err != nil {
		return nil, err
	}
	if spec.StartupTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, spec.StartupTimeout)
		defer cancel()
	}
	image, err := f.resolveImage(ctx, spec.Source)
	if err != nil {
		return nil, err
	}
	id := newID()
	name := "shellbox-" + id
	cfg, hostCfg := f.containerConfig(spec, image, id)
	var gate *egressGate
	if adjust != nil {
		if gate, err = adjust(cfg, hostCfg); err != nil {
			return nil, f.startupErr("preparing the group's network", err)
		}
	}
	if gate == nil {
		if gate, err = f.prepareEgress(ctx, spec, image, id, cfg, hostCfg); err != nil {
			return nil, f.startupErr("starting the egress filter", err)
		}
	}
	created := false
	defer func() {
		if !created {
			gate.close(f)
		}
	}()
	cid, err := f.createContainer(ctx, cfg, hostCfg, name)
	if err != nil {
		return nil, f.startupErr("creating the container", err)
	}
	resp := container.CreateResponse{ID: cid}
	m := newMachine(f, resp.ID, name, spec)
	m.gate = gate
	// Watched before it starts, so its death cannot go unseen.
	m.stopped = f.stops.add(resp.ID)
	// The main process reads the lifeline on its stdin: attach before
	// starting, as docker run does.
	hj, err := f.cli.ContainerAttach(ctx, resp.ID, container.AttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true})
	if err != nil {
		f.removeQuietly(resp.ID)
		f.stops.remove(resp.ID)
		return nil, f.startupErr("attaching to the container", err)
	}
	m.life = newLifeline(hj)
	first := newExecution(nil)
	first.raw = newRawExec("", hj, first.nonce, first.parser, 0)
	first.raw.lifeline = true // read by the demultiplexer only after begin
	if err := f.cli.ContainerStart(ctx, resp.ID, container.StartOptions{}); err != nil {
		m.life.close()
		first.raw.begin()
		f.removeQuietly(resp.ID)
		f.stops.remove(resp.ID)
		return nil, f.startupErr("starting the container", err)
	}
	m.primary = first
	created = true // from here on, Close removes the gate
	if err := m.startEgress(ctx); err != nil {
		m.Close(context.WithoutCancel(ctx))
		return nil, f.startupErr("starting the egress filter", err)
	}
	return m, nil
}

// mainProcess is the container's main process (under the daemon's init,
// which reaps orphans and forwards stop signals): it runs the machine's
// first command, then only keeps the container running. The image's
// ENTRYPOINT and CMD never run.
var mainProcess = []string{"/bin/sh", "-c", primaryScript, "shellbox-main"}

func (f *Factory) containerConfig(spec machine.Spec, image, id string) (*container.Config, *container.HostConfig) {
	cfg := &container.Config{
		Image:        image,
		Entrypoint:   mainProcess,
		Cmd:          []string{},
		OpenStdin:    true,
		StdinOnce:    true,
		AttachStdin:  true,
		AttachStdout: true,
		AttachStderr: true,
		Env:          envList(spec.Env, nil),
		WorkingDir:   spec.Workdir, // the daemon creates it (as root) at start
		Labels:       map[string]string{LabelMachine: id, LabelBackend: f.backend},
	}
	if f.owner != "" {
		cfg.Labels[LabelOwner] = f.owner
	}
	init := true
	hostCfg := &container.HostConfig{
		Init:    &init,
		Runtime: f.runtime,
		// The first command's output reaches the log too: keep it small.
		LogConfig: container.LogConfig{Type: "json-file", Config: map[string]string{"max-size": "1m", "max-file": "1"}},
	}
	if f.pids > 0 {
		hostCfg.PidsLimit = &f.pids
	}
	if spec.Network == machine.NetworkAllow {
		hostCfg.NetworkMode = "bridge"
	} else {
		hostCfg.NetworkMode = "none"
	}
	if spec.CPUs != nil {
		hostCfg.NanoCPUs = int64(*spec.CPUs) * 1_000_000_000
	}
	if spec.MemoryMB != nil {
		hostCfg.Memory = int64(*spec.MemoryMB) << 20
		hostCfg.MemorySwap = hostCfg.Memory // no swap beyond the limit
	}
	if spec.StorageMB != nil {
		hostCfg.StorageOpt = map[string]string{"size": fmt.Sprintf("%dM", *spec.StorageMB)}
	}
	if spec.GPUs > 0 {
		hostCfg.DeviceRequests = []container.DeviceRequest{{Count: spec.GPUs, Capabilities: [][]string{{"gpu"}}}}
	}
	return cfg, hostCfg
}

// startupErr turns a create/start failure into the error Python sees: a
// resource the daemon refuses is an UnsupportedSpec, the rest a
// StartupError.
func (f *Factory) startupErr(what string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &machine.StartupError{Backend: f.backend, Err: fmt.Errorf("%s: %w", what, err)}
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "storage-opt") || strings.Contains(msg, "Storage option"):
		return f.unsupported("storage_mb", msg)
	case strings.Contains(msg, "device driver") || strings.Contains(msg, "capabilities: [[gpu]]"):
		return f.unsupported("gpus", msg)
	case strings.Contains(msg, "NanoCPUs") || strings.Contains(msg, "range of CPUs"):
		return f.unsupported("cpus", msg)
	case strings.Contains(msg, "Minimum memory limit"):
		return f.unsupported("memory_mb", msg)
	}
	if client.IsErrConnectionFailed(err) {
		return &machine.StartupError{Backend: f.backend, Err: fmt.Errorf("%s: the Docker daemon at %s is unreachable: %w", what, f.host, err)}
	}
	return &machine.StartupError{Backend: f.backend, Err: fmt.Errorf("%s: %w", what, err)}
}

// removeQuietly force-removes a container (and its anonymous volumes)
// after a failed or abandoned create.
func (f *Factory) removeQuietly(ref string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		// A start abandoned mid-way may still be running on the daemon,
		// which then refuses the removal for a moment: retry.
		err := f.cli.ContainerRemove(ctx, ref, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err == nil || isNotFound(err) || ctx.Err() != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// createContainer creates a container without ever abandoning the
// request: the daemon goes on creating a container whose request was
// cancelled, and a removal sent before it exists would miss it. The
// request therefore runs to its end (bounded by createTimeout); when ctx
// ended meanwhile, the container is removed before the error returns, so
// a cancelled creation leaves nothing behind, even in the background.
func (f *Factory) createContainer(ctx context.Context, cfg *container.Config, hostCfg *container.HostConfig, name string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), createTimeout)
	defer cancel()
	resp, err := f.cli.ContainerCreate(cctx, cfg, hostCfg, nil, nil, name)
	if err != nil {
		if cctx.Err() != nil || client.IsErrConnectionFailed(err) {
			// Given up on after createTimeout, or the connection broke:
			// the daemon may still make it.
			f.removeAbandoned(name)
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", err
	}
	if err := ctx.Err(); err != nil {
		f.removeQuietly(resp.ID)
		return "", err
	}
	return resp.ID, nil
}

// removeAbandoned removes a container whose create request was given up
// on: the daemon may still be handling it, so it polls for the name.
func (f *Factory) removeAbandoned(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := f.cli.ContainerRemove(ctx, name, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err == nil || !isNotFound(err) || time.Now().After(deadline) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// createTimeout bounds one create request (it normally takes tens of
// milliseconds; a daemon that takes longer is failing).
const createTimeout = 60 * time.Second

func isNotFound(err error) bool { return cerrdefs.IsNotFound(err) }

func newID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// envList renders base overlaid by over as KEY=VALUE entries.
func envList(base, over map[string]string) []string {
	merged := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		merged[k] = v
	}
	for k, v := range over {
		merged[k] = v
	}
	out := make([]string, 0, len(merged))
	for k, v := range merged {
		out = append(out, k+"="+v)
	}
	return out
}
