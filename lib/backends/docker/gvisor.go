package docker

import (
	"context"
	"encoding/json"

	"github.com/shellbox/shellbox/lib/machine"
)

// GvisorRuntime is the runtime name runsc is registered under with the
// daemon; the "gvisor" backend uses it unless its options name another.
const GvisorRuntime = "runsc"

// gvisorHint tells how to make runsc available to the daemon.
const gvisorHint = `the Docker daemon has no "runsc" runtime registered; install runsc and add ` +
	`{"runtimes": {"runsc": {"path": "/usr/bin/runsc", "runtimeArgs": ["--platform=ptrace"]}}} ` +
	`to /etc/docker/daemon.json, then restart dockerd (.ci/docker.sh does both)`

func init() {
	// gVisor is this backend with the runsc runtime, under its own name so
	// that callers (and Python's GvisorMachineFactory) ask for it by name.
	machine.Register("gvisor", func(raw json.RawMessage) (machine.Factory, error) {
		opts, err := ParseOptions(raw)
		if err != nil {
			return nil, err
		}
		return New(context.Background(), GvisorConfig(opts))
	})
}

// GvisorConfig is the Config of the "gvisor" backend for the factory
// options: the runsc runtime (or opts.Runtime) and advice on registering it.
func GvisorConfig(opts Options) Config {
	rt := opts.runtime()
	if rt == "" {
		rt = GvisorRuntime
	}
	cfg := Config{Backend: "gvisor", Host: opts.Host, Runtime: rt, PidsLimit: opts.PidsLimitConfig()}
	if rt == GvisorRuntime {
		cfg.RuntimeHint = gvisorHint
	}
	return cfg
}
