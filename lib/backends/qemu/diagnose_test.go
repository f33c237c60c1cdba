package qemu

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKVMVerdictPerGuest: a guest program that cannot start fails the KVM
// probe, and that verdict must not be reused for another guest (it was
// keyed by the kernel alone, so one broken build sent every later factory
// on the host to TCG until reboot).
func TestKVMVerdictPerGuest(t *testing.T) {
	cache := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	broken := newTestFactory(t, Options{Acceleration: AccelAuto, CacheDir: cache, Guest: "/bin/true"})
	good := newTestFactory(t, Options{Acceleration: AccelAuto, CacheDir: cache})
	bd, err := broken.Diagnose(ctx)
	if err == nil {
		t.Fatal("a guest that cannot start booted")
	}
	if bd.Acceleration != AccelTCG || bd.KVMUnavailable == "" {
		t.Fatalf("a guest that cannot start passed the KVM probe: %+v", bd)
	}
	gd, err := good.Diagnose(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(gd.Version, "QEMU emulator version") || gd.Guest != testGuest || gd.Boot <= 0 {
		t.Fatalf("diagnosis %+v", gd)
	}
	if _, err := os.Stat("/dev/kvm"); err != nil {
		if !strings.HasPrefix(gd.KVMUnavailable, "/dev/kvm") {
			t.Fatalf("no /dev/kvm, yet %+v", gd)
		}
		return
	}
	verdicts, _ := filepath.Glob(filepath.Join(cache, "kvm", "*"))
	// Two verdict files prove the good guest was probed on its own. Their
	// texts may agree: on this host QEMU under KVM can abort for either
	// guest before the guest matters.
	if len(verdicts) != 2 {
		t.Fatalf("the good guest reused the broken guest's verdict: %v", verdicts)
	}
}
