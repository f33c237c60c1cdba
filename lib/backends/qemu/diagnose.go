package qemu

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// Diagnosis is what this host offers QEMU machines, for `shellbox doctor`.
type Diagnosis struct {
	QEMU, Version  string // the binary and the first line of its -version
	Kernel, Guest  string
	UserNet        bool
	Acceleration   Acceleration // what the next machine would use
	KVMUnavailable string       // why not KVM, when Acceleration is TCG
}

// Diagnose prepares the boot assets and decides the accelerator as the
// next Create would: the KVM probe is bounded (kvmProbeTimeout) and its
// verdict cached, so a host whose KVM hangs guests does not hang this.
func (f *Factory) Diagnose(ctx context.Context) (Diagnosis, error) {
	d := Diagnosis{QEMU: f.qemu, Kernel: f.kernel.image, Guest: f.guest, UserNet: f.userNet}
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
	return d, nil
}
