// Package harness is ShellSim's NDJSON harness: the serve protocol (one
// JSON request per line, one JSON response per line, sessions routed by
// session_id) and scenario replay over the same session manager.
//
// Retained actions are stepped as in the reference: nothing runs at
// start_execute; each poll_action runs the action for at most work_quanta
// scheduler quanta; without advance_time an action whose tasks all wait
// reports "blocked" with reason timer{deadline_ns} and virtual time does
// not move; an action reading streaming stdin with nothing buffered
// reports blocked on input_readable; bytes and EOF sent between polls are
// delivered at the next poll. Differences, each documented where it
// happens: a poll also stops after PollWait of host time (reported
// "running"); while an action is active only the action operations (and
// drop_session) are accepted for its session, and fork_session refuses a
// session with an active action or live background jobs; cancel_action
// stops the action like a host cancellation (status 137, session reusable)
// and, when the action was paused before a timer, virtual time may still
// move to that deadline; inspect reports no per-process wait reasons;
// signal_process runs kill(1) in a fresh shell of the session.
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
