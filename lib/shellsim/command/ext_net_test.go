package command_test

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// TestServedRoute: a route with Serve answers with what Serve returns (the
// request record keeps that status), and RemoveServed drops only served
// routes of that pattern.
func TestServedRoute(t *testing.T) {
	var tab command.RouteTable
	static := command.Route{Pattern: "http://127.0.0.1:80/*", Status: 200, Body: []byte("static")}
	served := command.Route{Pattern: "http://127.0.0.1:80/*", Status: 200, Serve: func(req command.HTTPRequest) command.HTTPResponse {
		return command.HTTPResponse{Status: 418, Body: append([]byte(req.Method+" "+req.URL+" "), req.Body...)}
	}}
	for _, r := range []command.Route{static, served} {
		if err := tab.AddRoute(r); err != nil {
			t.Fatal(err)
		}
	}
	resp, ok := tab.Fetch(command.HTTPRequest{URL: "http://127.0.0.1:80/x", Body: []byte("b")})
	if !ok || resp.Status != 418 || string(resp.Body) != "GET http://127.0.0.1:80/x b" {
		t.Fatalf("served: %v %d %q", ok, resp.Status, resp.Body)
	}
	if rec, _ := tab.Record(); len(rec) != 1 || !rec[0].Matched || rec[0].Status != 418 {
		t.Fatalf("record: %+v", rec)
	}
	tab.RemoveServed(served.Pattern)
	resp, ok = tab.Fetch(command.HTTPRequest{URL: "http://127.0.0.1:80/x"})
	if !ok || resp.Status != 200 || string(resp.Body) != "static" {
		t.Fatalf("after RemoveServed: %v %d %q", ok, resp.Status, resp.Body)
	}
}
