// Package shellsimbackend is the "shellsim" machine backend: each machine is one
// ShellSim environment (an in-memory filesystem, a simulated shell and
// metered resources in virtual time); nothing runs on the host.
//
// MachineSpec mapping: source ShellSimBuiltins or an empty PackageSpec (a
// shell-only machine); memory_mb → the memory limit (MiB); storage_mb →
// the disk limit (MiB), overriding the factory's; cpus is refused (time is
// virtual: CPU is a budget of work units, the factory's cpu option);
// gpus > 0, network "allow" and users other than root are refused. The
// CPU, memory, disk and output budgets are per machine and cumulative over
// its commands; exhausting one ends the machine: the command that did it
// exits 137 with "shellsim: <reason>" on stderr, later operations fail
// with a TerminatedError naming the reason (e.g. cpu_exhausted).
package shellsimbackend

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/command"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all" // the built-in commands
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/net" // curl, wget, net
)

// Backend is the registered name.
const Backend = "shellsim"

// Defaults of the factory options.
const (
	DefaultCPU      = 10_000_000_000
	DefaultMemoryMB = 2048
	DefaultDisk     = 512 << 20
	DefaultOutput   = 128 << 20
)

func init() {
	machine.Register(Backend, func(options json.RawMessage) (machine.Factory, error) {
		o, err := DecodeOptions(options)
		if err != nil {
			return nil, err
		}
		return NewFactory(NewEngine(o)), nil
	})
}

// RouteOption is one virtual HTTP route every machine of a factory gets.
type RouteOption = wire.Route

// Options are the factory's options (cpu, memory_mb, disk, output, routes),
// declared with the ABI's types so that the Python factory's are generated
// from the same declaration.
type Options = wire.ShellSimOptions

// DecodeOptions reads options, filling in the defaults.
func DecodeOptions(raw json.RawMessage) (Options, error) {
	o := Options{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &o); err != nil {
			return o, &machine.InvalidSpec{Field: "options", Reason: err.Error()}
		}
	}
	if o.CPU == 0 {
		o.CPU = DefaultCPU
	}
	if o.MemoryMB == 0 {
		o.MemoryMB = DefaultMemoryMB
	}
	if o.Disk == 0 {
		o.Disk = DefaultDisk
	}
	if o.Output == 0 {
		o.Output = DefaultOutput
	}
	for name, v := range map[string]int64{"cpu": o.CPU, "memory_mb": o.MemoryMB, "disk": o.Disk, "output": o.Output} {
		if v < 0 {
			return o, &machine.InvalidSpec{Field: name, Reason: "must be positive"}
		}
	}
	for _, r := range o.Routes {
		if r.Status == 0 {
			r.Status = 200
		}
		var t command.RouteTable
		if err := t.AddRoute(command.Route{Pattern: r.Pattern, Method: r.Method, Status: r.Status, Headers: r.Headers, Body: r.Body}); err != nil {
			return o, &machine.InvalidSpec{Field: "routes", Reason: err.Error()}
		}
	}
	return o, nil
}

// Engine is the context machines of one or more factories share: default
// limits and the routes every new machine starts with. It is read-only
// after creation, so one engine can serve every trial of a worker.
type Engine struct {
	opts   Options
	routes []command.Route
}

// NewEngine builds an engine context from options (defaults filled in by
// DecodeOptions).
func NewEngine(o Options) *Engine {
	e := &Engine{opts: o}
	for _, r := range o.Routes {
		if r.Status == 0 {
			r.Status = 200
		}
		e.routes = append(e.routes, command.Route{Pattern: r.Pattern, Method: r.Method, Status: r.Status, Headers: r.Headers, Body: r.Body})
	}
	return e
}

// Factory creates ShellSim machines.
type Factory struct {
	engine *Engine
}

// NewFactory is a factory over a shared engine context.
func NewFactory(e *Engine) *Factory { return &Factory{engine: e} }

// Backend is "shellsim".
func (f *Factory) Backend() string { return Backend }

func unsupported(field, reason string) error {
	return &machine.UnsupportedSpec{Backend: Backend, Field: field, Reason: reason}
}

// CheckEnvironment refuses what ShellSim cannot simulate.
func (f *Factory) CheckEnvironment(req machine.Requirements, spec machine.Spec) error {
	if req.CommandSemantics == "linux_process" {
		return unsupported("command_semantics", "ShellSim simulates a shell; it does not run Linux processes")
	}
	if req.DockerImage != "" {
		return unsupported("docker_image", "ShellSim does not run container images")
	}
	if len(req.Capabilities) > 0 {
		return unsupported("capabilities", fmt.Sprintf("ShellSim provides no extra capabilities (asked for %v)", req.Capabilities))
	}
	_, err := f.limits(spec)
	return err
}

// limits validates spec and maps it onto ShellSim limits.
func (f *Factory) limits(spec machine.Spec) (shellsim.Limits, error) {
	o := f.engine.opts
	l := shellsim.Limits{CPU: o.CPU, Memory: o.MemoryMB << 20, Disk: o.Disk, Output: o.Output}
	if err := spec.Validate(); err != nil {
		return l, err
	}
	switch src := spec.Source.(type) {
	case machine.ShellSimBuiltins:
	case machine.PackageSpec:
		if src.PyPIPackages != nil {
			return l, unsupported("source", "Python is not available in ShellSim yet; PackageSpec(pypi_packages=...) cannot be honoured")
		}
		if len(src.Tools) > 0 {
			return l, unsupported("source", fmt.Sprintf("ShellSim has only its built-in commands; tools %v cannot be installed", src.Tools))
		}
	default:
		return l, unsupported("source", fmt.Sprintf("ShellSim runs only its built-in commands (ShellSimBuiltins or PackageSpec()), not %s", spec.Source.Kind()))
	}
	if spec.CPUs != nil {
		return l, unsupported("cpus", "ShellSim runs in virtual time; CPU is the factory's cpu budget of work units")
	}
	if spec.GPUs > 0 {
		return l, unsupported("gpus", "ShellSim has no GPUs")
	}
	if spec.Network == machine.NetworkAllow {
		return l, unsupported("network", "ShellSim has no network; use virtual HTTP routes")
	}
	if spec.MemoryMB != nil {
		l.Memory = int64(*spec.MemoryMB) << 20
	}
	if spec.StorageMB != nil {
		l.Disk = int64(*spec.StorageMB) << 20
	}
	for k := range spec.Env {
		if !validName(k) {
			return l, &machine.InvalidSpec{Field: "env", Reason: fmt.Sprintf("invalid variable name %q", k)}
		}
	}
	return l, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// Create starts a fresh machine: a new environment with the workdir made.
func (f *Factory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	l, err := f.limits(spec)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return newMachine(f.engine, spec, l)
}
