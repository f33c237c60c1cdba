// Command shellbox-probe runs one readiness probe attempt inside a Docker
// member (lib/task): the probe command in its own process group, the whole
// group killed when it overruns -timeout, so the service it probes is not
// disturbed. It is static and needs nothing from the image.
//
//	shellbox-probe -timeout 5s -- COMMAND [ARG]...
//
// Exit status: the command's (128+n when signal n ended it), 127 when it
// cannot start, TimedOutStatus after a timeout with TimedOutMarker as the
// last line on stderr.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Kept in step with lib/backends/docker's probe.go.
const (
	timedOutStatus = 124
	timedOutMarker = "shellbox-probe: timed out"
)

func main() {
	timeout := flag.Duration("timeout", 0, "kill the command's process group after this long (0: never)")
	flag.Parse()
	argv := flag.Args()
	if len(argv) == 0 {
		fmt.Fprintln(os.Stderr, "shellbox-probe: a command is required")
		os.Exit(2)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "shellbox-probe:", err)
		os.Exit(127)
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var expired <-chan time.Time
	if *timeout > 0 {
		expired = time.After(*timeout)
	}
	select {
	case err := <-done:
		// Whatever the command left in its group goes with it.
		syscall.Kill(-pgid, syscall.SIGKILL)
		os.Exit(status(err))
	case <-expired:
		syscall.Kill(-pgid, syscall.SIGKILL)
		<-done
		// Wait until no member of the group is left (the kernel reaps
		// orphans through init; re-send for a fork racing the kill).
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if errors.Is(syscall.Kill(-pgid, syscall.SIGKILL), syscall.ESRCH) {
				break
			}
		}
		fmt.Fprintf(os.Stderr, "\n%s\n", timedOutMarker)
		os.Exit(timedOutStatus)
	}
}

func status(err error) int {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return 0
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return exit.ExitCode()
}
