package qemu

import (
	"context"
	"os/exec"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Diagnosis is what this host offers QEMU machines, for `shellbox doctor`.
type Diagnosis struct {
	QEMU, Version  string // the binary and the first line of its -version
	Kernel, Guest  string
	UserNet        bool
	Acceleration   Acceleration // what the next machine would use
	KVMUnavailable string       // why not KVM, when Acceleration is TCG
	// Boot is how long a bare guest took to boot and answer under
	// Acceleration (the KVM probe's boot, or one under TCG).
	Boot time.Duration
}

// tcgBootTimeout bounds Diagnose's boot under TCG (emulation is slow, and
// this host's other work competes for its CPUs).
const tcgBootTimeout = 60 * time.Second

// Diagnose prepares the boot assets, decides the accelerator as the next
// Create would (the KVM probe is bounded by kvmProbeTimeout and its
// verdict cached, so a host whose KVM hangs guests does not hang this)
// and boots a bare guest with it, bounded by tcgBootTimeout.
func (f *Factory) Diagnose(ctx context.Context) (Diagnosis, error) {
	d := Diagnosis{QEMU: f.qemu, Kernel: f.kernel.describe(), Guest: f.guest, UserNet: f.userNet}
	vctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(vctx, f.qemu, "-version").Output(); err == nil {
		d.Version, _, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
	}
	assets, err := f.bootAssets()
	if err != nil {
		return d, err
	}
	if d.Acceleration, err = f.acceleration(ctx, assets); err != nil {
		return d, err
	}
	if d.Acceleration == AccelTCG {
		if f.opts.Acceleration == AccelTCG {
			d.KVMUnavailable = "TCG was requested"
		} else {
			_, d.KVMUnavailable = f.kvmWorks(ctx, assets)
		}
	}
	// A boot proves the kernel, the initramfs and the accelerator work
	// together (the KVM verdict may come from the cache).
	small := 256
	spec := machine.Spec{Source: machine.QemuBundle{}, Workdir: "/", Network: machine.NetworkDeny,
		MemoryMB: &small, StartupTimeout: tcgBootTimeout}
	start := time.Now()
	m, err := f.boot(ctx, spec, assets, nil, d.Acceleration)
	if err != nil {
		return d, err
	}
	d.Boot = time.Since(start)
	return d, m.Close(context.Background())
}
