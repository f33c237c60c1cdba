package bridge

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/relay"
	"github.com/shellbox/shellbox/lib/task"
	"github.com/shellbox/shellbox/lib/task/compose"
)

// Task groups (lib/task) and the host HTTP relay (lib/relay).
func init() {
	extraRoot["create_task"] = createTask
	extraRoot["serve_http"] = serveHTTP
	extraRoot["check_task"] = checkTask
	extraRoot["create_compose_task"] = createComposeTask
}

// createComposeTask: a Docker Compose project (lib/task/compose) created
// as a task; the reply is create_task's.
func createComposeTask(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
	var r wire.ComposeTaskRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	f, err := factoryOf(b, r.Factory)
	if err != nil {
		return Reply{}, err
	}
	for _, p := range r.Files {
		if err := machine.ValidateHostPath("files", p); err != nil {
			return Reply{}, err
		}
	}
	spec, err := compose.Load(ctx, compose.Options{Files: r.Files, WorkingDir: r.WorkingDir, Env: r.Env, Primary: r.Primary,
		Workdir: r.Workdir, PrimaryBuild: r.PrimaryBuild, PrimaryImage: r.PrimaryImage, PrimaryEnv: r.PrimaryEnv,
		Network: machine.NetworkPolicy(r.Network)})
	if err != nil {
		return Reply{}, err
	}
	return startTask(b, ctx, f, spec)
}

// checkTask: {"factory": handle, "requirements": ..., "spec": TaskSpec}.
func checkTask(b *Bridge, _ context.Context, req []byte) (Reply, error) {
	var r wire.CheckTaskRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	f, err := factoryOf(b, r.Factory)
	if err != nil {
		return Reply{}, err
	}
	spec, err := taskSpecOf(r.Spec)
	if err != nil {
		return Reply{}, err
	}
	return Reply{}, task.CheckEnvironment(f, requirementsOf(r.Requirements), spec)
}

func factoryOf(b *Bridge, h uint64) (machine.Factory, error) {
	o, ok := b.lookup(h)
	f, isFactory := o.(*factoryObject)
	if !ok || !isFactory {
		return nil, &machine.InvalidSpec{Field: "factory", Reason: "not a factory handle"}
	}
	return f.factory, nil
}

// createTask: {"factory": handle, "spec": TaskSpec} → a task handle and a
// machine handle per member (whose close tears the group down).
func createTask(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
	var r wire.CreateTaskRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	f, err := factoryOf(b, r.Factory)
	if err != nil {
		return Reply{}, err
	}
	spec, err := taskSpecOf(r.Spec)
	if err != nil {
		return Reply{}, err
	}
	return startTask(b, ctx, f, spec)
}

// startTask creates spec's task and replies with its handle and a machine
// handle per member.
func startTask(b *Bridge, ctx context.Context, f machine.Factory, spec task.Spec) (Reply, error) {
	t, err := task.Create(ctx, f, spec)
	if err != nil {
		return Reply{}, err
	}
	members := map[string]wire.TaskMember{}
	for _, name := range t.Names() {
		m := t.Member(name)
		_, processes := t.Members()[name].(machine.ProcessMachine)
		members[name] = wire.TaskMember{Handle: b.Add(&machineObject{bridge: b, machine: m}), Processes: processes}
	}
	return Reply{Header: wire.CreateTaskReply{Handle: b.Add(&taskObject{t: t}), Primary: t.Primary(), Members: members}}, nil
}

type taskObject struct{ t *task.Task }

func (o *taskObject) Release() {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	_ = o.t.Close(ctx)
}

func (o *taskObject) Call(ctx context.Context, method string, req, _ []byte) (Reply, error) {
	switch method {
	case "wait_ready":
		var r wire.WaitReadyRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		var d time.Duration
		if r.Timeout != nil {
			var err error
			if d, err = machine.DurationFromSeconds("timeout", float64(*r.Timeout)); err != nil {
				return Reply{}, err
			}
			if d <= 0 {
				return Reply{}, &machine.InvalidSpec{Field: "timeout", Reason: "must be positive (give None for no timeout)"}
			}
		}
		return Reply{}, o.t.WaitReady(ctx, d)
	case "close":
		return Reply{}, o.t.Close(ctx)
	}
	return Reply{}, unknownMethod("task", method)
}

// serveHTTP: {"machine": handle, "port": n} → a relay handle and the guest
// URL. Python takes requests with "next" and answers with "respond".
func serveHTTP(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
	var r wire.ServeHTTPRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	o, ok := b.lookup(r.Machine)
	m, isMachine := o.(*machineObject)
	if !ok || !isMachine {
		return Reply{}, &machine.InvalidSpec{Field: "machine", Reason: "not a machine handle"}
	}
	ro := &relayObject{queue: make(chan *relayCall, relay.MaxPending), waiting: map[uint64]*relayCall{}}
	rl, err := relay.Start(ctx, m.machine, r.Port, ro.handle)
	if err != nil {
		return Reply{}, err
	}
	ro.r = rl
	return Reply{Header: wire.ServeHTTPReply{Handle: b.Add(ro), URL: rl.URL()}}, nil
}

// relayCall is one request waiting for Python's handler.
type relayCall struct {
	id   uint64
	req  relay.Request
	resp chan relayAnswer
}

type relayAnswer struct {
	resp relay.Response
	err  error
}

type relayObject struct {
	r     relay.Server
	queue chan *relayCall

	mu      sync.Mutex
	next    uint64
	waiting map[uint64]*relayCall
}

// handle hands a request to Python and waits for its answer.
func (o *relayObject) handle(ctx context.Context, req relay.Request) (relay.Response, error) {
	c := &relayCall{req: req, resp: make(chan relayAnswer, 1)}
	o.mu.Lock()
	o.next++
	c.id = o.next
	o.waiting[c.id] = c
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		delete(o.waiting, c.id)
		o.mu.Unlock()
	}()
	select {
	case o.queue <- c:
	case <-ctx.Done():
		return relay.Response{}, ctx.Err()
	}
	select {
	case a := <-c.resp:
		return a.resp, a.err
	case <-ctx.Done():
		return relay.Response{}, ctx.Err()
	}
}

func (o *relayObject) Release() {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	_ = o.r.Close(ctx)
}

func (o *relayObject) Call(ctx context.Context, method string, req, payload []byte) (Reply, error) {
	switch method {
	case "next":
		select {
		case c := <-o.queue:
			return Reply{Header: wire.RelayRequest{ID: c.id, Method: c.req.Method, Path: c.req.Path, Query: c.req.Query},
				Body: [][]byte{c.req.Body}}, nil
		case <-o.r.Done():
			msg := ""
			if err := o.r.Err(); err != nil {
				msg = err.Error()
			}
			return Reply{Header: wire.RelayRequest{Closed: true, Error: msg}, Body: [][]byte{nil}}, nil
		case <-ctx.Done():
			return Reply{}, ctx.Err()
		}
	case "respond":
		var r wire.RelayResponse
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		o.mu.Lock()
		c := o.waiting[r.ID]
		o.mu.Unlock()
		if c == nil {
			return Reply{}, nil // the guest's client left, or the relay closed
		}
		a := relayAnswer{resp: relay.Response{Status: r.Status, ContentType: r.ContentType, Body: append([]byte(nil), payload...)}}
		if r.Failed {
			a.err = fmt.Errorf("the handler raised")
		}
		select {
		case c.resp <- a:
		default:
		}
		return Reply{}, nil
	case "close":
		return Reply{}, o.r.Close(ctx)
	}
	return Reply{}, unknownMethod("relay", method)
}
