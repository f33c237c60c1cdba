package execd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// countingListener counts the connections a server accepted and keeps
// them, so that a test can see how many are open and cut them all.
type countingListener struct {
	net.Listener
	accepted atomic.Int32
	mu       sync.Mutex
	conns    []*trackedConn
}

type trackedConn struct {
	net.Conn
	closed atomic.Bool
}

func (c *trackedConn) Close() error {
	c.closed.Store(true)
	return c.Conn.Close()
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.accepted.Add(1)
	tc := &trackedConn{Conn: c}
	l.mu.Lock()
	l.conns = append(l.conns, tc)
	l.mu.Unlock()
	return tc, nil
}

// open is how many accepted connections the server has not closed.
func (l *countingListener) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.conns {
		if !c.closed.Load() {
			n++
		}
	}
	return n
}

// cut closes the listener and every connection, as a helper that died.
func (l *countingListener) cut() {
	l.Listener.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Conn.Close()
	}
}

// hostServer serves real commands on the host (the server without a
// sandbox around it) and returns a client that keeps connections.
func hostServer(t *testing.T) (*Client, *countingListener) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	served := make(chan struct{})
	go func() {
		defer close(served)
		ServeConns(cl, ServeOptions{KeepCapabilities: true})
	}()
	c := NewClient(sock)
	t.Cleanup(func() {
		c.Close()
		cl.cut()
		select {
		case <-served:
		case <-time.After(30 * time.Second):
			t.Error("the server did not stop after its listener closed")
		}
	})
	return c, cl
}

// waitFor polls cond until it holds or a generous deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func execCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func shReq(script string) Request {
	return Request{Argv: []string{"/bin/sh", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"}, OutputLimit: 1 << 10}
}

func TestSuccessiveOperationsShareOneConnection(t *testing.T) {
	c, cl := hostServer(t)
	ctx := execCtx(t)
	dir := t.TempDir()
	for i := range 20 {
		// Alternate plain commands, commands with stdin, commands that
		// never start (their stdin frames arrive after their exit) and
		// transfers.
		switch i % 4 {
		case 0:
			res, err := c.Exec(ctx, shReq(fmt.Sprintf("echo %d; echo e%d >&2", i, i)), nil)
			if err != nil || string(res.Stdout) != fmt.Sprintf("%d\n", i) || string(res.Stderr) != fmt.Sprintf("e%d\n", i) || res.Code != 0 {
				t.Fatalf("exec %d: %+v %v", i, res, err)
			}
		case 1:
			res, err := c.Exec(ctx, shReq("cat; exit 3"), []byte(fmt.Sprint("in", i)))
			if err != nil || string(res.Stdout) != fmt.Sprint("in", i) || res.Code != 3 {
				t.Fatalf("exec %d with stdin: %+v %v", i, res, err)
			}
		case 2:
			req := shReq("")
			req.Argv = []string{"no-such-command-xyz"}
			res, err := c.Exec(ctx, req, []byte("unread input"))
			if err != nil || res.Code != 127 {
				t.Fatalf("exec %d of a missing command: %+v %v", i, res, err)
			}
		case 3:
			src := filepath.Join(dir, fmt.Sprint("src", i))
			writeFile(t, src, fmt.Sprint("data", i))
			target := filepath.Join(dir, fmt.Sprint("up", i))
			if err := c.Upload(ctx, src, target, nil); err != nil {
				t.Fatalf("upload %d: %v", i, err)
			}
			back := filepath.Join(dir, fmt.Sprint("back", i))
			if err := c.Download(ctx, target, back, nil, 0); err != nil {
				t.Fatalf("download %d: %v", i, err)
			}
			if got := readFile(t, back); got != fmt.Sprint("data", i) {
				t.Fatalf("round trip %d: %q", i, got)
			}
		}
	}
	if n := cl.accepted.Load(); n != 1 {
		t.Fatalf("20 successive operations used %d connections, want 1", n)
	}
}

func TestFailedOperationClosesItsConnection(t *testing.T) {
	c, cl := hostServer(t)
	ctx := execCtx(t)
	if _, err := c.Exec(ctx, shReq("true"), nil); err != nil {
		t.Fatal(err)
	}
	// A refused upload ends with a failure frame: that connection goes,
	// the next operation opens another and works.
	err := c.Upload(ctx, writeTemp(t, "x"), "relative/path", nil)
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("upload to a relative path: %v", err)
	}
	res, err := c.Exec(ctx, shReq("echo ok"), nil)
	if err != nil || string(res.Stdout) != "ok\n" {
		t.Fatalf("exec after a failure: %+v %v", res, err)
	}
	if n := cl.accepted.Load(); n != 2 {
		t.Fatalf("accepted %d connections, want 2", n)
	}
	waitFor(t, "the server closed the failed connection", func() bool { return cl.open() == 1 })
}

func TestConcurrentExecsKeepABoundedPool(t *testing.T) {
	c, cl := hostServer(t)
	ctx := execCtx(t)
	const workers, rounds = 12, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				want := fmt.Sprintf("%d.%d", w, r)
				res, err := c.Exec(ctx, shReq("cat"), []byte(want))
				if err != nil || string(res.Stdout) != want {
					errs <- fmt.Errorf("worker %d round %d: %q %v", w, r, res.Stdout, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := cl.accepted.Load(); n > workers {
		t.Errorf("%d workers opened %d connections", workers, n)
	}
	waitFor(t, fmt.Sprintf("at most %d idle connections stay open", maxIdle), func() bool { return cl.open() <= maxIdle })
	c.Close()
	waitFor(t, "Close closed every idle connection", func() bool { return cl.open() == 0 })
	// A closed client still works, without keeping connections.
	if res, err := c.Exec(ctx, shReq("echo again"), nil); err != nil || string(res.Stdout) != "again\n" {
		t.Fatalf("exec after Close: %+v %v", res, err)
	}
	waitFor(t, "the connection of an exec after Close is closed", func() bool { return cl.open() == 0 })
}

func TestHelperGoneWithIdleAndRunningConnections(t *testing.T) {
	c, cl := hostServer(t)
	ctx := execCtx(t)
	// Two idle connections, then one running a long command.
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Exec(ctx, shReq("sleep 0.2"), nil)
		}()
	}
	wg.Wait()
	running := make(chan error, 1)
	marker := filepath.Join(t.TempDir(), "started")
	go func() {
		_, err := c.Exec(ctx, shReq("touch "+marker+"; exec sleep 30"), nil)
		running <- err
	}()
	waitFor(t, "the long command started", func() bool { _, err := os.Stat(marker); return err == nil })
	cl.cut()
	select {
	case err := <-running:
		var ce *ConnError
		if !errors.As(err, &ce) {
			t.Fatalf("running exec after the helper went: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a running exec hangs after the helper went")
	}
	for i := range 3 {
		done := make(chan error, 1)
		go func() {
			_, err := c.Exec(ctx, shReq("true"), nil)
			done <- err
		}()
		select {
		case err := <-done:
			var ce *ConnError
			if !errors.As(err, &ce) {
				t.Fatalf("exec %d after the helper went: %v", i, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("exec %d hangs on a connection to a helper that went", i)
		}
	}
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeTemp(t *testing.T, data string) string {
	p := filepath.Join(t.TempDir(), "f")
	writeFile(t, p, data)
	return p
}

// BenchmarkExecTrue is one command through a kept connection to a server
// on the host; BenchmarkForkExecTrue is the same program started and
// waited for directly, the floor under it.
func BenchmarkExecTrue(b *testing.B) {
	sock := filepath.Join(b.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go ServeConns(ln, ServeOptions{KeepCapabilities: true})
	c := NewClient(sock)
	defer c.Close()
	req := Request{Argv: []string{"true"}, Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}, Dir: "/", OutputLimit: 1 << 20}
	ctx := context.Background()
	for b.Loop() {
		if res, err := c.Exec(ctx, req, nil); err != nil || res.Code != 0 {
			b.Fatal(res, err)
		}
	}
}

func BenchmarkForkExecTrue(b *testing.B) {
	for b.Loop() {
		pid, err := syscall.ForkExec("/usr/bin/true", []string{"true"}, &syscall.ProcAttr{Sys: &syscall.SysProcAttr{Setpgid: true}})
		if err != nil {
			b.Fatal(err)
		}
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
	}
}

// The directory is checked only when a command cannot start; a missing
// one is still what is reported, for programs found on PATH and relative
// to it alike.
func TestMissingDirectory(t *testing.T) {
	c, _ := hostServer(t)
	ctx := execCtx(t)
	for _, argv0 := range []string{"true", "./true", "/bin/true"} {
		req := shReq("")
		req.Argv, req.Dir = []string{argv0}, "/no/such/dir"
		res, err := c.Exec(ctx, req, nil)
		if err != nil || res.Code != 2 || !strings.Contains(string(res.Stderr), "cannot change directory to /no/such/dir") {
			t.Errorf("%s in a missing directory: %+v %q %v", argv0, res.Exit, res.Stderr, err)
		}
	}
}

// A kept connection the helper closed meanwhile is not used: the next
// operation opens another.
func TestKeptConnectionClosedByHelperIsSkipped(t *testing.T) {
	c, cl := hostServer(t)
	ctx := execCtx(t)
	if _, err := c.Exec(ctx, shReq("true"), nil); err != nil {
		t.Fatal(err)
	}
	cl.mu.Lock()
	for _, tc := range cl.conns {
		tc.Close()
	}
	cl.mu.Unlock()
	res, err := c.Exec(ctx, shReq("echo fresh"), nil)
	if err != nil || string(res.Stdout) != "fresh\n" {
		t.Fatalf("exec after the helper closed the kept connection: %+v %v", res, err)
	}
	if n := cl.accepted.Load(); n != 2 {
		t.Fatalf("accepted %d connections, want 2", n)
	}
}

// opaqueConn hides the socket under a connection, as a stream multiplexed
// over a virtual machine's channel is not a socket of this process: a
// dialer client then asks the connection itself (Quieter).
type opaqueConn struct{ c net.Conn }

func (o opaqueConn) Read(b []byte) (int, error)         { return o.c.Read(b) }
func (o opaqueConn) Write(b []byte) (int, error)        { return o.c.Write(b) }
func (o opaqueConn) Close() error                       { return o.c.Close() }
func (o opaqueConn) LocalAddr() net.Addr                { return o.c.LocalAddr() }
func (o opaqueConn) RemoteAddr() net.Addr               { return o.c.RemoteAddr() }
func (o opaqueConn) SetDeadline(t time.Time) error      { return o.c.SetDeadline(t) }
func (o opaqueConn) SetReadDeadline(t time.Time) error  { return o.c.SetReadDeadline(t) }
func (o opaqueConn) SetWriteDeadline(t time.Time) error { return o.c.SetWriteDeadline(t) }

// Quiet peeks at the socket underneath.
func (o opaqueConn) Quiet() bool { return (&conn{c: o.c}).quiet() }

// TestDialerClientKeepsConnections: a dialer client (the QEMU backend's,
// over guest channel streams) carries successive operations on one
// connection, and one the server closed meanwhile is not used again: the
// next operation opens another and works.
func TestDialerClientKeepsConnections(t *testing.T) {
	_, cl := hostServer(t)
	sock := cl.Addr().String()
	c := NewDialerClient(func() (net.Conn, error) {
		uc, err := net.Dial("unix", sock)
		if err != nil {
			return nil, err
		}
		return opaqueConn{uc}, nil
	})
	defer c.Close()
	ctx := execCtx(t)
	for i := range 10 {
		res, err := c.Exec(ctx, shReq(fmt.Sprintf("echo %d", i)), nil)
		if err != nil || string(res.Stdout) != fmt.Sprintf("%d\n", i) {
			t.Fatalf("exec %d: %+v %v", i, res, err)
		}
	}
	if n := cl.accepted.Load(); n != 1 {
		t.Fatalf("10 successive operations used %d connections, want 1", n)
	}
	// The server's end goes away while the connection is kept.
	cl.mu.Lock()
	for _, tc := range cl.conns {
		tc.Close()
	}
	cl.mu.Unlock()
	waitFor(t, "the server closed its end", func() bool { return cl.open() == 0 })
	res, err := c.Exec(ctx, shReq("echo again"), nil)
	if err != nil || string(res.Stdout) != "again\n" {
		t.Fatalf("exec after the kept connection was closed: %+v %v", res, err)
	}
	if n := cl.accepted.Load(); n != 2 {
		t.Fatalf("accepted %d connections, want 2", n)
	}
}
