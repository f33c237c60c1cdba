package shellsimbackend

import (
	"context"
	"fmt"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// A host HTTP handler (serve_http) is a virtual route on ShellSim: curl and
// wget to the guest loopback port call it in-process, no program runs in
// the machine (lib/relay's RouteMachine).

// ServeRoute makes requests to http://127.0.0.1:port and
// http://localhost:port (any path) reach serve, until remove is called.
func (m *Machine) ServeRoute(port int, serve func(method, url string, body []byte) (status int, contentType string, answer []byte)) (remove func(), err error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	answer := func(req command.HTTPRequest) command.HTTPResponse {
		status, ct, body := serve(req.Method, req.URL, req.Body)
		return command.HTTPResponse{Status: status, Headers: map[string]string{"Content-Type": ct}, Body: body}
	}
	var patterns []string
	for _, host := range []string{"127.0.0.1", "localhost"} {
		base := fmt.Sprintf("http://%s:%d", host, port)
		patterns = append(patterns, base, base+"/*", base+"?*")
	}
	remove = func() {
		for _, p := range patterns {
			m.env.RemoveServedRoute(p)
		}
	}
	for _, p := range patterns {
		if err := m.env.AddRoute(command.Route{Pattern: p, Status: 200, Serve: answer}); err != nil {
			remove()
			return nil, &machine.InvalidSpec{Field: "port", Reason: err.Error()}
		}
	}
	return remove, nil
}

// Closed is closed when the machine is closed.
func (m *Machine) Closed() <-chan struct{} { return m.gone }

var _ interface {
	ServeRoute(int, func(string, string, []byte) (int, string, []byte)) (func(), error)
	Closed() <-chan struct{}
	Run(context.Context, machine.Command) (machine.Result, error)
} = (*Machine)(nil)
