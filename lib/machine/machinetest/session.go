package machinetest

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
)

// ownSession is a machine with a persistent shell of its own (ShellSim).
type ownSession interface {
	OpenSession(opts shell.Options) (shell.Session, error)
}

// openSession opens the shell an agent would get (as open_shell's "auto"
// does): the machine's own, else Bash on a terminal or on pipes, else a
// one-shot shell when the image has no Bash.
func (s *suite) openSession(t *testing.T, m machine.Machine) shell.Session {
	t.Helper()
	opts := shell.Options{Bash: s.caps.Bash, Env: map[string]string{"G": "g"}}
	if own, ok := m.(ownSession); ok {
		sess, err := own.OpenSession(opts)
		if err != nil {
			t.Fatalf("OpenSession: %v", err)
		}
		return sess
	}
	if s.caps.Bash == "" {
		return shell.NewOneShot(m, opts)
	}
	if term, ok := m.(shell.Terminal); ok {
		return shell.NewTerminalSession(term, opts)
	}
	pm, ok := m.(machine.ProcessMachine)
	if !ok {
		t.Fatalf("%T has Bash but no processes", m)
	}
	return shell.NewPipeSession(pm, opts)
}

func execute(t *testing.T, sess shell.Session, command string) shell.Update {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u, err := sess.Execute(ctx, command, 30*time.Second, 1<<20)
	if err != nil {
		t.Fatalf("Execute(%q): %v", command, err)
	}
	u.Output = bytes.ReplaceAll(u.Output, []byte("\r\n"), []byte("\n")) // a terminal's line ends
	return u
}

func wantUpdate(t *testing.T, u shell.Update, status shell.Status, code int, output string) {
	t.Helper()
	c := -1
	if u.ExitCode != nil {
		c = *u.ExitCode
	}
	if u.Status != status || c != code || string(u.Output) != output {
		t.Fatalf("got %s %d %q, want %s %d %q", u.Status, c, u.Output, status, code, output)
	}
}

// shellSession: the persistent shell keeps the directory, variables and
// functions between commands, reports exit statuses, and starts afresh
// after an exit; an interactive one can be interrupted, a non-interactive
// one refuses input and interrupts as a tool error. Without Bash in the
// image the one-shot shell runs each command on its own.
func (s *suite) shellSession(t *testing.T) {
	m := s.machine(t, nil)
	sess := s.openSession(t, m)
	ctx := context.Background()
	defer sess.Close(ctx)
	_, own := m.(ownSession)
	if !own && s.caps.Bash == "" {
		wantUpdate(t, execute(t, sess, "echo hi $G; (exit 3)"), shell.Completed, 3, "hi g\n")
		execute(t, sess, "cd /tmp; export X=1")
		wantUpdate(t, execute(t, sess, `pwd; echo "${X-unset}"`), shell.Completed, 0, Workdir+"\nunset\n")
	} else {
		wantUpdate(t, execute(t, sess, "export X=1; f() { echo fn$X$G; }; mkdir -p d; cd d"), shell.Completed, 0, "")
		wantUpdate(t, execute(t, sess, "pwd; f; (exit 3)"), shell.Completed, 3, Workdir+"/d\nfn1g\n")
		if sess.Interactive() {
			u, err := sess.Execute(ctx, "echo start; sleep 1000", 500*time.Millisecond, 1<<20)
			if err != nil || u.Status != shell.Running {
				t.Fatalf("a long command: %+v %v, want running", u, err)
			}
			if err := sess.Interrupt(ctx); err != nil {
				t.Fatal(err)
			}
			for u.Status == shell.Running {
				if u, err = sess.Read(ctx, 10*time.Second, 1<<20); err != nil {
					t.Fatal(err)
				}
			}
			if u.Status != shell.Completed || u.ExitCode == nil || *u.ExitCode == 0 {
				t.Fatalf("an interrupted command: %+v", u)
			}
			wantUpdate(t, execute(t, sess, "echo after; f"), shell.Completed, 0, "after\nfn1g\n")
		}
		// The status of a shell that ended is reported when known (Bash
		// on a terminal says "exit" first).
		if u := execute(t, sess, "exit 4"); u.Status != shell.Reset || u.ExitCode != nil && *u.ExitCode != 4 {
			t.Fatalf("exit 4: %+v", u)
		}
		wantUpdate(t, execute(t, sess, `pwd; echo "${X-unset}"`), shell.Completed, 0, Workdir+"\nunset\n")
	}
	if !sess.Interactive() {
		if err := sess.Write(ctx, []byte("x\n")); !shell.IsToolError(err) {
			t.Fatalf("Write to a non-interactive shell: %v, want a tool error", err)
		}
		if err := sess.Interrupt(ctx); !shell.IsToolError(err) {
			t.Fatalf("Interrupt of a non-interactive shell: %v, want a tool error", err)
		}
	}
	for i := 0; i < 2; i++ {
		if err := sess.Close(ctx); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	if _, err := sess.Execute(ctx, "true", time.Second, 10); err == nil {
		t.Fatal("Execute after Close succeeded")
	}
}
