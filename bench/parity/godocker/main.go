// Command godocker is the Go side of bench/parity: the median of Docker
// Run(["true"]) through lib/backends/docker directly, on the image the
// Python side uses, as JSON ({"go_docker_run_true": seconds}).
//
//	go run ./bench/parity/godocker [-runs 40] [-image shellbox-security/busybox:1]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
)

func main() {
	runs := flag.Int("runs", 40, "Run samples")
	image := flag.String("image", "shellbox-security/busybox:1", "a local image with /bin/sh")
	flag.Parse()
	if err := bench(*runs, *image); err != nil {
		fmt.Fprintln(os.Stderr, "godocker:", err)
		os.Exit(1)
	}
}

func bench(runs int, image string) error {
	ctx := context.Background()
	f, err := docker.New(ctx, docker.Config{})
	if err != nil {
		return err
	}
	m, err := f.Create(ctx, machine.Spec{Source: machine.DockerImage{Reference: image}, Workdir: "/workspace", Network: machine.NetworkDeny})
	if err != nil {
		return err
	}
	defer m.Close(ctx)
	// As the Python bridge sends it.
	cmd := machine.Command{Argv: []string{"true"}, OutputLimit: machine.DefaultOutputLimit, OffHeapOutput: true}
	if _, err := m.Run(ctx, cmd); err != nil { // warm-up
		return err
	}
	out := map[string]float64{}
	for _, mode := range []struct {
		key  string
		n    int
		idle time.Duration
	}{{"go_docker_run_true", runs, 0}, {"go_docker_run_true_after_idle", runs / 2, idle}} {
		samples := make([]time.Duration, 0, mode.n)
		for i := 0; i < mode.n; i++ {
			time.Sleep(mode.idle)
			start := time.Now()
			res, err := m.Run(ctx, cmd)
			if err != nil {
				return err
			}
			if res.Free != nil {
				res.Free()
			}
			samples = append(samples, time.Since(start))
		}
		sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
		out[mode.key] = samples[len(samples)/2].Seconds()
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

// idle is the pause before each *_after_idle sample, as in measure.py.
const idle = 50 * time.Millisecond
