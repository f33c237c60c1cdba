package daytonad

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/backends/daytona"
	"github.com/shellbox/shellbox/lib/machine"
)

// shellCommand starts the shell the toolbox daemon would pick, with stderr
// merged into stdout; the command text arrives on its stdin.
const shellCommand = `for s in /usr/bin/zsh /bin/zsh /usr/bin/bash /bin/bash; do ` +
	`if [ -x "$s" ] && grep -qx "$s" /etc/shells 2>/dev/null; then exec "$s" 2>&1; fi; done; exec "${SHELL:-sh}" 2>&1`

// shellArgCommand is shellCommand with the command text as the shell's
// -c argument ($0 here): a command without stdin starts faster on the
// backends that keep a process ready for the next command.
const shellArgCommand = `for s in /usr/bin/zsh /bin/zsh /usr/bin/bash /bin/bash; do ` +
	`if [ -x "$s" ] && grep -qx "$s" /etc/shells 2>/dev/null; then exec "$s" -c "$0" 2>&1; fi; done; exec "${SHELL:-sh}" -c "$0" 2>&1`

// maxArgCommand is the longest command text passed as an argument (Linux
// bounds one at 128 KiB); a longer one goes on stdin.
const maxArgCommand = 100 << 10

// shellRun is the machine command that runs a toolbox command text.
func shellRun(text string) machine.Command {
	if len(text) <= maxArgCommand && !strings.ContainsRune(text, 0) {
		return machine.Command{Argv: []string{"/bin/sh", "-c", shellArgCommand, text}}
	}
	return machine.Command{Argv: []string{"/bin/sh", "-c", shellCommand}, Stdin: []byte(text)}
}

func (s *Server) toolboxRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /toolbox/{id}/process/execute", s.tool(s.execute))
	mux.HandleFunc("POST /toolbox/{id}/files/bulk-upload", s.tool(s.bulkUpload))
	mux.HandleFunc("POST /toolbox/{id}/files/upload", s.tool(s.upload))
	mux.HandleFunc("GET /toolbox/{id}/files/download", s.tool(s.download))
	mux.HandleFunc("POST /toolbox/{id}/files/bulk-download", s.tool(s.bulkDownload))
	mux.HandleFunc("POST /toolbox/{id}/files/folder", s.tool(s.folder))
	mux.HandleFunc("DELETE /toolbox/{id}/files", s.tool(s.deleteFile))
	mux.HandleFunc("POST /toolbox/{id}/process/session", s.tool(s.createSession))
	mux.HandleFunc("GET /toolbox/{id}/process/session/{sid}", s.tool(s.getSession))
	mux.HandleFunc("DELETE /toolbox/{id}/process/session/{sid}", s.tool(s.deleteSession))
	mux.HandleFunc("POST /toolbox/{id}/process/session/{sid}/exec", s.tool(s.sessionExec))
	mux.HandleFunc("GET /toolbox/{id}/process/session/{sid}/command/{cid}", s.tool(s.getCommand))
	mux.HandleFunc("GET /toolbox/{id}/process/session/{sid}/command/{cid}/logs", s.tool(s.commandLogs))
	mux.HandleFunc("POST /toolbox/{id}/process/session/{sid}/command/{cid}/input", s.tool(s.commandInput))
}

// tool finds the started sandbox of a toolbox call.
func (s *Server) tool(h func(http.ResponseWriter, *http.Request, *sandbox)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sb := s.findSandbox(r.PathValue("id"))
		if sb == nil {
			toolboxError(w, r, http.StatusNotFound, "sandbox %s not found", r.PathValue("id"))
			return
		}
		sb.mu.Lock()
		state := sb.obj.State
		sb.mu.Unlock()
		if state != daytona.StateStarted {
			toolboxError(w, r, http.StatusConflict, "sandbox %s is %s", r.PathValue("id"), state)
			return
		}
		h(w, r, sb)
	}
}

// user is the machine user of the sandbox's OS user.
func (sb *sandbox) user() string {
	if sb.obj.User == "root" {
		return "" // the image's default, root in the images this serves
	}
	return sb.obj.User
}

// abs resolves a toolbox path: relative ones are under the user's home.
func (sb *sandbox) abs(ctx context.Context, p string) (string, error) {
	if p == "" {
		return "", errors.New("path is required")
	}
	if strings.HasPrefix(p, "/") {
		return path.Clean(p), nil
	}
	sb.mu.Lock()
	home := sb.home
	sb.mu.Unlock()
	if home == "" {
		res, err := sb.m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", `cd && pwd`}, User: sb.user(), OutputLimit: 4096})
		if err != nil {
			return "", err
		}
		home = strings.TrimSpace(string(res.Stdout))
		if home == "" {
			home = "/"
		}
		sb.mu.Lock()
		sb.home = home
		sb.mu.Unlock()
	}
	return path.Join(home, p), nil
}

func (s *Server) execute(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	var req daytona.ExecuteRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20)).Decode(&req); err != nil {
		toolboxError(w, r, http.StatusBadRequest, "invalid request body: %v", err)
		return
	}
	if strings.TrimSpace(req.Command) == "" {
		toolboxError(w, r, http.StatusBadRequest, "empty command")
		return
	}
	cmd := shellRun(req.Command)
	cmd.Env, cmd.User, cmd.OutputLimit = req.Envs, sb.user(), s.cfg.MaxOutput
	if req.Cwd != "" {
		cwd, err := sb.abs(r.Context(), req.Cwd)
		if err != nil {
			toolboxError(w, r, http.StatusBadRequest, "%v", err)
			return
		}
		cmd.Cwd = cwd
	}
	if req.Timeout != nil && *req.Timeout > 0 {
		cmd.Timeout = time.Duration(*req.Timeout) * time.Second
	}
	if err := cmd.Validate(); err != nil {
		toolboxError(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	res, err := sb.m.Run(r.Context(), cmd)
	switch {
	case err != nil && r.Context().Err() != nil:
		return // the client is gone
	case err != nil:
		writeJSON(w, http.StatusOK, daytona.ExecuteResponse{ExitCode: -1, Result: err.Error()})
	case res.Reason == machine.TimedOut:
		toolboxError(w, r, http.StatusRequestTimeout, "command execution timeout")
	default:
		writeJSON(w, http.StatusOK, daytona.ExecuteResponse{ExitCode: *res.ExitCode, Result: string(res.Stdout)})
	}
}

// put stores one uploaded part at dest in the sandbox.
func (s *Server) put(ctx context.Context, sb *sandbox, dest string, body io.Reader) error {
	dest, err := sb.abs(ctx, dest)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp("", "daytonad-upload-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = io.Copy(tmp, body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return sb.m.Upload(ctx, tmp.Name(), dest)
}

func (s *Server) bulkUpload(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	mr, err := r.MultipartReader()
	if err != nil {
		toolboxError(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	paths := map[string]string{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			toolboxError(w, r, http.StatusBadRequest, "%v", err)
			return
		}
		name := part.FormName()
		idx, field, ok := strings.Cut(strings.TrimPrefix(name, "files["), "].")
		if !ok || !strings.HasPrefix(name, "files[") {
			continue
		}
		switch field {
		case "path":
			b, _ := io.ReadAll(io.LimitReader(part, 64<<10))
			paths[idx] = string(b)
		case "file":
			dest, ok := paths[idx]
			if !ok {
				toolboxError(w, r, http.StatusBadRequest, "files[%s].file comes before files[%s].path", idx, idx)
				return
			}
			if err := s.put(r.Context(), sb, dest, part); err != nil {
				toolboxError(w, r, http.StatusBadRequest, "uploading %s: %v", dest, err)
				return
			}
		}
	}
	w.WriteHeader(http.StatusOK)
}

func (s *Server) upload(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	mr, err := r.MultipartReader()
	if err != nil {
		toolboxError(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	for {
		part, err := mr.NextPart()
		if err != nil {
			toolboxError(w, r, http.StatusBadRequest, "no file part")
			return
		}
		if part.FormName() == "file" {
			if err := s.put(r.Context(), sb, r.URL.Query().Get("path"), part); err != nil {
				toolboxError(w, r, http.StatusBadRequest, "%v", err)
				return
			}
			w.WriteHeader(http.StatusOK)
			return
		}
	}
}

// fetch downloads one sandbox file to a host temporary file.
func (s *Server) fetch(ctx context.Context, sb *sandbox, p string) (*os.File, int, error) {
	src, err := sb.abs(ctx, p)
	if err != nil {
		return nil, http.StatusBadRequest, err
	}
	dir, err := os.MkdirTemp("", "daytonad-download-*")
	if err != nil {
		return nil, http.StatusInternalServerError, err
	}
	defer os.RemoveAll(dir) // the open file outlives its name
	target := filepath.Join(dir, "f")
	if err := sb.m.Download(ctx, src, target, machine.DownloadOptions{}); err != nil {
		var pe *machine.PathError
		if errors.As(err, &pe) && pe.NotFound {
			return nil, http.StatusNotFound, fmt.Errorf("file not found: %s", p)
		}
		return nil, http.StatusBadRequest, err
	}
	if st, err := os.Stat(target); err != nil || st.IsDir() {
		return nil, http.StatusBadRequest, fmt.Errorf("%s is a directory", p)
	}
	f, err := os.Open(target)
	if err != nil {
		return nil, http.StatusInternalServerError, err
	}
	return f, http.StatusOK, nil
}

func (s *Server) download(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	f, status, err := s.fetch(r.Context(), sb, r.URL.Query().Get("path"))
	if err != nil {
		toolboxError(w, r, status, "%v", err)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", path.Base(r.URL.Query().Get("path"))))
	_, _ = io.Copy(w, f)
}

// bulkDownload answers a multipart body: a part named "file" per file
// found, one named "error" (a JSON error) per file that was not.
func (s *Server) bulkDownload(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	var req daytona.DownloadRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20)).Decode(&req); err != nil || len(req.Paths) == 0 {
		toolboxError(w, r, http.StatusBadRequest, "paths are required")
		return
	}
	mw := multipart.NewWriter(w)
	w.Header().Set("Content-Type", "multipart/form-data; boundary="+mw.Boundary())
	w.WriteHeader(http.StatusOK)
	for _, p := range req.Paths {
		f, status, err := s.fetch(r.Context(), sb, p)
		h := textproto.MIMEHeader{}
		if err != nil {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="error"; filename=%q`, p))
			h.Set("Content-Type", "application/json")
			pw, perr := mw.CreatePart(h)
			if perr != nil {
				return
			}
			_ = json.NewEncoder(pw).Encode(daytona.APIError{StatusCode: status, Message: err.Error(),
				Code: strings.ToUpper(strings.ReplaceAll(http.StatusText(status), " ", "_"))})
			continue
		}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, p))
		h.Set("Content-Type", "application/octet-stream")
		pw, perr := mw.CreatePart(h)
		if perr == nil {
			_, perr = io.Copy(pw, f)
		}
		f.Close()
		if perr != nil {
			return
		}
	}
	_ = mw.Close()
}

// sh runs a helper script as the sandbox user.
func (s *Server) sh(ctx context.Context, sb *sandbox, script string, args ...string) (machine.Result, error) {
	return sb.m.Run(ctx, machine.Command{Argv: append([]string{"sh", "-c", script, "sh"}, args...), User: sb.user(), OutputLimit: 64 << 10})
}

func (s *Server) folder(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	p, err := sb.abs(r.Context(), r.URL.Query().Get("path"))
	if err != nil {
		toolboxError(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	mode := r.URL.Query().Get("mode")
	if mode == "" {
		mode = "755"
	}
	if _, err := strconv.ParseUint(mode, 8, 32); err != nil {
		toolboxError(w, r, http.StatusBadRequest, "invalid mode %q", mode)
		return
	}
	res, err := s.sh(r.Context(), sb, `mkdir -p "$1" && chmod "$2" "$1"`, p, mode)
	if err != nil || *res.ExitCode != 0 {
		toolboxError(w, r, http.StatusBadRequest, "creating %s: %v %s", p, err, res.Stderr)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	p, err := sb.abs(r.Context(), r.URL.Query().Get("path"))
	if err != nil {
		toolboxError(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	flag := "-f"
	if r.URL.Query().Get("recursive") == "true" {
		flag = "-rf"
	}
	res, err := s.sh(r.Context(), sb, `[ -e "$2" ] || [ -L "$2" ] || exit 3; rm "$1" "$2"`, flag, p)
	switch {
	case err != nil:
		toolboxError(w, r, http.StatusInternalServerError, "%v", err)
	case *res.ExitCode == 3:
		toolboxError(w, r, http.StatusNotFound, "file not found: %s", p)
	case *res.ExitCode != 0:
		toolboxError(w, r, http.StatusBadRequest, "deleting %s: %s", p, res.Stderr)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// session holds the commands run through one session; each runs on its
// own.
type session struct {
	mu   sync.Mutex
	cmds map[string]*sessionCmd
	list []*sessionCmd
}

type sessionCmd struct {
	id      string
	command string
	done    chan struct{}
	exit    *int
	output  []byte
	// Of a command run asynchronously as a process (streamed.go).
	proc    machine.Process
	inMu    sync.Mutex // orders writes to proc's input
	stderr  []byte
	changed chan struct{} // closed and replaced when output grows
}

func (s *Server) createSession(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	var req daytona.CreateSessionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.SessionID == "" {
		toolboxError(w, r, http.StatusBadRequest, "sessionId is required")
		return
	}
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if _, ok := sb.session[req.SessionID]; ok {
		toolboxError(w, r, http.StatusConflict, "session %s already exists", req.SessionID)
		return
	}
	sb.session[req.SessionID] = &session{cmds: map[string]*sessionCmd{}}
	w.WriteHeader(http.StatusCreated)
}

func (sb *sandbox) findSession(id string) *session {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	return sb.session[id]
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	se := sb.findSession(r.PathValue("sid"))
	if se == nil {
		toolboxError(w, r, http.StatusNotFound, "session not found")
		return
	}
	out := daytona.Session{SessionID: r.PathValue("sid"), Commands: []daytona.SessionCommand{}}
	se.mu.Lock()
	for _, c := range se.list {
		out.Commands = append(out.Commands, daytona.SessionCommand{ID: c.id, Command: c.command, ExitCode: c.exit})
	}
	se.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	sb.mu.Lock()
	se, ok := sb.session[r.PathValue("sid")]
	delete(sb.session, r.PathValue("sid"))
	sb.mu.Unlock()
	if !ok {
		toolboxError(w, r, http.StatusNotFound, "session not found")
		return
	}
	// As the daemon ends a session's shell, its running commands end.
	se.stop(r.Context())
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) sessionExec(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	se := sb.findSession(r.PathValue("sid"))
	if se == nil {
		toolboxError(w, r, http.StatusNotFound, "session not found")
		return
	}
	var req daytona.SessionExecuteRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<20)).Decode(&req); err != nil || strings.TrimSpace(req.Command) == "" {
		toolboxError(w, r, http.StatusBadRequest, "command is required")
		return
	}
	c := &sessionCmd{id: newID(), command: req.Command, done: make(chan struct{})}
	se.mu.Lock()
	se.cmds[c.id] = c
	se.list = append(se.list, c)
	se.mu.Unlock()
	run := func(ctx context.Context) {
		cmd := shellRun(req.Command)
		cmd.User, cmd.OutputLimit = sb.user(), s.cfg.MaxOutput
		res, err := sb.m.Run(ctx, cmd)
		se.mu.Lock()
		if err != nil {
			code := -1
			c.exit, c.output = &code, []byte(err.Error())
		} else {
			c.exit, c.output = res.ExitCode, res.Stdout
		}
		se.mu.Unlock()
		close(c.done)
	}
	if pm, ok := sb.m.(machine.ProcessMachine); ok && req.RunAsync {
		if err := s.startStreamed(context.WithoutCancel(r.Context()), pm, sb, se, c); err != nil {
			se.mu.Lock()
			delete(se.cmds, c.id)
			se.list = se.list[:len(se.list)-1]
			se.mu.Unlock()
			toolboxError(w, r, http.StatusBadRequest, "%v", err)
			return
		}
		writeJSON(w, http.StatusAccepted, daytona.SessionExecuteResponse{CmdID: c.id})
		return
	}
	if req.RunAsync {
		go run(context.WithoutCancel(r.Context()))
		writeJSON(w, http.StatusAccepted, daytona.SessionExecuteResponse{CmdID: c.id})
		return
	}
	run(r.Context())
	out := string(c.output)
	empty := ""
	writeJSON(w, http.StatusOK, daytona.SessionExecuteResponse{CmdID: c.id, ExitCode: c.exit, Output: &out, Stdout: &out, Stderr: &empty})
}

func (sb *sandbox) findCommand(w http.ResponseWriter, r *http.Request) (*session, *sessionCmd) {
	se := sb.findSession(r.PathValue("sid"))
	if se == nil {
		toolboxError(w, r, http.StatusNotFound, "session not found")
		return nil, nil
	}
	se.mu.Lock()
	c := se.cmds[r.PathValue("cid")]
	se.mu.Unlock()
	if c == nil {
		toolboxError(w, r, http.StatusNotFound, "command not found")
		return nil, nil
	}
	return se, c
}

func (s *Server) getCommand(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	se, c := sb.findCommand(w, r)
	if c == nil {
		return
	}
	se.mu.Lock()
	out := daytona.SessionCommand{ID: c.id, Command: c.command, ExitCode: c.exit}
	se.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// commandLogs answers a command's output as SessionCommandLogsResponse,
// or, with follow=true, streams it over a websocket (followLogs).
func (s *Server) commandLogs(w http.ResponseWriter, r *http.Request, sb *sandbox) {
	se, c := sb.findCommand(w, r)
	if c == nil {
		return
	}
	if r.URL.Query().Get("follow") == "true" {
		followLogs(w, r, se, c)
		return
	}
	se.mu.Lock()
	out, errs := string(c.output), string(c.stderr)
	se.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]string{"output": out + errs, "stdout": out, "stderr": errs})
}
