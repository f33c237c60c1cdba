package resources

import (
	"errors"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

func TestMeter(t *testing.T) {
	m := NewMeter(Limits{CPU: 100, Memory: 1000, Disk: 0, Output: 10})
	if err := m.Charge(60); err != nil {
		t.Fatal(err)
	}
	if err := m.Reserve(900); err != nil {
		t.Fatal(err)
	}
	m.Release(900)
	if m.MemPeak != 900 || m.Mem != 0 {
		t.Fatal(m)
	}
	if n, err := m.Output(4); n != 4 || err != nil {
		t.Fatal(n, err)
	}
	err := m.Charge(41)
	if !errors.Is(err, command.ErrStopped) || m.Stop != CPUExhausted || m.CPU != 100 {
		t.Fatal(err, m)
	}
	if m.Reserve(1) == nil || m.Stop != CPUExhausted {
		t.Fatal("stop reason must stick")
	}
	m2 := NewMeter(DefaultLimits())
	m2.Limits.Output = 10
	if n, err := m2.Output(12); n != 10 || err == nil || m2.Stop != OutputLimitExceeded {
		t.Fatal(n, err)
	}
	m3 := NewMeter(DefaultLimits())
	if m3.Reserve(65<<20) == nil || m3.Stop != MemoryExhausted {
		t.Fatal(m3)
	}
}
