package wire

import (
	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/shell"
)

// The embedded ShellSim environment's reports are ShellSim's own types
// (shellsim.Usage, shell.Invocation, ...), declared once, in lib/shellsim.

// SimEnvironmentRequest makes an embedded environment (default limits when
// absent).
type SimEnvironmentRequest struct {
	Limits *resources.Limits `json:"limits"`
}

// SimRunRequest runs one action: shell source, stdin in the payload.
type SimRunRequest struct {
	Source string `json:"source"`
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
	ExitStatus             int                  `json:"exit_status"`
	StopReason             StopReason           `json:"stop_reason,omitempty"`
	Limits                 resources.Limits     `json:"limits"`
	Usage                  shellsim.Usage       `json:"usage"`
	CommandUsage           []shell.CommandUsage `json:"command_usage"`
	CostModelVersion       int                  `json:"cost_model_version"`
	Commands               []string             `json:"commands"`
	Unsupported            []string             `json:"unsupported"`
	UnsupportedCommands    []string             `json:"unsupported_commands"`
	PartialCommands        []string             `json:"partial_commands"`
	Invocations            []shell.Invocation   `json:"invocations"`
	NetworkRequests        []SimHTTPRequest     `json:"network_requests"`
	DroppedNetworkRequests int                  `json:"dropped_network_requests"`
	Terminated             bool                 `json:"terminated"`
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
