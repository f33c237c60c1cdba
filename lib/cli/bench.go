package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Figures are one backend's headline latencies (medians).
type Figures struct {
	Backend string `json:"backend"`
	// Skipped says why the backend was not measured; "" when it was.
	Skipped string `json:"skipped,omitempty"`
	// Cycle is create + run(["true"]) + close of a fresh machine.
	Cycle time.Duration `json:"cycle_ns"`
	// Run is run(["true"]) in a machine that is already up.
	Run time.Duration `json:"run_ns"`
	// Spawn is the same-run baseline: the host starting `true` itself.
	Spawn  time.Duration `json:"host_spawn_ns"`
	Cycles int           `json:"cycles"`
	Runs   int           `json:"runs"`
}

func bench(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags("bench", "bench [--backend B[,B...]] [--image I] [--budget D] [--json]", stdio)
	only := fs.String("backend", "", "measure only these backends (comma-separated); default: all that work")
	image := fs.String("image", "", "the image of backends that need one (docker, gvisor, qemu); without it they are skipped. "+imageHelp)
	budget := fs.Duration("budget", 3*time.Second, "time spent measuring each backend (after its first machine)")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	if code, done := parse(fs, args, stdio, ExitUsage); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Stderr, "shellbox bench: unexpected argument %q\n", fs.Arg(0))
		return ExitUsage
	}
	names, err := backendList(*only)
	if err != nil || *budget <= 0 {
		if err == nil {
			err = fmt.Errorf("--budget must be positive")
		}
		fmt.Fprintln(stdio.Stderr, "shellbox bench:", err)
		return ExitUsage
	}
	code := ExitOK
	var all []Figures
	for _, name := range names {
		fig := measure(ctx, stdio, name, *image, *budget)
		if fig.Skipped != "" && *only != "" {
			code = ExitUnavailable // asked for by name, and not measured
		}
		all = append(all, fig)
		if ctx.Err() != nil {
			return ExitInterrupted
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(all)
		return code
	}
	tw := tabwriter.NewWriter(stdio.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "BACKEND\tCREATE+RUN+CLOSE\tRUN true\tHOST SPAWN true\tSAMPLES\t")
	for _, f := range all {
		if f.Skipped != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t  skipped: %s\n", f.Backend, oneLine(f.Skipped))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d/%d\t\n", f.Backend, ms(f.Cycle), ms(f.Run), ms(f.Spawn), f.Cycles, f.Runs)
	}
	tw.Flush()
	fmt.Fprintln(stdio.Stdout, "medians; SAMPLES is cycles/runs; HOST SPAWN is this host starting `true` itself, measured in the same run")
	return code
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

// measure spends about budget on one backend: half on fresh-machine
// cycles, half on runs in one machine, interleaved with host spawns.
func measure(ctx context.Context, stdio IO, name, image string, budget time.Duration) Figures {
	fig := Figures{Backend: name}
	if image == "" && name != "local" && name != "shellsim" {
		fig.Skipped = "needs --image"
		return fig
	}
	img := image
	if name == "local" || name == "shellsim" {
		img = ""
	}
	src, err := parseImage(name, img)
	if err != nil {
		fig.Skipped = err.Error()
		return fig
	}
	f, err := machine.Open(name, nil)
	if err != nil {
		fig.Skipped = err.Error()
		return fig
	}
	spec := machine.Spec{Source: src, Network: machine.NetworkDeny}
	trueCmd := machine.Command{Argv: []string{"true"}, OutputLimit: 4096, Timeout: time.Minute}
	cycle := func() (time.Duration, error) {
		start := time.Now()
		m, err := f.Create(ctx, spec)
		if err != nil {
			return 0, err
		}
		_, err = m.Run(ctx, trueCmd)
		cerr := m.Close(context.Background())
		if err == nil {
			err = cerr
		}
		return time.Since(start), err
	}
	// The first machine may pull or unpack an image: not a sample.
	if err := step(stdio, "warming up", []any{"backend", name}, func() error { _, err := cycle(); return err }); err != nil {
		fig.Skipped = err.Error()
		return fig
	}
	var cycles, runs, spawns []time.Duration
	spawn := func() {
		start := time.Now()
		if exec.CommandContext(ctx, "true").Run() == nil {
			spawns = append(spawns, time.Since(start))
		}
	}
	deadline := time.Now().Add(budget / 2)
	for len(cycles) < 3 || time.Now().Before(deadline) && len(cycles) < 200 {
		d, err := cycle()
		if err != nil {
			fig.Skipped = err.Error()
			return fig
		}
		cycles = append(cycles, d)
		spawn()
	}
	m, err := f.Create(ctx, spec)
	if err != nil {
		fig.Skipped = err.Error()
		return fig
	}
	defer m.Close(context.Background())
	deadline = time.Now().Add(budget / 2)
	for len(runs) < 5 || time.Now().Before(deadline) && len(runs) < 2000 {
		start := time.Now()
		if _, err := m.Run(ctx, trueCmd); err != nil {
			fig.Skipped = err.Error()
			return fig
		}
		runs = append(runs, time.Since(start))
		spawn()
	}
	fig.Cycle, fig.Run, fig.Spawn = median(cycles), median(runs), median(spawns)
	fig.Cycles, fig.Runs = len(cycles), len(runs)
	return fig
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
