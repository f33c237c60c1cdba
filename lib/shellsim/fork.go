package shellsim

import (
	"errors"
	"fmt"

	"github.com/shellbox/shellbox/lib/shellsim/sched"
	"github.com/shellbox/shellbox/lib/shellsim/shell"
)

// ErrForkBusy: an environment with live processes cannot be duplicated.
var ErrForkBusy = errors.New("fork: background jobs are still running; wait for them or kill them first")

// Duplicate returns a deep copy of the environment: files, shell state
// (variables, functions, options, cwd, traps), process table, virtual
// clock, meters and usage, telemetry and HTTP routes. The two are
// independent afterwards. Duplicate refuses (ErrForkBusy) while background jobs
// are alive, since their goroutines cannot be copied, and while the shell
// holds descriptors opened by exec.
func (e *Environment) Duplicate() (*Environment, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	rt, err := e.rt.CopyIdle()
	if errors.Is(err, sched.ErrLiveTasks) {
		return nil, ErrForkBusy
	}
	if err != nil {
		return nil, err
	}
	sh, err := e.sh.CloneTo(rt)
	if err != nil {
		return nil, fmt.Errorf("fork: %w", err)
	}
	c := &Environment{rt: rt, sh: sh, terminal: e.terminal, last: e.last}
	c.last.CommandUsage = append([]shell.CommandUsage(nil), e.last.CommandUsage...)
	return c, nil
}
