package shell

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// ScriptTerminal is a Terminal for any ProcessMachine whose software has
// util-linux script(1): script allocates the pseudo-terminal inside the
// machine and relays the process's pipes to it, so Ctrl-C, job control and
// programs that need a terminal behave as on one. Backends that can
// allocate a terminal themselves should implement Terminal instead.
type ScriptTerminal struct {
	Machine machine.ProcessMachine
	Script  string // "" means "script" on the machine's PATH
}

// OpenTerminal runs cmd under script on a fresh terminal of the machine.
func (t ScriptTerminal) OpenTerminal(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	script := t.Script
	if script == "" {
		script = "script"
	}
	quoted := make([]string, len(cmd.Argv))
	for i, a := range cmd.Argv {
		quoted[i] = shellQuote(a)
	}
	c := cmd
	// -q: no banner; -f: flush every write; -e: the command's exit status;
	// -c runs the command line with /bin/sh when SHELL is unset.
	c.Argv = []string{script, "-q", "-f", "-e", "-c", strings.Join(quoted, " "), "/dev/null"}
	return t.Machine.OpenProcess(ctx, c)
}

// killSession kills every process of the shell's session (script starts
// the shell in a session of its own, and its jobs have their own process
// groups in it), with pkill or, without it, by reading /proc.
func (t ScriptTerminal) killSession(ctx context.Context, sid int) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	script := fmt.Sprintf(`pkill -KILL -s %d 2>/dev/null || for d in /proc/[0-9]*; do `+
		`read -r _ _ _ _ _ s _ < "$d/stat" 2>/dev/null && [ "$s" = %d ] && kill -KILL "${d#/proc/}" 2>/dev/null; done; true`, sid, sid)
	_, _ = t.Machine.Run(ctx, machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 1024})
}

// HasScript reports whether m has a script(1) that takes the options
// ScriptTerminal uses (util-linux's does; BusyBox's lacks -e).
func HasScript(ctx context.Context, m machine.Machine) bool {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := m.Run(ctx, machine.Command{Argv: []string{"script", "-q", "-f", "-e", "-c", "exit 7", "/dev/null"}, OutputLimit: 1024})
	return err == nil && res.ExitCode != nil && *res.ExitCode == 7
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
