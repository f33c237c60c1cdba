package files

import (
	"errors"
	"io/fs"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// GNU-style diagnostics, under the short names this package uses.
var (
	errorf  = getopt.Errorf
	missing = getopt.UsageError
	q       = getopt.Quote
)

// umask is the simulator's fixed file-creation mask.
const umask fs.FileMode = 0o022

// runChild runs a child through Sys.Exec. stop is true when the error
// means this process must stop (not for "not found" or "timed out", which
// come with a meaningful status).
func runChild(inv *command.Invocation, req command.ExecRequest) (status int, stop bool) {
	st, err := inv.Sys.Exec(req)
	if err != nil && !errors.Is(err, command.ErrNotFound) && !errors.Is(err, command.ErrTimedOut) {
		return st, true
	}
	return st, false
}
