package command

import (
	"errors"
	"sort"
	"strings"
	"sync"
)

// Network is implemented by a System that has a virtual route table. curl,
// wget and net reach it with a type assertion on Invocation.Sys; a System
// without it behaves as if no route exists.
type Network interface {
	AddRoute(r Route) error
	Routes() []Route
	ClearRoutes()
	Fetch(req HTTPRequest) (HTTPResponse, bool) // false: no route (connection refused)
}

// NetworkLog is implemented by a Network that keeps the requests made
// through it (RouteTable does); `net log` prints them.
type NetworkLog interface {
	Record() (records []RequestRecord, dropped int)
}

// Route answers requests whose URL matches Pattern (an exact URL or a glob
// where '*' matches any run of characters) and, when Method is not empty,
// whose method equals it. A route with Serve answers with what Serve
// returns instead of its static Status, Headers and Body (a host-side
// handler: serve_http on ShellSim).
type Route struct {
	Pattern string
	Method  string
	Status  int
	Headers map[string]string
	Body    []byte
	Serve   func(HTTPRequest) HTTPResponse
}

// HTTPRequest is one request made by a command.
type HTTPRequest struct {
	Method  string
	URL     string
	Headers map[string]string
	Body    []byte
}

// HTTPResponse is the answer of a route.
type HTTPResponse struct {
	Status  int
	Headers map[string]string
	Body    []byte
}

// RequestRecord is one request as kept for the report.
type RequestRecord struct {
	Method  string
	URL     string
	Matched bool
	Status  int // 0 when no route matched
}

// Route table bounds, as the reference implementation has them.
const (
	MaxRoutes        = 1024
	MaxRouteBody     = 8 << 20
	MaxRoutePattern  = 8192
	MaxRouteHeaders  = 128
	MaxRecordedFetch = 4096
)

// RouteTable is an in-memory Network that an engine can embed. Matching:
// an exact pattern beats any glob; among globs the one with more literal
// characters wins; on a tie the route added later wins. A route with a
// method beats one without for the same pattern.
type RouteTable struct {
	mu      sync.Mutex
	routes  []Route
	records []RequestRecord
	dropped int
}

var (
	_ Network    = (*RouteTable)(nil)
	_ NetworkLog = (*RouteTable)(nil)
)

// AddRoute adds r after validating it against the table's bounds.
func (t *RouteTable) AddRoute(r Route) error {
	switch {
	case r.Pattern == "":
		return errors.New("empty route pattern")
	case len(r.Pattern) > MaxRoutePattern:
		return errors.New("route pattern too long")
	case len(r.Body) > MaxRouteBody:
		return errors.New("route body too large")
	case len(r.Headers) > MaxRouteHeaders:
		return errors.New("too many route headers")
	case r.Status < 100 || r.Status > 999:
		return errors.New("invalid route status")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.routes) >= MaxRoutes {
		return errors.New("too many routes")
	}
	r.Method = strings.ToUpper(r.Method)
	r.Headers = cloneHeaders(r.Headers)
	r.Body = append([]byte(nil), r.Body...)
	t.routes = append(t.routes, r)
	return nil
}

// Routes returns the routes in the order they were added.
func (t *RouteTable) Routes() []Route {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Route(nil), t.routes...)
}

// RemoveServed removes the routes with a Serve function whose pattern is
// pattern.
func (t *RouteTable) RemoveServed(pattern string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	kept := t.routes[:0]
	for _, r := range t.routes {
		if r.Serve == nil || r.Pattern != pattern {
			kept = append(kept, r)
		}
	}
	clear(t.routes[len(kept):])
	t.routes = kept
}

// ClearRoutes removes every route (the request record stays).
func (t *RouteTable) ClearRoutes() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.routes = nil
}

// Fetch answers req from the best matching route and records it. A
// served route's function runs without the table's lock: it may wait on
// the host.
func (t *RouteTable) Fetch(req HTTPRequest) (HTTPResponse, bool) {
	t.mu.Lock()
	method := strings.ToUpper(req.Method)
	if method == "" {
		method = "GET"
	}
	best, bestScore := -1, -1
	for i, r := range t.routes {
		if r.Method != "" && r.Method != method {
			continue
		}
		s := routeScore(r, req.URL)
		if s >= 0 && s >= bestScore {
			best, bestScore = i, s
		}
	}
	var resp HTTPResponse
	var serve func(HTTPRequest) HTTPResponse
	if best >= 0 {
		r := t.routes[best]
		serve = r.Serve
		resp = HTTPResponse{Status: r.Status, Headers: cloneHeaders(r.Headers), Body: append([]byte(nil), r.Body...)}
	}
	if serve != nil {
		t.mu.Unlock()
		req.Method = method
		resp = serve(req)
		t.mu.Lock()
	}
	defer t.mu.Unlock()
	rec := RequestRecord{Method: method, URL: req.URL}
	if best >= 0 {
		rec.Matched, rec.Status = true, resp.Status
	}
	if len(t.records) < MaxRecordedFetch {
		t.records = append(t.records, rec)
	} else {
		t.dropped++
	}
	return resp, best >= 0
}

// Record returns the requests made so far and how many were dropped once
// the record was full.
func (t *RouteTable) Record() (records []RequestRecord, dropped int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]RequestRecord(nil), t.records...), t.dropped
}

// Clone returns an independent copy (for forked environments).
func (t *RouteTable) Clone() *RouteTable {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := &RouteTable{dropped: t.dropped}
	c.routes = append(c.routes, t.routes...)
	c.records = append(c.records, t.records...)
	return c
}

// routeScore ranks how well r matches url: -1 no match; exact matches score
// above every glob; globs score by their literal length. A method-specific
// route gets one extra point so it beats an any-method route.
func routeScore(r Route, url string) int {
	bonus := 0
	if r.Method != "" {
		bonus = 1
	}
	if !strings.Contains(r.Pattern, "*") {
		if r.Pattern == url {
			return 2*(MaxRoutePattern+1) + bonus
		}
		return -1
	}
	if !globMatch(r.Pattern, url) {
		return -1
	}
	return 2*(len(r.Pattern)-strings.Count(r.Pattern, "*")) + bonus
}

// globMatch matches '*' against any run of characters (including '/'),
// every other byte literally; path.Match is not used because its '*' stops
// at '/' and it gives '?' and '[' meanings URLs do not want.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	mid := parts[1 : len(parts)-1]
	for _, p := range mid {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

func cloneHeaders(h map[string]string) map[string]string {
	if h == nil {
		return nil
	}
	c := make(map[string]string, len(h))
	for k, v := range h {
		c[k] = v
	}
	return c
}

// SortedHeaderKeys returns h's keys in a stable order for printing.
func SortedHeaderKeys(h map[string]string) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
