package net

import (
	"bytes"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// netSys is the test System with a route table.
type netSys struct {
	*commandtest.System
	*command.RouteTable
}

type env struct {
	*commandtest.Env
	sys *netSys
}

func newEnv(t *testing.T) *env {
	e := commandtest.New(t, Commands())
	return &env{Env: e, sys: &netSys{System: e.Sys, RouteTable: &command.RouteTable{}}}
}

func (e *env) runArgs(args []string, stdin string) (string, string, int) {
	ent, ok := e.Commands.Lookup(args[0])
	if !ok {
		e.T.Fatalf("no command %s", args[0])
	}
	var out, errb bytes.Buffer
	in := strings.NewReader(stdin)
	inv := &command.Invocation{Args: args, Stdin: in, Stdout: &out, Stderr: &errb, Dir: e.Dir, Sys: e.sys}
	inv.FS = &vfs.View{FS: e.FS, Streams: vfs.Streams{Stdin: in, Stdout: &out, Stderr: &errb}}
	st := ent.Run(inv)
	return out.String(), errb.String(), st
}

func TestRouteTableMatching(t *testing.T) {
	var rt command.RouteTable
	add := func(p, m string, st int, body string) {
		if err := rt.AddRoute(command.Route{Pattern: p, Method: m, Status: st, Body: []byte(body)}); err != nil {
			t.Fatal(err)
		}
	}
	add("http://x/*", "", 200, "glob")
	add("http://x/a", "", 201, "exact")
	add("http://x/*", "", 202, "glob2")
	add("http://x/b*", "POST", 203, "post")
	cases := []struct {
		method, url string
		status      int
		ok          bool
	}{
		{"GET", "http://x/a", 201, true},
		{"GET", "http://x/zz/y", 202, true},
		{"POST", "http://x/bq", 203, true},
		{"GET", "http://x/bq", 202, true},
		{"GET", "http://y/", 0, false},
	}
	for _, c := range cases {
		r, ok := rt.Fetch(command.HTTPRequest{Method: c.method, URL: c.url})
		if ok != c.ok || r.Status != c.status {
			t.Errorf("%s %s: got %d %v, want %d %v", c.method, c.url, r.Status, ok, c.status, c.ok)
		}
	}
	rec, _ := rt.Record()
	if len(rec) != 5 || rec[4].Matched || rec[0].Status != 201 {
		t.Errorf("record = %+v", rec)
	}
}

func TestCommands(t *testing.T) {
	type step struct {
		args           []string
		stdin          string
		out, err       string
		status         int
		file, fileBody string
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"refused", []step{
			{args: []string{"curl", "http://example.com/x"}, err: "curl: (7) Failed to connect to example.com port 80 after 0 ms: Couldn't connect to server\n", status: 7},
			{args: []string{"curl", "-s", "https://example.com:8443/x"}, status: 7},
			{args: []string{"curl", "-sS", "https://example.com/x"}, err: "curl: (7) Failed to connect to example.com port 443 after 0 ms: Couldn't connect to server\n", status: 7},
			{args: []string{"curl", "-s", "-w", "%{http_code}\\n", "http://h/"}, out: "000\n", status: 7},
			{args: []string{"wget", "http://h:9/x"}, err: "--2025-01-01 00:00:00--  http://h:9/x\nConnecting to h:9... failed: Connection refused.\n", status: 4},
			{args: []string{"wget", "-q", "http://h:9/x"}, status: 4},
			{args: []string{"wget", "-q", "-O", "empty.out", "http://h:9/x"}, status: 4, file: "empty.out", fileBody: ""},
		}},
		{"basic", []step{
			{args: []string{"net", "route", "http://api/*", "200", "hello", "world"}},
			{args: []string{"net", "route", "--header", "Content-Type: application/json", "http://api/j", "200", `{"a":1}`}},
			{args: []string{"net", "route", "--method", "POST", "http://api/p", "201", "made"}},
			{args: []string{"net", "route", "http://api/missing", "404", "nope"}},
			{args: []string{"net", "routes"}, out: "* http://api/* 200 11 bytes\n* http://api/j 200 7 bytes\nPOST http://api/p 201 4 bytes\n* http://api/missing 404 4 bytes\n"},
			{args: []string{"curl", "http://api/x"}, out: "hello world"},
			{args: []string{"curl", "-s", "http://api/j"}, out: `{"a":1}`},
			{args: []string{"curl", "-si", "http://api/j"}, out: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}"},
			{args: []string{"curl", "-sI", "http://api/j"}, out: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n"},
			{args: []string{"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://api/missing"}, out: "404"},
			{args: []string{"curl", "-s", "http://api/missing"}, out: "nope"},
			{args: []string{"curl", "-f", "http://api/missing"}, err: "curl: (22) The requested URL returned error: 404\n", status: 22},
			{args: []string{"curl", "-fs", "http://api/missing"}, status: 22},
			{args: []string{"curl", "-s", "-d", "x=1", "http://api/p"}, out: "made"},
			{args: []string{"curl", "-sXPOST", "http://api/p", "-w", "\\n%{http_code} %{method}\\n"}, out: "made\n201 POST\n"},
			{args: []string{"curl", "-s", "-o", "out.txt", "http://api/x"}, file: "out.txt", fileBody: "hello world"},
			{args: []string{"curl", "-sO", "http://api/dir/name.bin"}, file: "name.bin", fileBody: "hello world"},
			{args: []string{"curl", "-O", "http://api/"}, err: "curl: Remote file name has no length!\ncurl: (23) Failed writing received data to disk/application\n", status: 23},
			{args: []string{"curl", "--frobnicate", "http://api/"}, err: "curl: option --frobnicate: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n", status: 2},
			{args: []string{"curl"}, err: "curl: no URL specified\ncurl: try 'curl --help' or 'curl --manual' for more information\n", status: 2},
			{args: []string{"wget", "-q", "-O-", "http://api/x"}, out: "hello world"},
			{args: []string{"wget", "-q", "http://api/f.txt"}, file: "f.txt", fileBody: "hello world"},
			{args: []string{"wget", "-q", "http://api/f.txt"}, file: "f.txt.1", fileBody: "hello world"},
			{args: []string{"wget", "-q", "-O", "g.txt", "http://api/"}, file: "g.txt", fileBody: "hello world"},
			{args: []string{"wget", "http://api/j"}, err: "--2025-01-01 00:00:00--  http://api/j\nConnecting to api:80... connected.\nHTTP request sent, awaiting response... 200 OK\nLength: 7 [application/json]\nSaving to: ‘j’\n\n2025-01-01 00:00:00 - ‘j’ saved [7/7]\n\n", file: "j", fileBody: `{"a":1}`},
			{args: []string{"wget", "http://api/missing"}, err: "--2025-01-01 00:00:00--  http://api/missing\nConnecting to api:80... connected.\nHTTP request sent, awaiting response... 404 Not Found\n2025-01-01 00:00:00 ERROR 404: Not Found.\n\n", status: 8},
			{args: []string{"net", "log"}, out: "GET http://api/x 200\nGET http://api/j 200\nGET http://api/j 200\nHEAD http://api/j 200\nGET http://api/missing 404\nGET http://api/missing 404\nGET http://api/missing 404\nGET http://api/missing 404\nPOST http://api/p 201\nPOST http://api/p 201\nGET http://api/x 200\nGET http://api/dir/name.bin 200\nGET http://api/ 200\nGET http://api/x 200\nGET http://api/f.txt 200\nGET http://api/f.txt 200\nGET http://api/ 200\nGET http://api/j 200\nGET http://api/missing 404\n"},
			{args: []string{"net", "clear"}},
			{args: []string{"net", "routes"}},
		}},
		{"redirect", []step{
			{args: []string{"net", "route", "--header", "Location: /new", "http://r/old", "301"}},
			{args: []string{"net", "route", "http://r/new", "200", "moved"}},
			{args: []string{"curl", "-s", "-w", "%{http_code}", "http://r/old"}, out: "301"},
			{args: []string{"curl", "-sL", "-w", " %{http_code} %{url_effective}", "http://r/old"}, out: "moved 200 http://r/new"},
			{args: []string{"wget", "-qO-", "http://r/old"}, out: "moved"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			for _, s := range c.steps {
				out, errOut, st := e.runArgs(s.args, s.stdin)
				if out != s.out || errOut != s.err || st != s.status {
					t.Errorf("%q:\n got out=%q err=%q status=%d\nwant out=%q err=%q status=%d", s.args, out, errOut, st, s.out, s.err, s.status)
				}
				if s.file != "" && !e.Exists(s.file) {
					t.Errorf("%q: %s missing", s.args, s.file)
				} else if s.file != "" {
					if got := e.ReadFile(s.file); got != s.fileBody {
						t.Errorf("%q: file %s = %q, want %q", s.args, s.file, got, s.fileBody)
					}
				}
			}
		})
	}
}

func TestNoNetwork(t *testing.T) {
	e := commandtest.New(t, Commands())
	_, errOut, st := e.Run([]string{"curl", "-sS", "http://x/"}, "")
	if st != 7 || errOut != "curl: (7) Failed to connect to x port 80 after 0 ms: Couldn't connect to server\n" {
		t.Errorf("got %d %q", st, errOut)
	}
}
