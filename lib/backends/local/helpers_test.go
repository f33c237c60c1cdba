package local

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
)

func newFactory(t testing.TB, o Options) *Factory {
	t.Helper()
	if os.Getenv("SHELLBOX_BIN_DIR") == "" {
		// Prebuilt helpers let the compiled test run as another user.
		helperstest.Build(t)
	}
	f, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return f
}

func hostSpec(mut ...func(*machine.Spec)) machine.Spec {
	s := machine.Spec{Source: machine.HostImage{}, Workdir: "/workspace", Network: machine.NetworkDeny}
	for _, f := range mut {
		f(&s)
	}
	return s
}

func newMachine(t testing.TB, f *Factory, spec machine.Spec) *Machine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := f.Create(ctx, spec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m.(*Machine)
}

func run(t testing.TB, m machine.Machine, cmd machine.Command) machine.Result {
	t.Helper()
	if cmd.OutputLimit == 0 {
		cmd.OutputLimit = machine.DefaultOutputLimit
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := m.Run(ctx, cmd)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd.Argv, err)
	}
	return res
}

func sh(script string) machine.Command {
	return machine.Command{Argv: []string{"sh", "-c", script}}
}

func code(r machine.Result) int {
	if r.ExitCode == nil {
		return -1
	}
	return *r.ExitCode
}

// aliveScript says "alive" when the pid stored in file is a live process
// of the machine and "gone" when it has exited (zombies count as gone).
func aliveScript(file string) machine.Command {
	return sh(`s=$(cut -d' ' -f3 /proc/$(cat ` + file + `)/stat 2>/dev/null); if [ -n "$s" ] && [ "$s" != Z ]; then echo alive; else echo gone; fi`)
}
