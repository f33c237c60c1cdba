package relay_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/relay"
	"github.com/shellbox/shellbox/lib/task"
)

func localFactory(t *testing.T) *local.Factory {
	t.Helper()
	helperstest.Build(t)
	f, err := local.New(local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func hostSpec() machine.Spec {
	return machine.Spec{Source: machine.HostImage{}, Workdir: "/workspace", Network: machine.NetworkDeny}
}

func newMachine(t *testing.T, f machine.Factory, spec machine.Spec) machine.Machine {
	t.Helper()
	m, err := f.Create(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m
}

func serve(t *testing.T, m machine.Machine, port int, h relay.Handler) *relay.Relay {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := relay.Serve(ctx, m, port, h)
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	t.Cleanup(func() { r.Close(context.Background()) })
	return r
}

func sh(t *testing.T, m machine.Machine, script string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	res, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 16 << 20})
	if err != nil {
		t.Fatalf("Run(%q): %v", script, err)
	}
	code := -1
	if res.ExitCode != nil {
		code = *res.ExitCode
	}
	return code, string(res.Stdout), string(res.Stderr)
}

// echo answers with the request it saw, as JSON.
func echo(_ context.Context, req relay.Request) (relay.Response, error) {
	sum := sha256.Sum256(req.Body)
	body, _ := json.Marshal(map[string]any{"method": req.Method, "path": req.Path, "query": req.Query, "len": len(req.Body), "sha256": hex.EncodeToString(sum[:]), "request": fmt.Sprintf("%#v", req)})
	return relay.Response{Status: 200, Body: body}, nil
}

func TestRelayRoundTrips(t *testing.T) {
	m := newMachine(t, localFactory(t), hostSpec())
	r := serve(t, m, 8123, echo)
	if r.URL() != "http://127.0.0.1:8123" {
		t.Fatal(r.URL())
	}
	// GET with a query and a credential header the handler must not see.
	code, out, errOut := sh(t, m, `curl -s -H 'Authorization: Bearer guest-secret' -H 'X-Forwarded-For: 1.2.3.4' 'http://127.0.0.1:8123/v1/models?limit=2&x=%20y'`)
	if code != 0 {
		t.Fatalf("curl: %d %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if got["method"] != "GET" || got["path"] != "/v1/models" || got["query"] != "limit=2&x=%20y" || strings.Contains(out, "guest-secret") || strings.Contains(out, "1.2.3.4") {
		t.Fatalf("the handler saw %s", out)
	}
	// A binary POST body arrives intact.
	code, out, _ = sh(t, m, `i=0; while [ $i -lt 256 ]; do printf "\\$(printf %o $i)"; i=$((i+1)); done > /tmp/bytes; for k in 1 2 3 4; do cat /tmp/bytes /tmp/bytes /tmp/bytes /tmp/bytes > /tmp/b2; mv /tmp/b2 /tmp/bytes; done
		sha256sum /tmp/bytes | cut -d' ' -f1; curl -s --data-binary @/tmp/bytes -H 'Content-Type: application/octet-stream' http://127.0.0.1:8123/bin`)
	lines := strings.SplitN(out, "\n", 2)
	if code != 0 || json.Unmarshal([]byte(lines[1]), &got) != nil || got["sha256"] != lines[0] || got["len"] != float64(65536) || got["method"] != "POST" {
		t.Fatalf("binary POST: %d %q", code, out)
	}
	// The content type and status come from the handler, the body is
	// binary-safe on the way back too.
	r.Close(context.Background())
	r = serve(t, m, 8123, func(_ context.Context, req relay.Request) (relay.Response, error) {
		return relay.Response{Status: 201, Body: []byte{0, 1, 2, 255, '\n'}, ContentType: "application/x-test"}, nil
	})
	code, out, _ = sh(t, m, `curl -s -D /tmp/h -o /tmp/b http://127.0.0.1:8123/; od -An -tx1 /tmp/b | tr -d ' \n'; echo; grep -i -e '^content-type' -e '^HTTP' /tmp/h | tr -d '\r'`)
	if code != 0 || !strings.Contains(out, "000102ff0a\n") || !strings.Contains(out, "HTTP/1.1 201") || !strings.Contains(out, "application/x-test") {
		t.Fatalf("binary response: %q", out)
	}
	// Only GET and POST.
	_, out, _ = sh(t, m, `curl -s -o /dev/null -w '%{http_code}' -X PUT -d x http://127.0.0.1:8123/; echo; curl -s -o /dev/null -w '%{http_code}' -X DELETE http://127.0.0.1:8123/`)
	if out != "405\n405" {
		t.Fatalf("PUT and DELETE: %q", out)
	}
}

func TestRelayLimits(t *testing.T) {
	m := newMachine(t, localFactory(t), hostSpec())
	var calls atomic.Int32
	serve(t, m, 8124, func(_ context.Context, req relay.Request) (relay.Response, error) {
		calls.Add(1)
		switch req.Path {
		case "/size":
			return relay.Response{Status: 200, Body: []byte(fmt.Sprint(len(req.Body)))}, nil
		case "/big":
			n := relay.MaxBody
			if req.Query == "over" {
				n++
			}
			return relay.Response{Status: 200, Body: bytes.Repeat([]byte("z"), n)}, nil
		case "/fail":
			return relay.Response{}, errors.New("HOST-TRACEBACK /home/secret/key.txt")
		case "/panic":
			panic("HOST-PANIC")
		case "/status":
			return relay.Response{Status: 42}, nil
		}
		return relay.Response{Status: 404}, nil
	})
	_, out, _ := sh(t, m, `head -c 4194304 /dev/zero > /tmp/max; head -c 4194305 /dev/zero > /tmp/over
		curl -s --data-binary @/tmp/max http://127.0.0.1:8124/size; echo
		curl -s -o /dev/null -w '%{http_code}\n' --data-binary @/tmp/over http://127.0.0.1:8124/size
		curl -s -o /dev/null -w '%{http_code}\n' -H 'Transfer-Encoding: chunked' --data-binary @/tmp/over http://127.0.0.1:8124/size
		curl -s http://127.0.0.1:8124/big | wc -c
		curl -s -o /dev/null -w '%{http_code}\n' 'http://127.0.0.1:8124/big?over'
		curl -s -w '%{http_code}\n' http://127.0.0.1:8124/fail
		curl -s -w '%{http_code}\n' http://127.0.0.1:8124/panic
		curl -s -o /dev/null -w '%{http_code}\n' http://127.0.0.1:8124/status`)
	want := []string{"4194304", "413", "413", "4194304", "502"}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 8 || strings.Join(lines[:5], ",") != strings.Join(want, ",") || lines[7] != "502" {
		t.Fatalf("limits: %q", out)
	}
	if !strings.HasSuffix(lines[5], "502") || !strings.HasSuffix(lines[6], "502") || strings.Contains(out, "HOST-") || strings.Contains(out, "secret") {
		t.Fatalf("handler failures leak: %q", out)
	}
}

// TestRelayPendingLimit: 100 concurrent requests against a handler that
// holds its calls: exactly MaxPending reach it, the rest get 503 at once,
// and the held ones are answered (in any order) once released.
func TestRelayPendingLimit(t *testing.T) {
	m := newMachine(t, localFactory(t), hostSpec())
	release := make(chan struct{})
	var inFlight, maxInFlight atomic.Int32
	serve(t, m, 8125, func(ctx context.Context, req relay.Request) (relay.Response, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			old := maxInFlight.Load()
			if n <= old || maxInFlight.CompareAndSwap(old, n) {
				break
			}
		}
		select {
		case <-release:
		case <-ctx.Done():
			return relay.Response{}, ctx.Err()
		}
		return relay.Response{Status: 200, Body: []byte(req.Query)}, nil
	})
	done := make(chan string, 1)
	go func() {
		_, out, _ := shNoFatal(m, `mkdir -p /tmp/r; for i in $(seq 100); do curl -s -o /tmp/r/body$i -w '%{http_code}' "http://127.0.0.1:8125/?$i" > /tmp/r/code$i & done; wait; cat /tmp/r/code* | fold -w3 | sort | uniq -c | awk '{print $2"="$1}' | tr '\n' ' '`)
		done <- out
	}()
	deadline := time.Now().Add(120 * time.Second)
	for {
		_, out, _ := sh(t, m, `cat /tmp/r/code* 2>/dev/null | fold -w3 | grep -c 503`)
		if strings.TrimSpace(out) == "84" && inFlight.Load() == relay.MaxPending {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for 84 rejections: %s rejected, %d in flight", out, inFlight.Load())
		}
		time.Sleep(100 * time.Millisecond)
	}
	close(release)
	out := <-done
	if strings.TrimSpace(out) != "200=16 503=84" || maxInFlight.Load() != relay.MaxPending {
		t.Fatalf("outcome %q, at most %d in flight", out, maxInFlight.Load())
	}
	// Each held request got its own answer.
	_, out, _ = sh(t, m, `for i in $(seq 100); do [ "$(cat /tmp/r/code$i)" = 200 ] && { [ "$(cat /tmp/r/body$i)" = "$i" ] || echo "mismatch $i"; }; done; true`)
	if out != "" {
		t.Fatalf("answers went to the wrong requests: %q", out)
	}
}

// TestRelayCancellation: a client that gives up cancels its handler call;
// Close cancels the calls in flight and waits for them; no listener or
// program is left.
func TestRelayCancellation(t *testing.T) {
	m := newMachine(t, localFactory(t), hostSpec())
	cancelled := make(chan string, 4)
	r := serve(t, m, 8126, func(ctx context.Context, req relay.Request) (relay.Response, error) {
		<-ctx.Done()
		cancelled <- req.Path
		return relay.Response{}, ctx.Err()
	})
	code, _, _ := sh(t, m, `curl -s --max-time 1 http://127.0.0.1:8126/gives-up`)
	if code != 28 { // curl's timeout
		t.Fatalf("curl exited %d", code)
	}
	select {
	case p := <-cancelled:
		if p != "/gives-up" {
			t.Fatal(p)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the handler call was not cancelled when its client left")
	}
	go m.Run(context.Background(), machine.Command{Argv: []string{"curl", "-s", "http://127.0.0.1:8126/held"}})
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	if err := r.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if time.Since(start) > 20*time.Second {
		t.Fatalf("Close took %v", time.Since(start))
	}
	select {
	case p := <-cancelled:
		if p != "/held" {
			t.Fatal(p)
		}
	default:
		t.Fatal("Close returned before the held call ended")
	}
	code, out, errOut := sh(t, m, `curl -s -o /dev/null http://127.0.0.1:8126/; echo "curl=$?"; ls -a /tmp | grep -c '[s]hellbox-relay'; cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' ' ' | grep -c '[s]hellbox-relay'; true`)
	if code != 0 || out != "curl=7\n0\n0\n" {
		t.Fatalf("after Close: %q %s", out, errOut)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestRelayMachineClosedFirst: the relay reports the closed machine
// instead of hanging.
func TestRelayMachineClosedFirst(t *testing.T) {
	f := localFactory(t)
	m, err := f.Create(context.Background(), hostSpec())
	if err != nil {
		t.Fatal(err)
	}
	r := serve(t, m, 8127, echo)
	m.Close(context.Background())
	select {
	case <-r.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the relay did not notice its machine closing")
	}
	err = r.Close(context.Background())
	if err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("Close after the machine closed: %v", err)
	}
}

// TestRelayServesTheGroup: one relay in the primary serves every member
// through the group's shared loopback.
func TestRelayServesTheGroup(t *testing.T) {
	f := localFactory(t)
	tk, err := task.Create(context.Background(), f, task.Spec{Primary: "agent", Containers: []task.Container{
		{Name: "agent", Machine: hostSpec()}, {Name: "app", Machine: hostSpec(), Command: []string{"sleep", "1000"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close(context.Background())
	var mu sync.Mutex
	seen := 0
	serve(t, tk.Members()["agent"], 8128, func(_ context.Context, req relay.Request) (relay.Response, error) {
		mu.Lock()
		seen++
		mu.Unlock()
		return relay.Response{Status: 200, Body: []byte("judge says yes")}, nil
	})
	_, out, _ := sh(t, tk.Members()["app"], `curl -s http://127.0.0.1:8128/judge`)
	if out != "judge says yes" || seen != 1 {
		t.Fatalf("the app member got %q (%d calls)", out, seen)
	}
}

func shNoFatal(m machine.Machine, script string) (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	res, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 1 << 20})
	if err != nil {
		return -1, "", err
	}
	return *res.ExitCode, string(res.Stdout), nil
}
