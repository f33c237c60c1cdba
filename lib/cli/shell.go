package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
)

const shellSynopsis = "shell --backend B [--image I | --task DIR] [--network deny|allow] [--workdir D] [-e K=V]..."

func shellCmd(ctx context.Context, args []string, stdio IO) int {
	fs := newFlags("shell", shellSynopsis, stdio)
	mf := newMachineFlags(fs)
	program := fs.String("shell", "", "the shell to start (default: bash when the machine has it, else sh)")
	if code, done := parse(fs, args, stdio, ExitFailure); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Stderr, "shellbox shell: unexpected argument %q\n", fs.Arg(0))
		return ExitFailure
	}
	src, err := mf.source()
	if err != nil {
		fmt.Fprintln(stdio.Stderr, "shellbox shell:", err)
		return ExitFailure
	}
	spec, err := mf.spec(src)
	if err != nil {
		fmt.Fprintln(stdio.Stderr, "shellbox shell:", err)
		return ExitFailure
	}
	m, err := create(ctx, stdio, mf.backend, spec)
	if err != nil {
		return failed(ctx, stdio, "shell", err)
	}
	defer m.Close(context.Background())
	if so, ok := m.(sessionOpener); ok {
		// ShellSim: a simulated shell, one complete command per line.
		s, err := so.OpenSession(shell.Options{})
		if err != nil {
			return failed(ctx, stdio, "shell", err)
		}
		defer s.Close(context.Background())
		return lineShell(ctx, stdio, s)
	}
	t, err := terminalOf(ctx, m)
	if err != nil {
		return failed(ctx, stdio, "shell", err)
	}
	// The machine's terminal gets the host terminal's size once: the
	// machine API has no resize, so a later SIGWINCH is not forwarded.
	script := `if command -v bash >/dev/null 2>&1; then exec bash -i; else exec sh -i; fi`
	if *program != "" {
		script = `exec "$0"`
	}
	env := shellEnv(stdio)
	if env["COLUMNS"] != "" {
		script = `stty cols "$COLUMNS" rows "$LINES" 2>/dev/null; ` + script
	}
	argv := []string{"sh", "-c", script}
	if *program != "" {
		argv = append(argv, *program)
	}
	return interact(ctx, stdio, t, machine.Command{Argv: argv, Env: env})
}

// terminalOf is how m gives a terminal: its own (local, qemu), else
// script(1) inside it over pipes (util-linux images on docker, gvisor).
func terminalOf(ctx context.Context, m machine.Machine) (shell.Terminal, error) {
	if t, ok := m.(shell.Terminal); ok {
		return t, nil
	}
	pm, ok := m.(machine.ProcessMachine)
	if !ok {
		return nil, fmt.Errorf("this backend's machines cannot start an interactive process")
	}
	if !shell.HasScript(ctx, m) {
		return nil, fmt.Errorf("this backend allocates no terminal itself and the image has no util-linux script(1) to make one")
	}
	return shell.ScriptTerminal{Machine: pm}, nil
}

// shellEnv passes the host terminal's type and size, so full-screen
// programs draw right.
func shellEnv(stdio IO) map[string]string {
	env := map[string]string{"TERM": "xterm-256color"}
	if t := os.Getenv("TERM"); t != "" {
		env["TERM"] = t
	}
	if f, ok := stdio.Stdout.(*os.File); ok {
		if w, h, err := term.GetSize(int(f.Fd())); err == nil && w > 0 && h > 0 {
			env["COLUMNS"], env["LINES"] = strconv.Itoa(w), strconv.Itoa(h)
		}
	}
	return env
}

// interact connects the host terminal to a terminal process in the
// machine: the host terminal in raw mode (so Ctrl-C, Ctrl-D and arrows
// reach the machine's terminal), bytes copied both ways, until the shell
// exits.
func interact(ctx context.Context, stdio IO, t shell.Terminal, cmd machine.Command) int {
	p, err := t.OpenTerminal(ctx, cmd)
	if err != nil {
		return failed(ctx, stdio, "shell", err)
	}
	defer p.Close(context.Background())
	if f, ok := stdio.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		old, err := term.MakeRaw(int(f.Fd()))
		if err != nil {
			return failed(ctx, stdio, "shell", fmt.Errorf("raw mode: %w", err))
		}
		defer term.Restore(int(f.Fd()), old)
	}
	go func() {
		// Not closed when stdin ends: the shell decides when to exit
		// (EOF on a terminal is Ctrl-D, typed by the user).
		_, _ = io.Copy(p.Stdin(), stdio.Stdin)
	}()
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(stdio.Stdout, p.Stdout())
		close(copied)
	}()
	exit, err := p.Wait(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ExitInterrupted
		}
		return failed(ctx, stdio, "shell", err)
	}
	select {
	case <-copied:
	case <-time.After(time.Second):
	}
	return exit.ExitCode
}

// sessionOpener is a machine whose own shell sessions are the way in
// (ShellSim's, which simulate a shell rather than run one).
type sessionOpener interface {
	OpenSession(opts shell.Options) (shell.Session, error)
}

// lineShell reads one command per line and runs each to completion in s,
// printing its output, until end of input or the shell exits; the status
// is the last command's. A prompt is shown when stdin is a terminal.
func lineShell(ctx context.Context, stdio IO, s shell.Session) int {
	lines := make(chan string)
	go func() {
		defer close(lines)
		in := bufio.NewScanner(stdio.Stdin)
		in.Buffer(make([]byte, 64<<10), 1<<20)
		for in.Scan() {
			select {
			case lines <- in.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	prompt := isTerminal(stdio.Stdin)
	last := 0
	for {
		if prompt {
			fmt.Fprint(stdio.Stdout, "shellsim$ ")
		}
		var line string
		var ok bool
		select {
		case line, ok = <-lines:
		case <-ctx.Done():
			return ExitInterrupted
		}
		if !ok {
			if prompt {
				fmt.Fprintln(stdio.Stdout)
			}
			return last
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		up, err := s.Execute(ctx, line, 0, runOutputLimit)
		if err != nil {
			return failed(ctx, stdio, "shell", err)
		}
		stdio.Stdout.Write(up.Output)
		if up.ExitCode != nil {
			last = *up.ExitCode
		}
		if up.Status == shell.Reset {
			return last
		}
	}
}
