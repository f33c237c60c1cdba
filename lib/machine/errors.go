package machine

import (
	"errors"
	"fmt"
	"strings"
)

// The errors below are the contract's: each is one failure a caller can act
// on (KindOf classifies them).

// InvalidSpec is a value no backend accepts.
type InvalidSpec struct {
	Field  string
	Reason string
}

func (e *InvalidSpec) Error() string { return fmt.Sprintf("invalid %s: %s", e.Field, e.Reason) }

// UnsupportedSpec is a valid spec this backend cannot honour.
type UnsupportedSpec struct {
	Backend string
	Field   string
	Reason  string
}

func (e *UnsupportedSpec) Error() string {
	return fmt.Sprintf("the %s backend does not support %s: %s", e.Backend, e.Field, e.Reason)
}

// StartupError: the machine could not be started.
type StartupError struct {
	Backend string
	Err     error
}

func (e *StartupError) Error() string {
	return fmt.Sprintf("%s machine failed to start: %v", e.Backend, e.Err)
}
func (e *StartupError) Unwrap() error { return e.Err }

// ErrTerminated: the machine ended before Close.
var ErrTerminated = errors.New("machine terminated")

// TerminatedError says why a machine ended early.
type TerminatedError struct{ Reason string }

func (e *TerminatedError) Error() string        { return "machine terminated: " + e.Reason }
func (e *TerminatedError) Is(target error) bool { return target == ErrTerminated }

// ErrClosed: an operation on a machine after Close.
var ErrClosed = errors.New("machine is closed")

// SandboxUnavailable: no candidate sandbox works on this host; it carries
// each candidate's error.
type SandboxUnavailable struct {
	Backend    string
	Hint       string
	Candidates []CandidateError
}

// CandidateError is why one candidate (a binary path, a runtime) failed.
type CandidateError struct {
	Candidate string
	Error     string
}

func (e *SandboxUnavailable) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no working %s sandbox", e.Backend)
	if e.Hint != "" {
		b.WriteString(": " + e.Hint)
	}
	for _, c := range e.Candidates {
		fmt.Fprintf(&b, "; %s: %s", c.Candidate, c.Error)
	}
	return b.String()
}

// InfrastructureError: a stop or cleanup could not be confirmed; the
// machine has been closed.
type InfrastructureError struct {
	Op  string
	Err error
}

func (e *InfrastructureError) Error() string {
	return fmt.Sprintf("%s could not be confirmed: %v", e.Op, e.Err)
}
func (e *InfrastructureError) Unwrap() error { return e.Err }

// InternalError is a panic the library recovered from: a bug, reported to
// the caller instead of taking down the host process.
type InternalError struct {
	Op    string
	Value any
}

func (e *InternalError) Error() string { return fmt.Sprintf("internal error in %s: %v", e.Op, e.Value) }

// DownloadLimitExceeded: a bounded download is larger than its bound; the
// target was left untouched.
type DownloadLimitExceeded struct {
	Path  string
	Limit int64
}

func (e *DownloadLimitExceeded) Error() string {
	return fmt.Sprintf("download of %s exceeds its limit of %d bytes", e.Path, e.Limit)
}

// PathError is a transfer path that does not exist (NotFound) or is not
// allowed.
type PathError struct {
	Op       string
	Path     string
	Reason   string
	NotFound bool
}

func (e *PathError) Error() string { return fmt.Sprintf("%s %s: %s", e.Op, e.Path, e.Reason) }

// Kind classifies an error by what a caller can do about it.
type Kind int

const (
	KindOther              Kind = iota // anything else
	KindInvalid                        // *InvalidSpec
	KindUnsupported                    // *UnsupportedSpec
	KindSandboxUnavailable             // *SandboxUnavailable
	KindStartup                        // *StartupError
	KindTerminated                     // ErrTerminated
	KindInfrastructure                 // *InfrastructureError, *InternalError
	KindDownloadLimit                  // *DownloadLimitExceeded
	KindNotFound                       // *PathError with NotFound
	KindPermission                     // *PathError otherwise
	KindClosed                         // ErrClosed
)

// KindOf classifies err (wrapped errors too). An unsupported spec is also
// invalid; it is KindUnsupported.
func KindOf(err error) Kind {
	var (
		invalid     *InvalidSpec
		unsupported *UnsupportedSpec
		startup     *StartupError
		sandbox     *SandboxUnavailable
		infra       *InfrastructureError
		internal    *InternalError
		limit       *DownloadLimitExceeded
		pathErr     *PathError
	)
	switch {
	case errors.As(err, &unsupported):
		return KindUnsupported
	case errors.As(err, &invalid):
		return KindInvalid
	case errors.As(err, &sandbox):
		return KindSandboxUnavailable
	case errors.As(err, &startup):
		return KindStartup
	case errors.Is(err, ErrTerminated):
		return KindTerminated
	case errors.As(err, &infra), errors.As(err, &internal):
		return KindInfrastructure
	case errors.As(err, &limit):
		return KindDownloadLimit
	case errors.As(err, &pathErr):
		if pathErr.NotFound {
			return KindNotFound
		}
		return KindPermission
	case errors.Is(err, ErrClosed):
		return KindClosed
	}
	return KindOther
}
