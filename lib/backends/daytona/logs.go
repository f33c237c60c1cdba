package daytona

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/coder/websocket"
)

// SendInput is POST /process/session/{id}/command/{cmdId}/input: data goes
// to the running command's stdin.
func (t *Toolbox) SendInput(ctx context.Context, session, cmd, data string) error {
	return t.c.doJSON(ctx, http.MethodPost, t.url("/process/session/"+url.PathEscape(session)+"/command/"+url.PathEscape(cmd)+"/input", nil), SessionSendInputRequest{Data: data}, nil)
}

// FollowLogs opens GET /process/session/{id}/command/{cmdId}/logs?follow=true
// as the SDK does, a websocket carrying the command's output while it runs.
func (t *Toolbox) FollowLogs(ctx context.Context, session, cmd string) (*LogStream, error) {
	u := t.url("/process/session/"+url.PathEscape(session)+"/command/"+url.PathEscape(cmd)+"/logs", url.Values{"follow": {"true"}})
	h := http.Header{}
	h.Set("Authorization", "Bearer "+t.c.apiKey)
	h.Set("X-Daytona-Source", "shellbox-go")
	conn, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: t.c.http, HTTPHeader: h})
	if err != nil {
		if resp != nil && resp.StatusCode >= 300 {
			if serr := checkStatus(resp); serr != nil {
				return nil, serr
			}
		}
		return nil, err
	}
	// A process's output is unbounded; the reader applies no limit.
	conn.SetReadLimit(-1)
	return &LogStream{conn: conn}, nil
}

// LogStream demultiplexes a followed log: each chunk starts with the
// marker of its stream (three 0x01 bytes: stdout, three 0x02: stderr).
type LogStream struct {
	conn    *websocket.Conn
	pending []byte // bytes that may begin a marker split across messages
	stderr  bool
}

var (
	stdoutMark = []byte{1, 1, 1}
	stderrMark = []byte{2, 2, 2}
)

// Next returns the next chunk of output and whether it is stderr's; io.EOF
// once the log ended normally.
func (l *LogStream) Next(ctx context.Context) (data []byte, stderr bool, err error) {
	for {
		if len(l.pending) > 0 {
			if d, s, ok := l.take(false); ok {
				return d, s, nil
			}
		}
		_, msg, err := l.conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) == websocket.StatusNormalClosure {
				if d, s, ok := l.take(true); ok {
					return d, s, nil
				}
				return nil, false, io.EOF
			}
			return nil, false, fmt.Errorf("daytona: following a command's log: %w", err)
		}
		l.pending = append(l.pending, msg...)
	}
}

// take splits the pending bytes at markers and returns the first chunk;
// until the end it keeps back a tail that could be a marker's start.
func (l *LogStream) take(final bool) ([]byte, bool, bool) {
	for {
		switch {
		case bytes.HasPrefix(l.pending, stdoutMark):
			l.pending, l.stderr = l.pending[3:], false
			continue
		case bytes.HasPrefix(l.pending, stderrMark):
			l.pending, l.stderr = l.pending[3:], true
			continue
		}
		break
	}
	end := len(l.pending)
	for i := 0; i < len(l.pending); i++ {
		if l.pending[i] == 1 || l.pending[i] == 2 {
			rest := l.pending[i:]
			if bytes.HasPrefix(rest, stdoutMark) || bytes.HasPrefix(rest, stderrMark) {
				end = i
				break
			}
			if !final && len(rest) < 3 && (bytes.HasPrefix(stdoutMark, rest) || bytes.HasPrefix(stderrMark, rest)) {
				end = i
				break
			}
		}
	}
	if end == 0 {
		return nil, false, false
	}
	d := append([]byte(nil), l.pending[:end]...)
	l.pending = l.pending[end:]
	return d, l.stderr, true
}

// Close closes the websocket.
func (l *LogStream) Close() error { return l.conn.CloseNow() }
