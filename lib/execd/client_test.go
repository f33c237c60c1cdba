package execd

import (
	"bufio"
	"context"
	"errors"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// fakeHelper answers every connection with fn.
func fakeHelper(t *testing.T, fn func(req Request, br *bufio.Reader, bw *bufio.Writer)) *Client {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br, bw := bufio.NewReader(c), bufio.NewWriter(c)
				typ, p, err := readFrame(br, nil)
				if err != nil || typ != FrameRequest {
					return
				}
				var req Request
				jsonUnmarshal(p, &req)
				fn(req, br, bw)
				bw.Flush()
			}()
		}
	}()
	return NewClient(sock)
}

func TestExecUnconfirmedStop(t *testing.T) {
	c := fakeHelper(t, func(req Request, br *bufio.Reader, bw *bufio.Writer) {
		switch req.Op {
		case OpExec:
			if req.TimeoutMS > 0 {
				time.Sleep(20 * time.Millisecond)
				writeFrame(bw, FrameFailure, mustJSON(Failure{Kind: KindInfrastructure, Field: "stop", Message: "1 live member remains"}))
			}
		}
	})
	_, err := c.Exec(context.Background(), Request{Argv: []string{"x"}, TimeoutMS: 10, OutputLimit: 10}, nil)
	var se *StopError
	if !errors.As(err, &se) {
		t.Fatalf("got %v", err)
	}
}

func TestExecCancelConfirmedByExit(t *testing.T) {
	killed := make(chan struct{})
	c := fakeHelper(t, func(req Request, br *bufio.Reader, bw *bufio.Writer) {
		switch req.Op {
		case OpExec:
			<-killed
			writeFrame(bw, FrameExit, mustJSON(Exit{Code: 137, Killed: true}))
		case OpKill:
			close(killed)
			writeFrame(bw, FrameOK, mustJSON(Ack{}))
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := c.Exec(ctx, Request{Argv: []string{"x"}, OutputLimit: 10}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
}

func TestExecHelperGone(t *testing.T) {
	c := NewClient(filepath.Join(t.TempDir(), "missing"))
	var ce *ConnError
	if _, err := c.Exec(context.Background(), Request{Argv: []string{"x"}}, nil); !errors.As(err, &ce) {
		t.Fatalf("got %v", err)
	}
}
