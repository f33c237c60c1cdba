package qemu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

func run(t *testing.T, m *Machine, cmd machine.Command) machine.Result {
	t.Helper()
	if cmd.OutputLimit == 0 {
		cmd.OutputLimit = machine.DefaultOutputLimit
	}
	res, err := m.Run(context.Background(), cmd)
	if err != nil {
		t.Fatalf("%v: %v", cmd.Argv, err)
	}
	return res
}

func sh(script string) machine.Command {
	return machine.Command{Argv: []string{"sh", "-c", script}}
}

func code(r machine.Result) int {
	if r.ExitCode == nil {
		return -1
	}
	return *r.ExitCode
}

// TestMachine boots one busybox machine and checks the machine API on it
// (one boot: TCG boots are slow on a shared host).
func TestMachine(t *testing.T) {
	f := newTestFactory(t, Options{})
	m := newTestMachine(t, f, testSpec())
	ctx := context.Background()

	t.Run("exit codes and output bytes", func(t *testing.T) {
		r := run(t, m, sh(`printf 'out\000put'; printf 'err' >&2; exit 7`))
		if code(r) != 7 || r.Reason != machine.Exited || string(r.Stdout) != "out\x00put" || string(r.Stderr) != "err" {
			t.Fatalf("got %d %q %q %q", code(r), r.Reason, r.Stdout, r.Stderr)
		}
		r = run(t, m, machine.Command{Argv: []string{"no-such-program"}})
		if code(r) != 127 {
			t.Fatalf("missing program: %d %q", code(r), r.Stderr)
		}
	})

	t.Run("successive commands share a kept stream", func(t *testing.T) {
		// Each command would otherwise open a stream and close it: frames
		// each way that the guest takes interrupts for.
		before := m.streams.opened.Load()
		for i := range 20 {
			if r := run(t, m, sh(fmt.Sprintf("echo %d", i))); string(r.Stdout) != fmt.Sprintf("%d\n", i) {
				t.Fatalf("command %d: %q %q", i, r.Stdout, r.Stderr)
			}
		}
		if n := m.streams.opened.Load() - before; n > 1 {
			t.Fatalf("20 successive commands opened %d streams, want at most 1", n)
		}
	})

	t.Run("env cwd and image defaults", func(t *testing.T) {
		r := run(t, m, machine.Command{Argv: []string{"sh", "-c", `echo "$PWD|$IMAGE_VAR|$SPEC_VAR|$CMD_VAR|$HOME"`},
			Env: map[string]string{"CMD_VAR": "from-cmd", "SPEC_VAR": "overridden"}})
		if got := strings.TrimSpace(string(r.Stdout)); got != "/workspace|from-image|overridden|from-cmd|/root" {
			t.Fatalf("got %q", got)
		}
		r = run(t, m, machine.Command{Argv: []string{"pwd"}, Cwd: "/srv"})
		if string(r.Stdout) != "/srv\n" {
			t.Fatalf("cwd: %q", r.Stdout)
		}
		r = run(t, m, machine.Command{Argv: []string{"pwd"}, Cwd: "/nonexistent"})
		if code(r) == 0 {
			t.Fatalf("a missing cwd must fail: %q", r.Stdout)
		}
	})

	t.Run("guest kernel setup", func(t *testing.T) {
		// Under TCG the kernel keeps the TSC as its clock (not jiffies,
		// of 4 ms resolution; tsc-early, which the vDSO reads as well,
		// until the kernel registers tsc about a second after boot, which
		// a fast boot's first command may precede); with a kernel whose
		// drivers are modules, a machine without a network loads no card
		// driver, and one with everything built in has no module support
		// at all.
		r := run(t, m, sh(`sed s/^tsc-early$/tsc/ /sys/devices/system/clocksource/clocksource0/current_clocksource; if [ -e /proc/modules ]; then grep -c '^virtio_net ' /proc/modules; grep -c '^virtio_console ' /proc/modules; else echo none; fi`))
		want := "tsc none"
		if f.kernel.modules != "" {
			want = "tsc 0 1"
		}
		if got := strings.Fields(string(r.Stdout)); strings.Join(got, " ") != want {
			t.Fatalf("clocksource, network and console modules (kernel %s): %q %q, want %q", f.kernel.describe(), r.Stdout, r.Stderr, want)
		}
	})

	t.Run("clock follows the host", func(t *testing.T) {
		r := run(t, m, machine.Command{Argv: []string{"date", "+%s"}})
		guest, err := strconv.ParseInt(strings.TrimSpace(string(r.Stdout)), 10, 64)
		if d := guest - time.Now().Unix(); err != nil || d < -5 || d > 5 {
			t.Fatalf("guest clock %q is %d s off", r.Stdout, d)
		}
	})

	t.Run("loopback works without a network card", func(t *testing.T) {
		// The client retries until the listener is up (a loaded host may be slow).
		cmd := sh("nc -l -p 7777 > /tmp/got & for i in $(seq 100); do echo over-lo | nc -w 2 127.0.0.1 7777 2>/dev/null && break; sleep 0.1; done; wait; cat /tmp/got; ls /sys/class/net")
		cmd.Timeout = time.Minute
		r := run(t, m, cmd)
		if string(r.Stdout) != "over-lo\nlo\n" {
			t.Fatalf("got %q %q", r.Stdout, r.Stderr)
		}
	})

	t.Run("stdin", func(t *testing.T) {
		in := bytes.Repeat([]byte{0, 1, 2, 255, '\n'}, 40000) // 200 KB, more than one window
		r := run(t, m, machine.Command{Argv: []string{"cat"}, Stdin: in})
		if !bytes.Equal(r.Stdout, in) {
			t.Fatalf("stdin round trip: %d bytes back of %d", len(r.Stdout), len(in))
		}
	})

	t.Run("users", func(t *testing.T) {
		r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "id -u; id -g; echo $HOME"}, User: "alice"})
		if string(r.Stdout) != "1000\n1000\n/home/alice\n" {
			t.Fatalf("alice: %q %q", r.Stdout, r.Stderr)
		}
		if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}, User: "mallory"}); err == nil {
			t.Fatal("an unknown user must be refused")
		}
		// root keeps its capabilities in a VM: chown works.
		r = run(t, m, sh("touch /tmp/owned && chown 1000:1000 /tmp/owned && stat -c %u /tmp/owned"))
		if code(r) != 0 || string(r.Stdout) != "1000\n" {
			t.Fatalf("chown as root: %d %q %q", code(r), r.Stdout, r.Stderr)
		}
	})

	t.Run("output is bounded in the guest", func(t *testing.T) {
		r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "yes | head -c 5000000; yes e | head -c 300000 >&2"}, OutputLimit: 1000})
		if len(r.Stdout) != 1000 || !r.StdoutTruncated || len(r.Stderr) != 1000 || !r.StderrTruncated || code(r) != 0 {
			t.Fatalf("got %d/%v %d/%v code %d", len(r.Stdout), r.StdoutTruncated, len(r.Stderr), r.StderrTruncated, code(r))
		}
	})

	t.Run("timeout kills the group and keeps the machine", func(t *testing.T) {
		start := time.Now()
		r := run(t, m, machine.Command{Argv: []string{"sh", "-c", "echo partial; (sleep 1000; echo late > /tmp/late) & sleep 1000"},
			Timeout: 500 * time.Millisecond})
		if r.Reason != machine.TimedOut || r.ExitCode != nil || string(r.Stdout) != "partial\n" {
			t.Fatalf("got %q %v %q", r.Reason, r.ExitCode, r.Stdout)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Fatalf("timeout took %v", d)
		}
		r = run(t, m, sh("ps -o pid,args | grep -c '[s]leep 1000'; echo alive > /workspace/after"))
		if strings.TrimSpace(string(r.Stdout)) != "0" {
			t.Fatalf("the timed-out group survives: %q", r.Stdout)
		}
		r = run(t, m, machine.Command{Argv: []string{"cat", "/workspace/after"}})
		if string(r.Stdout) != "alive\n" {
			t.Fatalf("machine unusable after a timeout: %q", r.Stdout)
		}
	})

	t.Run("cancel stops the command", func(t *testing.T) {
		cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		defer cancel()
		_, err := m.Run(cctx, sh("sleep 1000"))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v", err)
		}
		r := run(t, m, sh("ps -o args | grep -c '[s]leep 1000'"))
		if strings.TrimSpace(string(r.Stdout)) != "0" {
			t.Fatalf("the cancelled command survives: %q", r.Stdout)
		}
	})

	t.Run("upload and download trees", func(t *testing.T) {
		src := t.TempDir()
		os.MkdirAll(filepath.Join(src, "tree", "sub"), 0o755)
		os.WriteFile(filepath.Join(src, "tree", "a.txt"), []byte("alpha"), 0o644)
		os.WriteFile(filepath.Join(src, "tree", "sub", "run.sh"), []byte("#!/bin/sh\necho ran\n"), 0o751)
		big := bytes.Repeat([]byte("0123456789abcdef"), 256<<10) // 4 MiB
		os.WriteFile(filepath.Join(src, "tree", "big.bin"), big, 0o600)
		if err := m.Upload(ctx, filepath.Join(src, "tree"), "/workspace/up"); err != nil {
			t.Fatal(err)
		}
		r := run(t, m, sh("cat /workspace/up/a.txt; /workspace/up/sub/run.sh; stat -c %a /workspace/up/sub/run.sh; wc -c < /workspace/up/big.bin"))
		if string(r.Stdout) != "alpharan\n751\n4194304\n" {
			t.Fatalf("uploaded tree: %q %q", r.Stdout, r.Stderr)
		}
		run(t, m, sh("echo made-in-guest > /workspace/up/sub/new.txt"))
		dst := filepath.Join(t.TempDir(), "down")
		if err := m.Download(ctx, "/workspace/up", dst, machine.DownloadOptions{}); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(dst, "sub", "new.txt"))
		gotBig, _ := os.ReadFile(filepath.Join(dst, "big.bin"))
		st, err := os.Stat(filepath.Join(dst, "sub", "run.sh"))
		if string(got) != "made-in-guest\n" || !bytes.Equal(gotBig, big) || err != nil || st.Mode().Perm() != 0o751 {
			t.Fatalf("downloaded tree: %q, big equal %v, %v %v", got, bytes.Equal(gotBig, big), st, err)
		}
		// bounded single-file download
		file := filepath.Join(t.TempDir(), "a.txt")
		if err := m.Download(ctx, "/workspace/up/a.txt", file, machine.DownloadOptions{MaxBytes: 5}); err != nil {
			t.Fatal(err)
		}
		var lim *machine.DownloadLimitExceeded
		if err := m.Download(ctx, "/workspace/up/big.bin", file+"2", machine.DownloadOptions{MaxBytes: 100}); !errors.As(err, &lim) {
			t.Fatalf("over the limit: %v", err)
		}
		var pe *machine.PathError
		if err := m.Download(ctx, "/workspace/missing", file+"3", machine.DownloadOptions{}); !errors.As(err, &pe) || !pe.NotFound {
			t.Fatalf("missing source: %v", err)
		}
		var invalid *machine.InvalidSpec
		if err := m.Upload(ctx, src, "/workspace/../etc"); !errors.As(err, &invalid) {
			t.Fatalf("an escaping target must be refused: %v", err)
		}
	})

	t.Run("open process", func(t *testing.T) {
		p, err := m.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "while read l; do echo got:$l; done; echo bye >&2; exit 4"},
			OutputLimit: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close(ctx)
		out := make([]byte, 64)
		for _, line := range []string{"one", "two"} {
			if _, err := io.WriteString(p.Stdin(), line+"\n"); err != nil {
				t.Fatal(err)
			}
			n, err := io.ReadAtLeast(p.Stdout(), out, len("got:"+line+"\n"))
			if err != nil || string(out[:n]) != "got:"+line+"\n" {
				t.Fatalf("read %q %v", out[:n], err)
			}
		}
		p.Stdin().Close()
		rest, _ := io.ReadAll(p.Stdout())
		exit, err := p.Wait(ctx)
		if err != nil || exit.ExitCode != 4 || string(exit.Stderr) != "bye\n" || len(rest) != 0 {
			t.Fatalf("exit %+v %v rest %q", exit, err, rest)
		}
		// Closing a running process kills it and keeps the machine.
		p2, err := m.OpenProcess(ctx, machine.Command{Argv: []string{"sleep", "1000"}, OutputLimit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if err := p2.Close(ctx); err != nil {
			t.Fatal(err)
		}
		r := run(t, m, sh("ps -o args | grep -c '[s]leep 1000'"))
		if strings.TrimSpace(string(r.Stdout)) != "0" {
			t.Fatalf("closed process survives: %q", r.Stdout)
		}
	})

	t.Run("the staged image is not changed", func(t *testing.T) {
		run(t, m, sh("echo changed > /srv/data.txt"))
		m2 := newTestMachine(t, f, testSpec())
		r := run(t, m2, machine.Command{Argv: []string{"cat", "/srv/data.txt"}})
		if string(r.Stdout) != "image data\n" {
			t.Fatalf("a second machine sees %q", r.Stdout)
		}
	})
}
