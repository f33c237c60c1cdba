package gvisor

import (
	"context"
	"encoding/json"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
)

// DefaultRuntime is the runtime name runsc is registered under.
const DefaultRuntime = "runsc"

// registerHint tells how to make runsc available to the daemon.
const registerHint = `the Docker daemon has no "runsc" runtime registered; install runsc and add ` +
	`{"runtimes": {"runsc": {"path": "/usr/bin/runsc", "runtimeArgs": ["--platform=ptrace"]}}} ` +
	`to /etc/docker/daemon.json, then restart dockerd (.ci/docker.sh does both)`

func init() {
	machine.Register("gvisor", func(raw json.RawMessage) (machine.Factory, error) {
		opts, err := docker.ParseOptions(raw)
		if err != nil {
			return nil, err
		}
		return New(context.Background(), opts)
	})
}

// New connects to the daemon and checks that runsc (or opts.Runtime) is
// registered; otherwise it returns a *machine.SandboxUnavailable saying
// how to register it.
func New(ctx context.Context, opts docker.Options) (*docker.Factory, error) {
	rt := DefaultRuntime
	if opts.Runtime != nil && *opts.Runtime != "" {
		rt = *opts.Runtime
	}
	hint := registerHint
	if rt != DefaultRuntime {
		hint = `the Docker daemon has no "` + rt + `" runtime registered; add it under "runtimes" in /etc/docker/daemon.json and restart dockerd`
	}
	return docker.New(ctx, docker.Config{Backend: "gvisor", Host: opts.Host, Runtime: rt, RuntimeHint: hint, PidsLimit: opts.PidsLimitConfig()})
}
