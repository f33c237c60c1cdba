package bridge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/agent"
	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
)

func init() {
	extraRoot["open_shell"] = openShell
}

// openShell: {"machine", "mode", "env", "cwd", "bash"} → {"handle",
// "interactive", "mode"}. "auto" takes the best the machine offers.
func openShell(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
	var r wire.OpenShellRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	// The session's commands get env and cwd: the same checks as a Command's.
	if err := (machine.Command{Argv: []string{"sh"}, Env: r.Env, Cwd: r.Cwd}).Validate(); err != nil {
		return Reply{}, err
	}
	o, ok := b.lookup(r.Machine)
	if !ok {
		return Reply{}, fmt.Errorf("handle %d: %w", r.Machine, machine.ErrClosed)
	}
	mo, ok := o.(*machineObject)
	if !ok {
		return Reply{}, &machine.InvalidSpec{Field: "machine", Reason: fmt.Sprintf("handle %d is not a machine", r.Machine)}
	}
	m := mo.machine
	opts := shell.Options{Env: r.Env, Cwd: r.Cwd, Bash: r.Bash}
	own, hasOwn := m.(sessionMachine)
	term, hasTerm := m.(shell.Terminal)
	pm, hasProc := m.(machine.ProcessMachine)
	mode := r.Mode
	if mode == "" || mode == wire.ShellAuto {
		switch {
		case hasOwn:
			mode = wire.ShellOwn
		case hasTerm:
			mode = wire.ShellTerminal
		case hasProc && shell.HasScript(ctx, m):
			mode = wire.ShellScript
		case hasProc:
			mode = wire.ShellPipe
		default:
			mode = wire.ShellOneShot
		}
	}
	var s shell.Session
	switch mode {
	case wire.ShellOwn:
		if !hasOwn {
			return Reply{}, &machine.UnsupportedSpec{Backend: "this", Field: "mode", Reason: "the machine has no persistent shell of its own"}
		}
		var err error
		if s, err = own.OpenSession(opts); err != nil {
			return Reply{}, err
		}
	case wire.ShellTerminal:
		if !hasTerm {
			return Reply{}, &machine.UnsupportedSpec{Backend: "this", Field: "mode", Reason: "the machine cannot allocate a terminal"}
		}
		s = shell.NewTerminalSession(term, opts)
	case wire.ShellScript:
		if !hasProc {
			return Reply{}, &machine.UnsupportedSpec{Backend: "this", Field: "mode", Reason: "the machine has no process sessions"}
		}
		s = shell.NewTerminalSession(shell.ScriptTerminal{Machine: pm}, opts)
	case wire.ShellPipe:
		if !hasProc {
			return Reply{}, &machine.UnsupportedSpec{Backend: "this", Field: "mode", Reason: "the machine has no process sessions"}
		}
		s = shell.NewPipeSession(pm, opts)
	case wire.ShellOneShot:
		one := shell.NewOneShot(m, opts)
		if r.Bash != "" {
			one.Shell = []string{r.Bash, "-c"}
		}
		s = one
	default:
		return Reply{}, &machine.InvalidSpec{Field: "mode", Reason: fmt.Sprintf("unknown shell mode %q", r.Mode)}
	}
	h := b.Add(&shellObject{session: s})
	return Reply{Header: wire.OpenShellReply{Handle: h, Interactive: s.Interactive(), Mode: mode}}, nil
}

// sessionMachine is a machine with its own persistent shell (the ShellSim
// backend, whose processes are not host processes).
type sessionMachine interface {
	OpenSession(opts shell.Options) (shell.Session, error)
}

type shellObject struct {
	session shell.Session

	mu       sync.Mutex
	progress *agent.Result // the last agent run's counts on this shell
}

func (s *shellObject) setProgress(r agent.Result) {
	s.mu.Lock()
	s.progress = &r
	s.mu.Unlock()
}

func (s *shellObject) Release() {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	_ = s.session.Close(ctx)
}

// waitParams converts a shell request's wait (defaultWait when absent) and
// output limit.
func waitParams(w *wire.Seconds, outputLimit *int, defaultWait float64) (time.Duration, int, error) {
	wait := defaultWait
	if w != nil {
		wait = float64(*w)
	}
	d, err := machine.DurationFromSeconds("wait", wait)
	if err != nil {
		return 0, 0, err
	}
	if d < 0 {
		return 0, 0, &machine.InvalidSpec{Field: "wait", Reason: "must not be negative"}
	}
	limit := machine.DefaultOutputLimit
	if outputLimit != nil {
		limit = *outputLimit
	}
	if limit < 0 {
		return 0, 0, &machine.InvalidSpec{Field: "output_limit_bytes", Reason: "must not be negative"}
	}
	return d, limit, nil
}

func updateReply(u shell.Update, err error) (Reply, error) {
	if err != nil {
		return Reply{}, shellError(err)
	}
	return Reply{Header: wire.ShellUpdate{Status: wire.ShellStatus(u.Status), ExitCode: u.ExitCode, Truncated: u.Truncated}, Body: [][]byte{u.Output}}, nil
}

// shellError makes a caller's mistake a Python RuntimeError with the
// session's message, and an unsupported call an UnsupportedMachineSpec.
func shellError(err error) error {
	if errors.Is(err, shell.ErrUnsupported) {
		return &machine.UnsupportedSpec{Backend: "this", Field: "shell", Reason: err.Error()}
	}
	return err
}

func (s *shellObject) Call(ctx context.Context, method string, req, payload []byte) (Reply, error) {
	switch method {
	case "execute":
		var r wire.ShellExecuteRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		if strings.IndexByte(r.Command, 0) >= 0 {
			return Reply{}, &machine.InvalidSpec{Field: "command", Reason: "the command contains a NUL byte"}
		}
		wait, limit, err := waitParams(r.Wait, r.OutputLimitBytes, 120)
		if err != nil {
			return Reply{}, err
		}
		return updateReply(s.session.Execute(ctx, r.Command, wait, limit))
	case "read":
		var r wire.ShellReadRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		wait, limit, err := waitParams(r.Wait, r.OutputLimitBytes, 0)
		if err != nil {
			return Reply{}, err
		}
		return updateReply(s.session.Read(ctx, wait, limit))
	case "write":
		return Reply{}, shellError(s.session.Write(ctx, payload))
	case "interrupt":
		return Reply{}, shellError(s.session.Interrupt(ctx))
	case "agent_progress":
		// The counts of the agent run on this shell so far (null before any):
		// what a caller records when it cancelled the run.
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.progress == nil {
			return Reply{Header: (*wire.AgentResult)(nil)}, nil
		}
		r := agentResult(*s.progress)
		return Reply{Header: &r}, nil
	case "close":
		return Reply{}, s.session.Close(ctx)
	}
	return Reply{}, unknownMethod("shell", method)
}
