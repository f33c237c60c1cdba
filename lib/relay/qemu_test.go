package relay_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/qemu"
	"github.com/shellbox/shellbox/lib/backends/qemu/qemutest"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

// The relay and a one-member task with a probe in a QEMU microVM (TCG):
// the same static guest program, placed through the machine's upload.
func TestRelayAndTaskInQemu(t *testing.T) {
	helperstest.Build(t)
	dir, err := os.MkdirTemp("", "shellbox-qemu-relay-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	guest, err := qemutest.BuildGuest(dir)
	if err != nil {
		t.Fatal(err)
	}
	image, err := qemutest.BusyboxLayout(filepath.Join(dir, "busybox-oci"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := qemu.New(qemu.Options{Acceleration: qemu.AccelTCG, Guest: guest, CacheDir: filepath.Join(dir, "cache"), DiskSizeMB: 64})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	spec := machine.Spec{Source: image, Workdir: "/workspace", Network: machine.NetworkDeny, StartupTimeout: 5 * time.Minute}
	probe := &task.Probe{Command: []string{"sh", "-c", "test -e /tmp/up"}, Timeout: 30 * time.Second, Interval: 50 * time.Millisecond}
	tk, err := task.Create(ctx, f, task.Spec{Primary: "vm", Containers: []task.Container{{Name: "vm", Machine: spec, Readiness: probe}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close(ctx)
	m := tk.Members()["vm"]
	if _, err := m.Run(ctx, machine.Command{Argv: []string{"touch", "/tmp/up"}}); err != nil {
		t.Fatal(err)
	}
	if err := tk.WaitReady(ctx, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	serve(t, m, 8150, echo)
	code, out, errOut := sh(t, m, `wget -q -O- --post-data 'from the vm' 'http://127.0.0.1:8150/q?x=1'`)
	var got map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got["path"] != "/q" || got["query"] != "x=1" || got["len"] != float64(11) {
		t.Fatalf("relay in QEMU: %d %q %s", code, out, errOut)
	}
	_, err = task.Create(ctx, f, task.Spec{Primary: "vm", Containers: []task.Container{{Name: "vm", Machine: spec}, {Name: "db", Machine: spec, Command: []string{"sleep", "9"}}}})
	var un *machine.UnsupportedSpec
	if !errors.As(err, &un) || un.Field != "containers" || !strings.Contains(err.Error(), "cannot run a group") {
		t.Fatalf("a QEMU group: %v", err)
	}
}
