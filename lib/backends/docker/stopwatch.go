package docker

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/docker/docker/api/types/events"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"
)

// stopWatch tells machines that their container stopped: its main process
// died, so everything in it did (a gVisor sandbox that a fork bomb ended,
// an OOM kill, a `docker kill` from outside). Some runtimes never report
// the end of an exec whose container died (runsc, after its sandbox went
// away): without this, a command waiting on such an exec would wait for
// ever. It is one subscription to the daemon's "die" events of this
// backend's containers per factory, held while the factory has machines.
//
// The daemon itself may not learn of the death: a gVisor sandbox that a
// fork bomb ended can leave its shim wedged, reporting the container
// running. So, when the daemon runs on this host, the watch also looks at
// each container's init process every initPoll (initAlive).
type stopWatch struct {
	cli *client.Client

	mu       sync.Mutex
	machines map[string]*watched
	cancel   context.CancelFunc // ends the watch; nil without one
}

// watched is one container's entry.
type watched struct {
	stopped chan struct{} // closed when it died
	reason  string        // why, when only the host saw it (set before the close)
	// pid is its init on this host: 0 until known, -1 when it cannot be
	// watched (a remote daemon, or not ours to read).
	pid int
}

// initPoll is how often the init processes are looked at.
const initPoll = 2 * time.Second

// stopReplay is how far back a new subscription asks the daemon to replay
// events, so a container that died while the subscription was being set
// up (or re-established) is not missed; it also covers a daemon whose
// clock is somewhat behind ours.
const stopReplay = 5 * time.Second

// add registers container id, before it starts, and returns a channel
// closed when it dies.
func (w *stopWatch) add(id string) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.machines == nil {
		w.machines = map[string]*watched{}
	}
	e := &watched{stopped: make(chan struct{})}
	w.machines[id] = e
	if w.cancel == nil {
		ctx, cancel := context.WithCancel(context.Background())
		w.cancel = cancel
		go w.run(ctx, time.Now().Add(-stopReplay))
		go w.pollInits(ctx)
	}
	return e.stopped
}

// reason is what the host saw of container id's death, or "".
func (w *stopWatch) reason(id string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e, ok := w.machines[id]; ok {
		return e.reason
	}
	return ""
}

// remove forgets container id; the subscription ends with the last one.
func (w *stopWatch) remove(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.machines, id)
	if len(w.machines) == 0 && w.cancel != nil {
		w.cancel()
		w.cancel = nil
	}
}

// died closes the channel of container id, once; reason is set when the
// host, not the daemon, saw the death.
func (w *stopWatch) died(id, reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e, ok := w.machines[id]; ok {
		select {
		case <-e.stopped:
		default:
			e.reason = reason
			close(e.stopped)
		}
	}
}

// pollInits looks at the init process of every watched container until
// ctx ends; a container whose init is gone (or a zombie) has died.
func (w *stopWatch) pollInits(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(initPoll):
		}
		w.mu.Lock()
		check := make(map[string]int, len(w.machines))
		for id, e := range w.machines {
			select {
			case <-e.stopped:
			default:
				if e.pid >= 0 {
					check[id] = e.pid
				}
			}
		}
		w.mu.Unlock()
		for id, pid := range check {
			if pid == 0 {
				pid = w.initPID(ctx, id)
				if pid == 0 {
					continue
				}
				w.mu.Lock()
				if e, ok := w.machines[id]; ok {
					e.pid = pid
				}
				w.mu.Unlock()
				if pid < 0 {
					continue
				}
			}
			if !initAlive(pid) {
				w.died(id, fmt.Sprintf("the init process of container %.12s (host pid %d) ended, though the daemon still reports it running", id, pid))
			}
		}
	}
}

// initPID is container id's init as a host PID once it runs: -1 when it
// cannot be watched from this host, 0 when not known yet.
func (w *stopWatch) initPID(ctx context.Context, id string) int {
	ictx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	insp, err := w.cli.ContainerInspect(ictx, id)
	switch {
	case err != nil || insp.State == nil:
		return 0
	case !insp.State.Running || insp.State.Pid <= 0:
		if insp.State.Status == "created" {
			return 0
		}
		return -1 // it ended: the events say so
	case !initIsOf(id, insp.State.Pid):
		return -1
	}
	return insp.State.Pid
}

// run follows the daemon's events until ctx ends. A broken stream (the
// daemon restarted, a remote connection dropped) is re-established after
// a pause, replaying from shortly before the last event it delivered.
func (w *stopWatch) run(ctx context.Context, since time.Time) {
	opts := events.ListOptions{Filters: filters.NewArgs(
		filters.Arg("type", string(events.ContainerEventType)),
		filters.Arg("event", string(events.ActionDie)),
		filters.Arg("label", LabelMachine),
	)}
	for {
		opts.Since = fmt.Sprintf("%d.%09d", since.Unix(), since.Nanosecond())
		msgs, errs := w.cli.Events(ctx, opts)
	stream:
		for {
			select {
			case msg := <-msgs:
				if msg.TimeNano > 0 {
					since = time.Unix(0, msg.TimeNano).Add(-stopReplay)
				}
				w.died(msg.Actor.ID, "")
			case <-errs:
				break stream
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}
