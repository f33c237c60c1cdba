package shell

import (
	"fmt"
	"mvdan.cc/sh/v3/syntax"
	"sort"
	"sync/atomic"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
	"github.com/shellbox/shellbox/lib/shellsim/sched"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// Runtime is the machine shared by every process of one environment.
type Runtime struct {
	FS       *vfs.FS
	Sched    *sched.Scheduler
	Meter    *resources.Meter
	Tel      *Telemetry
	Hostname string
	Users    command.Users
	// Cancelled is set (from any goroutine) to stop the current action.
	Cancelled atomic.Bool
	// Terminal is set once exit, set -e or exhaustion ended the session.
	Terminal bool
	// Net is the virtual HTTP route table (see network.go); nil until used.
	Net *command.RouteTable
	// Commands names the programs found on PATH (WithCommands).
	Commands *command.Table

	shellPID int
	rand     uint32
	p        *syntax.Parser
}

// parser returns the runtime's reusable Bash parser (one process runs at a
// time, and a parse always completes before anything it parsed runs).
func (rt *Runtime) parser() *syntax.Parser {
	if rt.p == nil {
		rt.p = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	return rt.p
}

// Option configures a Runtime at construction.
type Option func(*Runtime)

// WithCommands sets the command table (command.Table); without it no
// program but the shell's builtins runs.
func WithCommands(t *command.Table) Option { return func(rt *Runtime) { rt.Commands = t } }

// NewRuntime builds a runtime over fs with the given limits.
func NewRuntime(fs *vfs.FS, limits resources.Limits, opts ...Option) *Runtime {
	rt := &Runtime{FS: fs, Sched: sched.New(), Meter: resources.NewMeter(limits), Tel: &Telemetry{},
		Hostname: "sandbox", Users: rootUsers{}, rand: 12345}
	for _, o := range opts {
		o(rt)
	}
	fs.SetClock(rt.FileNow)
	fs.SetQuota(limits.Disk)
	fs.SetProc(&procFS{rt: rt})
	return rt
}

// Now is the virtual wall clock.
func (rt *Runtime) Now() time.Time { return vfs.Epoch.Add(rt.Sched.Now()) }

// FileTick is how far each file timestamp moves the virtual clock.
const FileTick = time.Microsecond

// FileNow stamps file times: each stamp advances the virtual clock by
// FileTick, so successive writes get increasing mtimes as on a real machine
// (make, test -nt), never later than the clock, and stay deterministic.
func (rt *Runtime) FileNow() time.Time {
	rt.Sched.Advance(FileTick)
	return rt.Now()
}

// ErrCancelled stops an action whose context was cancelled.
var ErrCancelled = fmt.Errorf("%w: cancelled", command.ErrStopped)

// charge spends CPU on behalf of the current task.
func (rt *Runtime) charge(n int64) error {
	if rt.Cancelled.Load() {
		return ErrCancelled
	}
	if err := rt.Meter.Charge(n); err != nil {
		return err
	}
	if t := rt.Sched.Current(); t != nil {
		if t.Killed() != 0 {
			return sched.ErrKilled
		}
		t.Tick(n)
		if t.Killed() != 0 {
			return sched.ErrKilled
		}
	}
	return nil
}

func (rt *Runtime) reserve(n int64) (func(), error) {
	if err := rt.Meter.Reserve(n); err != nil {
		return func() {}, err
	}
	done := false
	return func() {
		if !done {
			done = true
			rt.Meter.Release(n)
		}
	}, nil
}

type rootUsers struct{}

func (rootUsers) UID() int { return 0 }
func (rootUsers) GID() int { return 0 }
func (rootUsers) UserName(uid int) (string, bool) {
	switch uid {
	case 0:
		return "root", true
	case 1000:
		return "user", true
	}
	return "", false
}
func (u rootUsers) GroupName(gid int) (string, bool) { return u.UserName(gid) }
func (rootUsers) LookupUser(n string) (int, bool) {
	switch n {
	case "root":
		return 0, true
	case "user":
		return 1000, true
	}
	return 0, false
}
func (u rootUsers) LookupGroup(n string) (int, bool) { return u.LookupUser(n) }

// Telemetry records what an environment ran.
type Telemetry struct {
	Invocations        []Invocation
	DroppedInvocations int
	Commands           []string
	DroppedCommands    int
	Unsupported        []string
	Partials           []string
	DroppedUnsupported int
	Usage              map[string]*CommandUsage
	seq                int
	invBytes           int64
}

// Invocation is one command run.
type Invocation struct {
	Sequence          int      `json:"sequence"`
	PID               int      `json:"pid"`
	Argv              []string `json:"argv"`
	Trust             string   `json:"trust"`
	Status            *int     `json:"status"`
	CPU               int64    `json:"cpu"`
	DiskDelta         int64    `json:"disk_delta"`
	UnsupportedReason string   `json:"unsupported_reason,omitempty"`
}

// CommandUsage is the cumulative cost of one command name.
type CommandUsage struct {
	Command   string `json:"command"`
	CPU       int64  `json:"cpu"`
	DiskDelta int64  `json:"disk_delta"`
}

const (
	telemetryCap   = 4096
	telemetryBytes = 4 << 20 // modeled bytes of the invocation log
)

func invSize(inv Invocation) int64 {
	n := int64(128 + len(inv.UnsupportedReason))
	for _, s := range inv.Argv {
		n += int64(len(s))
	}
	return n
}

func (t *Telemetry) start(pid int, argv []string, trust string) int {
	t.seq++
	if len(t.Commands) < telemetryCap {
		t.Commands = append(t.Commands, argv[0])
	} else {
		t.DroppedCommands++
	}
	a := append([]string(nil), argv...)
	size := int64(128)
	for _, s := range a {
		size += int64(len(s))
	}
	for len(t.Invocations) > 0 && (len(t.Invocations) >= telemetryCap || t.invBytes+size > telemetryBytes) {
		t.invBytes -= invSize(t.Invocations[0])
		t.Invocations = t.Invocations[1:]
		t.DroppedInvocations++
	}
	t.invBytes += size
	t.Invocations = append(t.Invocations, Invocation{Sequence: t.seq, PID: pid, Argv: a, Trust: trust})
	return t.seq
}

func (t *Telemetry) finish(seq int, status int, cpu, disk int64) {
	for i := len(t.Invocations) - 1; i >= 0; i-- {
		inv := &t.Invocations[i]
		if inv.Sequence == seq {
			st := status
			inv.Status, inv.CPU, inv.DiskDelta = &st, cpu, disk
			name := inv.Argv[0]
			if t.Usage == nil {
				t.Usage = map[string]*CommandUsage{}
			}
			u := t.Usage[name]
			if u == nil {
				u = &CommandUsage{Command: name}
				t.Usage[name] = u
			}
			u.CPU += cpu
			u.DiskDelta += disk
			return
		}
	}
}

func (t *Telemetry) unsupported(what string) {
	if len(t.Unsupported) < telemetryCap {
		t.Unsupported = append(t.Unsupported, what)
	} else {
		t.DroppedUnsupported++
	}
}

func (t *Telemetry) setReason(seq int, reason string) {
	for i := len(t.Invocations) - 1; i >= 0; i-- {
		if t.Invocations[i].Sequence == seq {
			if t.Invocations[i].UnsupportedReason == "" {
				t.Invocations[i].UnsupportedReason = reason
			}
			return
		}
	}
}

// CommandUsageList is the per-command usage sorted by name.
func (t *Telemetry) CommandUsageList() []CommandUsage {
	out := make([]CommandUsage, 0, len(t.Usage))
	for _, u := range t.Usage {
		out = append(out, *u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Command < out[j].Command })
	return out
}

// Clone copies the telemetry (for environment forks).
func (t *Telemetry) Clone() *Telemetry {
	c := *t
	c.Invocations = append([]Invocation(nil), t.Invocations...)
	c.Commands = append([]string(nil), t.Commands...)
	c.Unsupported = append([]string(nil), t.Unsupported...)
	c.Usage = map[string]*CommandUsage{}
	for k, v := range t.Usage {
		u := *v
		c.Usage[k] = &u
	}
	return &c
}
