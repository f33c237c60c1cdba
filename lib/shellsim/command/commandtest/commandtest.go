// Package commandtest runs ShellSim commands in unit tests: a fresh virtual
// filesystem, a deterministic fake command.System (virtual clock, optional
// fuel and memory limits, Exec of the commands it was given) and helpers to run a
// command and read or write files.
package commandtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// Env is a test environment for one or more command runs.
type Env struct {
	T   testing.TB
	FS  *vfs.FS
	Sys *System
	// Commands are the commands Run and Sys.Exec find (New's sets).
	Commands *command.Table
	Dir      string            // working directory, default /work
	Env      map[string]string // exported environment
}

// New returns a fresh environment with the default layout, cwd /work and
// HOME=/root, PATH=/usr/bin:/bin, whose commands are the given sets (a
// package's Commands(), test stubs).
func New(t testing.TB, commands ...[]command.Entry) *Env {
	s := &System{Fuel: -1, MemLimit: 64 << 20, Host: "sandbox", pid: 100}
	v := vfs.NewDefault(vfs.Options{Quota: 64 << 20, Clock: s.Now})
	s.fs = v
	e := &Env{T: t, FS: v, Sys: s, Commands: command.NewTable(commands...), Dir: "/work", Env: map[string]string{
		"HOME": "/root", "PATH": "/usr/bin:/bin", "USER": "root", "PWD": "/work", "LANG": "C.UTF-8"}}
	s.env = e
	return e
}

// Run runs args[0] as a command of e.Commands with stdin and returns its
// output and status. A name not there fails the test.
func (e *Env) Run(args []string, stdin string) (stdout, stderr string, status int) {
	var out, errb bytes.Buffer
	status = e.RunIO(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), status
}

// RunIO is Run with caller-supplied streams.
func (e *Env) RunIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ent, ok := e.Commands.Lookup(args[0])
	if !ok {
		e.T.Fatalf("commandtest: command %q is not in the environment's table", args[0])
	}
	inv := &command.Invocation{Args: args, Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Dir: e.Dir, Env: e.environ(), Sys: e.Sys}
	inv.FS = &vfs.View{FS: e.FS, Streams: vfs.Streams{Stdin: stdin, Stdout: stdout, Stderr: stderr}}
	e.Sys.Invocations = append(e.Sys.Invocations, args)
	return ent.Run(inv)
}

// WriteFile creates p (relative to Dir) with content, creating parents.
func (e *Env) WriteFile(p, content string) {
	e.T.Helper()
	p = command.Join(e.Dir, p)
	if err := e.FS.MkdirAll(parentDir(p), 0o755); err != nil {
		e.T.Fatal(err)
	}
	if err := e.FS.WriteFile(p, []byte(content), 0o644); err != nil {
		e.T.Fatal(err)
	}
}

// ReadFile returns the content of p (relative to Dir); a missing file fails the test.
func (e *Env) ReadFile(p string) string {
	e.T.Helper()
	b, err := e.FS.ReadFile(command.Join(e.Dir, p))
	if err != nil {
		e.T.Fatal(err)
	}
	return string(b)
}

// Exists reports whether p exists (without following a final symlink).
func (e *Env) Exists(p string) bool {
	_, err := e.FS.Lstat(command.Join(e.Dir, p))
	return err == nil
}

// Mkdir creates p and its parents.
func (e *Env) Mkdir(p string) {
	e.T.Helper()
	if err := e.FS.MkdirAll(command.Join(e.Dir, p), 0o755); err != nil {
		e.T.Fatal(err)
	}
}

func parentDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

func (e *Env) environ() command.Env { return mapEnv(e.Env) }

type mapEnv map[string]string

func (m mapEnv) Get(n string) (string, bool) { v, ok := m[n]; return v, ok }
func (m mapEnv) Environ() []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// ErrExhausted is what the fake System returns when Fuel or MemLimit runs out.
var ErrExhausted = fmt.Errorf("%w: resource exhausted", command.ErrStopped)

// System is a deterministic fake command.System. Fields may be set by tests.
type System struct {
	Fuel     int64 // remaining CPU units; negative means unlimited
	Used     int64 // CPU units charged so far
	MemLimit int64
	Mem      int64 // current reservation
	MemPeak  int64
	Clock    time.Duration // virtual monotonic time
	Host     string

	Partials, Unsupporteds []string
	Invocations            [][]string

	fs  *vfs.FS
	env *Env
	pid int
}

var _ command.System = (*System)(nil)

func (s *System) Charge(n int64) error {
	s.Used += n
	if s.Fuel >= 0 {
		if n > s.Fuel {
			s.Fuel = 0
			return ErrExhausted
		}
		s.Fuel -= n
	}
	return nil
}

func (s *System) Reserve(n int64) (func(), error) {
	if s.Mem+n > s.MemLimit {
		return func() {}, ErrExhausted
	}
	s.Mem += n
	s.MemPeak = max(s.MemPeak, s.Mem)
	done := false
	return func() {
		if !done {
			done = true
			s.Mem -= n
		}
	}, nil
}

func (s *System) Now() time.Time        { return vfs.Epoch.Add(s.Clock) }
func (s *System) Uptime() time.Duration { return s.Clock }
func (s *System) Sleep(d time.Duration) error {
	if d > 0 {
		s.Clock += d
	}
	return nil
}
func (s *System) Partial(f string)     { s.Partials = append(s.Partials, f) }
func (s *System) Unsupported(f string) { s.Unsupporteds = append(s.Unsupporteds, f) }

// Exec runs a command of the environment synchronously as a child. A timeout is
// modeled only as a deadline check after the child returns.
func (s *System) Exec(req command.ExecRequest) (int, error) {
	if len(req.Args) == 0 {
		return 0, errors.New("exec: no command")
	}
	ent, ok := s.env.Commands.Lookup(req.Args[0])
	if !ok {
		fmt.Fprintf(orDiscard(req.Stderr), "%s: command not found\n", req.Args[0])
		return 127, command.ErrNotFound
	}
	dir := req.Dir
	if dir == "" {
		dir = s.env.Dir
	}
	var env command.Env = s.env.environ()
	if req.Env != nil {
		m := mapEnv{}
		for _, kv := range req.Env {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		env = m
	}
	stdin := req.Stdin
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	stdout, stderr := orDiscard(req.Stdout), orDiscard(req.Stderr)
	s.pid++
	inv := &command.Invocation{Args: req.Args, Stdin: stdin, Stdout: stdout, Stderr: stderr,
		Dir: dir, Env: env, Sys: s}
	inv.FS = &vfs.View{FS: s.fs, Streams: vfs.Streams{Stdin: stdin, Stdout: stdout, Stderr: stderr}}
	s.Invocations = append(s.Invocations, req.Args)
	start := s.Clock
	st := ent.Run(inv)
	if req.Timeout > 0 && s.Clock-start > req.Timeout {
		s.Clock = start + req.Timeout
		sig := req.Signal
		if sig == 0 {
			sig = 15
		}
		return 128 + sig, command.ErrTimedOut
	}
	return st, nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

func (s *System) Processes() []command.Process {
	return []command.Process{{PID: 1, PPID: 0, PGID: 1, State: "S", Cmdline: []string{"bash"}},
		{PID: s.pid, PPID: 1, PGID: s.pid, State: "R", Cmdline: []string{"cmd"}, Start: 0}}
}
func (s *System) PID() int             { return s.pid }
func (s *System) PPID() int            { return 1 }
func (s *System) Hostname() string     { return s.Host }
func (s *System) Users() command.Users { return DefaultUsers{} }
func (s *System) MemoryLimit() int64   { return s.MemLimit }
func (s *System) Disk() (int64, int64) {
	q, u, _ := s.fs.Usage()
	return q, u
}

// DefaultUsers knows root (0) and user (1000).
type DefaultUsers struct{}

func (DefaultUsers) UID() int { return 0 }
func (DefaultUsers) GID() int { return 0 }
func (DefaultUsers) UserName(uid int) (string, bool) {
	switch uid {
	case 0:
		return "root", true
	case 1000:
		return "user", true
	}
	return "", false
}
func (u DefaultUsers) GroupName(gid int) (string, bool) { return u.UserName(gid) }
func (DefaultUsers) LookupUser(n string) (int, bool) {
	switch n {
	case "root":
		return 0, true
	case "user":
		return 1000, true
	}
	return 0, false
}
func (u DefaultUsers) LookupGroup(n string) (int, bool) { return u.LookupUser(n) }
