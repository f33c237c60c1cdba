package qemu

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cavaliergopher/cpio"

	"github.com/shellbox/shellbox/lib/backends/qemu/boot"
	"github.com/shellbox/shellbox/lib/machine"
)

// builtKernel is the kernel .ci/kernel.sh builds, named by
// $SHELLBOX_QEMU_KERNEL. CI (SHELLBOX_CI=1) must provide it; elsewhere
// the tests of it are skipped with the way to build it.
func builtKernel(t *testing.T) string {
	t.Helper()
	p := os.Getenv(KernelEnv)
	if p == "" {
		msg := KernelEnv + " is unset: build shellbox's guest kernel and name it, e.g. export " + KernelEnv + "=$(.ci/kernel.sh) (or make kernel)"
		if os.Getenv("SHELLBOX_CI") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}

// initramfsNames lists the entries of an uncompressed newc initramfs.
func initramfsNames(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	r := cpio.NewReader(f)
	for {
		h, err := r.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatalf("reading the initramfs: %v", err)
		}
		names = append(names, h.Name)
	}
}

// TestBuiltKernelBootsWithoutModules boots a machine on the kernel built
// from shellbox.config, with a network card: every driver is built in, so
// the initramfs carries no modules and the guest has no module support;
// QEMU runs microvm without ACPI and lists the devices on the kernel
// command line; and when the guest agent ends, the guest's reset ends QEMU
// (a kernel without ACPI cannot power off).
func TestBuiltKernelBootsWithoutModules(t *testing.T) {
	k := builtKernel(t)
	before := runtimeDirs(t)
	off := false
	f := newTestFactory(t, Options{Kernel: k, Restore: &off})
	assets, err := f.bootAssets()
	if err != nil {
		t.Fatal(err)
	}
	if !assets.cmdlineDevices {
		t.Fatalf("%s does not parse virtio_mmio.device= (CONFIG_VIRTIO_MMIO_CMDLINE_DEVICES)", k)
	}
	for _, n := range initramfsNames(t, assets.initramfs) {
		if strings.HasPrefix(n, "lib/modules") {
			t.Fatalf("the initramfs of a kernel with everything built in carries %s", n)
		}
	}
	spec := testSpec()
	if f.userNet {
		spec.Network = machine.NetworkAllow
	}
	m, err := f.Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	qm := m.(*Machine)
	if !strings.Contains(strings.Join(qm.cmd.Args, " "), "microvm,acpi=off") {
		t.Fatalf("QEMU's command line lacks acpi=off: %v", qm.cmd.Args)
	}
	cmd := sh(`[ -e /proc/modules ] && echo modules; [ -e /sys/firmware/acpi ] && echo acpi; ls /sys/class/net; grep -c virtio_mmio.device= /proc/cmdline; awk '$2 == "/" {print $1, $3}' /proc/mounts`)
	cmd.Timeout = time.Minute
	r := run(t, m.(*Machine), cmd)
	want := "lo\n1\n/dev/vda ext4\n"
	if f.userNet {
		want = "eth0\n" + want
	}
	if string(r.Stdout) != want {
		t.Fatalf("guest: got %q (stderr %q), want %q", r.Stdout, r.Stderr, want)
	}

	// The agent's end powers the guest off, which ends QEMU.
	kill := sh(`for p in /proc/[0-9]*; do if [ "$(tr '\0' ' ' < $p/cmdline)" = "shellbox-guest agent " ]; then kill -9 ${p#/proc/}; fi; done; sleep 60`)
	kill.Timeout = 2 * time.Minute
	if r, err := m.Run(context.Background(), kill); err == nil {
		t.Fatalf("the command that killed the agent returned %+v", r)
	}
	select {
	case <-qm.exited:
	case <-time.After(2 * time.Minute):
		t.Fatalf("QEMU still runs 2 minutes after the guest agent ended; console: %s", qm.console.String())
	}
	if _, err := m.Run(context.Background(), machine.Command{Argv: []string{"true"}}); !errors.Is(err, machine.ErrTerminated) {
		t.Fatalf("after the guest powered off: got %v, want the machine terminated", err)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	assertNoLeaks(t, before)
}

// TestDebianKernelLoadsModules boots Debian's cloud kernel explicitly (CI
// exports the built kernel for every other test): the guest loads its
// virtio drivers from the initramfs, with ACPI.
func TestDebianKernelLoadsModules(t *testing.T) {
	k, err := boot.FindKernel()
	if err != nil {
		t.Fatalf("this test needs linux-image-cloud-amd64: %v", err)
	}
	off := false
	f := newTestFactory(t, Options{Kernel: k.Image, Modules: k.Modules, Restore: &off})
	m := newTestMachine(t, f, testSpec())
	cmd := sh(`grep -c '^virtio_blk ' /proc/modules; [ -e /sys/firmware/acpi ] && echo acpi`)
	cmd.Timeout = time.Minute
	r := run(t, m, cmd)
	if string(r.Stdout) != "1\nacpi\n" {
		t.Fatalf("guest: got %q (stderr %q)", r.Stdout, r.Stderr)
	}
}
