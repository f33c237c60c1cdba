package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
)

// Replay bounds.
const (
	MaxScenarioBytes   = 64 << 20
	MaxScenarioActions = 4096
	ScenarioVersion    = 1
)

// ScenarioHeader is the optional first line of a scenario.
type ScenarioHeader struct {
	Version          int               `json:"version"`
	Strict           bool              `json:"strict"`
	FinalExpectation *FinalExpectation `json:"final_expectation,omitempty"`
}

// FinalExpectation is checked after the last line, on one session.
type FinalExpectation struct {
	SessionID            uint64 `json:"session_id"`
	WorkspaceChangeCount *int   `json:"workspace_change_count,omitempty"`
	ExitStatus           *int   `json:"exit_status,omitempty"`
	ActiveActionCount    *int   `json:"active_action_count,omitempty"`
	LiveProcessCount     *int   `json:"live_process_count,omitempty"`
	CPUUsedAtMost        *int64 `json:"cpu_used_at_most,omitempty"`
	MemoryPeakAtMost     *int64 `json:"memory_peak_at_most,omitempty"`
	DiskCurrentAtMost    *int64 `json:"disk_current_at_most,omitempty"`
	OutputBytesAtMost    *int64 `json:"output_bytes_at_most,omitempty"`
}

// Expectation is what one line's response must satisfy.
type Expectation struct {
	OK                   *bool     `json:"ok,omitempty"`
	ExitStatus           *int      `json:"exit_status,omitempty"`
	StdoutBase64         *string   `json:"stdout_base64,omitempty"`
	StderrBase64         *string   `json:"stderr_base64,omitempty"`
	Unsupported          *[]string `json:"unsupported,omitempty"`
	UnsupportedCommands  *[]string `json:"unsupported_commands,omitempty"`
	PartialCommands      *[]string `json:"partial_commands,omitempty"`
	WorkspaceChangeCount *int      `json:"workspace_change_count,omitempty"`
	ErrorContains        *string   `json:"error_contains,omitempty"`
}

// Assertion is the verdict on one line or on the final state.
type Assertion struct {
	Passed   bool     `json:"passed"`
	Failures []string `json:"failures"`
}

type record struct {
	Sequence    int             `json:"sequence"`
	Request     json.RawMessage `json:"request"`
	Response    json.RawMessage `json:"response"`
	Expectation *Expectation    `json:"expectation,omitempty"`
	Assertion   *Assertion      `json:"assertion,omitempty"`
}

// ReplayOptions configure Replay.
type ReplayOptions struct {
	Server     Options
	Transcript string // written atomically after a complete replay; never replaces a file
}

func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

// Replay runs a scenario and writes its transcript to stdout. It returns
// the exit status: 0, 1 when an assertion failed (or the transcript could
// not be published), 2 for a bad scenario, header or --root.
func Replay(scenario io.Reader, opts ReplayOptions, stdout, stderr io.Writer) int {
	data, err := io.ReadAll(io.LimitReader(scenario, MaxScenarioBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "shellsim replay: %v\n", err)
		return 1
	}
	if len(data) > MaxScenarioBytes {
		fmt.Fprintf(stderr, "shellsim replay: scenario exceeds %d bytes\n", MaxScenarioBytes)
		return 2
	}
	var lines [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, l)
		}
	}
	var header *ScenarioHeader
	if len(lines) > 0 {
		var probe map[string]json.RawMessage
		if json.Unmarshal(lines[0], &probe) == nil {
			if _, ok := probe["scenario"]; ok {
				var h struct {
					Scenario ScenarioHeader `json:"scenario"`
				}
				if err := strictDecode(lines[0], &h); err != nil {
					fmt.Fprintf(stderr, "shellsim replay: invalid scenario header: %v\n", err)
					return 2
				}
				if h.Scenario.Version != ScenarioVersion {
					fmt.Fprintf(stderr, "shellsim replay: unsupported scenario version %d (supported: %d)\n", h.Scenario.Version, ScenarioVersion)
					return 2
				}
				header = &h.Scenario
				lines = lines[1:]
			}
		}
	}
	if len(lines) > MaxScenarioActions {
		fmt.Fprintf(stderr, "shellsim replay: scenario has more than %d actions\n", MaxScenarioActions)
		return 2
	}
	maxLine := opts.Server.MaxLineBytes
	if maxLine <= 0 {
		maxLine = MaxLineBytes
	}
	srv, err := New(opts.Server)
	if err != nil {
		fmt.Fprintf(stderr, "shellsim replay: %v\n", err)
		return 2
	}
	defer srv.Close()
	var out bytes.Buffer
	emit := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(b)
		out.WriteByte('\n')
	}
	if header != nil {
		emit(map[string]any{"kind": "scenario", "scenario": header})
	}
	failed := false
	strict := header != nil && header.Strict
	for i, line := range lines {
		rec := record{Sequence: i}
		reqLine := line
		var wrapper struct {
			Request json.RawMessage `json:"request"`
			Expect  *Expectation    `json:"expect"`
		}
		var probe map[string]json.RawMessage
		if json.Unmarshal(line, &probe) == nil {
			if _, ok := probe["request"]; ok {
				if err := strictDecode(line, &wrapper); err != nil {
					fmt.Fprintf(stderr, "shellsim replay: line %d: %v\n", i+1, err)
					return 2
				}
				reqLine, rec.Expectation = wrapper.Request, wrapper.Expect
			}
		}
		rec.Request = json.RawMessage(compact(reqLine))
		var resp Response
		if len(reqLine) > maxLine {
			resp = Response{OK: false, Error: fmt.Sprintf("request exceeds the %d-byte limit", maxLine)}
		} else {
			resp = srv.Handle(reqLine)
		}
		rb, _ := json.Marshal(resp)
		rec.Response = rb
		var view map[string]any
		json.Unmarshal(rb, &view)
		var failures []string
		if rec.Expectation != nil {
			failures = check(rec.Expectation, view)
		}
		if strict {
			failures = append(failures, strictFailures(view)...)
		}
		if rec.Expectation != nil || strict {
			rec.Assertion = &Assertion{Passed: len(failures) == 0, Failures: orEmpty(failures)}
			if len(failures) > 0 {
				failed = true
				fmt.Fprintf(stderr, "action %d assertion failed: %s\n", i, strings.Join(failures, "; "))
			}
		}
		emit(rec)
	}
	if header != nil {
		failures := finalFailures(srv, header)
		final := map[string]any{"kind": "final", "assertion": Assertion{Passed: len(failures) == 0, Failures: orEmpty(failures)}}
		if header.FinalExpectation != nil {
			final["expectation"] = header.FinalExpectation
		}
		if len(failures) > 0 {
			failed = true
			fmt.Fprintf(stderr, "final assertion failed: %s\n", strings.Join(failures, "; "))
		}
		emit(final)
	}
	if out.Len() > MaxScenarioBytes {
		fmt.Fprintf(stderr, "shellsim replay: transcript exceeds %d bytes\n", MaxScenarioBytes)
		return 1
	}
	stdout.Write(out.Bytes())
	if opts.Transcript != "" {
		if err := publish(opts.Transcript, out.Bytes()); err != nil {
			fmt.Fprintf(stderr, "shellsim replay: transcript %s: %v\n", opts.Transcript, err)
			return 1
		}
	}
	if failed {
		return 1
	}
	return 0
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		s, _ := json.Marshal(string(b))
		return s
	}
	return buf.Bytes()
}

func result(view map[string]any) map[string]any {
	r, _ := view["result"].(map[string]any)
	return r
}

func strList(v any) []string {
	out := []string{}
	if l, ok := v.([]any); ok {
		for _, x := range l {
			s, _ := x.(string)
			out = append(out, s)
		}
	}
	return out
}

func check(e *Expectation, view map[string]any) []string {
	var f []string
	ok, _ := view["ok"].(bool)
	res := result(view)
	kind, _ := res["kind"].(string)
	if e.OK != nil && *e.OK != ok {
		f = append(f, fmt.Sprintf("ok: expected %v, got %v", *e.OK, ok))
	}
	needExec := func(field string) bool {
		if kind != "execute" {
			f = append(f, field+": needs an execute result")
			return false
		}
		return true
	}
	if e.ExitStatus != nil && needExec("exit_status") {
		o, _ := res["outcome"].(map[string]any)
		got, _ := o["exit_status"].(float64)
		if int(got) != *e.ExitStatus {
			f = append(f, fmt.Sprintf("exit_status: expected %d, got %d", *e.ExitStatus, int(got)))
		}
	}
	for _, s := range []struct {
		name string
		want *string
	}{{"stdout_base64", e.StdoutBase64}, {"stderr_base64", e.StderrBase64}} {
		if s.want != nil && needExec(s.name) {
			if got, _ := res[s.name].(string); got != *s.want {
				f = append(f, fmt.Sprintf("%s: expected %q, got %q", s.name, *s.want, got))
			}
		}
	}
	for _, l := range []struct {
		name string
		want *[]string
	}{{"unsupported", e.Unsupported}, {"unsupported_commands", e.UnsupportedCommands}, {"partial_commands", e.PartialCommands}} {
		if l.want != nil && needExec(l.name) {
			if got := strList(res[l.name]); !reflect.DeepEqual(got, orEmpty(*l.want)) {
				f = append(f, fmt.Sprintf("%s: expected %q, got %q", l.name, *l.want, got))
			}
		}
	}
	if e.WorkspaceChangeCount != nil {
		if kind != "workspace_diff" {
			f = append(f, "workspace_change_count: needs a workspace_diff result")
		} else if n := len(res["changes"].([]any)); n != *e.WorkspaceChangeCount {
			f = append(f, fmt.Sprintf("workspace_change_count: expected %d, got %d", *e.WorkspaceChangeCount, n))
		}
	}
	if e.ErrorContains != nil {
		if msg, _ := view["error"].(string); !strings.Contains(msg, *e.ErrorContains) {
			f = append(f, fmt.Sprintf("error_contains: %q not in %q", *e.ErrorContains, msg))
		}
	}
	return f
}

func strictFailures(view map[string]any) []string {
	var f []string
	if ok, _ := view["ok"].(bool); !ok {
		msg, _ := view["error"].(string)
		return []string{"strict: error response: " + msg}
	}
	res := result(view)
	if u := strList(res["unsupported"]); len(u) > 0 {
		f = append(f, fmt.Sprintf("strict: unsupported use %q", u))
	}
	if invs, ok := res["invocations"].([]any); ok {
		for _, iv := range invs {
			m, _ := iv.(map[string]any)
			if t, _ := m["trust"].(string); t != "" && t != "real" {
				f = append(f, fmt.Sprintf("strict: %s invocation of %v", t, m["argv"]))
			}
		}
	}
	if reqs, ok := res["network_requests"].([]any); ok {
		for _, r := range reqs {
			m, _ := r.(map[string]any)
			if matched, _ := m["matched"].(bool); !matched {
				f = append(f, fmt.Sprintf("strict: unmatched network request %v", m["url"]))
			}
		}
	}
	for _, k := range []string{"dropped_commands", "dropped_unsupported", "dropped_invocations", "dropped_network_requests"} {
		if n, _ := res[k].(float64); n != 0 {
			f = append(f, fmt.Sprintf("strict: %s is %d", k, int(n)))
		}
	}
	return f
}

func finalFailures(srv *Server, h *ScenarioHeader) []string {
	var f []string
	if h.Strict {
		srv.mu.Lock()
		ids := make([]uint64, 0, len(srv.sessions))
		for id := range srv.sessions {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			ss := srv.sessions[id]
			if a := ss.active(); a != nil {
				f = append(f, fmt.Sprintf("strict: session %d action %d is still active", id, a.id))
				continue
			}
			recs, dropped := ss.env.NetworkRequests()
			for _, r := range recs {
				if !r.Matched {
					f = append(f, fmt.Sprintf("strict: session %d made an unmatched network request to %s", id, r.URL))
				}
			}
			if dropped > 0 {
				f = append(f, fmt.Sprintf("strict: session %d dropped %d network records", id, dropped))
			}
		}
		srv.mu.Unlock()
	}
	fe := h.FinalExpectation
	if fe == nil {
		return f
	}
	srv.mu.Lock()
	ss, ok := srv.sessions[fe.SessionID]
	srv.mu.Unlock()
	if !ok {
		return append(f, fmt.Sprintf("session %d does not exist", fe.SessionID))
	}
	if a := ss.active(); a != nil {
		if fe.ActiveActionCount == nil || *fe.ActiveActionCount == 0 {
			return append(f, fmt.Sprintf("session %d has an active action", fe.SessionID))
		}
		return f
	}
	if fe.ActiveActionCount != nil && *fe.ActiveActionCount != 0 {
		f = append(f, fmt.Sprintf("active_action_count: expected %d, got 0", *fe.ActiveActionCount))
	}
	snap := ss.env.Inspect()
	u := snap.Outcome.Usage
	if fe.WorkspaceChangeCount != nil {
		if n := len(ss.env.WorkspaceDiff(ss.baseline)); n != *fe.WorkspaceChangeCount {
			f = append(f, fmt.Sprintf("workspace_change_count: expected %d, got %d", *fe.WorkspaceChangeCount, n))
		}
	}
	if fe.ExitStatus != nil && snap.Outcome.ExitStatus != *fe.ExitStatus {
		f = append(f, fmt.Sprintf("exit_status: expected %d, got %d", *fe.ExitStatus, snap.Outcome.ExitStatus))
	}
	if fe.LiveProcessCount != nil {
		if n := ss.env.LiveProcesses(); n != *fe.LiveProcessCount {
			f = append(f, fmt.Sprintf("live_process_count: expected %d, got %d", *fe.LiveProcessCount, n))
		}
	}
	for _, b := range []struct {
		name string
		max  *int64
		got  int64
	}{{"cpu_used", fe.CPUUsedAtMost, u.CPUUsed}, {"memory_peak", fe.MemoryPeakAtMost, u.MemoryPeak},
		{"disk_current", fe.DiskCurrentAtMost, u.DiskCurrent}, {"output_bytes", fe.OutputBytesAtMost, u.OutputBytes}} {
		if b.max != nil && b.got > *b.max {
			f = append(f, fmt.Sprintf("%s: %d exceeds %d", b.name, b.got, *b.max))
		}
	}
	return f
}

var tmpSeq atomic.Int64

// publish writes data to path atomically and never replaces an existing
// file: a synced temporary file next to it is hard-linked into place.
func publish(path string, data []byte) error {
	if _, err := os.Lstat(path); err == nil {
		return errors.New("destination already exists")
	}
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".shellsim-transcript-%d-%d.tmp", os.Getpid(), tmpSeq.Add(1)))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	w := bufio.NewWriter(f)
	w.Write(data)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return errors.New("destination already exists")
		}
		return err
	}
	return nil
}
