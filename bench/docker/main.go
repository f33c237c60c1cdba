// Command docker benchmarks the docker backend against the docker CLI, for
// the runc and runsc runtimes: machine creation plus a first command
// versus `docker run --rm IMAGE true`, and Run(["true"]) versus
// `docker exec CONTAINER true`, printing medians and ratios.
//
//	go run ./bench/docker [-n 10] [-runs 30] [-cli docker] [-runtimes runc,runsc]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

func main() {
	n := flag.Int("n", 10, "create samples per runtime")
	runs := flag.Int("runs", 30, "Run/exec samples per runtime")
	cli := flag.String("cli", "docker", "docker CLI used as the baseline")
	runtimes := flag.String("runtimes", "runc,runsc", "runtimes to measure (runc is the daemon default)")
	flag.Parse()
	if err := bench(*n, *runs, *cli, strings.Split(*runtimes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type row struct {
	runtime               string
	create, createCLI     time.Duration
	run, exec             time.Duration
	createRatio, runRatio float64
}

func bench(n, runs int, cli string, runtimes []string) error {
	ctx := context.Background()
	var rows []row
	for _, rt := range runtimes {
		name := rt
		if rt == "runc" {
			rt = ""
		}
		f, err := docker.New(ctx, docker.Config{Runtime: rt})
		if err != nil {
			return err
		}
		if err := dockertest.EnsureBusybox(ctx, f.Client()); err != nil {
			return err
		}
		spec := machine.Spec{Source: dockertest.Busybox, Network: machine.NetworkDeny}
		runArgs := []string{"run", "--rm"}
		if rt != "" {
			runArgs = append(runArgs, "--runtime", rt)
			// runsc cannot join the default bridge without the daemon's
			// netns fix; the backend's machines use network none too.
			runArgs = append(runArgs, "--network", "none")
		}
		runArgs = append(runArgs, dockertest.BusyboxImage, "true")
		// Warm both paths once.
		if err := cliRun(cli, runArgs...); err != nil {
			return err
		}
		var creates, cliCreates []time.Duration
		for i := 0; i < n; i++ {
			start := time.Now()
			m, err := f.Create(ctx, spec)
			if err != nil {
				return err
			}
			if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}}); err != nil {
				return err
			}
			creates = append(creates, time.Since(start))
			if err := m.Close(ctx); err != nil {
				return err
			}
			start = time.Now()
			if err := cliRun(cli, runArgs...); err != nil {
				return err
			}
			cliCreates = append(cliCreates, time.Since(start))
		}
		m, err := f.CreateMachine(ctx, spec)
		if err != nil {
			return err
		}
		var runsT, execs []time.Duration
		for i := 0; i < runs; i++ {
			start := time.Now()
			res, err := m.Run(ctx, machine.Command{Argv: []string{"true"}})
			if err != nil || res.ExitCode == nil || *res.ExitCode != 0 {
				m.Close(ctx)
				return fmt.Errorf("run: %+v %v", res, err)
			}
			runsT = append(runsT, time.Since(start))
			start = time.Now()
			if err := cliRun(cli, "exec", m.ContainerName(), "true"); err != nil {
				m.Close(ctx)
				return err
			}
			execs = append(execs, time.Since(start))
		}
		if err := m.Close(ctx); err != nil {
			return err
		}
		r := row{runtime: name, create: median(creates), createCLI: median(cliCreates), run: median(runsT), exec: median(execs)}
		r.createRatio = float64(r.create) / float64(r.createCLI)
		r.runRatio = float64(r.run) / float64(r.exec)
		rows = append(rows, r)
	}
	fmt.Printf("docker backend vs %s CLI (medians; create n=%d, run n=%d)\n", cli, n, runs)
	fmt.Printf("%-8s %14s %16s %7s %7s | %12s %14s %7s %7s\n", "runtime", "create+true", "docker run --rm", "ratio", "<=1.0", "Run(true)", "docker exec", "ratio", "<=0.5")
	for _, r := range rows {
		fmt.Printf("%-8s %14v %16v %7.2f %7v | %12v %14v %7.2f %7v\n", r.runtime,
			r.create.Round(time.Millisecond), r.createCLI.Round(time.Millisecond), r.createRatio, r.createRatio <= 1.0,
			r.run.Round(100*time.Microsecond), r.exec.Round(100*time.Microsecond), r.runRatio, r.runRatio <= 0.5)
	}
	return nil
}

func cliRun(cli string, args ...string) error {
	out, err := exec.Command(cli, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %v: %s", cli, strings.Join(args, " "), err, out)
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
