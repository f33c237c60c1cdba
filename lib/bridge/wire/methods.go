package wire

import (
	"encoding/json"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// Object is the kind of object a handle names.
type Object string

const (
	RootObject    Object = "root" // handle 0
	FactoryObject Object = "factory"
	MachineObject Object = "machine"
	ProcessObject Object = "process"
	ShellObject   Object = "shell"
	SimObject     Object = "sim" // an embedded ShellSim environment
	TaskObject    Object = "task"
	RelayObject   Object = "relay" // a running serve_http relay
	AnyObject     Object = "any"
)

// Method is one row of the ABI's method table.
type Method struct {
	Object Object
	Name   string
	// Request and Reply are zero values of the request and reply header
	// types; nil is the empty object {}.
	Request, Reply any
	// Payload says what the raw payload carries ("": nothing).
	Payload string
	// Segments name the raw reply segments, in order.
	Segments []string
}

// Methods is the ABI's method table (cgo/ABI.md).
var Methods = []Method{
	{Object: RootObject, Name: "configure", Request: ConfigureRequest{}},
	{Object: RootObject, Name: "backends", Reply: BackendList{}},
	{Object: RootObject, Name: "open_factory", Request: OpenFactoryRequest{}, Reply: HandleReply{}},
	{Object: FactoryObject, Name: "check_environment", Request: CheckEnvironmentRequest{}},
	{Object: FactoryObject, Name: "create", Request: Spec{}, Reply: CreateReply{}},
	{Object: MachineObject, Name: "run", Request: Command{}, Reply: RunReply{}, Payload: "stdin", Segments: []string{"stdout", "stderr"}},
	{Object: MachineObject, Name: "upload", Request: UploadRequest{}},
	{Object: MachineObject, Name: "download", Request: DownloadRequest{}},
	{Object: MachineObject, Name: "open_process", Request: Command{}, Reply: HandleReply{}},
	{Object: MachineObject, Name: "close"},
	{Object: MachineObject, Name: "set_network_policy", Request: SetNetworkPolicyRequest{}},
	{Object: RootObject, Name: "validate_allowed_hosts", Request: ValidateAllowedHostsRequest{}},
	{Object: ProcessObject, Name: "write", Payload: "data"},
	{Object: ProcessObject, Name: "close_stdin"},
	{Object: ProcessObject, Name: "read", Request: ReadRequest{}, Reply: ReadReply{}, Segments: []string{"data"}},
	{Object: ProcessObject, Name: "wait", Reply: WaitReply{}, Segments: []string{"stderr"}},
	{Object: ProcessObject, Name: "close"},
	{Object: AnyObject, Name: "release"},
	{Object: RootObject, Name: "open_shell", Request: OpenShellRequest{}, Reply: OpenShellReply{}},
	{Object: ShellObject, Name: "execute", Request: ShellExecuteRequest{}, Reply: ShellUpdate{}, Segments: []string{"output"}},
	{Object: ShellObject, Name: "read", Request: ShellReadRequest{}, Reply: ShellUpdate{}, Segments: []string{"output"}},
	{Object: ShellObject, Name: "write", Payload: "data"},
	{Object: ShellObject, Name: "interrupt"},
	{Object: ShellObject, Name: "close"},
	{Object: ShellObject, Name: "agent_progress", Reply: &AgentResult{}},
	{Object: RootObject, Name: "run_agent", Request: RunAgentRequest{}, Reply: RunAgentReply{}},
	{Object: RootObject, Name: "shellsim_environment", Request: SimEnvironmentRequest{}, Reply: HandleReply{}},
	{Object: SimObject, Name: "run", Request: SimRunRequest{}, Reply: SimRunReply{}, Payload: "stdin", Segments: []string{"stdout", "stderr"}},
	{Object: SimObject, Name: "write_file", Request: SimWriteFileRequest{}, Payload: "data"},
	{Object: SimObject, Name: "read_file", Request: SimPathRequest{}, Segments: []string{"data"}},
	{Object: SimObject, Name: "mkdir", Request: SimMkdirRequest{}},
	{Object: SimObject, Name: "mount", Request: SimMountRequest{}, Reply: shellsim.MountResult{}},
	{Object: SimObject, Name: "fork", Reply: HandleReply{}},
	{Object: SimObject, Name: "route_http", Request: Route{}},
	{Object: SimObject, Name: "state", Reply: SimState{}},
	{Object: SimObject, Name: "close"},
	{Object: RootObject, Name: "create_task", Request: CreateTaskRequest{}, Reply: CreateTaskReply{}},
	{Object: RootObject, Name: "check_task", Request: CheckTaskRequest{}},
	{Object: RootObject, Name: "create_compose_task", Request: ComposeTaskRequest{}, Reply: CreateTaskReply{}},
	{Object: TaskObject, Name: "wait_ready", Request: WaitReadyRequest{}},
	{Object: TaskObject, Name: "close"},
	{Object: RootObject, Name: "serve_http", Request: ServeHTTPRequest{}, Reply: ServeHTTPReply{}},
	{Object: RelayObject, Name: "next", Reply: RelayRequest{}, Segments: []string{"body"}},
	{Object: RelayObject, Name: "respond", Request: RelayResponse{}, Payload: "body"},
	{Object: RelayObject, Name: "close"},
	{Object: RootObject, Name: "prepare_image", Request: PrepareImageRequest{}, Reply: PrepareImageReply{}},
	{Object: RootObject, Name: "machine_info", Request: MachineInfoRequest{}, Reply: MachineInfoReply{}},
}

// Types are the types that cross the ABI outside the method table: the
// error header of a failed call and the ShellSim factory's options.
var Types = []any{Error{}, ShellSimOptions{}}

// HandleReply names a new object.
type HandleReply struct {
	Handle uint64 `json:"handle"`
}

// ConfigureRequest sets process-wide options.
type ConfigureRequest struct {
	// BinDir holds the package's helper binaries.
	BinDir string `json:"bin_dir"`
}

// BackendList is the registered backends' names.
type BackendList []string

// OpenFactoryRequest opens a backend's factory; options are the backend's
// own (for ShellSim: ShellSimOptions).
type OpenFactoryRequest struct {
	Backend string          `json:"backend"`
	Options json.RawMessage `json:"options,omitempty"`
}

// CommandSemantics is the execution behaviour a task requires.
type CommandSemantics string

const (
	LinuxProcess   CommandSemantics = "linux_process"
	ShellSimulator CommandSemantics = "shell_simulator"
)

// Requirements is what a task needs, as Harbor-facing code declares it.
type Requirements struct {
	CommandSemantics CommandSemantics `json:"command_semantics,omitempty"`
	Capabilities     []string         `json:"capabilities,omitempty"`
	DockerImage      string           `json:"docker_image,omitempty"`
}

// CheckEnvironmentRequest asks whether the factory can honour a task's
// requirements and a spec, without acquiring anything.
type CheckEnvironmentRequest struct {
	Requirements Requirements `json:"requirements"`
	Spec         Spec         `json:"spec"`
}

// NetworkPolicy says whether a machine may reach the network: none
// (deny), the host's (allow), or allowed_hosts only, through the egress
// filter (allowlist).
type NetworkPolicy string

const (
	NetworkDeny  NetworkPolicy = "deny"
	NetworkAllow NetworkPolicy = "allow"
	// NetworkAllowlist admits only allowed_hosts, through the egress
	// filter (lib/egress).
	NetworkAllowlist NetworkPolicy = "allowlist"
)

// Spec is what a factory creates (MachineSpec). Absent: workdir
// "/workspace", network deny, no startup timeout.
type Spec struct {
	Source         Source            `json:"source"`
	Workdir        *string           `json:"workdir"`
	Env            map[string]string `json:"env,omitempty"`
	Network        NetworkPolicy     `json:"network,omitempty"`
	MemoryMB       *int              `json:"memory_mb"`
	CPUs           *int              `json:"cpus"`
	StorageMB      *int              `json:"storage_mb"`
	GPUs           int               `json:"gpus"`
	StartupTimeout *Seconds          `json:"startup_timeout"`
	// AllowedHosts are the allowlist's entries (network "allowlist").
	AllowedHosts []string `json:"allowed_hosts,omitempty"`
	// EgressLog names the file the egress filter appends its decision
	// records to (a factory's egress_log in Python).
	EgressLog string `json:"egress_log,omitempty"`
}

// CreateReply names a new machine; processes says whether it has
// open_process.
type CreateReply struct {
	Handle    uint64 `json:"handle"`
	Processes bool   `json:"processes"`
}

// Command is one program to run (run, open_process); its stdin is the
// payload. Absent: the machine's workdir and user, no timeout, 1 MiB of
// output.
type Command struct {
	Argv             []string          `json:"argv"`
	Cwd              string            `json:"cwd,omitempty"`
	Env              map[string]string `json:"env,omitempty"`
	Timeout          *Seconds          `json:"timeout"`
	OutputLimitBytes *int              `json:"output_limit_bytes"`
	User             string            `json:"user,omitempty"`
}

// RunReply is how a command ended; exit_code is null when it timed out.
// stop_reason is set when the command exhausted a ShellSim machine's
// budget (the machine is over).
type RunReply struct {
	ExitCode        *int       `json:"exit_code"`
	StdoutTruncated bool       `json:"stdout_truncated"`
	StderrTruncated bool       `json:"stderr_truncated"`
	Reason          ExitReason `json:"reason"`
	StopReason      StopReason `json:"stop_reason,omitempty"`
	// Usage is what the machine used while the command ran, where the
	// backend measures it (a local machine with a cgroup_parent).
	Usage *ResourceUsage `json:"usage,omitempty"`
}

// ResourceUsage is a command's CPU time and its machine's peak memory.
type ResourceUsage struct {
	CPUSeconds      float64 `json:"cpu_seconds"`
	PeakMemoryBytes uint64  `json:"peak_memory_bytes"`
}

// PrepareImageRequest turns a RegistryImage (pulled from its registry) or
// DockerfileSource (built by the Docker daemon of options) into an OCI
// layout under cache.
type PrepareImageRequest struct {
	Source  Source          `json:"source"`
	Cache   string          `json:"cache"`
	Options json.RawMessage `json:"options,omitempty"` // the Docker factory's
	// AuthFile holds registry credentials (containers-auth.json or a Docker
	// config.json); "" uses containers/image's lookup.
	AuthFile string `json:"authfile,omitempty"`
	// CertDir holds the registry's CA and client certificates; "" uses
	// /etc/containers/certs.d/<host:port> and /etc/docker/certs.d.
	CertDir string `json:"cert_dir,omitempty"`
	// Policy is the containers-policy.json the image must satisfy; "" uses
	// the host's (lib/oci.ReadPolicy).
	Policy string `json:"policy,omitempty"`
}

// PrepareImageReply is the prepared layout.
type PrepareImageReply struct {
	Layout         string `json:"layout"`
	ManifestDigest string `json:"manifest_digest"`
}

// MachineInfoRequest names a machine handle.
type MachineInfoRequest struct {
	Handle uint64 `json:"handle"`
}

// MachineInfoReply is what a machine says about itself beyond the Machine
// contract: a container's name ("" for machines without one).
type MachineInfoReply struct {
	Name string `json:"name"`
}

// UploadRequest copies a host file or tree (source) to target in the machine.
type UploadRequest struct {
	Source string `json:"source"`
	Target string `json:"target"`
}

// DownloadRequest copies source in the machine to the host path target,
// at most max_bytes of files when given.
type DownloadRequest struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	MaxBytes *int64 `json:"max_bytes"`
}

// ReadRequest reads the next chunk of a process's stdout (default 64 KiB).
type ReadRequest struct {
	MaxBytes *int `json:"max_bytes"`
}

// ReadReply: eof is set once stdout is over (the data segment is empty).
type ReadReply struct {
	EOF bool `json:"eof"`
}

// WaitReply is how a process ended; its stderr is the segment.
type WaitReply struct {
	ExitCode        int  `json:"exit_code"`
	StderrTruncated bool `json:"stderr_truncated"`
}

// ShellMode is how a shell session runs: the machine's own shell (ShellSim),
// a terminal the backend allocates, a terminal script(1) makes, plain
// pipes, or one complete command per call; auto takes the first the
// machine offers.
type ShellMode string

const (
	ShellAuto     ShellMode = "auto"
	ShellOwn      ShellMode = "shellsim"
	ShellTerminal ShellMode = "terminal"
	ShellScript   ShellMode = "script"
	ShellPipe     ShellMode = "pipe"
	ShellOneShot  ShellMode = "oneshot"
)

// OpenShellRequest opens a persistent shell on a machine handle.
type OpenShellRequest struct {
	Machine uint64            `json:"machine"`
	Mode    ShellMode         `json:"mode,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	Bash    string            `json:"bash,omitempty"`
}

// OpenShellReply names the session and the mode auto chose.
type OpenShellReply struct {
	Handle      uint64    `json:"handle"`
	Interactive bool      `json:"interactive"`
	Mode        ShellMode `json:"mode"`
}

// ShellExecuteRequest runs command in the session, waiting up to wait
// seconds (default 120) for it to complete.
type ShellExecuteRequest struct {
	Command          string   `json:"command"`
	Wait             *Seconds `json:"wait"`
	OutputLimitBytes *int     `json:"output_limit_bytes"`
}

// ShellReadRequest collects more output of a running command, waiting up
// to wait seconds (default 0).
type ShellReadRequest struct {
	Wait             *Seconds `json:"wait"`
	OutputLimitBytes *int     `json:"output_limit_bytes"`
}

// ShellStatus is where a session's command is.
type ShellStatus string

const (
	ShellRunning   ShellStatus = "running"
	ShellCompleted ShellStatus = "completed"
	ShellReset     ShellStatus = "reset"
)

// ShellUpdate is a session's answer; its output is the segment.
type ShellUpdate struct {
	Status    ShellStatus `json:"status"`
	ExitCode  *int        `json:"exit_code"`
	Truncated bool        `json:"truncated"`
}

// RunAgentRequest runs BashAgent's loop on a shell handle.
type RunAgentRequest struct {
	Shell        uint64 `json:"shell"`
	BaseURL      string `json:"base_url"`
	APIKey       string `json:"api_key"`
	Model        string `json:"model"`
	MaxTurns     int    `json:"max_turns"`
	Instruction  string `json:"instruction"`
	SystemPrompt string `json:"system_prompt"`
}

// AgentResult is an agent run's counts and messages so far.
type AgentResult struct {
	NInputTokens  int             `json:"n_input_tokens"`
	NOutputTokens int             `json:"n_output_tokens"`
	ToolCalls     int             `json:"tool_calls"`
	Turns         int             `json:"turns"`
	FinalMessage  string          `json:"final_message"`
	Messages      json.RawMessage `json:"messages"` // the chat messages, as the endpoint speaks them
}

// AgentErrorKind is why an agent run failed: one of these or an ErrorKind.
type AgentErrorKind string

const (
	TurnCapExhausted AgentErrorKind = "TurnCapExhausted"
	HTTPError        AgentErrorKind = "HTTPError"
)

// AgentError is a failed agent run (status: the endpoint's HTTP status).
type AgentError struct {
	Kind    AgentErrorKind `json:"kind"`
	Message string         `json:"message"`
	Status  int            `json:"status,omitempty"`
}

// RunAgentReply carries the run's progress even when it failed, so that
// the caller can record it before raising error.
type RunAgentReply struct {
	AgentResult
	Error *AgentError `json:"error"`
}
