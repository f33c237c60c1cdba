package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	_ "github.com/shellbox/shellbox/lib/backends/all" // every backend, registered by name
	"github.com/shellbox/shellbox/lib/machine"
)

// Exit codes shared by the subcommands (see the package documentation).
const (
	ExitOK          = 0
	ExitUnavailable = 1
	ExitUsage       = 2
	ExitTimeout     = 124
	ExitBrokenPipe  = 128 + 13 // stdout closed by its reader, as a shell reports SIGPIPE
	ExitFailure     = 125
	ExitInterrupted = 130
)

// IO is where a subcommand reads and writes; a terminal is recognised
// when these are *os.File.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

const usage = `usage: shellbox <command> [options]

commands:
  doctor   which backends work on this host, and exactly why not
  run      run one command in a fresh machine, streaming its output
  shell    an interactive shell in a fresh machine
  bench    create/run/close latencies of each backend
  stage    stage an image as a QEMU disk (QemuBundle)

Run "shellbox <command> --help" for a command's options.

exit codes: doctor and bench exit 0 when every backend asked about works,
1 when some do not, 2 on a usage error; run and shell pass the command's
status through (128+N for a signal N), 124 when run's --timeout expired,
125 when shellbox itself failed (usage included), 130 after Ctrl-C;
stage exits 0, 2 on a usage error, 125 when staging failed.
`

// Main runs the shellbox command with args (without the program name) and
// returns its exit code. SIGINT and SIGTERM cancel the command's context,
// so machines are closed before it returns.
func Main(args []string, stdio IO) int {
	if len(args) == 0 {
		fmt.Fprint(stdio.Stderr, usage)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Writes to a closed stdout (shellbox run ... | head) then fail with
	// EPIPE instead of killing shellbox before it closes the machine. A
	// handler, unlike SIG_IGN, is not inherited by the programs started.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	switch args[0] {
	case "doctor":
		return doctor(ctx, args[1:], stdio)
	case "run":
		return run(ctx, args[1:], stdio)
	case "shell":
		return shellCmd(ctx, args[1:], stdio)
	case "bench":
		return bench(ctx, args[1:], stdio)
	case "stage":
		return stage(ctx, args[1:], stdio)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdio.Stdout, usage)
		return ExitOK
	}
	fmt.Fprintf(stdio.Stderr, "shellbox: unknown command %q\n\n%s", args[0], usage)
	return ExitUsage
}

// newFlags is a subcommand's flag set whose --help prints synopsis and
// the options to stdout (a usage error prints them to stderr).
func newFlags(name, synopsis string, stdio IO) *flag.FlagSet {
	fs := flag.NewFlagSet("shellbox "+name, flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: shellbox %s\n\noptions:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args; done is true when the command should exit with code
// (after --help, 0 with the help on stdout; after a bad flag, usageCode).
func parse(fs *flag.FlagSet, args []string, stdio IO, usageCode int) (code int, done bool) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(stdio.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdio.Stdout)
		fs.Usage()
		return ExitOK, true
	case err != nil:
		fmt.Fprintf(stdio.Stderr, "%s: %v\n", fs.Name(), err)
		fs.Usage()
		return usageCode, true
	}
	return 0, false
}

// envFlag collects repeated -e KEY=VALUE options.
type envFlag map[string]string

func (e envFlag) String() string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k+"="+e[k])
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

func (e envFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not KEY=VALUE", s)
	}
	e[k] = v
	return nil
}

// backendList reads a comma-separated --backend filter; empty means all.
func backendList(s string) ([]string, error) {
	if s == "" {
		return machine.Backends(), nil
	}
	known := map[string]bool{}
	for _, b := range machine.Backends() {
		known[b] = true
	}
	var out []string
	for _, b := range strings.Split(s, ",") {
		b = strings.TrimSpace(b)
		if !known[b] {
			return nil, fmt.Errorf("unknown backend %q (known: %s)", b, strings.Join(machine.Backends(), ", "))
		}
		out = append(out, b)
	}
	return out, nil
}
