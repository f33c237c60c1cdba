package qemu

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// monitorQEMU starts a paused QEMU whose monitor is a socket pair, as a
// restore does (there as descriptor qmpFD, here 3), and returns a machine
// that knows it and the host's end of the monitor.
func monitorQEMU(t *testing.T) (*Machine, net.Conn) {
	t.Helper()
	if _, err := exec.LookPath("qemu-system-x86_64"); err != nil {
		t.Fatalf("QEMU tests need qemu-system-x86 installed: %v", err)
	}
	conn, qemuEnd, err := channelPair()
	if err != nil {
		t.Fatal(err)
	}
	defer qemuEnd.Close()
	m := &Machine{exited: make(chan struct{})}
	m.cmd = exec.Command("qemu-system-x86_64", "-machine", "microvm", "-accel", "tcg", "-m", "64M",
		"-nodefaults", "-no-user-config", "-display", "none", "-S",
		"-chardev", "socket,id=mon,fd=3", "-mon", "chardev=mon,mode=control")
	m.cmd.ExtraFiles = []*os.File{qemuEnd}
	m.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := m.cmd.Start(); err != nil {
		conn.Close()
		t.Fatal(err)
	}
	go func() {
		m.cmd.Wait()
		close(m.exited)
	}()
	t.Cleanup(func() {
		conn.Close()
		m.cmd.Process.Kill()
		select {
		case <-m.exited:
		case <-time.After(killWait):
			t.Error("QEMU did not exit after SIGKILL")
		}
	})
	return m, conn
}

// TestPipelinedMonitor: commands written before QEMU's main loop runs are
// answered in order; the first refused one fails the exchange, naming it.
func TestPipelinedMonitor(t *testing.T) {
	m, conn := monitorQEMU(t)
	deadline := time.Now().Add(time.Minute)
	if err := m.pipelineQMP(context.Background(), conn, deadline,
		`{"execute":"query-status"}`, `{"execute":"stop"}`); err != nil {
		t.Fatalf("accepted commands: %v", err)
	}
	m, conn = monitorQEMU(t) // a monitor negotiates its capabilities once
	err := m.pipelineQMP(context.Background(), conn, deadline,
		`{"execute":"query-status"}`, `{"execute":"no-such-command"}`, `{"execute":"query-status"}`)
	if err == nil || !strings.Contains(err.Error(), "no-such-command") || !strings.Contains(err.Error(), "CommandNotFound") {
		t.Fatalf("a refused command: %v", err)
	}
}

// TestPipelinedMonitorQEMUExit: QEMU dying before it answers fails the
// exchange at once, saying so, rather than waiting for the deadline.
func TestPipelinedMonitorQEMUExit(t *testing.T) {
	m, conn := monitorQEMU(t)
	m.cmd.Process.Signal(syscall.SIGKILL)
	start := time.Now()
	err := m.pipelineQMP(context.Background(), conn, time.Now().Add(time.Minute), `{"execute":"cont"}`)
	if err == nil || !strings.Contains(err.Error(), "QEMU exited") {
		t.Fatalf("QEMU killed: %v", err)
	}
	if waited := time.Since(start); waited > 30*time.Second {
		t.Fatalf("the exchange waited %v for a dead QEMU", waited)
	}
}
