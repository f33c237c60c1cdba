package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

// This file is the one place where the wire (lib/bridge/wire) meets the
// machine contract: requests become contract values with the contract's
// defaults and are validated once, results and errors become wire replies.

// DecodeSpec reads a create request (a wire.Spec) as the contract's Spec,
// with its defaults, validated.
func DecodeSpec(req []byte) (machine.Spec, error) {
	var w wire.Spec
	if err := decode(req, &w); err != nil {
		return machine.Spec{}, err
	}
	return specOf(w)
}

// specOf applies MachineSpec's defaults (workdir "/workspace", network
// deny) and validates.
func specOf(w wire.Spec) (machine.Spec, error) {
	s := machine.Spec{Source: sourceOf(w.Source.Value), Workdir: "/workspace", Env: w.Env,
		Network: machine.NetworkPolicy(w.Network), MemoryMB: w.MemoryMB, CPUs: w.CPUs, StorageMB: w.StorageMB, GPUs: w.GPUs,
		AllowedHosts: w.AllowedHosts, EgressLog: w.EgressLog}
	if w.Workdir != nil {
		s.Workdir = *w.Workdir
	}
	if s.Network == "" {
		s.Network = machine.NetworkDeny
	}
	if w.StartupTimeout != nil {
		d, err := positiveSeconds("startup_timeout", *w.StartupTimeout, "startup_timeout must be positive")
		if err != nil {
			return s, err
		}
		s.StartupTimeout = d
	}
	return s, s.Validate()
}

// sourceOf converts a wire source variant (nil: none).
func sourceOf(v any) machine.Source {
	switch v := v.(type) {
	case wire.RegistryImage:
		return machine.RegistryImage{Reference: v.Reference}
	case wire.DockerfileSource:
		return machine.DockerfileSource{Context: v.Context, Dockerfile: v.Dockerfile}
	case wire.DockerImage:
		return machine.DockerImage{Reference: v.Reference}
	case wire.PreparedImage:
		return machine.PreparedImage{Layout: v.Layout, ManifestDigest: v.ManifestDigest, Origin: sourceOf(v.Source.Value)}
	case wire.HostImage:
		mounts := make([]machine.Mount, len(v.Mounts))
		for i, m := range v.Mounts {
			mounts[i] = machine.Mount{Host: m.Host, Guest: m.Guest}
		}
		return machine.HostImage{ReadOnly: v.ReadOnly, BinDirs: v.BinDirs, Mounts: mounts}
	case wire.QemuBundle:
		return machine.QemuBundle{Path: v.Path, ImageReference: v.ImageReference}
	case wire.ShellSimBuiltins:
		return machine.ShellSimBuiltins{}
	case wire.PackageSpec:
		return machine.PackageSpec{PyPIPackages: v.PyPIPackages, Tools: v.Tools}
	}
	return nil
}

func requirementsOf(w wire.Requirements) machine.Requirements {
	return machine.Requirements{CommandSemantics: string(w.CommandSemantics), Capabilities: w.Capabilities, DockerImage: w.DockerImage}
}

// commandOf applies a Command's defaults (no timeout, DefaultOutputLimit)
// and validates: the one check every backend's commands go through.
func commandOf(w wire.Command, stdin []byte) (machine.Command, error) {
	c := machine.Command{Argv: w.Argv, Cwd: w.Cwd, Env: w.Env, Stdin: stdin, OutputLimit: machine.DefaultOutputLimit, User: w.User}
	if w.Timeout != nil {
		d, err := positiveSeconds("timeout", *w.Timeout,
			fmt.Sprintf("must be positive, got %g (give no timeout for none)", float64(*w.Timeout)))
		if err != nil {
			return c, err
		}
		c.Timeout = d
	}
	if w.OutputLimitBytes != nil {
		c.OutputLimit = *w.OutputLimitBytes
	}
	return c, c.Validate()
}

// positiveSeconds converts seconds that must be positive.
func positiveSeconds(field string, s wire.Seconds, refusal string) (time.Duration, error) {
	d, err := machine.DurationFromSeconds(field, float64(s))
	if err != nil {
		return 0, err
	}
	if d <= 0 {
		return 0, &machine.InvalidSpec{Field: field, Reason: refusal}
	}
	return d, nil
}

// runReply is a finished command's reply header; stop is the machine's
// stop reason, if this command ended it.
func runReply(res machine.Result, stop string) wire.RunReply {
	r := wire.RunReply{ExitCode: res.ExitCode, StdoutTruncated: res.StdoutTruncated, StderrTruncated: res.StderrTruncated,
		Reason: wire.ExitReason(res.Reason), StopReason: wire.StopReason(stop)}
	if u := res.Usage; u != nil {
		r.Usage = &wire.ResourceUsage{CPUSeconds: u.CPUSeconds, PeakMemoryBytes: u.PeakMemoryBytes}
	}
	return r
}

// kinds maps the contract's error kinds to the wire's.
var kinds = map[machine.Kind]wire.ErrorKind{
	machine.KindInvalid:            wire.KindValueError,
	machine.KindUnsupported:        wire.KindUnsupportedMachineSpec,
	machine.KindSandboxUnavailable: wire.KindSandboxUnavailable,
	machine.KindStartup:            wire.KindMachineStartupError,
	machine.KindTerminated:         wire.KindMachineTerminated,
	machine.KindInfrastructure:     wire.KindMachineInfrastructureError,
	machine.KindDownloadLimit:      wire.KindDownloadLimitExceeded,
	machine.KindNotFound:           wire.KindFileNotFoundError,
	machine.KindPermission:         wire.KindPermissionError,
	machine.KindClosed:             wire.KindMachineClosed,
	machine.KindOther:              wire.KindRuntimeError,
}

// ErrorKind is the wire kind of err.
func ErrorKind(err error) wire.ErrorKind {
	if errors.Is(err, context.Canceled) {
		return wire.KindCancelled
	}
	return kinds[machine.KindOf(err)]
}

// stoppedError is a MachineTerminated error of a machine that knows which
// budget ended it (ShellSim).
type stoppedError struct {
	error
	reason string
}

func (e *stoppedError) Unwrap() error { return e.error }

// errorOf is the wire header of err.
func errorOf(err error) wire.Error {
	h := wire.Error{Kind: ErrorKind(err), Message: err.Error()}
	var (
		unsupported *machine.UnsupportedSpec
		invalid     *machine.InvalidSpec
		sandbox     *machine.SandboxUnavailable
		stopped     *stoppedError
	)
	switch {
	case errors.As(err, &unsupported):
		h.Field = unsupported.Field
	case errors.As(err, &invalid):
		h.Field = invalid.Field
	}
	if errors.As(err, &sandbox) {
		for _, c := range sandbox.Candidates {
			h.Candidates = append(h.Candidates, wire.Candidate{Candidate: c.Candidate, Error: c.Error})
		}
	}
	if errors.As(err, &stopped) {
		h.StopReason = wire.StopReason(stopped.reason)
	}
	return h
}

// EncodeError turns a Go error into the error header a call fails with.
func EncodeError(err error) []byte {
	out, _ := json.Marshal(errorOf(err))
	return out
}

// taskSpecOf converts a task group and validates it: each member's machine
// as create would, then the group (task.Spec.Validate).
func taskSpecOf(w wire.TaskSpec) (task.Spec, error) {
	out := task.Spec{Primary: w.Primary}
	for i, c := range w.Containers {
		ms, err := specOf(c.Machine)
		if err != nil {
			return out, err
		}
		mc := task.Container{Name: c.Name, Machine: ms, Command: c.Command}
		for _, e := range c.Endpoints {
			if e.Protocol == "" {
				e.Protocol = "tcp"
			}
			mc.Endpoints = append(mc.Endpoints, task.Endpoint{Name: e.Name, Port: e.Port, Protocol: e.Protocol})
		}
		if p := c.Readiness; p != nil {
			probe := &task.Probe{Command: p.Command}
			for _, d := range []struct {
				field string
				in    wire.Seconds
				out   *time.Duration
			}{{"timeout", p.Timeout, &probe.Timeout}, {"interval", p.Interval, &probe.Interval}, {"start_period", p.StartPeriod, &probe.StartPeriod}} {
				v, err := machine.DurationFromSeconds(fmt.Sprintf("containers[%d].readiness.%s", i, d.field), float64(d.in))
				if err != nil {
					return out, err
				}
				*d.out = v
			}
			if p.Attempts != nil {
				if *p.Attempts <= 0 {
					return out, &machine.InvalidSpec{Field: fmt.Sprintf("containers[%d].readiness.attempts", i), Reason: "must be positive"}
				}
				probe.Attempts = *p.Attempts
			}
			mc.Readiness = probe
		}
		out.Containers = append(out.Containers, mc)
	}
	return out, out.Validate()
}
