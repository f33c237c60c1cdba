// Command shellsim_harness measures the ShellSim harness: the serve round
// trip of `execute` of "echo hi" over a pipe, and the fork of an
// environment holding 1 MiB of files. Each number is printed with a
// baseline measured in the same run (a pipe echo through cat for the round
// trip, copying 1 MiB for the fork) and the ratio to it. Python's
// Environment.run is measured by bench.py next to this file.
//
//	go run ./bench/shellsim_harness [-n 2000]
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

func median(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

// roundTrips sends line n times to a process and times each response line.
func roundTrips(name string, args []string, line []byte, n int) (time.Duration, error) {
	cmd := exec.Command(name, args...)
	in, _ := cmd.StdinPipe()
	outp, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer cmd.Wait()
	defer in.Close()
	r := bufio.NewReaderSize(outp, 1<<20)
	times := make([]time.Duration, 0, n)
	for i := 0; i < n+n/10; i++ {
		began := time.Now()
		if _, err := in.Write(line); err != nil {
			return 0, err
		}
		resp, err := r.ReadBytes('\n')
		if err != nil {
			return 0, err
		}
		if i == 0 && bytes.Contains(resp, []byte(`"ok":false`)) {
			return 0, fmt.Errorf("error response: %s", resp)
		}
		if i >= n/10 { // warm-up excluded
			times = append(times, time.Since(began))
		}
	}
	return median(times), nil
}

func main() {
	n := flag.Int("n", 2000, "iterations")
	bin := flag.String("shellsim", "", "shellsim binary (default: built from ./cmd/shellsim)")
	flag.Parse()
	if *bin == "" {
		dir, _ := os.MkdirTemp("", "shellsim-bench-")
		defer os.RemoveAll(dir)
		*bin = filepath.Join(dir, "shellsim")
		build := exec.Command("go", "build", "-o", *bin, "github.com/shellbox/shellbox/cmd/shellsim")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "build:", err)
			os.Exit(1)
		}
	}
	line := []byte(`{"id":1,"op":"execute","source":"echo hi"}` + "\n")
	base, err := roundTrips("cat", nil, line, *n)
	check(err)
	serve, err := roundTrips(*bin, []string{"serve"}, line, *n)
	check(err)
	report("serve round trip (execute echo hi)", serve, 30*time.Microsecond, "cat echo over the same pipes", base)

	env := shellsim.NewEnvironment(shellsim.Limits{CPU: 1 << 40, Memory: 1 << 30, Disk: 1 << 30, Output: 1 << 30})
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 1024) // 16 KiB
	for i := 0; i < 64; i++ {
		check(env.WriteFile(fmt.Sprintf("/work/data/f%02d", i), chunk, 0o644))
	}
	env.Run(context.Background(), "X=1; cd /work/data", nil)
	forks := make([]time.Duration, 0, *n)
	for i := 0; i < *n; i++ {
		began := time.Now()
		c, err := env.Duplicate()
		forks = append(forks, time.Since(began))
		check(err)
		_ = c
	}
	var sink []byte
	copies := make([]time.Duration, 0, *n)
	for i := 0; i < *n; i++ {
		began := time.Now()
		all := make([][]byte, 64)
		for j := range all {
			all[j] = bytes.Clone(chunk)
		}
		copies = append(copies, time.Since(began))
		sink = all[i%64]
	}
	_ = sink
	report("fork of an environment holding 1 MiB of files", median(forks), 200*time.Microsecond, "copying the same 64×16 KiB", median(copies))

	// A busy environment (a background job sleeping in a loop, then a few
	// actions) is forked by replaying its history since the anchor; the
	// baseline is the idle fork above.
	env.Run(context.Background(), "(while sleep 1; do echo tick >> /work/ticks; done) &", nil)
	for i := 0; i < 5; i++ {
		env.Run(context.Background(), "echo hi > /dev/null; X=$((X+1)); sleep 0.5", nil)
	}
	busy := make([]time.Duration, 0, *n)
	for i := 0; i < *n; i++ {
		began := time.Now()
		c, err := env.Duplicate()
		busy = append(busy, time.Since(began))
		check(err)
		c.Close()
	}
	fmt.Printf("%-48s median %9.1f µs  (no target)  baseline idle fork: %.1f µs  ratio %.2fx\n",
		"fork of a busy environment (job + 6 actions)", us(median(busy)), us(median(forks)), float64(median(busy))/float64(median(forks)))
	env.Close()
	_ = io.Discard
}

func report(what string, got, target time.Duration, baseName string, base time.Duration) {
	status := "meets"
	if got > target {
		status = "MISSES"
	}
	fmt.Printf("%-48s median %9.1f µs  target %6.0f µs (%s)  baseline %s: %.1f µs  ratio %.2fx\n",
		what, us(got), us(target), status, baseName, us(base), float64(got)/float64(base))
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
