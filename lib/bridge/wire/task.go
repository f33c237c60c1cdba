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
