package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/shellbox/shellbox/lib/machine"
)

// HostTerminal runs programs on a pseudo-terminal of this host, outside
// any sandbox: it is for tests and trusted tools, never for agents' code.
type HostTerminal struct {
	Dir string            // the working directory for an empty Command.Cwd
	Env map[string]string // the environment under Command.Env
}

// OpenTerminal starts cmd as a session leader whose controlling terminal
// is a fresh PTY.
func (t HostTerminal) OpenTerminal(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	if err := cmd.Validate(); err != nil {
		return nil, err
	}
	env := map[string]string{}
	for k, v := range t.Env {
		env[k] = v
	}
	for k, v := range cmd.Env {
		env[k] = v
	}
	c := exec.Command(cmd.Argv[0], cmd.Argv[1:]...)
	if path, ok := env["PATH"]; ok {
		if lp, err := lookPath(cmd.Argv[0], path); err == nil {
			c.Path = lp
		}
	}
	c.Env = envList(env)
	c.Dir = cmd.Cwd
	if c.Dir == "" {
		c.Dir = t.Dir
	}
	f, err := pty.StartWithSize(c, &pty.Winsize{Rows: 24, Cols: 200})
	if err != nil {
		return nil, fmt.Errorf("starting %s on a terminal: %w", cmd.Argv[0], err)
	}
	p := &hostProcess{cmd: c, pty: f, done: make(chan struct{})}
	go func() {
		err := c.Wait()
		p.code = exitCode(c.ProcessState, err)
		close(p.done)
	}()
	return p, nil
}

// lookPath finds name in the directories of path (the command's PATH, not
// this process's).
func lookPath(name, path string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		full := filepath.Join(dir, name)
		if st, err := os.Stat(full); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return full, nil
		}
	}
	return "", errors.New("not found")
}

func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

func exitCode(st *os.ProcessState, err error) int {
	if st == nil {
		return 127
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return st.ExitCode()
}

type hostProcess struct {
	cmd  *exec.Cmd
	pty  *os.File
	done chan struct{}
	code int
	once sync.Once
}

func (p *hostProcess) Stdin() io.WriteCloser { return ptyInput{p.pty} }
func (p *hostProcess) Stdout() io.Reader     { return p.pty }

func (p *hostProcess) Wait(ctx context.Context) (machine.ProcessExit, error) {
	select {
	case <-p.done:
		return machine.ProcessExit{ExitCode: p.code}, nil
	case <-ctx.Done():
		return machine.ProcessExit{}, ctx.Err()
	}
}

// Close kills the terminal's session (the shell and every job it
// started) and releases the terminal.
func (p *hostProcess) Close(ctx context.Context) error {
	var err error
	p.once.Do(func() {
		sid := p.cmd.Process.Pid
		killSession(sid)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			err = &machine.InfrastructureError{Op: "stopping the terminal's shell", Err: errors.New("it did not exit after SIGKILL")}
		case <-ctx.Done():
			err = ctx.Err()
		}
		_ = p.pty.Close()
	})
	return err
}

// ptyInput writes to the terminal; closing it sends end-of-file (^D).
type ptyInput struct{ f *os.File }

func (w ptyInput) Write(b []byte) (int, error) { return w.f.Write(b) }
func (w ptyInput) Close() error {
	_, err := w.f.Write([]byte{0x04})
	return err
}
