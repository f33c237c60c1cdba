// Package machinetest checks a machine backend against the contract of
// package machine, the way testing/fstest checks an fs.FS: a backend's test
// calls Run with its factory and the Capabilities it declares. What a
// backend does not offer is not skipped: the suite asserts the typed
// refusal the contract prescribes for it instead.
package machinetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Capabilities describe a backend to the suite: its test image and what it
// does not offer.
type Capabilities struct {
	// Spec is the base of every machine the suite creates; checks set its
	// Workdir, Env and Network. Its Source must provide a POSIX sh with cat,
	// head, tr, sleep, kill, mkdir, ln, readlink, chmod, stat and id.
	Spec machine.Spec

	// User is a non-root account of the image and UID its uid. "" declares
	// that the backend runs every command as its default user: the suite
	// then asserts that Command.User is refused with an UnsupportedSpec on
	// "user".
	User string
	UID  int

	// Bash is Bash's name or path in the image, for the persistent shell
	// lib/shell runs over the machine; "" when the image has none: the
	// suite then checks the one-shot shell (unless the machine has a
	// persistent shell of its own).
	Bash string

	// NetworkAllow declares that the backend honours Network "allow";
	// otherwise the suite asserts that it is refused (UnsupportedSpec on
	// "network") by CheckEnvironment and Create.
	NetworkAllow bool

	// Simulated declares that commands are not kernel processes (no
	// network interfaces; HTTP goes to virtual routes) and that time is
	// virtual: sleep does not wait in wall-clock time, so the suite blocks
	// a command with a busy loop.
	Simulated bool

	// BatchProcesses declares that OpenProcess's command sees its whole
	// input at once when Stdin is closed and that its output arrives when
	// it ends (no streaming).
	BatchProcesses bool

	// NoProcesses declares that the backend has no process sessions: its
	// machines are not machine.ProcessMachines (the bridge then refuses
	// open_process with UnsupportedMachineSpec); the suite asserts that.
	NoProcesses bool

	// JobGroups declares that a background job (&) gets a process group
	// of its own, as under job control, so that stopping a command (its
	// timeout, its cancellation) leaves its background jobs running; the
	// suite then asserts they survive. Otherwise they die with the command.
	JobGroups bool

	// Resources counts what the backend holds outside this process's
	// goroutines (child processes, networks, volumes); after the leak
	// cycles each count must be back where it was. nil: goroutines only.
	Resources func(ctx context.Context) (map[string]int, error)
	// Released reports what remains of a closed machine (its container,
	// its directory); nil when nothing does. nil: not checked.
	Released func(ctx context.Context, m machine.Machine) error

	// Cycles is the number of create/run/close cycles of the leak check
	// (default 10).
	Cycles int
	// BigOutputMiB is how much each stream prints in the memory-bound
	// check (default 64).
	BigOutputMiB int
	// Timeout is the command timeout the suite uses (default 1s); a slow
	// sandbox may need more time to start a command.
	Timeout time.Duration
}

func (c Capabilities) cycles() int {
	if c.Cycles <= 0 {
		return 10
	}
	return c.Cycles
}

func (c Capabilities) bigOutput() int {
	if c.BigOutputMiB <= 0 {
		return 64
	}
	return c.BigOutputMiB
}

func (c Capabilities) timeout() time.Duration {
	if c.Timeout <= 0 {
		return time.Second
	}
	return c.Timeout
}

// block is a shell command that runs until it is stopped.
func (c Capabilities) block() string {
	if c.Simulated {
		return "while :; do :; done"
	}
	return "sleep 1000"
}

// Run checks the machines of f. The independent checks run in parallel;
// the memory and leak checks run alone afterwards, since they measure the
// whole process.
func Run(t *testing.T, f machine.Factory, caps Capabilities) {
	s := &suite{f: f, caps: caps}
	t.Run("contract", func(t *testing.T) {
		for _, c := range []struct {
			name string
			fn   func(*testing.T)
		}{
			{"ExitCodesAndStreams", s.exitCodesAndStreams},
			{"Arguments", s.arguments},
			{"EnvAndCwd", s.envAndCwd},
			{"MissingProgram", s.missingProgram},
			{"Timeout", s.timeoutCheck},
			{"Cancellation", s.cancellation},
			{"OutputLimits", s.outputLimits},
			{"Persistence", s.persistence},
			{"Users", s.users},
			{"TransferFiles", s.transferFiles},
			{"TransferTrees", s.transferTrees},
			{"TransferEscapes", s.transferEscapes},
			{"DownloadMaxBytes", s.downloadMaxBytes},
			{"OpenProcess", s.openProcess},
			{"ShellSession", s.shellSession},
			{"Network", s.network},
			{"Close", s.closeCheck},
		} {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				c.fn(t)
			})
		}
	})
	t.Run("BoundedOutputMemory", s.boundedOutputMemory)
	t.Run("NoLeaks", s.noLeaks)
}

type suite struct {
	f    machine.Factory
	caps Capabilities
}

// Workdir is the workdir of the suite's machines.
const Workdir = "/workspace"

func (s *suite) spec(edit func(*machine.Spec)) machine.Spec {
	spec := s.caps.Spec
	spec.Workdir = Workdir
	spec.Network = machine.NetworkDeny
	spec.Env = nil
	if edit != nil {
		edit(&spec)
	}
	return spec
}

// machine creates a machine and closes it when the test ends.
func (s *suite) machine(t testing.TB, edit func(*machine.Spec)) machine.Machine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	m, err := s.f.Create(ctx, s.spec(edit))
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() {
		if err := m.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return m
}

// run runs cmd with a 1 MiB output limit unless it has one, and fails the
// test on an error.
func run(t testing.TB, m machine.Machine, cmd machine.Command) machine.Result {
	t.Helper()
	if cmd.OutputLimit == 0 {
		cmd.OutputLimit = machine.DefaultOutputLimit
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := m.Run(ctx, cmd)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd.Argv, err)
	}
	return res
}

func sh(t testing.TB, m machine.Machine, script string) machine.Result {
	t.Helper()
	return run(t, m, machine.Command{Argv: []string{"sh", "-c", script}})
}

// Code is a result's exit code, -1 when it has none.
func Code(r machine.Result) int {
	if r.ExitCode == nil {
		return -1
	}
	return *r.ExitCode
}

func want(t testing.TB, r machine.Result, code int, stdout, stderr string) {
	t.Helper()
	if Code(r) != code || string(r.Stdout) != stdout || string(r.Stderr) != stderr || r.Reason != machine.Exited {
		t.Fatalf("got code %d stdout %q stderr %q reason %s; want %d %q %q", Code(r), r.Stdout, r.Stderr, r.Reason, code, stdout, stderr)
	}
}

// aliveScript prints "alive" when the pid in file is a running process of
// the machine and "gone" otherwise (a zombie is gone: it no longer runs).
func aliveScript(file string) string {
	return `p=$(cat ` + file + `); if kill -0 "$p" 2>/dev/null; then s=$(cut -d' ' -f3 /proc/$p/stat 2>/dev/null); if [ "$s" = Z ]; then echo gone; else echo alive; fi; else echo gone; fi`
}

// alive reports whether the process whose pid is in file runs.
func alive(t testing.TB, m machine.Machine, file string) bool {
	t.Helper()
	r := sh(t, m, aliveScript(file))
	switch strings.TrimSpace(string(r.Stdout)) {
	case "alive":
		return true
	case "gone":
		return false
	}
	t.Fatalf("liveness of %s: %+v (stderr %q)", file, r, r.Stderr)
	return false
}

// waitGone waits up to 10s for the process whose pid is in file to end
// (a killed process may be reaped a little after its group's command
// returned).
func waitGone(t testing.TB, m machine.Machine, file, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for alive(t, m, file) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the process is still running", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// assertUnsupported fails unless err is an UnsupportedSpec on field.
func assertUnsupported(t testing.TB, err error, field, what string) {
	t.Helper()
	var us *machine.UnsupportedSpec
	if !errors.As(err, &us) || us.Field != field {
		t.Fatalf("%s: got %v, want an UnsupportedSpec on %q", what, err, field)
	}
	if kind := machine.KindOf(err); kind != machine.KindUnsupported {
		t.Fatalf("%s: error kind %d", what, kind)
	}
}

// streamDeadline bounds every read of a process's or shell's output in
// the suite: a stream that never ends fails its test, naming the step,
// instead of hanging the package until go test's own timeout.
const streamDeadline = 3 * time.Minute

var errStalled = fmt.Errorf("the stream gave neither data nor its end within %v", streamDeadline)

// bounded runs read, giving up after streamDeadline; a read given up on
// is left running (the failing test ends the machine under it).
func bounded(read func() error) error {
	done := make(chan error, 1)
	go func() { done <- read() }()
	timer := time.NewTimer(streamDeadline)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return errStalled
	}
}

// readAll reads r to its end, refusing an empty read without an error
// (see readFull).
func readAll(r io.Reader) ([]byte, error) {
	var out []byte
	err := bounded(func() error {
		var got []byte
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if errors.Is(err, io.EOF) {
				out = got
				return nil
			}
			if err != nil {
				out = got
				return err
			}
			if n == 0 {
				out = got
				return errors.New("Stdout().Read returned 0 bytes and no error before the end of the stream")
			}
		}
	})
	if errors.Is(err, errStalled) {
		return nil, err // out may still be written to
	}
	return out, err
}
