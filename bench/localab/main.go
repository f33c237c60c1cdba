// Command localab compares two builds of the sandbox helper in one
// process: a machine on each, Run(["true"]) alternating between them, so
// that load on the machine falls on both alike.
//
//	go run ./bench/localab -a DIR_A -b DIR_B [-n 2000]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
)

func main() {
	a := flag.String("a", "", "directory holding helper build A (shellbox-sandboxd)")
	b := flag.String("b", "", "directory holding helper build B")
	n := flag.Int("n", 2000, "commands on each machine")
	flag.Parse()
	if err := run(*a, *b, *n); err != nil {
		fmt.Fprintln(os.Stderr, "localab:", err)
		os.Exit(1)
	}
}

func run(dirA, dirB string, n int) error {
	ctx := context.Background()
	spec := machine.Spec{Source: machine.HostImage{}, Workdir: "/workspace", Network: machine.NetworkDeny}
	var ms [2]machine.Machine
	for i, d := range []string{dirA, dirB} {
		helpers.SetDir(d)
		f, err := local.New(local.Options{})
		if err != nil {
			return err
		}
		if ms[i], err = f.Create(ctx, spec); err != nil {
			return err
		}
		defer ms[i].Close(ctx)
	}
	cmd := machine.Command{Argv: []string{"true"}, OutputLimit: machine.DefaultOutputLimit}
	var d [2][]time.Duration
	for k := range n + 100 {
		for i, m := range ms {
			start := time.Now()
			r, err := m.Run(ctx, cmd)
			if err != nil {
				return err
			}
			if r.ExitCode == nil || *r.ExitCode != 0 {
				return fmt.Errorf("true failed: %+v", r)
			}
			if k >= 100 {
				d[i] = append(d[i], time.Since(start))
			}
		}
	}
	var miss []time.Duration
	missing := machine.Command{Argv: []string{"/nonexistent"}, OutputLimit: machine.DefaultOutputLimit}
	for range n {
		start := time.Now()
		if _, err := ms[0].Run(ctx, missing); err != nil {
			return err
		}
		miss = append(miss, time.Since(start))
	}
	slices.Sort(miss)
	fmt.Printf("A: a command that cannot start (no fork): median %.3f ms\n", ms2(miss[n/2]))
	if floor := os.Getenv("FLOOR"); floor != "" { // a static program timing posix_spawn+wait of its argument
		if err := ms[0].Upload(ctx, floor, "/workspace/floor"); err != nil {
			return err
		}
		for range 3 {
			r, err := ms[0].Run(ctx, machine.Command{Argv: []string{"/workspace/floor", "/usr/bin/true", "1000"}, OutputLimit: 1 << 20})
			if err != nil {
				return err
			}
			fmt.Printf("in-sandbox posix_spawn floor: %s", r.Stdout)
		}
	}
	for i, name := range []string{"A " + dirA, "B " + dirB} {
		slices.Sort(d[i])
		fmt.Printf("%s: median %.3f ms  p25 %.3f  p10 %.3f\n", name, ms2(d[i][n/2]), ms2(d[i][n/4]), ms2(d[i][n/10]))
	}
	return nil
}

func ms2(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
