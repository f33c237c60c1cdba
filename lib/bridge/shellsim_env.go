package bridge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/command"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all" // the built-in commands
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/net" // curl, wget, net
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

func init() {
	extraRoot["shellsim_environment"] = newShellSimEnvironment
}

// newShellSimEnvironment: {"limits": {"cpu", "memory", "disk", "output"}}
// → {"handle"}: an embedded ShellSim environment (shellbox.shellsim).
func newShellSimEnvironment(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
	var r wire.SimEnvironmentRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	l := shellsim.DefaultLimits()
	if r.Limits != nil {
		l = *r.Limits
	}
	return Reply{Header: wire.HandleReply{Handle: b.Add(&simObject{bridge: b, env: shellsim.NewEnvironment(l)})}}, nil
}

// simObject is one embedded environment. Its methods: run, write_file,
// read_file, mkdir, mount, fork, route_http, state, close.
type simObject struct {
	bridge *Bridge
	env    *shellsim.Environment
	mu     sync.Mutex
	closed bool
}

func (s *simObject) Release() { s.close() }

func (s *simObject) close() {
	s.mu.Lock()
	closed := s.closed
	s.closed = true
	s.mu.Unlock()
	if !closed {
		s.env.Interrupt()
		s.env.Close()
	}
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (s *simObject) Call(ctx context.Context, method string, req, payload []byte) (Reply, error) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed && method != "close" && method != "state" {
		return Reply{}, fmt.Errorf("shellsim environment: %w", machine.ErrClosed)
	}
	mode := func(m *uint32, def fs.FileMode) fs.FileMode {
		if m != nil {
			return fs.FileMode(*m) & 0o7777
		}
		return def
	}
	e := s.env
	switch method {
	case "run":
		var r wire.SimRunRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		before, _ := e.NetworkRequests()
		// Execute, not Run: it ignores a cancellation that raced the end of
		// an earlier call.
		res := e.Execute(ctx, shellsim.Action{Source: r.Source, Stdin: payload}, false).Result
		after, dropped := e.NetworkRequests()
		h := simRunReply(res, e.Terminated(), dropped)
		if len(after) > len(before) {
			for _, rec := range after[len(before):] {
				h.NetworkRequests = append(h.NetworkRequests, wire.SimHTTPRequest{Method: rec.Method, URL: rec.URL, Matched: rec.Matched, Status: rec.Status})
			}
		}
		return Reply{Header: h, Body: [][]byte{res.Stdout, res.Stderr}}, nil
	case "write_file":
		var r wire.SimWriteFileRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		return Reply{}, simPathError("write_file", r.Path, e.WriteFile(r.Path, payload, mode(r.Mode, 0o644)))
	case "read_file":
		var r wire.SimPathRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		data, err := e.ReadFile(r.Path)
		if err != nil {
			return Reply{}, simPathError("read_file", r.Path, err)
		}
		return Reply{Body: [][]byte{data}}, nil
	case "mkdir":
		var r wire.SimMkdirRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		var err error
		if r.Parents {
			err = e.Mkdir(r.Path, mode(r.Mode, 0o755))
		} else {
			p, perm := command.Join(e.Dir(), r.Path), mode(r.Mode, 0o755)
			err = e.ChangeFS(func(fsys *vfs.FS) error { return fsys.Mkdir(p, perm) }, len(p))
		}
		return Reply{}, simPathError("mkdir", r.Path, err)
	case "mount":
		var r wire.SimMountRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		res, err := e.Mount(r.Host, r.Target)
		if err != nil {
			return Reply{}, err
		}
		res.SkippedDirectories = orEmpty(res.SkippedDirectories)
		return Reply{Header: res}, nil
	case "fork":
		c, err := e.Duplicate()
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: wire.HandleReply{Handle: s.bridge.Add(&simObject{bridge: s.bridge, env: c})}}, nil
	case "route_http":
		var r wire.Route
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		if err := e.AddRoute(routeOf(r)); err != nil {
			return Reply{}, &machine.InvalidSpec{Field: "route", Reason: err.Error()}
		}
		return Reply{}, nil
	case "state":
		return Reply{Header: wire.SimState{Terminated: e.Terminated(), StopReason: wire.StopReason(e.StopReason()), Closed: closed}}, nil
	case "close":
		s.close()
		return Reply{}, nil
	}
	return Reply{}, unknownMethod("shellsim environment", method)
}

// routeOf is a route with its default status (200).
func routeOf(r wire.Route) command.Route {
	if r.Status == 0 {
		r.Status = 200
	}
	return command.Route{Pattern: r.Pattern, Method: r.Method, Status: r.Status, Headers: r.Headers, Body: r.Body}
}

// simRunReply is an action's report on the wire (lists empty, not null).
func simRunReply(res shellsim.Result, terminated bool, dropped int) wire.SimRunReply {
	o := res.Outcome
	h := wire.SimRunReply{ExitStatus: o.ExitStatus, Limits: o.Limits, Usage: o.Usage, CommandUsage: orEmpty(o.CommandUsage),
		CostModelVersion: o.CostModelVersion, Commands: orEmpty(res.Commands), Unsupported: orEmpty(res.Unsupported),
		UnsupportedCommands: orEmpty(res.UnsupportedCommands), PartialCommands: orEmpty(res.PartialCommands),
		Invocations: orEmpty(res.Invocations), NetworkRequests: []wire.SimHTTPRequest{}, DroppedNetworkRequests: dropped,
		Terminated: terminated}
	if o.StopReason != nil {
		h.StopReason = wire.StopReason(*o.StopReason)
	}
	return h
}

// simPathError maps a filesystem error of the embedded environment: a
// missing path is a *machine.PathError{NotFound} (FileNotFoundError).
func simPathError(op, p string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return &machine.PathError{Op: op, Path: p, Reason: command.Message(err), NotFound: true}
	}
	return fmt.Errorf("%s %s: %s", op, p, command.Message(err))
}
