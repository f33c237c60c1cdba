// Command relay measures the host HTTP relay (lib/relay) and task groups
// (lib/task) on the local backend, each against a baseline in the same run:
//
//   - the median round trip of a 1 KiB POST from inside a machine through
//     the relay to a host handler, against the same client on the host
//     talking to a host HTTP server with the same handler;
//
//   - the throughput of 16 concurrent clients, both ways;
//
//   - create + ready + close of a two-member local group, against creating
//     and closing two single machines.
//
//     go run ./bench/relay [-n 500] [-groups 20]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/relay"
	"github.com/shellbox/shellbox/lib/task"
)

func main() {
	n := flag.Int("n", 500, "requests per measurement")
	groups := flag.Int("groups", 20, "groups (and pairs of machines) created and closed")
	flag.Parse()
	if err := run(*n, *groups); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type clientResult struct {
	MedianUS  float64 `json:"median_us"`
	PerSecond float64 `json:"per_second"`
}

func run(n, groups int) error {
	dir, err := os.MkdirTemp("", "shellbox-bench-relay-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	build := exec.Command("go", "build", "-o", dir+"/", "./cmd/shellbox-sandboxd", "./cmd/shellbox-relay", "./bench/relay/client")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the helpers (run from the repository root): %v\n%s", err, out)
	}
	helpers.SetDir(dir)
	clientBin := filepath.Join(dir, "client")
	f, err := local.New(local.Options{})
	if err != nil {
		return err
	}
	ctx := context.Background()

	// The same handler both ways: echo the body.
	echo := func(_ context.Context, r relay.Request) (relay.Response, error) {
		return relay.Response{Status: 200, Body: r.Body, ContentType: "application/octet-stream"}, nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		resp, _ := echo(r.Context(), relay.Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: body})
		w.Header().Set("Content-Type", resp.ContentType)
		w.Write(resp.Body)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	direct := func(c int) (clientResult, error) {
		out, err := exec.Command(clientBin, "-url", "http://"+ln.Addr().String()+"/", "-n", fmt.Sprint(n/c), "-c", fmt.Sprint(c)).Output()
		var res clientResult
		if err == nil {
			err = json.Unmarshal(out, &res)
		}
		return res, err
	}

	m, err := f.Create(ctx, machine.Spec{Source: machine.HostImage{}, Workdir: "/workspace", Network: machine.NetworkDeny})
	if err != nil {
		return err
	}
	defer m.Close(ctx)
	if err := m.Upload(ctx, clientBin, "/tmp/client"); err != nil {
		return err
	}
	r, err := relay.Serve(ctx, m, 8300, echo)
	if err != nil {
		return err
	}
	defer r.Close(ctx)
	relayed := func(c int) (clientResult, error) {
		res, err := m.Run(ctx, machine.Command{Argv: []string{"/tmp/client", "-url", r.URL() + "/", "-n", fmt.Sprint(n / c), "-c", fmt.Sprint(c)}, OutputLimit: 1 << 16})
		var out clientResult
		if err == nil && (res.ExitCode == nil || *res.ExitCode != 0) {
			err = fmt.Errorf("client in the machine: %s", res.Stderr)
		}
		if err == nil {
			err = json.Unmarshal(res.Stdout, &out)
		}
		return out, err
	}
	d1, err := direct(1)
	if err != nil {
		return err
	}
	r1, err := relayed(1)
	if err != nil {
		return err
	}
	d16, err := direct(16)
	if err != nil {
		return err
	}
	r16, err := relayed(16)
	if err != nil {
		return err
	}
	fmt.Printf("1 KiB POST round trip, median of %d: relay %.0f µs, direct loopback %.0f µs: %.2fx (target <= 3x)\n", n, r1.MedianUS, d1.MedianUS, r1.MedianUS/d1.MedianUS)
	fmt.Printf("16 concurrent clients: relay %.0f req/s, direct loopback %.0f req/s: %.2fx\n", r16.PerSecond, d16.PerSecond, r16.PerSecond/d16.PerSecond)

	spec := machine.Spec{Source: machine.HostImage{}, Workdir: "/workspace", Network: machine.NetworkDeny}
	probe := &task.Probe{Command: []string{"true"}, Timeout: 10 * time.Second, Interval: 10 * time.Millisecond}
	groupTimes, pairTimes := make([]time.Duration, 0, groups), make([]time.Duration, 0, groups)
	for range groups {
		start := time.Now()
		t, err := task.Create(ctx, f, task.Spec{Primary: "agent", Containers: []task.Container{
			{Name: "agent", Machine: spec}, {Name: "svc", Machine: spec, Command: []string{"sleep", "1000"}, Readiness: probe}}})
		if err != nil {
			return err
		}
		if err := t.WaitReady(ctx, time.Minute); err != nil {
			return err
		}
		if err := t.Close(ctx); err != nil {
			return err
		}
		groupTimes = append(groupTimes, time.Since(start))

		start = time.Now()
		a, err := f.Create(ctx, spec)
		if err != nil {
			return err
		}
		b, err := f.Create(ctx, spec)
		if err != nil {
			return err
		}
		a.Close(ctx)
		b.Close(ctx)
		pairTimes = append(pairTimes, time.Since(start))
	}
	g, p := median(groupTimes), median(pairTimes)
	fmt.Printf("two local members, create+ready+close, median of %d: group %v, two single machines %v: %.2fx\n", groups, g.Round(time.Microsecond), p.Round(time.Microsecond), float64(g)/float64(p))
	return nil
}

func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}
