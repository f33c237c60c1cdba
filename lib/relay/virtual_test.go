package relay_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	shellsimbackend "github.com/shellbox/shellbox/lib/backends/shellsim"
	"github.com/shellbox/shellbox/lib/bridge"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/relay"
)

func newSim(t *testing.T) machine.Machine {
	t.Helper()
	f, err := machine.Open(shellsimbackend.Backend, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := bridge.DecodeSpec([]byte(`{"source":{"type":"ShellSimBuiltins"}}`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m
}

func simRun(t *testing.T, m machine.Machine, script string) (int, string) {
	t.Helper()
	r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExitCode == nil {
		t.Fatalf("%q did not exit: %s", script, r.Reason)
	}
	return *r.ExitCode, string(r.Stdout)
}

// TestVirtualRelayOnShellSim: on ShellSim, Start installs a route that curl
// and wget reach; Close removes it.
func TestVirtualRelayOnShellSim(t *testing.T) {
	m := newSim(t)
	s, err := relay.Start(context.Background(), m, 8400, func(_ context.Context, req relay.Request) (relay.Response, error) {
		return relay.Response{Status: 201, ContentType: "text/plain", Body: []byte(fmt.Sprintf("%s %s %s %q", req.Method, req.Path, req.Query, req.Body))}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, virtual := s.(*relay.Virtual); !virtual || s.URL() != "http://127.0.0.1:8400" {
		t.Fatalf("Start on ShellSim gave %T at %s", s, s.URL())
	}
	if code, out := simRun(t, m, `curl -s -w ' %{http_code} %{content_type}' -d 'a b' 'http://127.0.0.1:8400/p/q?x=1'`); code != 0 || out != `POST /p/q x=1 "a b" 201 text/plain` {
		t.Fatalf("curl: %d %q", code, out)
	}
	if code, out := simRun(t, m, `wget -q -O- http://localhost:8400`); code != 0 || out != `GET /  ""` {
		t.Fatalf("wget: %d %q", code, out)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code, out := simRun(t, m, `curl -s -w '%{http_code}' http://127.0.0.1:8400/p`); code != 7 || out != "000" {
		t.Fatalf("after Close: %d %q", code, out)
	}
}

// TestVirtualRelayLimits: the guest program's limits hold for the route.
func TestVirtualRelayLimits(t *testing.T) {
	m := newSim(t)
	release := make(chan struct{})
	s, err := relay.ServeVirtual(m.(relay.RouteMachine), 8401, func(ctx context.Context, req relay.Request) (relay.Response, error) {
		switch req.Path {
		case "/hold":
			select {
			case <-release:
			case <-ctx.Done():
				return relay.Response{}, ctx.Err()
			}
		case "/raise":
			return relay.Response{}, errors.New("host secret")
		case "/big":
			return relay.Response{Status: 200, Body: make([]byte, relay.MaxBody+1)}, nil
		}
		return relay.Response{Status: 200, Body: []byte("ok")}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	url := s.URL()
	for _, c := range []struct {
		method, path string
		body         int
		want         int
	}{{"PUT", "/", 0, 405}, {"DELETE", "/", 0, 405}, {"POST", "/", relay.MaxBody + 1, 413}, {"POST", "/", relay.MaxBody, 200},
		{"GET", "/raise", 0, 502}, {"GET", "/big", 0, 502}} {
		status, _, body := s.Answer(c.method, url+c.path, make([]byte, c.body))
		if status != c.want || strings.Contains(string(body), "secret") {
			t.Errorf("%s %s (%d bytes): %d %q, want %d", c.method, c.path, c.body, status, body, c.want)
		}
	}
	// MaxPending requests wait at once; the next one gets 503 at once.
	var wg sync.WaitGroup
	statuses := make(chan int, relay.MaxPending)
	for range relay.MaxPending {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, _, _ := s.Answer("GET", url+"/hold", nil)
			statuses <- status
		}()
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		status, _, _ := s.Answer("GET", url+"/", nil)
		if status == http.StatusServiceUnavailable {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no 503 with %d requests held (last %d)", relay.MaxPending, status)
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(release)
	wg.Wait()
	close(statuses)
	for status := range statuses {
		if status != 200 {
			t.Errorf("a held request got %d", status)
		}
	}
}

// TestVirtualRelayMachineClosedFirst: Done ends and Close reports the
// closed machine.
func TestVirtualRelayMachineClosedFirst(t *testing.T) {
	m := newSim(t)
	s, err := relay.Start(context.Background(), m, 8402, func(context.Context, relay.Request) (relay.Response, error) {
		return relay.Response{Status: 200}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m.Close(context.Background())
	select {
	case <-s.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("Done did not end after the machine closed")
	}
	if err := s.Close(context.Background()); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("Close after the machine closed: %v", err)
	}
	if !errors.Is(s.Err(), machine.ErrClosed) {
		t.Fatalf("Err: %v", s.Err())
	}
}
