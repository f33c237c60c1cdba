package shell

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// hostMachine runs real host processes in a directory: enough of the
// machine contract for the transports above, with no sandbox.
type hostMachine struct {
	dir string
	env map[string]string
}

func (m *hostMachine) command(ctx context.Context, cmd machine.Command) *exec.Cmd {
	env := map[string]string{}
	for k, v := range m.env {
		env[k] = v
	}
	for k, v := range cmd.Env {
		env[k] = v
	}
	c := exec.Command(cmd.Argv[0], cmd.Argv[1:]...)
	c.Env = envList(env)
	c.Dir = cmd.Cwd
	if c.Dir == "" {
		c.Dir = m.dir
	}
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return c
}

func (m *hostMachine) Run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	c := m.command(ctx, cmd)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		code := 127
		return machine.ExitedWith(code, nil, []byte(err.Error()), false, false), nil
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	var timeout <-chan time.Time
	if cmd.Timeout > 0 {
		timeout = time.After(cmd.Timeout)
	}
	select {
	case <-done:
	case <-timeout:
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		<-done
		so, se := cut(out.Bytes(), cmd.OutputLimit), cut(errb.Bytes(), cmd.OutputLimit)
		return machine.Result{Stdout: so, Stderr: se, Reason: machine.TimedOut}, nil
	case <-ctx.Done():
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		<-done
		return machine.Result{}, ctx.Err()
	}
	so, se := cut(out.Bytes(), cmd.OutputLimit), cut(errb.Bytes(), cmd.OutputLimit)
	return machine.ExitedWith(exitCode(c.ProcessState, nil), so, se, len(so) < out.Len(), len(se) < errb.Len()), nil
}

func cut(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

func (m *hostMachine) Upload(ctx context.Context, source, target string) error {
	return errors.New("not needed")
}
func (m *hostMachine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	return errors.New("not needed")
}
func (m *hostMachine) Close(ctx context.Context) error { return nil }

func (m *hostMachine) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	c := m.command(ctx, cmd)
	stdin, _ := c.StdinPipe()
	// Our own pipe: exec's StdoutPipe is closed by Wait, racing the reader.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c.Stdout = w
	var errb bytes.Buffer
	c.Stderr = &errb
	if err := c.Start(); err != nil {
		return nil, err
	}
	_ = w.Close()
	p := &pipeProcess{c: c, stdin: stdin, stdout: stdout, done: make(chan struct{})}
	go func() { _ = c.Wait(); close(p.done) }()
	return p, nil
}

type pipeProcess struct {
	c      *exec.Cmd
	stdin  io.WriteCloser
	stdout io.Reader
	done   chan struct{}
	once   sync.Once
}

func (p *pipeProcess) Stdin() io.WriteCloser { return p.stdin }
func (p *pipeProcess) Stdout() io.Reader     { return p.stdout }
func (p *pipeProcess) Wait(ctx context.Context) (machine.ProcessExit, error) {
	select {
	case <-p.done:
		return machine.ProcessExit{ExitCode: exitCode(p.c.ProcessState, nil)}, nil
	case <-ctx.Done():
		return machine.ProcessExit{}, ctx.Err()
	}
}
func (p *pipeProcess) Close(ctx context.Context) error {
	p.once.Do(func() {
		killSessionOrGroup(p.c.Process.Pid)
		<-p.done
	})
	return nil
}

// killSessionOrGroup kills the process group and every process whose
// parent chain leads to it (background jobs leave the group when job
// control is on; with pipes it is off, so the group is enough).
func killSessionOrGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
