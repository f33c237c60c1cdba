package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "shellbox-probe")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func probe(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// TestProbeHelper: the status passes through; an overrun kills the whole
// process group (a background child too) and says so.
func TestProbeHelper(t *testing.T) {
	bin := build(t)
	if code, out, _ := probe(t, bin, "-timeout", "30s", "--", "sh", "-c", "echo up; exit 3"); code != 3 || out != "up\n" {
		t.Fatalf("exit 3: %d %q", code, out)
	}
	if code, _, _ := probe(t, bin, "--", "sh", "-c", "kill -TERM $$"); code != 128+int(syscall.SIGTERM) {
		t.Fatalf("killed by SIGTERM: %d", code)
	}
	if code, _, errOut := probe(t, bin, "--", "/nonexistent/probe"); code != 127 || !strings.Contains(errOut, "nonexistent") {
		t.Fatalf("missing command: %d %q", code, errOut)
	}
	pidFile := filepath.Join(t.TempDir(), "child")
	start := time.Now()
	code, _, errOut := probe(t, bin, "-timeout", "500ms", "--", "sh", "-c", "sleep 1000 & echo $! > "+pidFile+"; wait")
	if code != timedOutStatus || !strings.HasSuffix(errOut, "\n"+timedOutMarker+"\n") || time.Since(start) > 30*time.Second {
		t.Fatalf("timeout: %d %q after %v", code, errOut, time.Since(start))
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err == nil && !strings.Contains(string(stat), ") Z ") {
		t.Fatalf("the probe's background child %d outlived the timeout: %s", pid, stat)
	}
}
