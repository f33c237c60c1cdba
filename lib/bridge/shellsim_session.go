package bridge

import (
	"context"
	"fmt"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shell"
)

func init() {
	extraRoot["open_shellsim_session"] = openShellSimSession
	// open_shell in "auto" (or "shellsim") mode on a machine with its own
	// persistent shell opens that shell: the generic modes would drive a
	// ShellSim machine's pipes, which only run complete commands. (This
	// file's init runs after shell_objects.go's: files initialise in name
	// order.)
	if prev := extraRoot["open_shell"]; prev != nil {
		extraRoot["open_shell"] = func(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
			var r struct {
				Machine uint64 `json:"machine"`
				Mode    string `json:"mode"`
			}
			if decode(req, &r) == nil && (r.Mode == "" || r.Mode == "auto" || r.Mode == "shellsim") {
				if o, ok := b.lookup(r.Machine); ok {
					if mo, ok := o.(*machineObject); ok {
						if _, ok := mo.machine.(sessionMachine); ok {
							return openShellSimSession(b, ctx, req)
						}
					}
				}
			}
			return prev(b, ctx, req)
		}
	}
}

// sessionMachine is a machine with its own persistent shell (the
// shellsim backend).
type sessionMachine interface {
	OpenSession(opts shell.Options) (shell.Session, error)
}

// openShellSimSession: {"machine", "env", "cwd"} → {"handle",
// "interactive", "mode"}: the machine's own persistent shell.
func openShellSimSession(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
	var r struct {
		Machine uint64            `json:"machine"`
		Env     map[string]string `json:"env"`
		Cwd     string            `json:"cwd"`
	}
	if err := decode(req, &r); err != nil {
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
	sm, ok := mo.machine.(sessionMachine)
	if !ok {
		return Reply{}, &machine.UnsupportedSpec{Backend: "this", Field: "session", Reason: "the machine has no persistent shell of its own"}
	}
	s, err := sm.OpenSession(shell.Options{Env: r.Env, Cwd: r.Cwd})
	if err != nil {
		return Reply{}, err
	}
	h := b.Add(&shellObject{session: s})
	return Reply{Header: struct {
		Handle      uint64 `json:"handle"`
		Interactive bool   `json:"interactive"`
		Mode        string `json:"mode"`
	}{h, false, "shellsim"}}, nil
}
