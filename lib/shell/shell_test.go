package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

func hostEnv(home string) map[string]string {
	return map[string]string{"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"}
}

// sessions are the two interactive transports, each over real Bash.
func sessions(t *testing.T) map[string]func(t *testing.T) (*Interactive, string) {
	return map[string]func(t *testing.T) (*Interactive, string){
		"pty": func(t *testing.T) (*Interactive, string) {
			dir := t.TempDir()
			s := NewTerminalSession(HostTerminal{Dir: dir, Env: hostEnv(dir)}, Options{})
			t.Cleanup(func() { _ = s.Close(context.Background()) })
			return s, dir
		},
		"script": func(t *testing.T) (*Interactive, string) {
			dir := t.TempDir()
			s := NewTerminalSession(ScriptTerminal{Machine: &hostMachine{dir: dir, env: hostEnv(dir)}}, Options{})
			t.Cleanup(func() { _ = s.Close(context.Background()) })
			return s, dir
		},
		"pipe": func(t *testing.T) (*Interactive, string) {
			dir := t.TempDir()
			s := NewPipeSession(&hostMachine{dir: dir, env: hostEnv(dir)}, Options{})
			t.Cleanup(func() { _ = s.Close(context.Background()) })
			return s, dir
		},
	}
}

func run(t *testing.T, s Session, cmd string) Update {
	t.Helper()
	u, err := s.Execute(context.Background(), cmd, 10*time.Second, 1<<20)
	if err != nil {
		t.Fatalf("execute %q: %v", cmd, err)
	}
	return u
}

func wantDone(t *testing.T, u Update, code int, out string) {
	t.Helper()
	if u.Status != Completed || u.ExitCode == nil || *u.ExitCode != code || string(u.Output) != out {
		t.Fatalf("got %s exit=%v output=%q, want completed exit=%d output=%q", u.Status, deref(u.ExitCode), u.Output, code, out)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestStatePersistsBetweenCommands(t *testing.T) {
	for name, open := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			s, dir := open(t)
			wantDone(t, run(t, s, "mkdir -p sub && cd sub && export V=persisted && greet() { echo \"hi $1\"; }"), 0, "")
			wantDone(t, run(t, s, "pwd"), 0, filepath.Join(dir, "sub")+"\n")
			wantDone(t, run(t, s, "echo $V; greet you"), 0, "persisted\nhi you\n")
			wantDone(t, run(t, s, "false"), 1, "")
			wantDone(t, run(t, s, "(exit 7)"), 7, "")
			wantDone(t, run(t, s, "echo out; echo err >&2"), 0, "out\nerr\n")
		})
	}
}

func TestQuotingMultilineAndLongCommands(t *testing.T) {
	long := strings.Repeat("x", 20000)
	for name, open := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			s, _ := open(t)
			wantDone(t, run(t, s, "cat <<'EOF'\nline 'one' \"two\" $HOME \\ !x\nünïcode\tTab\nEOF"), 0, "line 'one' \"two\" $HOME \\ !x\nünïcode\tTab\n")
			wantDone(t, run(t, s, "for i in 1 2 3\ndo\n  echo $i\ndone"), 0, "1\n2\n3\n")
			wantDone(t, run(t, s, "printf %s '"+long+"' | wc -c"), 0, "20000\n")
			wantDone(t, run(t, s, "printf 'a\\r\\nb\\n'"), 0, "a\nb\n")
			u := run(t, s, "if then fi")
			if u.Status != Completed || u.ExitCode == nil || *u.ExitCode != 2 {
				t.Fatalf("syntax error: %+v", u)
			}
			wantDone(t, run(t, s, "echo still here"), 0, "still here\n")
		})
	}
}

func TestLongCommandRunsThenReadCompletes(t *testing.T) {
	for name, open := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			s, _ := open(t)
			ctx := context.Background()
			u, err := s.Execute(ctx, "echo begin; sleep 3; echo end", time.Second, 1<<20)
			if err != nil || u.Status != Running || string(u.Output) != "begin\n" || u.ExitCode != nil {
				t.Fatalf("first: %+v %v", u, err)
			}
			if _, err := s.Execute(ctx, "echo no", time.Second, 100); !errors.Is(err, ErrBusy) {
				t.Fatalf("execute while running: %v", err)
			}
			u, err = s.Read(ctx, 10*time.Second, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			wantDone(t, u, 0, "end\n")
			if _, err := s.Read(ctx, 0, 100); !errors.Is(err, ErrNoCommand) {
				t.Fatalf("read with nothing running: %v", err)
			}
		})
	}
}

func TestInterruptAndInput(t *testing.T) {
	for name, open := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			s, _ := open(t)
			ctx := context.Background()
			start := time.Now()
			u, err := s.Execute(ctx, "sleep 30", 200*time.Millisecond, 1<<20)
			if err != nil || u.Status != Running {
				t.Fatalf("sleep: %+v %v", u, err)
			}
			if err := s.Interrupt(ctx); err != nil {
				t.Fatal(err)
			}
			u, err = s.Read(ctx, 10*time.Second, 1<<20)
			if err != nil || u.Status != Completed || u.ExitCode == nil || *u.ExitCode != 130 {
				t.Fatalf("after interrupt: %+v %v", u, err)
			}
			if time.Since(start) > 5*time.Second {
				t.Fatalf("interrupt took %v", time.Since(start))
			}
			u, err = s.Execute(ctx, "read -r x; echo \"got:$x\"", 200*time.Millisecond, 1<<20)
			if err != nil || u.Status != Running {
				t.Fatalf("read: %+v %v", u, err)
			}
			if err := s.Write(ctx, []byte("hello world\n")); err != nil {
				t.Fatal(err)
			}
			u, err = s.Read(ctx, 10*time.Second, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			wantDone(t, u, 0, "got:hello world\n")
			if err := s.Interrupt(ctx); !errors.Is(err, ErrNoCommand) {
				t.Fatalf("interrupt with nothing running: %v", err)
			}
		})
	}
}

func TestExitResetsWithFilesKept(t *testing.T) {
	for name, open := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			s, dir := open(t)
			wantDone(t, run(t, s, "mkdir -p d && cd d && echo kept > f && X=1"), 0, "")
			u := run(t, s, "echo bye; exit 3")
			if u.Status != Reset || !strings.Contains(string(u.Output), "bye") {
				t.Fatalf("exit: %+v", u)
			}
			wantDone(t, run(t, s, "pwd; echo \"x=$X\"; cat d/f"), 0, dir+"\nx=\nkept\n")
		})
	}
}

func TestOutputLimitTruncates(t *testing.T) {
	for name, open := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			s, _ := open(t)
			u, err := s.Execute(context.Background(), "head -c 100000 /dev/zero | tr '\\0' a; echo; echo tail", 10*time.Second, 100)
			if err != nil || u.Status != Completed || !u.Truncated || string(u.Output) != strings.Repeat("a", 100) {
				t.Fatalf("got %s trunc=%v len=%d: %v", u.Status, u.Truncated, len(u.Output), err)
			}
			u, err = s.Execute(context.Background(), "echo quiet", 10*time.Second, 0)
			if err != nil || !u.Truncated || len(u.Output) != 0 || *u.ExitCode != 0 {
				t.Fatalf("limit 0: %+v %v", u, err)
			}
			wantDone(t, run(t, s, "echo fresh"), 0, "fresh\n")

			// Twenty megabytes printed with a 1 KiB limit: kept memory stays bounded.
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			u, err = s.Execute(context.Background(), "head -c 20000000 /dev/zero | tr '\\0' b; echo", 60*time.Second, 1024)
			runtime.ReadMemStats(&after)
			if err != nil || u.Status != Completed || !u.Truncated || string(u.Output) != strings.Repeat("b", 1024) {
				t.Fatalf("flood: %s trunc=%v len=%d: %v", u.Status, u.Truncated, len(u.Output), err)
			}
			if grown := int64(after.HeapInuse) - int64(before.HeapInuse); grown > 8<<20 {
				t.Fatalf("heap grew by %d bytes", grown)
			}
		})
	}
}

func TestBackgroundJobDoesNotBlock(t *testing.T) {
	for name, open := range sessions(t) {
		t.Run(name, func(t *testing.T) {
			s, dir := open(t)
			start := time.Now()
			u := run(t, s, "sleep 100 > /dev/null 2>&1 & echo $! > bg.pid; echo started")
			if u.Status != Completed || !strings.Contains(string(u.Output), "started") || time.Since(start) > 5*time.Second {
				t.Fatalf("background: %+v after %v", u, time.Since(start))
			}
			data, err := os.ReadFile(filepath.Join(dir, "bg.pid"))
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			if !alive(pid) {
				t.Fatalf("background job %d is not running", pid)
			}
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(context.Background()); err != nil {
				t.Fatalf("second close: %v", err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for alive(pid) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if alive(pid) {
				t.Fatalf("background job %d survived Close", pid)
			}
			if _, err := s.Execute(context.Background(), "true", time.Second, 10); !errors.Is(err, machine.ErrClosed) {
				t.Fatalf("after close: %v", err)
			}
		})
	}
}

// alive: the process exists and is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	return i > 0 && len(data) > i+2 && data[i+2] != 'Z'
}

func TestConcurrentSessions(t *testing.T) {
	before := countProcs()
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			dir := t.TempDir()
			s := NewTerminalSession(HostTerminal{Dir: dir, Env: hostEnv(dir)}, Options{})
			defer s.Close(context.Background())
			for j := range 5 {
				u, err := s.Execute(context.Background(), fmt.Sprintf("echo %d-%d", i, j), 10*time.Second, 100)
				if err == nil && string(u.Output) != fmt.Sprintf("%d-%d\n", i, j) {
					err = fmt.Errorf("session %d: %q", i, u.Output)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for countProcs() > before && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if after := countProcs(); after > before {
		t.Fatalf("processes: %d before, %d after", before, after)
	}
}

func countProcs() int {
	entries, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && alive(pid) {
			if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
				f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
				if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) {
					n++
				}
			}
		}
	}
	return n
}

func TestOneShotRunsCompleteCommands(t *testing.T) {
	dir := t.TempDir()
	s := NewOneShot(&hostMachine{dir: dir, env: hostEnv(dir)}, Options{})
	ctx := context.Background()
	if s.Interactive() {
		t.Fatal("one-shot session says interactive")
	}
	u, err := s.Execute(ctx, "cd /; export V=1; echo out; echo err >&2; exit 4", time.Second*10, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	wantDone(t, u, 4, "out\nerr\n")
	u, _ = s.Execute(ctx, "pwd; echo \"v=$V\"", time.Second*10, 1<<20)
	wantDone(t, u, 0, dir+"\nv=\n")
	u, _ = s.Execute(ctx, "echo 0123456789", time.Second*10, 4)
	if string(u.Output) != "0123" || !u.Truncated {
		t.Fatalf("limit: %+v", u)
	}
	u, err = s.Read(ctx, time.Second, 10)
	if err != nil || u.Status != Completed || len(u.Output) != 0 {
		t.Fatalf("read: %+v %v", u, err)
	}
	if err := s.Write(ctx, []byte("x")); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("write: %v", err)
	}
	if err := s.Interrupt(ctx); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("interrupt: %v", err)
	}
	u, err = s.Execute(ctx, "sleep 30", 200*time.Millisecond, 10)
	if err != nil || u.Status != Completed || u.ExitCode != nil {
		t.Fatalf("bounded by wait: %+v %v", u, err)
	}
	_ = s.Close(ctx)
	if _, err := s.Execute(ctx, "true", time.Second, 1); !errors.Is(err, machine.ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
}
