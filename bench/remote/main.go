// Command remote measures the protocol overhead of the remote backends:
// create + Run(["true"]) + Close of a machine through the Daytona backend
// against lib/remote/daytonad, and through the Iris backend against
// lib/remote/irisd, both serving Docker machines on loopback, versus the
// same cycle on the Docker backend directly. It prints medians and the
// ratios (target: at most 1.3).
//
//	go run ./bench/remote [-n 10]
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"sort"
	"time"

	"github.com/shellbox/shellbox/lib/backends/daytona"
	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/backends/iris"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/daytonad"
	"github.com/shellbox/shellbox/lib/remote/irisd"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// image is the busybox test image under a tag Daytona accepts for a
// snapshot (not :latest).
const image = "shellbox-test/busybox:bench"

func main() {
	n := flag.Int("n", 10, "create+run+close samples per path")
	flag.Parse()
	if err := bench(*n); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func bench(n int) error {
	ctx := context.Background()
	// Other tests may restart the daemon; they wait for this lock.
	lock, err := dockertest.Shared()
	if err != nil {
		return err
	}
	defer lock.Release()
	if err := dockertest.StartDaemon(ctx); err != nil {
		return err
	}
	df, err := docker.New(ctx, docker.Config{Backend: "docker"})
	if err != nil {
		return err
	}
	if err := dockertest.EnsureBusybox(ctx, df.Client()); err != nil {
		return err
	}
	if err := df.Client().ImageTag(ctx, dockertest.BusyboxImage, image); err != nil {
		return err
	}
	source := func(ref string) (machine.Source, error) { return machine.DockerImage{Reference: ref}, nil }

	dsrv, err := daytonad.New(daytonad.Config{APIKey: "bench", Factory: df, Resources: true, Source: source})
	if err != nil {
		return err
	}
	dhs := httptest.NewServer(dsrv.Handler())
	defer dhs.Close()
	defer dsrv.Close(ctx)
	dayf, err := daytona.New(daytona.Options{APIKey: "bench", APIURL: dhs.URL + "/api"})
	if err != nil {
		return err
	}
	isrv, err := irisd.New(irisd.Config{Factory: df, Resources: true, Source: source})
	if err != nil {
		return err
	}
	ihs := httptest.NewServer(isrv.Handler())
	defer ihs.Close()
	defer isrv.Close(ctx)
	irisf, err := iris.New(iris.Options{ControllerURL: ihs.URL, User: "bench"})
	if err != nil {
		return err
	}

	paths := []struct {
		name string
		f    machine.Factory
		spec machine.Spec
	}{
		{"docker (direct)", df, machine.Spec{Source: machine.DockerImage{Reference: image}, Workdir: "/workspace", Network: machine.NetworkDeny}},
		{"daytona -> daytonad -> docker", dayf, machine.Spec{Source: machine.RegistryImage{Reference: image}, Workdir: "/workspace", Network: machine.NetworkDeny}},
		{"iris -> irisd -> docker", irisf, machine.Spec{Source: machine.RegistryImage{Reference: image}, Workdir: "/workspace", Network: machine.NetworkDeny}},
	}
	medians := make([]time.Duration, len(paths))
	runMedians := make([]time.Duration, len(paths))
	for i, p := range paths {
		if _, _, err := cycle(ctx, p.f, p.spec); err != nil { // warm
			return fmt.Errorf("%s: %w", p.name, err)
		}
		var total, runs []time.Duration
		for j := 0; j < n; j++ {
			t, r, err := cycle(ctx, p.f, p.spec)
			if err != nil {
				return fmt.Errorf("%s: %w", p.name, err)
			}
			total, runs = append(total, t), append(runs, r)
		}
		medians[i], runMedians[i] = median(total), median(runs)
	}
	fmt.Printf("%-32s %16s %12s %8s\n", "path (n="+fmt.Sprint(n)+")", "create+run+close", "run(true)", "ratio")
	for i, p := range paths {
		fmt.Printf("%-32s %16v %12v %8.2f\n", p.name, medians[i].Round(time.Millisecond), runMedians[i].Round(100*time.Microsecond),
			float64(medians[i])/float64(medians[0]))
	}
	return nil
}

// cycle creates a machine, runs true in it and closes it; it returns the
// whole time and the Run's.
func cycle(ctx context.Context, f machine.Factory, spec machine.Spec) (time.Duration, time.Duration, error) {
	start := time.Now()
	m, err := f.Create(ctx, spec)
	if err != nil {
		return 0, 0, err
	}
	rs := time.Now()
	res, err := m.Run(ctx, machine.Command{Argv: []string{"true"}, OutputLimit: machine.DefaultOutputLimit})
	run := time.Since(rs)
	if err == nil && (res.ExitCode == nil || *res.ExitCode != 0) {
		err = fmt.Errorf("true: %+v", res)
	}
	if cerr := m.Close(ctx); err == nil {
		err = cerr
	}
	return time.Since(start), run, err
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
