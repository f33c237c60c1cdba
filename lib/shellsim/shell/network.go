package shell

import "github.com/shellbox/shellbox/lib/shellsim/command"

// Routes is the environment's virtual HTTP route table, made on first use.
func (rt *Runtime) Routes() *command.RouteTable {
	if rt.Net == nil {
		rt.Net = &command.RouteTable{}
	}
	return rt.Net
}

// The System a command sees is a command.Network over the environment's
// route table, so curl, wget and net reach the routes of their environment.
var _ command.Network = (*sysImpl)(nil)

func (s *sysImpl) AddRoute(r command.Route) error { return s.sh.rt.Routes().AddRoute(r) }
func (s *sysImpl) Routes() []command.Route        { return s.sh.rt.Routes().Routes() }
func (s *sysImpl) ClearRoutes()                   { s.sh.rt.Routes().ClearRoutes() }
func (s *sysImpl) Fetch(req command.HTTPRequest) (command.HTTPResponse, bool) {
	if err := s.sh.rt.charge(100 + int64(len(req.Body))); err != nil {
		return command.HTTPResponse{}, false
	}
	return s.sh.rt.Routes().Fetch(req)
}
