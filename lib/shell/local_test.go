package shell_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
)

// localMachine is a real bubblewrap machine of the local backend.
func localMachine(t *testing.T) machine.ProcessMachine {
	t.Helper()
	if os.Getenv("SHELLBOX_BIN_DIR") == "" {
		helperstest.Build(t)
	}
	f, err := local.New(local.Options{})
	if err != nil {
		t.Fatalf("local backend: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m, err := f.Create(ctx, machine.Spec{Source: machine.HostImage{}, Workdir: "/workspace", Network: machine.NetworkDeny})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	t.Cleanup(func() { _ = m.Close(context.Background()) })
	return m.(machine.ProcessMachine)
}

func TestPipeSessionInALocalMachine(t *testing.T) {
	m := localMachine(t)
	testLocalSession(t, m, shell.NewPipeSession(m, shell.Options{Env: map[string]string{"GREETING": "hi"}}))
}

func TestScriptTerminalSessionInALocalMachine(t *testing.T) {
	m := localMachine(t)
	if !shell.HasScript(context.Background(), m) {
		t.Fatal("the local machine has no script(1): install util-linux (bsdutils)")
	}
	s := shell.NewTerminalSession(shell.ScriptTerminal{Machine: m}, shell.Options{Env: map[string]string{"GREETING": "hi"}})
	testLocalSession(t, m, s)
}

func testLocalSession(t *testing.T, m machine.ProcessMachine, s *shell.Interactive) {
	defer s.Close(context.Background())
	ctx := context.Background()
	exec := func(cmd string, wait time.Duration) shell.Update {
		t.Helper()
		u, err := s.Execute(ctx, cmd, wait, 1<<20)
		if err != nil {
			t.Fatalf("%q: %v", cmd, err)
		}
		return u
	}
	if u := exec("mkdir -p d && cd d && X=1 && echo $GREETING", 10*time.Second); string(u.Output) != "hi\n" || *u.ExitCode != 0 {
		t.Fatalf("first: %+v", u)
	}
	if u := exec("pwd; echo x=$X", 10*time.Second); string(u.Output) != "/workspace/d\nx=1\n" {
		t.Fatalf("state: %q", u.Output)
	}
	if u := exec("sleep 30", 200*time.Millisecond); u.Status != shell.Running {
		t.Fatalf("sleep: %+v", u)
	}
	if err := s.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	if u, err := s.Read(ctx, 10*time.Second, 100); err != nil || u.Status != shell.Completed || *u.ExitCode != 130 {
		t.Fatalf("interrupted: %+v %v", u, err)
	}
	if u := exec("echo kept > f; exit 2", 10*time.Second); u.Status != shell.Reset {
		t.Fatalf("exit: %+v", u)
	}
	if u := exec("pwd; cat d/f", 10*time.Second); string(u.Output) != "/workspace\nkept\n" {
		t.Fatalf("after reset: %q", u.Output)
	}
	// Closing the machine under the session ends it.
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(ctx, "true", time.Second, 10); err == nil {
		t.Fatal("a session on a closed machine still runs commands")
	}
}

func TestOneShotSessionInALocalMachine(t *testing.T) {
	m := localMachine(t)
	s := shell.NewOneShot(m, shell.Options{})
	u, err := s.Execute(context.Background(), "cd /tmp; echo out; echo err >&2; exit 3", 10*time.Second, 100)
	if err != nil || *u.ExitCode != 3 || string(u.Output) != "out\nerr\n" {
		t.Fatalf("%+v %v", u, err)
	}
	u, _ = s.Execute(context.Background(), "pwd", 10*time.Second, 100)
	if strings.TrimSpace(string(u.Output)) != "/workspace" {
		t.Fatalf("one-shot commands share a directory: %q", u.Output)
	}
}
