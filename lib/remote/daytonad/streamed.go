package daytonad

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/shellbox/shellbox/lib/backends/daytona"
	"github.com/shellbox/shellbox/lib/machine"
)

// Each chunk of a followed log starts with the stream's marker, as the
// toolbox daemon writes them (the SDKs' STDOUT_PREFIX and STDERR_PREFIX).
var (
	stdoutPrefix = []byte{1, 1, 1}
	stderrPrefix = []byte{2, 2, 2}
)

// startStreamed runs an asynchronous session command as a process of the
// sandbox's machine: its output is logged as it comes, input sent to the
// command reaches its stdin, and its stderr (which a process reports when
// it ends) follows the output.
func (s *Server) startStreamed(ctx context.Context, pm machine.ProcessMachine, sb *sandbox, se *session, c *sessionCmd) error {
	if len(c.command) > maxArgCommand || strings.ContainsRune(c.command, 0) {
		return errors.New("an asynchronous command must be shorter than 100 KiB and free of NUL bytes")
	}
	// A session command's streams stay apart, as its logs report them.
	cmd := machine.Command{Argv: []string{"/bin/sh", "-c", strings.ReplaceAll(shellArgCommand, " 2>&1", ""), c.command}}
	cmd.User, cmd.OutputLimit = sb.user(), s.cfg.MaxOutput
	p, err := pm.OpenProcess(ctx, cmd)
	if err != nil {
		return err
	}
	se.mu.Lock()
	c.proc, c.changed = p, make(chan struct{})
	se.mu.Unlock()
	go func() {
		buf := make([]byte, 64<<10)
		out := p.Stdout()
		for {
			n, rerr := out.Read(buf)
			if n > 0 {
				se.mu.Lock()
				// Beyond MaxOutput the log keeps nothing more, as an
				// execute reply would not.
				if len(c.output) < s.cfg.MaxOutput {
					c.output = append(c.output, buf[:min(n, s.cfg.MaxOutput-len(c.output))]...)
				}
				c.notify()
				se.mu.Unlock()
			}
			if rerr != nil {
				break
			}
		}
		exit, werr := p.Wait(ctx)
		code := exit.ExitCode
		if werr != nil {
			code = -1
		}
		_ = p.Close(ctx)
		se.mu.Lock()
		c.exit, c.stderr = &code, exit.Stderr
		close(c.done)
		c.notify()
		se.mu.Unlock()
	}()
	return nil
}

// notify wakes the followers of c's log; se.mu is held.
func (c *sessionCmd) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// stop ends the session's running processes.
func (se *session) stop(ctx context.Context) {
	se.mu.Lock()
	var procs []machine.Process
	for _, c := range se.list {
		if c.proc != nil {
			procs = append(procs, c.proc)
		}
	}
	se.mu.Unlock()
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	for _, p := range procs {
		_ = p.Close(cctx)
	}
}

// followLogs streams a command's log over a websocket as the daemon does:
// binary messages of marked chunks, then a normal closure once the command
// ended and everything was sent.
func followLogs(w http.ResponseWriter, r *http.Request, se *session, c *sessionCmd) {
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(r.Context()) // ends when the client goes
	sent := 0
	for {
		se.mu.Lock()
		data := append([]byte(nil), c.output[sent:]...)
		changed, stderr := c.changed, c.stderr
		ended := false
		select {
		case <-c.done:
			ended = true
		default:
		}
		se.mu.Unlock()
		switch {
		case len(data) > 0:
			if conn.Write(ctx, websocket.MessageBinary, append(append([]byte(nil), stdoutPrefix...), data...)) != nil {
				return
			}
			sent += len(data)
		case ended:
			if len(stderr) > 0 && conn.Write(ctx, websocket.MessageBinary, append(append([]byte(nil), stderrPrefix...), stderr...)) != nil {
				return
			}
			conn.Close(websocket.StatusNormalClosure, "")
			return
		case changed == nil: // a command not run as a process
			select {
			case <-c.done:
			case <-ctx.Done():
				return
			}
		default:
			select {
			case <-changed:
			case <-ctx.Done():
				return
			}
		}
	}
}

// commandInput writes SessionSendInputRequest.data to a running command's
// stdin.
func (s *Server) commandInput(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	se, c := sb.findCommand(w, r)
	if c == nil {
		return
	}
	var req daytona.SessionSendInputRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20)).Decode(&req); err != nil {
		toolboxError(w, r, http.StatusBadRequest, "invalid request body: %v", err)
		return
	}
	se.mu.Lock()
	p := c.proc
	se.mu.Unlock()
	select {
	case <-c.done:
		toolboxError(w, r, http.StatusBadRequest, "command %s has ended", c.id)
		return
	default:
	}
	if p == nil {
		toolboxError(w, r, http.StatusBadRequest, "command %s does not take input", c.id)
		return
	}
	c.inMu.Lock()
	_, err := p.Stdin().Write([]byte(req.Data))
	c.inMu.Unlock()
	if err != nil {
		toolboxError(w, r, http.StatusBadRequest, "writing to command %s: %v", c.id, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
