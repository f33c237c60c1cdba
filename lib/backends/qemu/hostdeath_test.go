package qemu

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// TestHostDeathKillsQemu: when the host process dies without closing its
// machines (SIGKILL), their QEMU processes die with it.
func TestHostDeathKillsQemu(t *testing.T) {
	setup(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHostProcess$")
	cmd.Env = append(os.Environ(), "SHELLBOX_QEMU_HELPER=1", "SHELLBOX_QEMU_GUEST="+testGuest,
		"SHELLBOX_QEMU_CACHE="+filepath.Join(testRoot, "cache"), "SHELLBOX_QEMU_LAYOUT="+testImage.Layout,
		"SHELLBOX_QEMU_DIGEST="+testImage.ManifestDigest)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var pid int
	var dir string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if _, err := fmt.Sscanf(sc.Text(), "QEMU %d %s", &pid, &dir); err == nil {
			break
		}
	}
	if pid == 0 {
		t.Fatal("the helper host did not start a machine")
	}
	defer os.RemoveAll(dir) // a killed host cannot clean up its runtime directory
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil || strings.Contains(string(b), ") Z ") {
			return // gone (or a zombie waiting for its new parent)
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatal("QEMU outlived its host process")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHelperHostProcess is the host process of TestHostDeathKillsQemu.
func TestHelperHostProcess(t *testing.T) {
	if os.Getenv("SHELLBOX_QEMU_HELPER") != "1" {
		return
	}
	f, err := New(Options{Acceleration: AccelTCG, Guest: os.Getenv("SHELLBOX_QEMU_GUEST"),
		CacheDir: os.Getenv("SHELLBOX_QEMU_CACHE"), DiskSizeMB: 64})
	if err != nil {
		t.Fatal(err)
	}
	spec := machine.Spec{Source: machine.PreparedImage{Layout: os.Getenv("SHELLBOX_QEMU_LAYOUT"),
		ManifestDigest: os.Getenv("SHELLBOX_QEMU_DIGEST")}, Workdir: "/", Network: machine.NetworkDeny}
	m, err := f.Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	qm := m.(*Machine)
	fmt.Printf("QEMU %d %s\n", qm.cmd.Process.Pid, qm.dir)
	time.Sleep(time.Hour)
}
