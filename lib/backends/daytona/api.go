package daytona

import (
	"fmt"
	"net/http"
	"strings"
)

// The JSON shapes below are the Daytona API's and the toolbox API's as the
// official SDK (daytona 0.200.x) sends and reads them; only the fields this
// package or its server use are declared.

// SandboxState is a sandbox's lifecycle state.
type SandboxState string

const (
	StateCreating     SandboxState = "creating"
	StateStarting     SandboxState = "starting"
	StateStarted      SandboxState = "started"
	StateStopping     SandboxState = "stopping"
	StateStopped      SandboxState = "stopped"
	StateDestroying   SandboxState = "destroying"
	StateDestroyed    SandboxState = "destroyed"
	StateError        SandboxState = "error"
	StateBuildFailed  SandboxState = "build_failed"
	StatePendingBuild SandboxState = "pending_build"
)

// SnapshotState is a snapshot's lifecycle state.
type SnapshotState string

const (
	SnapshotBuilding    SnapshotState = "building"
	SnapshotPending     SnapshotState = "pending"
	SnapshotPulling     SnapshotState = "pulling"
	SnapshotActive      SnapshotState = "active"
	SnapshotInactive    SnapshotState = "inactive"
	SnapshotError       SnapshotState = "error"
	SnapshotBuildFailed SnapshotState = "build_failed"
	SnapshotRemoving    SnapshotState = "removing"
)

// BuildInfo builds an image from a Dockerfile (CreateBuildInfo).
type BuildInfo struct {
	DockerfileContent string   `json:"dockerfileContent"`
	ContextHashes     []string `json:"contextHashes,omitempty"`
}

// CreateSandbox is the body of POST /sandbox.
type CreateSandbox struct {
	Name               string            `json:"name,omitempty"`
	Snapshot           string            `json:"snapshot,omitempty"`
	User               string            `json:"user,omitempty"`
	Env                map[string]string `json:"env,omitempty"`
	Labels             map[string]string `json:"labels,omitempty"`
	Public             *bool             `json:"public,omitempty"`
	NetworkBlockAll    *bool             `json:"networkBlockAll,omitempty"`
	NetworkAllowList   *string           `json:"networkAllowList,omitempty"`
	DomainAllowList    *string           `json:"domainAllowList,omitempty"`
	Target             string            `json:"target,omitempty"`
	CPU                *int              `json:"cpu,omitempty"`
	GPU                *int              `json:"gpu,omitempty"`
	Memory             *int              `json:"memory,omitempty"` // GiB
	Disk               *int              `json:"disk,omitempty"`   // GiB
	AutoStopInterval   *int              `json:"autoStopInterval,omitempty"`
	AutoDeleteInterval *int              `json:"autoDeleteInterval,omitempty"`
	TTLMinutes         *int              `json:"ttlMinutes,omitempty"`
	BuildInfo          *BuildInfo        `json:"buildInfo,omitempty"`
}

// Sandbox is the API's sandbox object.
type Sandbox struct {
	ID                 string            `json:"id"`
	OrganizationID     string            `json:"organizationId"`
	Name               string            `json:"name"`
	Snapshot           string            `json:"snapshot,omitempty"`
	User               string            `json:"user"`
	Env                map[string]string `json:"env"`
	Labels             map[string]string `json:"labels"`
	Public             bool              `json:"public"`
	NetworkBlockAll    bool              `json:"networkBlockAll"`
	KVM                bool              `json:"kvm"` // required by SDKs >= 0.2xx
	NetworkAllowList   *string           `json:"networkAllowList,omitempty"`
	DomainAllowList    *string           `json:"domainAllowList,omitempty"`
	Target             string            `json:"target"`
	CPU                float64           `json:"cpu"`
	GPU                float64           `json:"gpu"`
	Memory             float64           `json:"memory"`
	Disk               float64           `json:"disk"`
	State              SandboxState      `json:"state,omitempty"`
	DesiredState       string            `json:"desiredState,omitempty"`
	ErrorReason        string            `json:"errorReason,omitempty"`
	AutoStopInterval   int               `json:"autoStopInterval"`
	AutoDeleteInterval int               `json:"autoDeleteInterval"`
	AutoDestroyAt      string            `json:"autoDestroyAt,omitempty"` // set when a TTL is
	CreatedAt          string            `json:"createdAt,omitempty"`
	UpdatedAt          string            `json:"updatedAt,omitempty"`
	ToolboxProxyURL    string            `json:"toolboxProxyUrl"`
}

// CreateSnapshot is the body of POST /snapshots.
type CreateSnapshot struct {
	Name       string     `json:"name"`
	ImageName  string     `json:"imageName,omitempty"`
	Entrypoint []string   `json:"entrypoint,omitempty"`
	CPU        *int       `json:"cpu,omitempty"`
	GPU        *int       `json:"gpu,omitempty"`
	Memory     *int       `json:"memory,omitempty"` // GiB
	Disk       *int       `json:"disk,omitempty"`   // GiB
	BuildInfo  *BuildInfo `json:"buildInfo,omitempty"`
	RegionID   string     `json:"regionId,omitempty"`
}

// Snapshot is the API's SnapshotDto.
type Snapshot struct {
	ID             string        `json:"id"`
	OrganizationID string        `json:"organizationId,omitempty"`
	General        bool          `json:"general"`
	Name           string        `json:"name"`
	ImageName      string        `json:"imageName,omitempty"`
	State          SnapshotState `json:"state"`
	Size           *float64      `json:"size"`
	Entrypoint     []string      `json:"entrypoint"`
	CPU            float64       `json:"cpu"`
	GPU            float64       `json:"gpu"`
	Mem            float64       `json:"mem"`
	Disk           float64       `json:"disk"`
	ErrorReason    *string       `json:"errorReason"`
	CreatedAt      string        `json:"createdAt"`
	UpdatedAt      string        `json:"updatedAt"`
	LastUsedAt     *string       `json:"lastUsedAt"`
	BuildInfo      *BuildInfo    `json:"buildInfo,omitempty"`
}

// ToolboxProxyURL is the reply of GET /sandbox/{id}/toolbox-proxy-url.
type ToolboxProxyURL struct {
	URL string `json:"url"`
}

// ExecuteRequest is the body of the toolbox's POST /process/execute. The
// daemon pipes Command to a shell's standard input.
type ExecuteRequest struct {
	Command string            `json:"command"`
	Cwd     string            `json:"cwd,omitempty"`
	Envs    map[string]string `json:"envs,omitempty"`
	Timeout *int              `json:"timeout,omitempty"` // seconds
}

// ExecuteResponse is its reply: stdout and stderr merged.
type ExecuteResponse struct {
	ExitCode int    `json:"exitCode"`
	Result   string `json:"result"`
}

// CreateSessionRequest is the body of POST /process/session.
type CreateSessionRequest struct {
	SessionID string `json:"sessionId"`
}

// SessionExecuteRequest is the body of POST /process/session/{id}/exec.
type SessionExecuteRequest struct {
	Command  string `json:"command"`
	RunAsync bool   `json:"runAsync,omitempty"`
}

// SessionExecuteResponse is its reply.
type SessionExecuteResponse struct {
	CmdID    string  `json:"cmdId"`
	ExitCode *int    `json:"exitCode,omitempty"`
	Output   *string `json:"output,omitempty"`
	Stdout   *string `json:"stdout,omitempty"`
	Stderr   *string `json:"stderr,omitempty"`
}

// SessionSendInputRequest is the body of POST
// /process/session/{id}/command/{cmdId}/input.
type SessionSendInputRequest struct {
	Data string `json:"data"`
}

// Session is a session's description (GET /process/session/{id}).
type Session struct {
	SessionID string           `json:"sessionId"`
	Commands  []SessionCommand `json:"commands"`
}

// SessionCommand is one command of a session.
type SessionCommand struct {
	ID       string `json:"id"`
	Command  string `json:"command"`
	ExitCode *int   `json:"exitCode,omitempty"`
}

// DownloadRequest is the body of POST /files/bulk-download.
type DownloadRequest struct {
	Paths []string `json:"paths"`
}

// APIError is an error reply of the API (NestJS's shape: statusCode,
// message, error) or of the toolbox (statusCode, message, code).
type APIError struct {
	StatusCode int    `json:"statusCode"`
	Message    string `json:"message"`
	Error_     string `json:"error,omitempty"`
	Code       string `json:"code,omitempty"`
	Path       string `json:"path,omitempty"`
	Timestamp  string `json:"timestamp,omitempty"`
	Method     string `json:"method,omitempty"`
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	return fmt.Sprintf("daytona: %d %s", e.StatusCode, strings.TrimSpace(msg))
}

// IsNotFound reports whether err is the API's 404.
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

// IsConflict reports whether err is the API's 409.
func IsConflict(err error) bool { return statusOf(err) == http.StatusConflict }

func statusOf(err error) int {
	var e *APIError
	if ok := asAPIError(err, &e); ok {
		return e.StatusCode
	}
	return 0
}
