package task

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Host is a factory that can run groups of more than one member.
type Host interface {
	machine.Factory
	// NewGroup prepares the private network of one group whose members
	// are named names (the primary first): each name resolves to the
	// member inside every member. With network NetworkDeny nothing outside
	// the group is reachable; with NetworkAllow the group also has the
	// backend's ordinary route out. It refuses, with an
	// *machine.UnsupportedSpec, what the backend cannot do.
	NewGroup(ctx context.Context, names []string, network machine.NetworkPolicy) (Group, error)
}

// GroupChecker is a Host that can say, without acquiring anything,
// whether it can run groups on this host.
type GroupChecker interface {
	CheckGroup(network machine.NetworkPolicy) error
}

// CheckEnvironment rejects, without acquiring anything, a spec factory f
// cannot run: each member as f.CheckEnvironment sees it, the network
// policy, and more than one member on a backend without groups.
func CheckEnvironment(f machine.Factory, req machine.Requirements, spec Spec) error {
	if err := spec.Validate(); err != nil {
		return err
	}
	network, err := groupNetwork(f, spec)
	if err != nil {
		return err
	}
	for _, c := range spec.Containers {
		if err := f.CheckEnvironment(req, c.Machine); err != nil {
			return fmt.Errorf("container %q: %w", c.Name, err)
		}
	}
	if len(spec.Containers) == 1 {
		return nil
	}
	host, ok := f.(Host)
	if !ok {
		return noGroups(f, len(spec.Containers))
	}
	if gc, ok := host.(GroupChecker); ok {
		return gc.CheckGroup(network)
	}
	return nil
}

// groupNetwork is the one network policy of a group's members: DENY (the
// private network only) or ALLOW (the private network and the backend's
// route out), the same for every member. A one-member task is a plain
// machine and takes any policy its factory does.
func groupNetwork(f machine.Factory, spec Spec) (machine.NetworkPolicy, error) {
	first := spec.Containers[0].Machine.Network
	if len(spec.Containers) == 1 {
		return first, nil
	}
	for i, c := range spec.Containers {
		field := fmt.Sprintf("containers[%d].machine.network", i)
		switch {
		case c.Machine.Network != machine.NetworkDeny && c.Machine.Network != machine.NetworkAllow:
			return "", &machine.UnsupportedSpec{Backend: f.Backend(), Field: field,
				Reason: fmt.Sprintf("a group's members use NetworkPolicy.DENY (private network only) or all NetworkPolicy.ALLOW (with a route out), not %q", c.Machine.Network)}
		case c.Machine.Network != first:
			return "", &machine.UnsupportedSpec{Backend: f.Backend(), Field: field,
				Reason: fmt.Sprintf("the members of a group share one network policy: %q has %q, %q has %q", spec.Containers[0].Name, first, c.Name, c.Machine.Network)}
		}
	}
	return first, nil
}

func noGroups(f machine.Factory, n int) error {
	return &machine.UnsupportedSpec{Backend: f.Backend(), Field: "containers",
		Reason: fmt.Sprintf("the %s backend cannot run a group of %d containers (one shared private network); use local or docker", f.Backend(), n)}
}

// Group is one group's network on a backend.
type Group interface {
	// Start creates a member on the group's network; the primary is
	// started first. image is what the member's image starts by itself
	// (zero when it starts nothing).
	Start(ctx context.Context, c Container) (m machine.Machine, image ImageService, err error)
	// Close releases the network once every member is closed.
	Close(ctx context.Context) error
}

// ImageService is what an image runs by itself: its entrypoint followed
// by its command, in its working directory.
type ImageService struct {
	Entrypoint []string
	Cmd        []string
	Cwd        string // "": the machine's workdir
}

// Argv is the entrypoint followed by the command.
func (s ImageService) Argv() []string {
	if len(s.Entrypoint)+len(s.Cmd) == 0 {
		return nil
	}
	return append(append([]string{}, s.Entrypoint...), s.Cmd...)
}

// ImageCommander is implemented by a machine that knows its image's
// entrypoint and command (used for a one-member task without a Host).
type ImageCommander interface {
	ImageCommand(ctx context.Context) (ImageService, error)
}

// MemberError says which member ended a group, and why.
type MemberError struct {
	Member string
	Reason string
	Output string // the last probe or service output, for diagnosis
	Err    error  // the cancellation or deadline that ended a wait, if any
}

func (e *MemberError) Error() string {
	msg := fmt.Sprintf("task member %q %s", e.Member, e.Reason)
	if e.Output != "" {
		msg += "; last output: " + e.Output
	}
	return msg
}

func (e *MemberError) Unwrap() error { return e.Err }

// Task is a running group.
type Task struct {
	spec    Spec
	group   Group // nil for a one-member task
	members map[string]machine.Machine
	order   []string // creation order, primary first

	mu       sync.Mutex
	ended    error         // why the group was torn down early
	endedCh  chan struct{} // closed when ended is set or Close begins
	ready    map[string]bool
	services []*service

	closeOnce sync.Once
	closeErr  error
	closed    chan struct{}
}

// Create starts every member of spec, primary first, and each supporting
// member's service; it does not wait for readiness (WaitReady does). A
// failure closes what was started. One member runs on any factory; more
// need a Host.
func Create(ctx context.Context, f machine.Factory, spec Spec) (t *Task, err error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	network, err := groupNetwork(f, spec)
	if err != nil {
		return nil, err
	}
	ordered := []Container{}
	for _, c := range spec.Containers {
		if c.Name == spec.Primary {
			ordered = append([]Container{c}, ordered...)
		} else {
			ordered = append(ordered, c)
		}
	}
	t = &Task{spec: spec, members: map[string]machine.Machine{}, ready: map[string]bool{},
		endedCh: make(chan struct{}), closed: make(chan struct{})}
	started := t
	defer func() {
		if err != nil {
			started.Close(context.Background())
		}
	}()
	if len(ordered) > 1 {
		host, ok := f.(Host)
		if !ok {
			return nil, noGroups(f, len(ordered))
		}
		if gc, ok := host.(GroupChecker); ok {
			if err := gc.CheckGroup(network); err != nil {
				return nil, err
			}
		}
		names := make([]string, len(ordered))
		for i, c := range ordered {
			names[i] = c.Name
		}
		if t.group, err = host.NewGroup(ctx, names, network); err != nil {
			return nil, err
		}
	}
	for _, c := range ordered {
		var m machine.Machine
		var image ImageService
		if t.group != nil {
			m, image, err = t.group.Start(ctx, c)
		} else {
			m, err = f.Create(ctx, c.Machine)
			if err == nil && c.Command == nil && c.Name != spec.Primary {
				if ic, ok := m.(ImageCommander); ok {
					image, err = ic.ImageCommand(ctx)
				}
			}
		}
		if m != nil {
			t.members[c.Name] = m
			t.order = append(t.order, c.Name)
		}
		if err != nil {
			return nil, err
		}
		argv, cwd := c.Command, c.ServiceCwd
		if cwd == "" {
			cwd = image.Cwd
		}
		if argv == nil && c.Args != nil {
			argv = append(append([]string{}, image.Entrypoint...), c.Args...)
		}
		if argv == nil && c.Name != spec.Primary {
			argv = image.Argv()
			if argv == nil {
				return nil, &machine.UnsupportedSpec{Backend: f.Backend(), Field: "command",
					Reason: fmt.Sprintf("member %q is a service but its image has no entrypoint or command; give ContainerSpec.command", c.Name)}
			}
		}
		if argv != nil {
			if err := t.startService(ctx, c.Name, m, argv, cwd); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// service is a member's main process.
type service struct {
	member string
	proc   machine.Process
	out    *tail
	done   chan struct{}
}

func (t *Task) startService(ctx context.Context, name string, m machine.Machine, argv []string, cwd string) error {
	pm, ok := m.(machine.ProcessMachine)
	if !ok {
		return &machine.UnsupportedSpec{Field: "command", Reason: "this backend cannot run a member's service (no long-lived processes)"}
	}
	p, err := pm.OpenProcess(ctx, machine.Command{Argv: argv, Cwd: cwd, OutputLimit: tailSize})
	if err != nil {
		return fmt.Errorf("starting the service of member %q: %w", name, err)
	}
	s := &service{member: name, proc: p, out: &tail{}, done: make(chan struct{})}
	p.Stdin().Close()
	t.mu.Lock()
	t.services = append(t.services, s)
	t.mu.Unlock()
	go func() {
		defer close(s.done)
		io.Copy(s.out, p.Stdout())
		exit, werr := p.Wait(context.Background())
		s.out.Write(exit.Stderr)
		reason := fmt.Sprintf("exited with status %d", exit.ExitCode)
		if werr != nil {
			reason = "ended: " + werr.Error()
		}
		// A group never outlives a member's main process.
		t.end(&MemberError{Member: name, Reason: "main process " + reason, Output: s.out.String()})
	}()
	return nil
}

// end tears the group down because of err, once.
func (t *Task) end(err error) {
	t.mu.Lock()
	first := t.ended == nil
	select {
	case <-t.closed:
		first = false // an ordinary Close, not an early end
	default:
	}
	if first {
		t.ended = err
		close(t.endedCh)
	}
	t.mu.Unlock()
	if first {
		go t.Close(context.Background())
	}
}

// Err is why the group ended before Close, or nil.
func (t *Task) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ended
}

// Done is closed when the group ended early (Err says why).
func (t *Task) Done() <-chan struct{} { return t.endedCh }

// Primary is the name of the primary member.
func (t *Task) Primary() string { return t.spec.Primary }

// Members maps member names to their machines.
func (t *Task) Members() map[string]machine.Machine {
	out := make(map[string]machine.Machine, len(t.members))
	for k, v := range t.members {
		out[k] = v
	}
	return out
}

// Names lists the members in creation order, the primary first.
func (t *Task) Names() []string { return append([]string(nil), t.order...) }

// Endpoint is "member:port" of a member's named endpoint, as other members
// reach it.
func (t *Task) Endpoint(member, endpoint string) (string, error) {
	for _, c := range t.spec.Containers {
		if c.Name != member {
			continue
		}
		for _, e := range c.Endpoints {
			if e.Name == endpoint {
				return fmt.Sprintf("%s:%d", member, e.Port), nil
			}
		}
		return "", &machine.InvalidSpec{Field: "endpoint", Reason: fmt.Sprintf("member %q has no endpoint %q", member, endpoint)}
	}
	return "", &machine.InvalidSpec{Field: "member", Reason: fmt.Sprintf("no member %q", member)}
}

// Close closes every member, then the group's network. It is idempotent
// and safe to call concurrently.
func (t *Task) Close(ctx context.Context) error {
	t.closeOnce.Do(func() {
		t.mu.Lock()
		close(t.closed)
		services := t.services
		t.mu.Unlock()
		var errs []error
		// Supporting members first, the primary (which may hold the
		// shared network) last.
		for i := len(t.order) - 1; i >= 0; i-- {
			if err := t.members[t.order[i]].Close(ctx); err != nil {
				errs = append(errs, fmt.Errorf("closing member %q: %w", t.order[i], err))
			}
		}
		for _, s := range services {
			s.proc.Close(ctx)
			select {
			case <-s.done:
			case <-time.After(10 * time.Second):
				errs = append(errs, fmt.Errorf("the service of member %q did not end", s.member))
			}
		}
		if t.group != nil {
			if err := t.group.Close(ctx); err != nil {
				errs = append(errs, err)
			}
		}
		t.closeErr = errors.Join(errs...)
	})
	return t.closeErr
}

// tailSize bounds the output kept of a service or a probe.
const tailSize = 4096

// tail keeps the last tailSize bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tail) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > tailSize {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-tailSize:]...)
	}
	return len(p), nil
}

func (b *tail) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(b.buf), "?"))
}
