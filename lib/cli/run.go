package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// machineFlags are the options every machine-creating command takes.
type machineFlags struct {
	backend, image, task, network, workdir string
	env                                    envFlag
}

const taskHelp = "a Harbor task directory: start from its environment (task.toml's [environment] docker_image, or environment/Dockerfile built)"

// newMachineFlags registers the machine options on fs.
func newMachineFlags(fs *flag.FlagSet) *machineFlags {
	mf := &machineFlags{env: envFlag{}}
	fs.StringVar(&mf.backend, "backend", "local", "the backend (see shellbox doctor)")
	fs.StringVar(&mf.image, "image", "", imageHelp)
	fs.StringVar(&mf.task, "task", "", taskHelp)
	fs.StringVar(&mf.network, "network", "deny", "deny or allow the machine network access")
	fs.StringVar(&mf.workdir, "workdir", "", "the working directory (default: the image's)")
	fs.Var(mf.env, "e", "set an environment variable KEY=VALUE (repeatable)")
	return mf
}

// source is the machine's image, from --image or --task (whose workdir
// applies unless --workdir is given).
func (mf *machineFlags) source() (machine.Source, error) {
	switch {
	case mf.task != "" && mf.image != "":
		return nil, fmt.Errorf("give --image or --task, not both")
	case mf.task != "":
		src, workdir, err := taskSource(mf.backend, mf.task)
		if mf.workdir == "" {
			mf.workdir = workdir
		}
		return src, err
	}
	return parseImage(mf.backend, mf.image)
}

func (mf *machineFlags) spec(src machine.Source) (machine.Spec, error) {
	s := machine.Spec{Source: src, Workdir: mf.workdir, Env: map[string]string(mf.env), Network: machine.NetworkPolicy(mf.network)}
	return s, s.Validate()
}

// create opens the backend and creates the machine, showing progress:
// creating may pull, build, unpack or stage an image.
func create(ctx context.Context, stdio IO, backend string, spec machine.Spec) (machine.Machine, error) {
	f, err := machine.Open(backend, nil)
	if err != nil {
		return nil, err
	}
	var m machine.Machine
	err = step(stdio, "creating machine", []any{"backend", backend, "image", spec.Source.Kind()}, func() error {
		var err error
		m, err = f.Create(ctx, spec)
		return err
	})
	return m, err
}

const runSynopsis = "run --backend B [--image I | --task DIR] [--network deny|allow] [--timeout S] [--workdir D] [-e K=V]... -- CMD [ARG...]"

func run(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags("run", runSynopsis, stdio)
	mf := newMachineFlags(fs)
	var timeout seconds
	fs.Var(&timeout, "timeout", "stop the command after this many seconds (or a duration such as 1m30s) and exit 124; 0: no limit")
	if code, done := parse(fs, args, stdio, ExitFailure); done {
		return code
	}
	argv := fs.Args()
	if len(argv) == 0 {
		fmt.Fprintln(stdio.Stderr, "shellbox run: no command given (put it after --)")
		fs.Usage()
		return ExitFailure
	}
	src, err := mf.source()
	if err != nil {
		fmt.Fprintln(stdio.Stderr, "shellbox run:", err)
		return ExitFailure
	}
	spec, err := mf.spec(src)
	if err != nil {
		fmt.Fprintln(stdio.Stderr, "shellbox run:", err)
		return ExitFailure
	}
	cmd := machine.Command{Argv: argv, OutputLimit: runOutputLimit}
	if err := cmd.Validate(); err != nil {
		fmt.Fprintln(stdio.Stderr, "shellbox run:", err)
		return ExitFailure
	}
	m, err := create(ctx, stdio, mf.backend, spec)
	if err != nil {
		return failed(ctx, stdio, "run", err)
	}
	// Close on every path; Ctrl-C cancels ctx, so a fresh context.
	defer m.Close(context.Background())
	return runIn(ctx, stdio, m, cmd, time.Duration(timeout), mf.backend != "shellsim")
}

// runOutputLimit bounds what a backend keeps of a buffered stream (stderr
// of a streamed command, both of a buffered one).
const runOutputLimit = 64 << 20

func failed(ctx context.Context, stdio IO, what string, err error) int {
	if ctx.Err() != nil {
		fmt.Fprintf(stdio.Stderr, "shellbox %s: interrupted\n", what)
		return ExitInterrupted
	}
	fmt.Fprintf(stdio.Stderr, "shellbox %s: %v\n", what, err)
	return ExitFailure
}

// runIn runs cmd in m. Machines that can start a process with pipes
// stream its stdout as it comes (stderr arrives when it exits: the
// machine API keeps it until then); ShellSim runs a command to completion,
// so its output is written at the end.
func runIn(ctx context.Context, stdio IO, m machine.Machine, cmd machine.Command, timeout time.Duration, stream bool) int {
	pm, ok := m.(machine.ProcessMachine)
	if !ok || !stream {
		cmd.Timeout = timeout
		if stdio.Stdin != nil && !isTerminal(stdio.Stdin) {
			in, err := io.ReadAll(stdio.Stdin)
			if err != nil {
				return failed(ctx, stdio, "run", fmt.Errorf("reading stdin: %w", err))
			}
			cmd.Stdin = in
		}
		res, err := m.Run(ctx, cmd)
		if err != nil {
			return failed(ctx, stdio, "run", err)
		}
		stdio.Stdout.Write(res.Stdout)
		stdio.Stderr.Write(res.Stderr)
		if res.Reason == machine.TimedOut || res.ExitCode == nil {
			fmt.Fprintf(stdio.Stderr, "shellbox run: timed out after %v\n", timeout)
			return ExitTimeout
		}
		return *res.ExitCode
	}
	p, err := pm.OpenProcess(ctx, cmd)
	if err != nil {
		return failed(ctx, stdio, "run", err)
	}
	defer p.Close(context.Background())
	go feedStdin(stdio.Stdin, p.Stdin())
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if timeout > 0 {
		var stop context.CancelFunc
		wctx, stop = context.WithTimeout(wctx, timeout)
		defer stop()
	}
	copied := make(chan error, 1)
	go func() {
		_, err := io.Copy(&writer{stdio.Stdout}, p.Stdout())
		if errors.Is(err, errStdout) {
			cancel(errStdout) // nobody reads the output: stop the command
		}
		copied <- err
	}()
	exit, err := p.Wait(wctx)
	if err != nil {
		_ = p.Close(context.Background())
		switch {
		case errors.Is(context.Cause(wctx), errStdout):
			return ExitBrokenPipe
		case ctx.Err() != nil:
			fmt.Fprintln(stdio.Stderr, "shellbox run: interrupted; the machine is closed")
			return ExitInterrupted
		case errors.Is(err, context.DeadlineExceeded):
			fmt.Fprintf(stdio.Stderr, "shellbox run: timed out after %v\n", timeout)
			return ExitTimeout
		}
		return failed(ctx, stdio, "run", err)
	}
	// The output pipe closes when the process's last writer exits; a
	// background child holding it must not keep the command from ending.
	select {
	case <-copied:
	case <-time.After(2 * time.Second):
	}
	stdio.Stderr.Write(exit.Stderr)
	return exit.ExitCode
}

// feedStdin gives the process our stdin when it is a pipe or file, and
// EOF right away when it is a terminal (run is not interactive: that is
// what shell is for).
func feedStdin(in io.Reader, w io.WriteCloser) {
	defer w.Close()
	if in == nil || isTerminal(in) {
		return
	}
	if f, ok := in.(*os.File); ok && f == nil {
		return
	}
	_, _ = io.Copy(w, in)
}

// seconds is a --timeout: a number of seconds, or a Go duration.
type seconds time.Duration

func (s *seconds) String() string { return time.Duration(*s).String() }

func (s *seconds) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		f, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) || f > float64(math.MaxInt64/int64(time.Second)) {
			return fmt.Errorf("%q is neither seconds nor a duration", v)
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d < 0 {
		return fmt.Errorf("%q is negative", v)
	}
	*s = seconds(d)
	return nil
}

// errStdout marks a failed write to our stdout (its reader went away).
var errStdout = errors.New("writing stdout failed")

// writer tells failures of the wrapped writer from those of the reader.
type writer struct{ w io.Writer }

func (w *writer) Write(b []byte) (int, error) {
	n, err := w.w.Write(b)
	if err != nil {
		err = fmt.Errorf("%w: %w", errStdout, err)
	}
	return n, err
}
