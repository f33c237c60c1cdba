package qemu

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/machine/machinetest"
)

// TestConformance runs the machine contract's suite on QEMU machines.
func TestConformance(t *testing.T) {
	f := newTestFactory(t, Options{})
	mem := 192 // the suite runs its checks in parallel
	spec := testSpec()
	spec.MemoryMB = &mem
	machinetest.Run(t, f, machinetest.Capabilities{
		Spec:         spec,
		User:         "alice",
		UID:          1000,
		NetworkAllow: true,
		Resources: func(context.Context) (map[string]int, error) {
			procs := 0
			entries, _ := os.ReadDir("/proc")
			me := " " + strconv.Itoa(os.Getpid()) + " "
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
				if err == nil && strings.Contains(string(b), "(qemu-system-x86") && strings.Contains(string(b), me) {
					procs++
				}
			}
			dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "shellbox-qemu-[!t]*"))
			return map[string]int{"qemu processes": procs, "runtime directories": len(dirs)}, nil
		},
		Released: func(_ context.Context, m machine.Machine) error {
			qm := m.(*Machine)
			if _, err := os.Stat(qm.dir); err == nil {
				return fmt.Errorf("runtime directory %s remains", qm.dir)
			}
			if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(qm.cmd.Process.Pid))); err == nil {
				return fmt.Errorf("QEMU process %d remains", qm.cmd.Process.Pid)
			}
			return nil
		},
		Timeout: 2 * time.Second,
	})
}
