package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/shellbox/shellbox/lib/machine"
)

// Object is anything behind a handle.
type Object interface {
	// Call runs one method. payload is only valid until Call returns.
	Call(ctx context.Context, method string, req []byte, payload []byte) (Reply, error)
	// Release frees the object when its handle is dropped without a close.
	Release()
}

// Reply is a method's answer: Header is encoded as JSON; Body segments are
// passed raw, one after the other, and their lengths travel in the reply
// frame so the receiver can cut them apart without copying.
type Reply struct {
	Header any
	Body   [][]byte
	// Free, when set, runs once the reply has been delivered: it returns
	// Body's memory (output kept off the heap, see machine.Output).
	Free func()
}

// Root is handle 0: it opens factories and sets process-wide options.
const Root uint64 = 0

// Bridge owns the handle table and the in-flight calls.
type Bridge struct {
	next    atomic.Uint64
	mu      sync.Mutex
	objects map[uint64]Object
	calls   map[uint64]context.CancelFunc
	closed  bool
}

// New makes an empty bridge.
func New() *Bridge {
	return &Bridge{objects: map[uint64]Object{}, calls: map[uint64]context.CancelFunc{}}
}

// Add registers an object and returns its handle.
func (b *Bridge) Add(o Object) uint64 {
	h := b.next.Add(1)
	b.mu.Lock()
	b.objects[h] = o
	b.mu.Unlock()
	return h
}

func (b *Bridge) lookup(h uint64) (Object, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	o, ok := b.objects[h]
	return o, ok
}

// Drop removes a handle from the table without calling Release.
func (b *Bridge) Drop(h uint64) {
	b.mu.Lock()
	delete(b.objects, h)
	b.mu.Unlock()
}

// Done receives the outcome of a call.
type Done func(header []byte, body [][]byte, err error)

// Start runs a call in its own goroutine and reports it through done.
// The call can be cancelled with Cancel(callID) until done is invoked.
func (b *Bridge) Start(callID, handle uint64, method string, req, payload []byte, done Done) {
	ctx, cancel := context.WithCancel(context.Background())
	b.mu.Lock()
	b.calls[callID] = cancel
	b.mu.Unlock()
	var finish func() (Reply, error)
	func() {
		defer recoverTo(method, func(err error) { finish = func() (Reply, error) { return Reply{}, err } })
		finish, _ = b.begin(ctx, handle, method, req, payload)
	}()
	go func() {
		reported := false
		defer recoverTo(method, func(err error) {
			if !reported {
				done(nil, nil, err)
			}
		})
		header, body, free, err := b.finish(ctx, handle, method, req, payload, finish)
		defer release(body, free)
		b.mu.Lock()
		delete(b.calls, callID)
		b.mu.Unlock()
		cancel()
		reported = true
		done(header, body, err)
	}()
}

// Call runs a call in the calling goroutine and reports it through done
// before returning; it cannot be cancelled. Short calls made by a thread
// that waits anyway (the Python embedding's synchronous API) save the
// hand-over to another thread.
func (b *Bridge) Call(handle uint64, method string, req, payload []byte, done Done) {
	header, body, free, err := b.call(context.Background(), handle, method, req, payload)
	defer release(body, free)
	done(header, body, err)
}

// Cancel cancels an in-flight call; unknown ids are ignored (the call may
// have just finished).
func (b *Bridge) Cancel(callID uint64) {
	b.mu.Lock()
	cancel := b.calls[callID]
	b.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (b *Bridge) call(ctx context.Context, handle uint64, method string, req, payload []byte) (header []byte, body [][]byte, free func(), err error) {
	return b.finish(ctx, handle, method, req, payload, nil)
}

// finish runs a call, or the rest of it when begin started it (finish is then not nil).
func (b *Bridge) finish(ctx context.Context, handle uint64, method string, req, payload []byte,
	begun func() (Reply, error)) (header []byte, body [][]byte, free func(), err error) {
	defer recoverTo(method, func(e error) {
		if free != nil {
			free()
		}
		header, body, free, err = nil, nil, nil, e
	})
	var reply Reply
	switch {
	case begun != nil:
		reply, err = begun()
	case handle == Root:
		reply, err = b.rootCall(ctx, method, req)
	case method == "release":
		b.mu.Lock()
		o, ok := b.objects[handle]
		delete(b.objects, handle)
		b.mu.Unlock()
		if ok {
			o.Release()
		}
	default:
		o, ok := b.lookup(handle)
		if !ok {
			return nil, nil, nil, fmt.Errorf("handle %d: %w", handle, machine.ErrClosed)
		}
		reply, err = o.Call(ctx, method, req, payload)
	}
	free = reply.Free
	if err != nil {
		return nil, nil, free, err
	}
	if reply.Header == nil {
		reply.Header = struct{}{}
	}
	header, err = json.Marshal(reply.Header)
	return header, reply.Body, free, err
}

// Shutdown releases every object (closing machines) and refuses new
// handles; the library calls it when its host process exits.
func (b *Bridge) Shutdown() {
	b.mu.Lock()
	objs := b.objects
	b.objects = map[uint64]Object{}
	b.closed = true
	for _, cancel := range b.calls {
		cancel()
	}
	b.mu.Unlock()
	var wg sync.WaitGroup
	for _, o := range objs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer recoverTo("release", func(error) {})
			o.Release()
		}()
	}
	wg.Wait()
}

// bigReply is the size of reply segments after which the Go heap is
// returned to the system at once rather than when the runtime gets to it.
const bigReply = 64 << 20

// release frees a delivered reply's memory.
func release(body [][]byte, free func()) {
	if free != nil {
		free()
		return
	}
	size := 0
	for _, b := range body {
		size += len(b)
	}
	if size >= bigReply {
		go debug.FreeOSMemory() // a full collection: not on the caller's time
	}
}

// Move copies src to dst (len(dst) >= len(src)) a slice at a time,
// returning each copied slice of off-heap output to the system as it goes,
// so that a large reply is never resident twice.
func Move(dst, src []byte) {
	const step = 16 << 20
	for off := 0; off < len(src); off += step {
		end := min(off+step, len(src))
		copy(dst[off:end], src[off:end])
		machine.Discard(src[off:end])
	}
}

// recoverTo, deferred at the top of every goroutine that does a call's
// work, turns a panic into a *machine.InternalError handed to report, and
// logs the stack to stderr: a bug must not take down the host process.
// (Goroutines that backends start are theirs to guard.)
func recoverTo(op string, report func(error)) {
	r := recover()
	if r == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "shellbox: panic in %s: %v\n%s", op, r, debug.Stack())
	report(&machine.InternalError{Op: op, Value: r})
}
