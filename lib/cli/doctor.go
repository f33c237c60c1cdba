package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/backends/qemu"
	"github.com/shellbox/shellbox/lib/machine"
)

// Report is doctor's verdict on one backend.
type Report struct {
	Backend string `json:"backend"`
	OK      bool   `json:"ok"`
	// Reason says why the backend does not work; "" when OK.
	Reason string `json:"reason,omitempty"`
	// Details are what was found (binaries, versions, drivers), in order.
	Details []Detail `json:"details"`
}

// Detail is one fact doctor found about a backend.
type Detail struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func (r *Report) add(name, format string, args ...any) {
	r.Details = append(r.Details, Detail{name, fmt.Sprintf(format, args...)})
}

func (r *Report) fail(err error) {
	r.OK = false
	r.Reason = err.Error()
}

// doctorTimeout bounds one backend's checks (QEMU's first boot-asset
// preparation and its bounded KVM probe are the slowest).
const doctorTimeout = 2 * time.Minute

func doctor(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags("doctor", "doctor [--backend B[,B...]] [--image I] [--json]", stdio)
	image := fs.String("image", "", "also create a machine of this image on the backends that need one (docker, gvisor, qemu) and run true in it. "+imageHelp)
	asJSON := fs.Bool("json", false, "print the reports as a JSON array")
	only := fs.String("backend", "", "check only these backends (comma-separated); default: all of "+strings.Join(machine.Backends(), ", "))
	if code, done := parse(fs, args, stdio, ExitUsage); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Stderr, "shellbox doctor: unexpected argument %q\n", fs.Arg(0))
		return ExitUsage
	}
	names, err := backendList(*only)
	if err != nil {
		fmt.Fprintln(stdio.Stderr, "shellbox doctor:", err)
		return ExitUsage
	}
	reports := Diagnose(ctx, names, *image)
	if *asJSON {
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(reports); err != nil {
			return ExitFailure
		}
	} else {
		printReports(stdio, reports)
	}
	for _, r := range reports {
		if !r.OK {
			return ExitUnavailable
		}
	}
	return ExitOK
}

// Diagnose checks the named backends concurrently, each bounded by
// doctorTimeout, and returns their reports in the order given. With an
// image, backends that need one also run a test machine of it.
func Diagnose(ctx context.Context, names []string, image string) []Report {
	reports := make([]Report, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, doctorTimeout)
			defer cancel()
			reports[i] = diagnose(cctx, name, image)
		}()
	}
	wg.Wait()
	return reports
}

func diagnose(ctx context.Context, name, image string) Report {
	r := Report{Backend: name, OK: true, Details: []Detail{}}
	if name == local.Name {
		localPrereqs(ctx, &r)
	}
	f, err := machine.Open(name, nil)
	if err != nil {
		r.fail(err)
		return r
	}
	switch f := f.(type) {
	case *local.Factory:
		localDetails(ctx, &r, f)
	case *docker.Factory:
		dockerDetails(ctx, &r, f)
	case *qemu.Factory:
		qemuDetails(ctx, &r, f)
	}
	switch {
	case !r.OK:
	case name == "shellsim":
		smoke(ctx, &r, f, machine.ShellSimBuiltins{}, []string{"echo", "ok"})
	case name != local.Name && image != "":
		src, err := parseImage(name, image)
		if err != nil {
			r.fail(err)
			break
		}
		smoke(ctx, &r, f, src, []string{"true"})
	}
	return r
}

// command runs a host program briefly and returns its first output line.
func command(ctx context.Context, argv ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line, err
}

// localPrereqs records what the local backend depends on before its
// factory probes bubblewrap, so a failure comes with the facts.
func localPrereqs(ctx context.Context, r *Report) {
	if p, err := exec.LookPath("bwrap"); err != nil {
		r.add("bwrap", "not on PATH")
	} else if v, err := command(ctx, p, "--version"); err == nil {
		r.add("bwrap", "%s (%s)", p, v)
	} else {
		r.add("bwrap", "%s (--version failed: %v)", p, err)
	}
	if os.Geteuid() == 0 {
		r.add("user namespaces", "not needed (running as root)")
		return
	}
	for _, knob := range []string{"/proc/sys/user/max_user_namespaces", "/proc/sys/kernel/unprivileged_userns_clone",
		"/proc/sys/kernel/apparmor_restrict_unprivileged_userns"} {
		if b, err := os.ReadFile(knob); err == nil {
			r.add(knob[len("/proc/sys/"):], "%s", strings.TrimSpace(string(b)))
		}
	}
}

func localDetails(ctx context.Context, r *Report, f *local.Factory) {
	if os.Geteuid() != 0 {
		r.add("user namespaces", "work (bubblewrap's probe sandbox started)")
	}
	// The backend's own check: a pids cgroup is what bounds a machine's
	// processes (fork bombs) on this host.
	spec := machine.Spec{Source: machine.HostImage{}, Network: machine.NetworkDeny}
	if err := f.CheckEnvironment(machine.Requirements{Capabilities: []string{"process_limit"}}, spec); err != nil {
		var u *machine.UnsupportedSpec
		if errors.As(err, &u) {
			r.add("pids cgroup", "not delegated: %s", u.Reason)
		} else {
			r.add("pids cgroup", "unknown: %v", err)
		}
	} else {
		r.add("pids cgroup", "delegated (process_limit available)")
	}
	smoke(ctx, r, f, machine.HostImage{}, []string{"true"})
}

func dockerDetails(ctx context.Context, r *Report, f *docker.Factory) {
	r.add("daemon", "%s", f.Host())
	info, err := f.Client().Info(ctx)
	if err != nil {
		r.fail(fmt.Errorf("the Docker daemon at %s answered once, then not: %w", f.Host(), err))
		return
	}
	r.add("server", "Docker %s", info.ServerVersion)
	r.add("storage driver", "%s", info.Driver)
	if rt := f.Runtime(); rt != "" {
		rti := info.Runtimes[rt]
		r.add("runtime", "%s registered (%s %s)", rt, rti.Path, strings.Join(rti.Args, " "))
	} else {
		r.add("runtime", "%s (the daemon's default)", info.DefaultRuntime)
	}
}

func qemuDetails(ctx context.Context, r *Report, f *qemu.Factory) {
	d, err := f.Diagnose(ctx)
	version := d.Version
	if version == "" {
		version = "version unknown"
	}
	r.add("qemu", "%s (%s)", d.QEMU, version)
	r.add("kernel", "%s", d.Kernel)
	r.add("guest", "%s", d.Guest)
	if !d.UserNet {
		r.add("network", "no user-mode networking: network=allow is refused")
	}
	if err != nil {
		r.fail(fmt.Errorf("the QEMU backend's probe failed: %w", err))
		return
	}
	if d.Acceleration == qemu.AccelKVM {
		r.add("accel", "KVM")
	} else {
		r.add("accel", "TCG, slow (KVM: %s)", d.KVMUnavailable)
	}
	r.add("test boot", "a bare guest booted in %s", round(d.Boot))
}

// smoke creates a machine, runs argv and closes it, as proof that the
// backend works end to end.
func smoke(ctx context.Context, r *Report, f machine.Factory, src machine.Source, argv []string) {
	start := time.Now()
	err := func() error {
		m, err := f.Create(ctx, machine.Spec{Source: src, Workdir: "/tmp", Network: machine.NetworkDeny})
		if err != nil {
			return err
		}
		defer m.Close(context.Background())
		res, err := m.Run(ctx, machine.Command{Argv: argv, OutputLimit: 4096, Timeout: 30 * time.Second})
		if err != nil {
			return err
		}
		if res.ExitCode == nil || *res.ExitCode != 0 {
			return fmt.Errorf("%v did not exit 0: %s", argv, strings.TrimSpace(string(res.Stderr)))
		}
		return m.Close(ctx)
	}()
	if err != nil {
		r.fail(fmt.Errorf("a test machine failed: %w", err))
		return
	}
	r.add("test machine", "create+run %s+close in %s", strings.Join(argv, " "), round(time.Since(start)))
}

// printReports writes the reports as an aligned table: one line per
// backend, then its details indented below it.
func printReports(stdio IO, reports []Report) {
	tw := tabwriter.NewWriter(stdio.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BACKEND\tSTATUS\tDETAILS")
	for _, r := range reports {
		status := "ok"
		if !r.OK {
			status = "unavailable"
		}
		first := ""
		if len(r.Details) > 0 {
			first = r.Details[0].Name + ": " + r.Details[0].Value
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Backend, status, first)
		for _, d := range r.Details[min(1, len(r.Details)):] {
			fmt.Fprintf(tw, "\t\t%s: %s\n", d.Name, d.Value)
		}
		if !r.OK {
			fmt.Fprintf(tw, "\t\twhy: %s\n", oneLine(r.Reason))
		}
	}
	tw.Flush()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// round keeps three significant digits or so (ShellSim takes microseconds).
func round(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
