package command

import "errors"

// ErrTimedOut is returned by System.Exec, together with the child's status
// (128+signal), when ExecRequest.Timeout expired and the child was signalled.
// timeout(1) maps it to exit 124.
var ErrTimedOut = errors.New("timed out")

// ErrNotFound is returned (wrapped) by System.Exec when the command name
// resolves to nothing; the status is then 127 (126 when not executable) and
// the shell-style diagnostic has already been written to the child's stderr.
var ErrNotFound = errors.New("command not found")
