package shell

import (
	"context"
	"errors"
	"time"
)

// Status says where the command an Update reports stands.
type Status string

const (
	// Running: the command had not finished when the wait ran out; Read
	// continues it.
	Running Status = "running"
	// Completed: the command finished; ExitCode is its status.
	Completed Status = "completed"
	// Reset: the shell ended (exit, crash); the next command starts a fresh
	// shell in the workdir, files kept.
	Reset Status = "reset"
)

// Update is what one call observed of the current command.
type Update struct {
	Output    []byte
	Status    Status
	ExitCode  *int
	Truncated bool // output beyond the call's limit was dropped for good
}

// Session is one persistent shell.
type Session interface {
	// Interactive reports whether Read, Write and Interrupt work: a
	// non-interactive session runs every command to completion.
	Interactive() bool
	// Execute starts command and waits at most wait for it to finish.
	Execute(ctx context.Context, command string, wait time.Duration, outputLimit int) (Update, error)
	// Read waits at most wait for more of the running command.
	Read(ctx context.Context, wait time.Duration, outputLimit int) (Update, error)
	// Write sends input to the running command (include "\n" to submit a line).
	Write(ctx context.Context, data []byte) error
	// Interrupt sends Ctrl-C to the running command.
	Interrupt(ctx context.Context) error
	// Close ends the shell and everything it started; it is idempotent.
	Close(ctx context.Context) error
}

// Errors an agent can recover from: its tool call was wrong for the
// session's state. Other errors (a closed or dead machine) are not.
var (
	ErrBusy        = errors.New("the previous command is still running: read it, send it input or interrupt it first")
	ErrNoCommand   = errors.New("no command is running")
	ErrUnsupported = errors.New("this shell is not interactive: it only runs complete commands")
)

// IsToolError reports whether err is a mistake of the caller (ErrBusy,
// ErrNoCommand, ErrUnsupported) rather than a failure of the shell.
func IsToolError(err error) bool {
	return errors.Is(err, ErrBusy) || errors.Is(err, ErrNoCommand) || errors.Is(err, ErrUnsupported)
}
