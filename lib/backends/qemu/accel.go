package qemu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/machine"
)

// kvmProbeTimeout bounds the probe boot under KVM: a working KVM boots the
// initramfs in a fraction of it, a broken one (nested KVM here) stalls.
const kvmProbeTimeout = 5 * time.Second

// acceleration decides the accelerator of the next machine. KVM is used
// only once a probe proved it: /dev/kvm can exist and still hang guests.
// The verdict is cached per kernel and host boot.
func (f *Factory) acceleration(ctx context.Context, assets *bootAssets) (Acceleration, error) {
	switch f.opts.Acceleration {
	case AccelTCG:
		return AccelTCG, nil
	case AccelKVM:
		ok, why := f.kvmWorks(ctx, assets)
		if !ok {
			return "", fmt.Errorf("KVM was requested but does not work on this host: %s", why)
		}
		return AccelKVM, nil
	}
	if ok, _ := f.kvmWorks(ctx, assets); ok {
		return AccelKVM, nil
	}
	return AccelTCG, nil
}

// kvmWorks probes KVM once per factory (and once per host boot and kernel
// through the on-disk verdict).
func (f *Factory) kvmWorks(ctx context.Context, assets *bootAssets) (bool, string) {
	f.accelOnce.Do(func() {
		if err := unix.Access("/dev/kvm", unix.R_OK|unix.W_OK); err != nil {
			f.kvmReason = "/dev/kvm: " + err.Error()
			return
		}
		bootID, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
		// Keyed by the guest too: a broken guest program fails the probe
		// under any accelerator, and must not condemn KVM for a good one.
		verdict := filepath.Join(f.cacheDir, "kvm", assets.kernelID[:16]+"-"+assets.guestID[:16]+"-"+strings.TrimSpace(string(bootID)))
		if b, err := os.ReadFile(verdict); err == nil {
			f.kvmOK = strings.HasPrefix(string(b), "ok")
			f.kvmReason = strings.TrimSpace(strings.TrimPrefix(string(b), "no"))
			return
		}
		err := f.probeKVM(ctx, assets)
		f.kvmOK = err == nil
		out := "ok\n"
		if err != nil {
			f.kvmReason = err.Error()
			out = "no " + f.kvmReason + "\n"
		}
		if errors.Is(err, context.Canceled) {
			return // not a verdict
		}
		os.MkdirAll(filepath.Dir(verdict), 0o755)
		os.WriteFile(verdict, []byte(out), 0o644)
	})
	return f.kvmOK, f.kvmReason
}

// probeKVM boots the initramfs alone under KVM and waits for the agent.
func (f *Factory) probeKVM(ctx context.Context, assets *bootAssets) error {
	small := 256
	spec := machine.Spec{Source: machine.QemuBundle{}, Workdir: "/", Network: machine.NetworkDeny,
		MemoryMB: &small, StartupTimeout: kvmProbeTimeout}
	m, err := f.boot(ctx, spec, assets, nil, AccelKVM)
	if err != nil {
		var se *machine.StartupError
		if errors.As(err, &se) {
			msg := se.Err.Error()
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			return errors.New(msg)
		}
		return err
	}
	return m.Close(context.Background())
}
