package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/shellbox/shellbox/lib/shellsim"
	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/shell"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// Options configure a Server.
type Options struct {
	Limits shellsim.Limits
	// Root, when set, is a host directory imported into /work (trusted
	// ingest) before the first request; the baseline is taken after it.
	Root string
	// MaxLineBytes bounds a request line; 0 means MaxLineBytes.
	MaxLineBytes int
}

// Server is a session manager: session 0 exists from the start, forks get
// ids counting up from 1 that are never reused.
type Server struct {
	opts     Options
	mu       sync.Mutex
	sessions map[uint64]*session
	nextID   uint64
}

// New starts a server with session 0.
func New(opts Options) (*Server, error) {
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = MaxLineBytes
	}
	env := shellsim.NewEnvironment(opts.Limits)
	if opts.Root != "" {
		if _, err := env.Mount(opts.Root, "/work"); err != nil {
			env.Close()
			return nil, fmt.Errorf("--root %s: %w", opts.Root, err)
		}
	}
	s := &Server{opts: opts, sessions: map[uint64]*session{}, nextID: 1}
	s.sessions[0] = &session{env: env, baseline: env.Checkpoint(), actions: map[uint64]*action{}}
	return s, nil
}

// Close ends every session.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, ss := range s.sessions {
		ss.close()
		delete(s.sessions, id)
	}
}

// Serve reads request lines from r and writes one response line each to
// w until EOF. Oversized lines get an error response and are skipped.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriter(w)
	for {
		line, tooLong, err := readLine(br, s.opts.MaxLineBytes)
		if err == io.EOF && line == nil {
			return bw.Flush()
		}
		if err != nil && err != io.EOF {
			bw.Flush()
			return err
		}
		var out []byte
		if tooLong {
			out, _ = json.Marshal(Response{OK: false, Error: fmt.Sprintf("request exceeds the %d-byte limit", s.opts.MaxLineBytes)})
		} else if len(strings.TrimSpace(string(line))) == 0 {
			if err == io.EOF {
				return bw.Flush()
			}
			continue
		} else {
			out = s.HandleLine(line)
		}
		bw.Write(out)
		bw.WriteByte('\n')
		if ferr := bw.Flush(); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

// readLine reads one line without its newline; past max bytes it discards
// the rest of the line and reports tooLong.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, e := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if e == io.EOF && len(line) == 0 && !tooLong && len(chunk) == 0 {
			return nil, false, io.EOF
		}
		line = []byte(strings.TrimSuffix(string(line), "\n"))
		return line, tooLong, e
	}
}

// HandleLine answers one request line with one response line (no newline).
func (s *Server) HandleLine(line []byte) []byte {
	resp := s.Handle(line)
	out, err := json.Marshal(resp)
	if err != nil {
		out, _ = json.Marshal(Response{ID: resp.ID, OK: false, Error: "internal error: " + err.Error()})
	}
	return out
}

// Handle answers one request line.
func (s *Server) Handle(line []byte) Response {
	req, err := DecodeRequest(line)
	if err != nil {
		return Response{OK: false, Error: err.Error()}
	}
	result, err := s.do(req, line)
	if err != nil {
		return Response{ID: req.ID, OK: false, Error: err.Error()}
	}
	return Response{ID: req.ID, OK: true, Result: result}
}

type obj = map[string]any

func ack() obj { return obj{"kind": "acknowledged"} }

func (s *Server) do(req *Request, raw []byte) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sid := uint64(0)
	if req.SessionID != nil {
		sid = *req.SessionID
	}
	ss, ok := s.sessions[sid]
	if !ok && req.Op != "drop_session" {
		return nil, fmt.Errorf("session %d does not exist", sid)
	}
	if ok && req.Op == "execute" && ss.active() != nil {
		return nil, shellsim.ErrActionActive
	}
	switch req.Op {
	case "execute":
		if req.Source == nil {
			return nil, errors.New("invalid request: missing field `source`")
		}
		stdin, err := decode64("stdin_base64", req.StdinBase64)
		if err != nil {
			return nil, err
		}
		before, _ := ss.env.NetworkRequests()
		res := ss.env.Execute(context.Background(), shellsim.Action{Source: *req.Source, Stdin: stdin}, false)
		after, dropped := ss.env.NetworkRequests()
		out := executeResult(res.Result, ss.env)
		if len(after) > len(before) {
			out.NetworkRequests = netView(after[len(before):])
		}
		out.DroppedNetwork = dropped
		return out, nil
	case "start_execute":
		if req.Source == nil {
			return nil, errors.New("invalid request: missing field `source`")
		}
		stdin, err := decode64("stdin_base64", req.StdinBase64)
		if err != nil {
			return nil, err
		}
		closed := req.StdinClosed == nil || *req.StdinClosed
		a, err := ss.start(*req.Source, stdin, closed)
		if err != nil {
			return nil, err
		}
		return actionView(a), nil
	case "poll_action":
		a, err := ss.action(req.ActionID)
		if err != nil {
			return nil, err
		}
		quanta := int64(DefaultWorkQuanta)
		if req.WorkQuanta != nil {
			quanta = *req.WorkQuanta
		}
		if quanta < 1 || quanta > MaxWorkQuanta {
			return nil, fmt.Errorf("work_quanta must be between 1 and %d", MaxWorkQuanta)
		}
		a.run.Poll(quanta, req.AdvanceTime != nil && *req.AdvanceTime, PollWait)
		return actionView(a), nil
	case "read_action_output":
		a, err := ss.action(req.ActionID)
		if err != nil {
			return nil, err
		}
		done := a.complete()
		out, errb := a.run.Output(a.outOff, a.errOff)
		a.outOff, a.errOff = a.outOff+len(out), a.errOff+len(errb)
		return obj{"kind": "action_output", "action_id": a.id, "stdout_base64": enc(out), "stderr_base64": enc(errb),
			"stdout_closed": done, "stderr_closed": done}, nil
	case "write_stdin", "close_stdin":
		a, err := ss.action(req.ActionID)
		if err != nil {
			return nil, err
		}
		if a.complete() {
			return nil, fmt.Errorf("action %d is complete", a.id)
		}
		if req.Op == "close_stdin" {
			if err := a.run.CloseStdin(); err != nil {
				return nil, fmt.Errorf("action %d: %v", a.id, err)
			}
			return ack(), nil
		}
		data, err := decode64("data_base64", req.DataBase64)
		if err != nil {
			return nil, err
		}
		if err := a.run.WriteStdin(data); err != nil {
			return nil, fmt.Errorf("action %d: %v", a.id, err)
		}
		return ack(), nil
	case "cancel_action":
		a, err := ss.action(req.ActionID)
		if err != nil {
			return nil, err
		}
		a.run.Cancel()
		return actionView(a), nil
	case "drop_action":
		a, err := ss.action(req.ActionID)
		if err != nil {
			return nil, err
		}
		if !a.complete() {
			return nil, fmt.Errorf("action %d is still active", a.id)
		}
		delete(ss.actions, a.id)
		return ack(), nil
	case "signal_process":
		if req.PID == nil || req.Signal == nil {
			return nil, errors.New("invalid request: signal_process needs `pid` and `signal`")
		}
		sig, ok := shell.SignalNumber(*req.Signal)
		if !ok {
			return nil, fmt.Errorf("invalid signal %q", *req.Signal)
		}
		group := req.ProcessGroup != nil && *req.ProcessGroup
		if err := ss.env.Signal(int(*req.PID), sig, group); err != nil {
			return nil, fmt.Errorf("signal_process: %v", err)
		}
		return ack(), nil
	case "fork_session":
		src, err := req.sourceSession(raw)
		if err != nil {
			return nil, err
		}
		from, ok := s.sessions[src]
		if !ok {
			return nil, fmt.Errorf("session %d does not exist", src)
		}
		if len(s.sessions) >= MaxSessions {
			return nil, fmt.Errorf("harness session limit exceeded (%d)", MaxSessions)
		}
		ns, err := from.fork()
		if err != nil {
			return nil, err
		}
		id := s.nextID
		s.nextID++
		s.sessions[id] = ns
		return obj{"kind": "session", "session_id": id}, nil
	case "drop_session":
		if req.Target == nil {
			return nil, errors.New("invalid request: missing field `target`")
		}
		t, ok := s.sessions[*req.Target]
		if !ok {
			return nil, fmt.Errorf("session %d does not exist", *req.Target)
		}
		t.close()
		delete(s.sessions, *req.Target)
		return ack(), nil
	case "read_file", "write_file", "stat_path", "make_directory", "remove_path", "list_paths":
		return fileOp(ss.env, req)
	case "checkpoint":
		if _, used, _ := usage(ss.env); used > MaxTransferBytes {
			return nil, fmt.Errorf("workspace exceeds the %d-byte checkpoint limit", MaxTransferBytes)
		}
		ss.baseline = ss.env.Checkpoint()
		return ack(), nil
	case "workspace_diff":
		changes, err := diffView(ss)
		if err != nil {
			return nil, err
		}
		return obj{"kind": "workspace_diff", "changes": changes}, nil
	case "reset_workspace":
		ss.env.ResetWorkspace(ss.baseline)
		ss.env.ResetDirIfGone()
		return ack(), nil
	case "inspect":
		snap := ss.env.Inspect()
		actions := []obj{}
		ids := make([]uint64, 0, len(ss.actions))
		for id := range ss.actions {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			actions = append(actions, actionView(ss.actions[id]))
		}
		recs, dropped := ss.env.NetworkRequests()
		return obj{"kind": "inspect", "cwd": snap.Cwd, "outcome": withLastStatus(snap.Outcome), "actions": actions,
			"processes": snap.Processes, "current_pid": snap.CurrentPID, "monotonic_ns": snap.MonotonicNS,
			"wall_time_ns": snap.WallTimeNS, "terminated": snap.Terminated,
			"network_requests": netView(recs), "dropped_network_requests": dropped}, nil
	}
	return nil, fmt.Errorf("invalid request: unknown op %q", req.Op)
}

func withLastStatus(o shellsim.Outcome) obj {
	b, _ := json.Marshal(o)
	var m obj
	json.Unmarshal(b, &m)
	m["last_status"] = o.ExitStatus
	return m
}

func usage(e *shellsim.Environment) (int64, int64, int64) {
	u := e.Usage()
	return 0, u.DiskCurrent, u.DiskPeak
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func netView(recs []command.RequestRecord) []obj {
	out := []obj{}
	for _, r := range recs {
		v := obj{"method": r.Method, "url": r.URL, "matched": r.Matched, "response_status": nil}
		if r.Matched {
			v["response_status"] = r.Status
		}
		out = append(out, v)
	}
	return out
}

// executeView is the execute result (a struct: it is the hot path).
type executeView struct {
	Kind                string                `json:"kind"`
	Outcome             shellsim.Outcome      `json:"outcome"`
	StdoutBase64        string                `json:"stdout_base64"`
	StderrBase64        string                `json:"stderr_base64"`
	Commands            []string              `json:"commands"`
	DroppedCommands     int                   `json:"dropped_commands"`
	Unsupported         []string              `json:"unsupported"`
	DroppedUnsupported  int                   `json:"dropped_unsupported"`
	UnsupportedCommands []string              `json:"unsupported_commands"`
	PartialCommands     []string              `json:"partial_commands"`
	Invocations         []shellsim.Invocation `json:"invocations"`
	DroppedInvocations  int                   `json:"dropped_invocations"`
	NetworkRequests     []obj                 `json:"network_requests"`
	DroppedNetwork      int                   `json:"dropped_network_requests"`
}

func executeResult(r shellsim.Result, env *shellsim.Environment) *executeView {
	o := r.Outcome
	o.CommandUsage = orEmpty(o.CommandUsage)
	return &executeView{Kind: "execute", Outcome: o, StdoutBase64: enc(r.Stdout), StderrBase64: enc(r.Stderr),
		Commands: orEmpty(r.Commands), Unsupported: orEmpty(r.Unsupported),
		UnsupportedCommands: orEmpty(r.UnsupportedCommands), PartialCommands: orEmpty(r.PartialCommands),
		Invocations: orEmpty(r.Invocations), NetworkRequests: []obj{}}
}

func actionView(a *action) obj {
	v := obj{"kind": "action", "action_id": a.id, "root_pid": a.run.RootPID()}
	switch {
	case a.complete():
		r := a.run.Result()
		v["state"] = obj{"state": "complete", "status": r.Outcome.ExitStatus}
		o := r.Outcome
		o.CommandUsage = orEmpty(o.CommandUsage)
		v["outcome"] = o
		v["invocations"], v["commands"], v["unsupported"] = orEmpty(r.Invocations), orEmpty(r.Commands), orEmpty(r.Unsupported)
		v["unsupported_commands"], v["partial_commands"] = orEmpty(r.UnsupportedCommands), orEmpty(r.PartialCommands)
	default:
		if reason := a.run.Blocked(); reason != nil {
			v["state"] = obj{"state": "blocked", "reason": reason}
			break
		}
		v["state"] = obj{"state": "running"}
	}
	if _, ok := v["invocations"]; !ok {
		v["invocations"], v["commands"], v["unsupported"] = []any{}, []any{}, []any{}
	}
	v["dropped_invocations"], v["dropped_commands"], v["dropped_unsupported"] = 0, 0, 0
	v["network_requests"], v["dropped_network_requests"] = []any{}, 0
	return v
}

func nodeView(n *vfs.DiffNode) obj {
	if n == nil {
		return nil
	}
	v := obj{"type": n.Type, "mode": modeBits(n.Mode)}
	switch n.Type {
	case "file":
		v["data_base64"] = enc(n.Data)
	case "symlink":
		v["target"] = n.Target
	}
	return v
}

func modeBits(m fs.FileMode) uint32 {
	b := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		b |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		b |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		b |= 0o1000
	}
	return b
}

func diffView(ss *session) ([]obj, error) {
	changes := ss.env.WorkspaceDiff(ss.baseline)
	out := []obj{}
	total := 0
	for _, c := range changes {
		v := obj{"path": c.Path, "change": c.Kind}
		if c.Before != nil {
			v["before"] = nodeView(c.Before)
			total += len(c.Before.Data)
		}
		if c.After != nil {
			v["after"] = nodeView(c.After)
			total += len(c.After.Data)
		}
		out = append(out, v)
	}
	if total > MaxTransferBytes {
		return nil, fmt.Errorf("workspace diff exceeds the %d-byte transfer limit", MaxTransferBytes)
	}
	return out, nil
}

// workPath resolves p against /work and confines it to /work.
func workPath(p *string) (string, error) {
	if p == nil {
		return "", errors.New("invalid request: missing field `path`")
	}
	if strings.ContainsRune(*p, 0) {
		return "", errors.New("path contains a NUL byte")
	}
	q := *p
	if !path.IsAbs(q) {
		q = path.Join("/work", q)
	}
	q = path.Clean(q)
	if q != "/work" && !strings.HasPrefix(q, "/work/") {
		return "", errors.New("harness file operations are confined to /work")
	}
	return q, nil
}

func fileMode(m *int64, def fs.FileMode) (fs.FileMode, error) {
	if m == nil {
		return def, nil
	}
	if *m < 0 || *m > 0o7777 {
		return 0, fmt.Errorf("invalid file mode 0o%o", *m)
	}
	mode := fs.FileMode(*m & 0o777)
	if *m&0o4000 != 0 {
		mode |= fs.ModeSetuid
	}
	if *m&0o2000 != 0 {
		mode |= fs.ModeSetgid
	}
	if *m&0o1000 != 0 {
		mode |= fs.ModeSticky
	}
	return mode, nil
}

func fsErr(err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %s", pe.Path, command.Message(err))
	}
	return err
}

func fileOp(env *shellsim.Environment, req *Request) (any, error) {
	var p string
	var err error
	if req.Op == "list_paths" {
		root := "/work"
		if req.Root != nil {
			root = *req.Root
		}
		p, err = workPath(&root)
	} else {
		p, err = workPath(req.Path)
	}
	if err != nil {
		return nil, err
	}
	switch req.Op {
	case "write_file":
		data, err := decode64("data_base64", req.DataBase64)
		if err != nil {
			return nil, err
		}
		mode, err := fileMode(req.Mode, 0o644)
		if err != nil {
			return nil, err
		}
		return ack(), env.ChangeFS(func(fsys *vfs.FS) error {
			if err := fsys.WriteFile(p, data, mode); err != nil {
				return fsErr(err)
			}
			return fsErr(fsys.Chmod(p, mode))
		}, len(data)+len(p))
	case "make_directory":
		mode, err := fileMode(req.Mode, 0o755)
		if err != nil {
			return nil, err
		}
		parents := req.Parents != nil && *req.Parents
		return ack(), env.ChangeFS(func(fsys *vfs.FS) error {
			if parents {
				return fsErr(fsys.MkdirAll(p, mode))
			}
			return fsErr(fsys.Mkdir(p, mode))
		}, len(p))
	case "remove_path":
		if p == "/work" {
			return nil, errors.New("cannot remove /work itself")
		}
		return ack(), env.ChangeFS(func(fsys *vfs.FS) error {
			if _, err := fsys.Lstat(p); err != nil {
				return fsErr(err)
			}
			return fsErr(fsys.RemoveAll(p))
		}, len(p))
	}
	var result any
	err = env.WithFS(func(fsys *vfs.FS) error {
		switch req.Op {
		case "read_file":
			fi, err := fsys.Stat(p)
			if err != nil {
				return fsErr(err)
			}
			if !fi.Mode.IsRegular() {
				return fmt.Errorf("%s: not a regular file", p)
			}
			if fi.Size > MaxTransferBytes {
				return fmt.Errorf("%s exceeds the %d-byte transfer limit", p, MaxTransferBytes)
			}
			data, err := fsys.ReadFile(p)
			if err != nil {
				return fsErr(err)
			}
			result = obj{"kind": "file", "path": p, "data_base64": enc(data), "mode": modeBits(fi.Mode)}
		case "stat_path":
			follow := req.FollowSymlinks == nil || *req.FollowSymlinks
			var fi command.FileInfo
			var err error
			if follow {
				fi, err = fsys.Stat(p)
			} else {
				fi, err = fsys.Lstat(p)
			}
			if err != nil {
				return fsErr(err)
			}
			v := obj{"kind": "path_metadata", "path": p, "mode": modeBits(fi.Mode), "uid": fi.UID, "gid": fi.GID,
				"mtime_ms": fi.ModTime.UnixMilli(), "size": int64(0)}
			switch {
			case fi.Mode.IsDir():
				v["node_type"] = "directory"
			case fi.Mode&fs.ModeSymlink != 0:
				v["node_type"], v["size"], v["symlink_target"] = "symlink", int64(len(fi.Target)), fi.Target
			default:
				v["node_type"], v["size"] = "file", fi.Size
			}
			result = v
		case "list_paths":
			paths := []string{}
			var walk func(string) error
			walk = func(dir string) error {
				kids, err := fsys.ReadDir(dir)
				if err != nil {
					return fsErr(err)
				}
				for _, k := range kids {
					c := path.Join(dir, k.Name)
					paths = append(paths, c)
					if k.Mode.IsDir() {
						if err := walk(c); err != nil {
							return err
						}
					}
				}
				return nil
			}
			fi, err := fsys.Lstat(p)
			if err != nil {
				return fsErr(err)
			}
			if fi.Mode.IsDir() {
				if err := walk(p); err != nil {
					return err
				}
			} else {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			result = obj{"kind": "paths", "paths": paths}
		}
		return nil
	})
	return result, err
}
