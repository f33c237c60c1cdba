package wire

// SimLimits are an embedded ShellSim environment's budgets: CPU work units
// and bytes of memory, disk and output.
type SimLimits struct {
	CPU    int64 `json:"cpu"`
	Memory int64 `json:"memory"`
	Disk   int64 `json:"disk"`
	Output int64 `json:"output"`
}

// SimEnvironmentRequest makes an embedded environment (default limits when
// absent).
type SimEnvironmentRequest struct {
	Limits *SimLimits `json:"limits"`
}

// SimRunRequest runs one action: shell source, stdin in the payload.
type SimRunRequest struct {
	Source string `json:"source"`
}

// SimUsage is an environment's cumulative resource use.
type SimUsage struct {
	CPUUsed       int64 `json:"cpu_used"`
	MemoryCurrent int64 `json:"memory_current"`
	MemoryPeak    int64 `json:"memory_peak"`
	DiskCurrent   int64 `json:"disk_current"`
	DiskPeak      int64 `json:"disk_peak"`
	OutputBytes   int64 `json:"output_bytes"`
}

// SimCommandUsage is the cumulative cost of one command name.
type SimCommandUsage struct {
	Command   string `json:"command"`
	CPU       int64  `json:"cpu"`
	DiskDelta int64  `json:"disk_delta"`
}

// SimInvocation is one command run, with its trust level.
type SimInvocation struct {
	Sequence          int      `json:"sequence"`
	PID               int      `json:"pid"`
	Argv              []string `json:"argv"`
	Trust             string   `json:"trust"`
	Status            *int     `json:"status"`
	CPU               int64    `json:"cpu"`
	DiskDelta         int64    `json:"disk_delta"`
	UnsupportedReason string   `json:"unsupported_reason,omitempty"`
}

// SimHTTPRequest is a request a command made to the virtual network
// (status: the route's, when one matched).
type SimHTTPRequest struct {
	Method  string `json:"method"`
	URL     string `json:"url"`
	Matched bool   `json:"matched"`
	Status  int    `json:"status"`
}

// SimRunReply is everything one action produced besides its output
// (stdout and stderr are the segments).
type SimRunReply struct {
	ExitStatus             int               `json:"exit_status"`
	StopReason             StopReason        `json:"stop_reason,omitempty"`
	Limits                 SimLimits         `json:"limits"`
	Usage                  SimUsage          `json:"usage"`
	CommandUsage           []SimCommandUsage `json:"command_usage"`
	CostModelVersion       int               `json:"cost_model_version"`
	Commands               []string          `json:"commands"`
	Unsupported            []string          `json:"unsupported"`
	UnsupportedCommands    []string          `json:"unsupported_commands"`
	PartialCommands        []string          `json:"partial_commands"`
	Invocations            []SimInvocation   `json:"invocations"`
	NetworkRequests        []SimHTTPRequest  `json:"network_requests"`
	DroppedNetworkRequests int               `json:"dropped_network_requests"`
	Terminated             bool              `json:"terminated"`
}

// SimPathRequest names a file of the environment (relative: to /work).
type SimPathRequest struct {
	Path string `json:"path"`
}

// SimWriteFileRequest writes the payload to path (mode default 0644).
type SimWriteFileRequest struct {
	Path string  `json:"path"`
	Mode *uint32 `json:"mode"`
}

// SimMkdirRequest makes a directory (mode default 0755).
type SimMkdirRequest struct {
	Path    string  `json:"path"`
	Parents bool    `json:"parents"`
	Mode    *uint32 `json:"mode"`
}

// SimMountRequest copies the host tree host into the environment at target.
type SimMountRequest struct {
	Host   string `json:"host"`
	Target string `json:"target"`
}

// SimMountReply counts what a mount copied and names what it skipped.
type SimMountReply struct {
	Files              int      `json:"files"`
	SkippedDirectories []string `json:"skipped_directories"`
}

// SimState is an environment's state.
type SimState struct {
	Terminated bool       `json:"terminated"`
	StopReason StopReason `json:"stop_reason,omitempty"`
	Closed     bool       `json:"closed"`
}

// Route is a virtual HTTP route (ShellSimRoute in Python): requests
// matching pattern (a URL, "*" matching any rest) and method (any when
// absent) get status (200 when 0), headers and body. The embedded
// environment's route_http and the ShellSim factory's routes both take it.
type Route struct {
	Pattern string            `json:"pattern"`
	Status  int               `json:"status" py_default:"200"`
	Body    []byte            `json:"body,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Method  string            `json:"method,omitempty"`
}

// ShellSimOptions are the ShellSim factory's options (the backend's
// Options): its machines' budgets, 0 meaning the backend's default, and the
// routes every machine starts with.
type ShellSimOptions struct {
	// CPU is each machine's budget of work units.
	CPU int64 `json:"cpu"`
	// MemoryMB is the memory limit of a machine whose spec has none.
	MemoryMB int64 `json:"memory_mb"`
	// Disk and Output are bytes, unless a spec's storage_mb sets the disk.
	Disk   int64   `json:"disk"`
	Output int64   `json:"output"`
	Routes []Route `json:"routes"`
}
