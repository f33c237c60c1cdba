// Package harness is ShellSim's NDJSON harness: the serve protocol (one
// JSON request per line, one JSON response per line, sessions routed by
// session_id) and scenario replay over the same session manager.
//
// Retained actions are stepped as in the reference: nothing runs at
// start_execute; each poll_action runs the action for at most work_quanta
// scheduler quanta; without advance_time an action whose tasks all wait
// reports "blocked" with its typed reason (timer{deadline_ns},
// pipe_readable/pipe_writable{pipe}, input_readable, child{pid}, any{...},
// followed down the chain of children it waits for) and virtual time does
// not move. While an action is paused every operation works on its session
// (file operations, checkpoint/diff/reset, inspect with per-process
// status and wait reasons, signal_process delivered straight to the
// process or group), and fork_session copies a session with its paused
// action, background jobs, timers and pipes (by deterministic replay, see
// lib/shellsim/journal.go). cancel_action closes the action's stdin, KILLs
// its process group (background jobs in their own groups live on) and runs
// it to its end without moving virtual time; the session stays reusable.
// One difference from the reference: a poll is also bounded by PollWait of
// host time, after which the action pauses at its next sync point and is
// reported running, exactly as if its quanta had run out.
package harness

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Bounds, as the reference has them.
const (
	MaxLineBytes       = 20 << 20
	MaxSessions        = 8
	MaxRetainedActions = 64
	MaxTransferBytes   = 6 << 20
	DefaultWorkQuanta  = 1024
	MaxWorkQuanta      = 100000
)

// Request is one protocol request. Fields not used by an op are ignored.
type Request struct {
	ID        json.RawMessage `json:"id,omitempty"`
	SessionID *uint64         `json:"session_id,omitempty"`
	Op        string          `json:"op"`

	Source         *string `json:"source,omitempty"`
	StdinBase64    *string `json:"stdin_base64,omitempty"`
	StdinClosed    *bool   `json:"stdin_closed,omitempty"`
	ActionID       *uint64 `json:"action_id,omitempty"`
	WorkQuanta     *int64  `json:"work_quanta,omitempty"`
	AdvanceTime    *bool   `json:"advance_time,omitempty"`
	DataBase64     *string `json:"data_base64,omitempty"`
	PID            *int64  `json:"pid,omitempty"`
	Signal         *string `json:"signal,omitempty"`
	ProcessGroup   *bool   `json:"process_group,omitempty"`
	Target         *uint64 `json:"target,omitempty"`
	Path           *string `json:"path,omitempty"`
	Mode           *int64  `json:"mode,omitempty"`
	Parents        *bool   `json:"parents,omitempty"`
	FollowSymlinks *bool   `json:"follow_symlinks,omitempty"`
	Root           *string `json:"root,omitempty"`
}

// SourceSession is fork_session's "source" (a session id): the same JSON
// key as execute's "source" (a script), so it is read separately.
func (r *Request) sourceSession(raw []byte) (uint64, error) {
	var v struct {
		Source *uint64 `json:"source"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, fmt.Errorf("invalid request: source must be a session id")
	}
	if v.Source == nil {
		return 0, nil
	}
	return *v.Source, nil
}

// Response is one protocol response.
type Response struct {
	ID     json.RawMessage `json:"id,omitempty"`
	OK     bool            `json:"ok"`
	Result any             `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// DecodeRequest parses one request line. The op's own fields are decoded
// from the same object.
func DecodeRequest(line []byte) (*Request, error) {
	line = bytes.TrimSuffix(line, []byte("\r"))
	var r Request
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&r); err != nil {
		var src struct {
			Source json.RawMessage `json:"source"`
		}
		// "source" is a number for fork_session: decode again without it.
		if json.Unmarshal(line, &src) == nil && len(src.Source) > 0 && src.Source[0] != '"' {
			var m map[string]json.RawMessage
			if json.Unmarshal(line, &m) == nil {
				delete(m, "source")
				stripped, _ := json.Marshal(m)
				r = Request{}
				if err2 := json.Unmarshal(stripped, &r); err2 == nil && r.Op == "fork_session" {
					return &r, checkTrailing(dec)
				}
			}
		}
		return nil, fmt.Errorf("invalid request: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if err := checkTrailing(dec); err != nil {
		return nil, err
	}
	if r.Op == "" {
		return nil, errors.New("invalid request: missing field `op`")
	}
	return &r, nil
}

func checkTrailing(dec *json.Decoder) error {
	var extra json.RawMessage
	if err := dec.Decode(&extra); err == nil {
		return errors.New("invalid request: trailing data after the JSON object")
	}
	return nil
}

func decode64(field string, s *string) ([]byte, error) {
	if s == nil {
		return nil, nil
	}
	if len(*s)/4*3 > MaxTransferBytes+3 {
		return nil, fmt.Errorf("%s exceeds the %d-byte transfer limit", field, MaxTransferBytes)
	}
	b, err := base64.StdEncoding.DecodeString(*s)
	if err != nil {
		return nil, fmt.Errorf("invalid base64 in %s: %v", field, err)
	}
	return b, nil
}

func enc(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
