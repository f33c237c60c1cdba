// Command local measures the local backend: the median Run(["true"]) on a
// live machine against a bare fork/exec of true and a bare one-shot
// bubblewrap sandbox, and the median Create and Close.
//
//	go run ./bench/local [-n 500] [-machines 50] [-run-only]
//
// -run-only measures Run(["true"]) alone (bench/local.py runs it between
// its own rounds to print the Go figure beside the Python one).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"

	"github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
)

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

func measure(n int, fn func() error) (time.Duration, error) {
	d := make([]time.Duration, 0, n)
	for range n {
		start := time.Now()
		if err := fn(); err != nil {
			return 0, err
		}
		d = append(d, time.Since(start))
	}
	return median(d), nil
}

func main() {
	n := flag.Int("n", 500, "commands per measurement")
	machines := flag.Int("machines", 50, "machines created and closed")
	runOnly := flag.Bool("run-only", false, "measure Run([\"true\"]) alone")
	flag.Parse()
	if err := run(*n, *machines, *runOnly); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(n, machines int, runOnly bool) error {
	if _, err := helpers.Path("shellbox-sandboxd"); err != nil {
		dir, err := os.MkdirTemp("", "shellbox-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		build := exec.Command("go", "build", "-o", dir+"/", "./cmd/shellbox-sandboxd")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("building the helper (run from the repository root): %v\n%s", err, out)
		}
		helpers.SetDir(dir)
	}
	f, err := local.New(local.Options{})
	if err != nil {
		return err
	}
	ctx := context.Background()
	spec := machine.Spec{Source: machine.HostImage{}, Workdir: "/workspace", Network: machine.NetworkDeny}
	m, err := f.Create(ctx, spec)
	if err != nil {
		return err
	}
	defer m.Close(ctx)
	trueCmd := machine.Command{Argv: []string{"true"}, OutputLimit: machine.DefaultOutputLimit}
	runOnce := func() error {
		r, err := m.Run(ctx, trueCmd)
		if err == nil && (r.ExitCode == nil || *r.ExitCode != 0) {
			err = fmt.Errorf("true failed: %+v", r)
		}
		return err
	}
	measure(50, runOnce) // warm up
	cpu := processCPU()
	runTrue, err := measure(n, runOnce)
	if err != nil {
		return err
	}
	runCPU := (processCPU() - cpu) / time.Duration(n)
	if runOnly {
		fmt.Printf("median Run([\"true\"]) on a live machine: %8.3f ms (n=%d)\n", ms(runTrue), n)
		return nil
	}
	bareTrue, err := measure(n, func() error { return exec.Command("true").Run() })
	if err != nil {
		return err
	}
	bridgeTrue, err := throughBridge(n)
	if err != nil {
		return err
	}
	args := []string{"--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try", "--unshare-net",
		"--die-with-parent", "--new-session", "--cap-drop", "ALL", "--tmpfs", "/"}
	for _, d := range []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"} {
		if st, err := os.Lstat(d); err == nil && st.Mode()&os.ModeSymlink != 0 {
			t, _ := os.Readlink(d)
			args = append(args, "--symlink", t, d)
		} else if err == nil {
			args = append(args, "--ro-bind", d, d)
		}
	}
	args = append(args, "--dev", "/dev", "--proc", "/proc", "--", "true")
	bareBwrap, err := measure(min(n, 200), func() error {
		c := exec.Command(f.Bwrap(), args...)
		c.Env = []string{"PATH=/usr/bin:/bin"}
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("bare bwrap: %v: %s", err, out)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var creates, closes []time.Duration
	for range machines {
		start := time.Now()
		mm, err := f.Create(ctx, spec)
		if err != nil {
			return err
		}
		creates = append(creates, time.Since(start))
		start = time.Now()
		if err := mm.Close(ctx); err != nil {
			return err
		}
		closes = append(closes, time.Since(start))
	}
	fmt.Printf("bwrap: %s\n", f.Bwrap())
	fmt.Printf("median Run([\"true\"]) on a live machine: %8.3f ms (n=%d; this process's CPU: %.3f ms a run)\n", ms(runTrue), n, ms(runCPU))
	fmt.Printf("median bare exec.Command(\"true\").Run():  %8.3f ms (n=%d)\n", ms(bareTrue), n)
	fmt.Printf("median Run through lib/bridge (JSON):    %8.3f ms (n=%d)\n", ms(bridgeTrue), n)
	fmt.Printf("median bare one-shot bwrap ... true:     %8.3f ms (n=%d)\n", ms(bareBwrap), min(n, 200))
	fmt.Printf("median Create:                           %8.3f ms (n=%d)\n", ms(median(creates)), machines)
	fmt.Printf("median Close:                            %8.3f ms (n=%d)\n", ms(median(closes)), machines)
	return nil
}

// processCPU is the CPU time this process has used (every thread).
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
