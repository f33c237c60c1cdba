package bridge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"

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
	var r struct {
		Limits *shellsim.Limits `json:"limits"`
	}
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	l := shellsim.DefaultLimits()
	if r.Limits != nil {
		l = *r.Limits
	}
	return Reply{Header: handleReply{b.Add(&simObject{bridge: b, env: shellsim.NewEnvironment(l)})}}, nil
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

type simRequest struct {
	Source  string            `json:"source"`
	Path    string            `json:"path"`
	Mode    *uint32           `json:"mode"`
	Parents bool              `json:"parents"`
	Host    string            `json:"host"`
	Target  string            `json:"target"`
	Pattern string            `json:"pattern"`
	Method  string            `json:"method"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
}

type simNetRequest struct {
	Method  string `json:"method"`
	URL     string `json:"url"`
	Matched bool   `json:"matched"`
	Status  int    `json:"status"`
}

type simRunHeader struct {
	shellsim.Outcome
	Commands            []string              `json:"commands"`
	Unsupported         []string              `json:"unsupported"`
	UnsupportedCommands []string              `json:"unsupported_commands"`
	PartialCommands     []string              `json:"partial_commands"`
	Invocations         []shellsim.Invocation `json:"invocations"`
	NetworkRequests     []simNetRequest       `json:"network_requests"`
	DroppedNetwork      int                   `json:"dropped_network_requests"`
	Terminated          bool                  `json:"terminated"`
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
	var r simRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	mode := func(def fs.FileMode) fs.FileMode {
		if r.Mode != nil {
			return fs.FileMode(*r.Mode) & 0o7777
		}
		return def
	}
	e := s.env
	switch method {
	case "run":
		before, _ := e.NetworkRequests()
		// Execute, not Run: it ignores a cancellation that raced the end of
		// an earlier call.
		res := e.Execute(ctx, shellsim.Action{Source: r.Source, Stdin: payload}, false).Result
		after, dropped := e.NetworkRequests()
		h := simRunHeader{Outcome: res.Outcome, Commands: orEmpty(res.Commands), Unsupported: orEmpty(res.Unsupported),
			UnsupportedCommands: orEmpty(res.UnsupportedCommands), PartialCommands: orEmpty(res.PartialCommands),
			Invocations: orEmpty(res.Invocations), NetworkRequests: []simNetRequest{}, DroppedNetwork: dropped,
			Terminated: e.Terminated()}
		h.CommandUsage = orEmpty(h.CommandUsage)
		if len(after) > len(before) {
			for _, rec := range after[len(before):] {
				h.NetworkRequests = append(h.NetworkRequests, simNetRequest{rec.Method, rec.URL, rec.Matched, rec.Status})
			}
		}
		return Reply{Header: h, Body: [][]byte{res.Stdout, res.Stderr}}, nil
	case "write_file":
		return Reply{}, simPathError("write_file", r.Path, e.WriteFile(r.Path, payload, mode(0o644)))
	case "read_file":
		data, err := e.ReadFile(r.Path)
		if err != nil {
			return Reply{}, simPathError("read_file", r.Path, err)
		}
		return Reply{Body: [][]byte{data}}, nil
	case "mkdir":
		var err error
		if r.Parents {
			err = e.Mkdir(r.Path, mode(0o755))
		} else {
			p, perm := command.Join(e.Dir(), r.Path), mode(0o755)
			err = e.ChangeFS(func(fsys *vfs.FS) error { return fsys.Mkdir(p, perm) }, len(p))
		}
		return Reply{}, simPathError("mkdir", r.Path, err)
	case "mount":
		res, err := e.Mount(r.Host, r.Target)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: res}, nil
	case "fork":
		c, err := e.Duplicate()
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: handleReply{s.bridge.Add(&simObject{bridge: s.bridge, env: c})}}, nil
	case "route_http":
		status := r.Status
		if status == 0 {
			status = 200
		}
		err := e.AddRoute(command.Route{Pattern: r.Pattern, Method: r.Method, Status: status, Headers: r.Headers, Body: payload})
		if err != nil {
			return Reply{}, &machine.InvalidSpec{Field: "route", Reason: err.Error()}
		}
		return Reply{}, nil
	case "state":
		return Reply{Header: struct {
			Terminated bool   `json:"terminated"`
			StopReason string `json:"stop_reason"`
			Closed     bool   `json:"closed"`
		}{e.Terminated(), e.StopReason(), closed}}, nil
	case "close":
		s.close()
		return Reply{}, nil
	}
	return Reply{}, unknownMethod("shellsim environment", method)
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
