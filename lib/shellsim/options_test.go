package shellsim_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/commands/all"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// The machine's programs and filesystem are constructor options: a table
// with one extra command, or none of the built-ins, and a filesystem
// prepared beforehand.
func TestEnvironmentOptions(t *testing.T) {
	hello := command.Entry{Name: "hello", Trust: command.Real, Run: func(inv *command.Invocation) int {
		fmt.Fprintf(inv.Stdout, "hello %s\n", strings.Join(inv.Args[1:], " "))
		return 0
	}}
	ctx := context.Background()

	env := shellsim.NewEnvironment(shellsim.DefaultLimits(), shellsim.WithCommands(all.Commands().Add(hello)))
	defer env.Close()
	if r := env.Run(ctx, "hello world | tr a-z A-Z", nil); string(r.Stdout) != "HELLO WORLD\n" {
		t.Errorf("extended table: %q %q", r.Stdout, r.Stderr)
	}

	bare := shellsim.NewEnvironment(shellsim.DefaultLimits(), shellsim.WithCommands(command.NewTable([]command.Entry{hello})))
	defer bare.Close()
	r := bare.Run(ctx, "hello there; cat /etc/hostname; echo $?", nil)
	if string(r.Stdout) != "hello there\n127\n" || !strings.Contains(string(r.Stderr), "cat: command not found") {
		t.Errorf("bare table: %q %q", r.Stdout, r.Stderr)
	}

	fsys := vfs.NewDefault(vfs.Options{})
	if err := fsys.WriteFile("/work/prepared.txt", []byte("from the caller\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withFS := shellsim.NewEnvironment(shellsim.DefaultLimits(), shellsim.WithFS(fsys))
	defer withFS.Close()
	if r := withFS.Run(ctx, "cat /work/prepared.txt; echo new > /work/n", nil); string(r.Stdout) != "from the caller\n" {
		t.Errorf("WithFS: %q %q", r.Stdout, r.Stderr)
	}
	if b, err := fsys.ReadFile("/work/n"); err != nil || string(b) != "new\n" {
		t.Errorf("the environment does not write to the given filesystem: %q %v", b, err)
	}
}
