package qemu

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestAccelerationAutoNeverHangs: AUTO proves KVM with a bounded probe and
// otherwise falls back to TCG; forced KVM agrees with the probe's verdict,
// which is cached on disk. (Here /dev/kvm exists but stalls guests, so the
// probe refuses; on a host with working KVM both paths take KVM.)
func TestAccelerationAutoNeverHangs(t *testing.T) {
	cache := t.TempDir()
	f := newTestFactory(t, Options{Acceleration: AccelAuto, CacheDir: cache})
	start := time.Now()
	m := newTestMachine(t, f, testSpec())
	if d := time.Since(start); d > 5*time.Minute {
		t.Fatalf("AUTO took %v", d)
	}
	r := run(t, m, machine.Command{Argv: []string{"echo", "ok"}})
	if string(r.Stdout) != "ok\n" {
		t.Fatalf("got %q", r.Stdout)
	}
	verdicts, _ := filepath.Glob(filepath.Join(cache, "kvm", "*"))
	kvmDev := true
	if _, err := os.Stat("/dev/kvm"); err != nil {
		kvmDev = false
	}
	if kvmDev && len(verdicts) != 1 {
		t.Fatalf("the probe's verdict is not cached: %v", verdicts)
	}

	var before os.FileInfo
	if len(verdicts) == 1 {
		before, _ = os.Stat(verdicts[0])
	}
	forced := newTestFactory(t, Options{Acceleration: AccelKVM, CacheDir: cache})
	mk, err := forced.Create(context.Background(), testSpec())
	if m.Acceleration() == AccelKVM {
		if err != nil {
			t.Fatalf("AUTO chose KVM but forced KVM fails: %v", err)
		}
		mk.Close(context.Background())
		return
	}
	var se *machine.StartupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "KVM") {
		if mk != nil {
			mk.Close(context.Background())
		}
		t.Fatalf("forced KVM where it does not work: %v", err)
	}
	// The cached verdict answered: no second probe rewrote it.
	if before != nil {
		if after, err := os.Stat(verdicts[0]); err != nil || !after.ModTime().Equal(before.ModTime()) {
			t.Fatalf("forced KVM probed again despite the cached verdict: %v", err)
		}
	} else if !strings.Contains(err.Error(), "/dev/kvm") {
		t.Fatalf("without /dev/kvm the refusal should say so: %v", err)
	}
}
