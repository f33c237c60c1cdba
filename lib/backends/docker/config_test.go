package docker

import (
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestContainerConfig: every resource flag of the spec reaches the
// container configuration (the daemon's reading of them is checked against
// a real daemon in the dockertest suite).
func TestContainerConfig(t *testing.T) {
	f := &Factory{backend: "docker", runtime: "runsc"}
	cpus, mem, storage := 2, 1536, 1024
	spec := machine.Spec{Source: machine.DockerImage{Reference: "img"}, Workdir: "/w", Env: map[string]string{"A": "1"},
		Network: machine.NetworkAllow, CPUs: &cpus, MemoryMB: &mem, StorageMB: &storage, GPUs: 1}
	cfg, host := f.containerConfig(spec, "sha256:x", "id1")
	if cfg.Image != "sha256:x" || cfg.WorkingDir != "/w" || len(cfg.Env) != 1 || cfg.Env[0] != "A=1" ||
		cfg.Labels[LabelMachine] != "id1" || cfg.Labels[LabelBackend] != "docker" || cfg.Entrypoint[0] != "/bin/sh" || len(cfg.Cmd) != 0 {
		t.Fatalf("config %+v", cfg)
	}
	if host.NanoCPUs != 2e9 || host.Memory != 1536<<20 || host.MemorySwap != host.Memory || host.StorageOpt["size"] != "1024M" ||
		len(host.DeviceRequests) != 1 || host.DeviceRequests[0].Count != 1 || host.DeviceRequests[0].Capabilities[0][0] != "gpu" ||
		host.NetworkMode != "bridge" || host.Runtime != "runsc" || host.Init == nil || !*host.Init {
		t.Fatalf("host config %+v", host)
	}
	spec.Network = machine.NetworkDeny
	if _, host := f.containerConfig(spec, "x", "id2"); host.NetworkMode != "none" {
		t.Fatal(host.NetworkMode)
	}
}
