package remotemachine

import (
	"context"
	"errors"
	"path"
	"sync"
	"sync/atomic"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/shwrap"
	"github.com/shellbox/shellbox/lib/transfer"
)

// Lifetime is a machine's open-or-closed state.
type Lifetime struct {
	ctx     context.Context
	cancel  context.CancelFunc
	explain Explain

	mu     sync.Mutex
	closed bool
	done   chan struct{}
}

// Explain is a backend's report of an operation's error that the lifetime
// does not settle (what names the operation).
type Explain func(ctx context.Context, what string, err error) error

// NewLifetime is the lifetime of a machine just made, whose backend
// reports errors with explain.
func NewLifetime(explain Explain) *Lifetime {
	ctx, cancel := context.WithCancel(context.Background())
	return &Lifetime{ctx: ctx, cancel: cancel, explain: explain}
}

// Context ends when the machine starts closing, aborting every request in
// flight.
func (l *Lifetime) Context() context.Context { return l.ctx }

// Closed reports whether closing has started.
func (l *Lifetime) Closed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// Op is ctx that also ends when the machine closes, and its release;
// machine.ErrClosed once the machine closed, or ctx's error when it ended.
func (l *Lifetime) Op(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if l.Closed() {
		return nil, nil, machine.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	octx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(l.ctx, cancel)
	return octx, func() { stop(); cancel() }, nil
}

// Report is the error an operation under ctx reports for err: nil for
// nil, machine.ErrClosed once the machine closed, ctx's error when that
// ended, the caller's own mistakes (the typed spec, path and limit errors)
// unchanged, and otherwise the backend's explanation.
func (l *Lifetime) Report(ctx context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	if l.Closed() {
		return machine.ErrClosed
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var (
		us *machine.UnsupportedSpec
		iv *machine.InvalidSpec
		pe *machine.PathError
		le *machine.DownloadLimitExceeded
		se *transfer.SpaceError
	)
	if errors.As(err, &us) || errors.As(err, &iv) || errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) {
		return err
	}
	return l.explain(ctx, what, err)
}

// Do runs op with a context that also ends when the machine closes (Op)
// and returns its result and the error Report makes of its failure.
func Do[T any](ctx context.Context, l *Lifetime, what string, op func(context.Context) (T, error)) (T, error) {
	octx, done, err := l.Op(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	defer done()
	v, err := op(octx)
	return v, l.Report(ctx, what, err)
}

// Do is the package's Do for an operation with no result.
func (l *Lifetime) Do(ctx context.Context, what string, op func(context.Context) error) error {
	_, err := Do(ctx, l, what, func(ctx context.Context) (struct{}, error) { return struct{}{}, op(ctx) })
	return err
}

// Close closes the machine once: the first call marks it closed, ends its
// Context and returns release's error (release runs with ctx, undone from
// ctx's cancellation: a machine being released is released whole); a
// later call waits for that one to end (or for ctx) and returns nil.
func (l *Lifetime) Close(ctx context.Context, release func(context.Context) error) error {
	l.mu.Lock()
	if l.closed {
		done := l.done
		l.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	}
	l.closed = true
	l.done = make(chan struct{})
	l.mu.Unlock()
	defer close(l.done)
	l.cancel()
	return release(context.WithoutCancel(ctx))
}

// UploadPaths checks an upload's host source and guest target and returns
// the target cleaned.
func UploadPaths(source, target string) (string, error) {
	if err := machine.ValidateHostPath("source", source); err != nil {
		return "", err
	}
	if err := machine.ValidateGuestPath("target", target); err != nil {
		return "", err
	}
	return path.Clean(target), nil
}

// DownloadPaths checks a download's guest source and host target and
// returns the source cleaned.
func DownloadPaths(source, target string) (string, error) {
	if err := machine.ValidateGuestPath("source", source); err != nil {
		return "", err
	}
	if err := machine.ValidateHostPath("target", target); err != nil {
		return "", err
	}
	return path.Clean(source), nil
}

// Workdir makes a machine's working directory with the first script that
// succeeds, so a machine costs no call for it at creation.
type Workdir struct {
	dir  string
	made atomic.Bool
}

// NewWorkdir is the working directory dir ("" : none to make).
func NewWorkdir(dir string) *Workdir { return &Workdir{dir: dir} }

// Prelude is the line a script starts with until Made.
func (w *Workdir) Prelude() string {
	if w.dir == "" || w.made.Load() {
		return ""
	}
	return "mkdir -p " + shwrap.Quote(w.dir) + " || exit 1\n"
}

// Pending is the directory to make until Made ("" : none), for a script
// that makes it along with something else (shwrap.RunOptions.Workdir).
func (w *Workdir) Pending() string {
	if w.made.Load() {
		return ""
	}
	return w.dir
}

// Made records that a script with the prelude ran.
func (w *Workdir) Made() { w.made.Store(true) }
