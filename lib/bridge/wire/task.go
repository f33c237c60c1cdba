package wire

// TaskSpec is a task group (shellbox.task.TaskSpec): its members and the
// name of the primary that agents drive.
type TaskSpec struct {
	Containers []TaskContainer `json:"containers"`
	Primary    string          `json:"primary"`
}

// TaskContainer is one member: its host name in the group, its machine, the
// endpoints it serves, its readiness probe and, for a service, the command
// that replaces its image's entrypoint and command.
type TaskContainer struct {
	Name      string     `json:"name"`
	Machine   Spec       `json:"machine"`
	Endpoints []Endpoint `json:"endpoints"`
	Readiness *Probe     `json:"readiness"`
	Command   []string   `json:"command"`
}

// Endpoint is a port a member serves (protocol "tcp" when absent, or "udp").
type Endpoint struct {
	Name     string `json:"name"`
	Port     int    `json:"port"`
	Protocol string `json:"protocol,omitempty"`
}

// Probe says when a member is ready: command exits 0 inside it. Each
// attempt has its own timeout; attempts are interval apart after
// start_period; attempts bounds them (absent: until wait_ready's timeout).
type Probe struct {
	Command     []string `json:"command"`
	Timeout     Seconds  `json:"timeout"`
	Interval    Seconds  `json:"interval"`
	StartPeriod Seconds  `json:"start_period"`
	Attempts    *int     `json:"attempts"`
}

// CreateTaskRequest starts a task group on a factory.
type CreateTaskRequest struct {
	Factory uint64   `json:"factory"`
	Spec    TaskSpec `json:"spec"`
}

// CheckTaskRequest asks, without starting anything, whether a factory can
// run a task group.
type CheckTaskRequest struct {
	Factory      uint64       `json:"factory"`
	Requirements Requirements `json:"requirements"`
	Spec         TaskSpec     `json:"spec"`
}

// WaitReadyRequest runs a task's readiness probes, for at most timeout
// seconds when given.
type WaitReadyRequest struct {
	Timeout *Seconds `json:"timeout"`
}

// TaskMember is a member's machine handle; processes says whether it has
// open_process.
type TaskMember struct {
	Handle    uint64 `json:"handle"`
	Processes bool   `json:"processes"`
}

// CreateTaskReply names a new task and its members' machines (closing any
// of them closes the group).
type CreateTaskReply struct {
	Handle  uint64                `json:"handle"`
	Primary string                `json:"primary"`
	Members map[string]TaskMember `json:"members"`
}

// ComposeTaskRequest starts a Docker Compose project as a task group
// (lib/task/compose): env interpolates the files, primary_build (a build
// context) or primary_image gives the primary its image unless the files
// do, primary_env joins the primary's environment; network is every
// member's policy ("deny", the default, or "allow").
type ComposeTaskRequest struct {
	Factory      uint64            `json:"factory"`
	Files        []string          `json:"files"`
	WorkingDir   string            `json:"working_dir,omitempty"`
	Env          map[string]string `json:"env,omitempty"`
	Primary      string            `json:"primary,omitempty"`
	Workdir      string            `json:"workdir,omitempty"`
	PrimaryBuild string            `json:"primary_build,omitempty"`
	PrimaryImage string            `json:"primary_image,omitempty"`
	PrimaryEnv   map[string]string `json:"primary_env,omitempty"`
	Network      string            `json:"network,omitempty"`
}

// ServeHTTPRequest starts a relay (lib/relay) on a machine's guest
// loopback port.
type ServeHTTPRequest struct {
	Machine uint64 `json:"machine"`
	Port    int    `json:"port"`
}

// ServeHTTPReply names the relay and the URL guest code uses.
type ServeHTTPReply struct {
	Handle uint64 `json:"handle"`
	URL    string `json:"url"`
}

// RelayRequest is the next request for the host handler (its body is the
// reply segment), or, with closed set, the relay's end and why.
type RelayRequest struct {
	ID     uint64 `json:"id"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
	Closed bool   `json:"closed,omitempty"`
	Error  string `json:"error,omitempty"`
}

// RelayResponse answers request id (the body is the payload); failed
// makes it a 502 that says nothing of why.
type RelayResponse struct {
	ID          uint64 `json:"id"`
	Status      int    `json:"status"`
	ContentType string `json:"content_type,omitempty"`
	Failed      bool   `json:"failed,omitempty"`
}
