package machinetest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// openProcess: binary stdin and stdout (streamed unless the backend
// declares batch processes), EOF after the input is closed, the exit code
// and stderr from Wait; Close and Command.Timeout stop the process group.
func (s *suite) openProcess(t *testing.T) {
	m := s.machine(t, nil)
	pm, ok := m.(machine.ProcessMachine)
	if s.caps.NoProcesses {
		if ok {
			t.Fatalf("%T is a machine.ProcessMachine, but the backend declares no processes", m)
		}
		return
	}
	if !ok {
		t.Fatalf("%T is not a machine.ProcessMachine", m)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	p, err := pm.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "cat; echo bye >&2; exit 5"}, OutputLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("SHELLBOX_PGID:9\n\x00\x01\xff binary")
	if _, err := p.Stdin().Write(payload); err != nil {
		t.Fatal(err)
	}
	var got []byte
	if !s.caps.BatchProcesses {
		// The echo arrives while stdin is still open.
		got = make([]byte, len(payload))
		if err := readFull(p.Stdout(), got); err != nil || !bytes.Equal(got, payload) {
			t.Fatalf("streamed echo: %q %v", got, err)
		}
		got = nil
	} else {
		got = payload
	}
	if err := p.Stdin().Close(); err != nil {
		t.Fatal(err)
	}
	rest, err := readAll(p.Stdout())
	if err != nil || !bytes.Equal(rest, got) {
		t.Fatalf("output after stdin's EOF: %q %v, want %q", rest, err, got)
	}
	exit, err := p.Wait(ctx)
	if err != nil || exit.ExitCode != 5 || string(exit.Stderr) != "bye\n" || exit.StderrTruncated {
		t.Fatalf("exit: %+v %v", exit, err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatalf("Close again: %v", err)
	}
	// Stderr beyond the output limit is truncated.
	p, err = pm.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "echo 0123456789 >&2"}, OutputLimit: 4})
	if err != nil {
		t.Fatal(err)
	}
	p.Stdin().Close()
	if _, err := readAll(p.Stdout()); err != nil {
		t.Fatal(err)
	}
	if exit, err = p.Wait(ctx); err != nil || exit.ExitCode != 0 || string(exit.Stderr) != "0123" || !exit.StderrTruncated {
		t.Fatalf("bounded stderr: %+v %v", exit, err)
	}
	p.Close(ctx)
	// A process closed before its input ended is done: closing it again
	// and waiting for it return at once.
	p, err = pm.OpenProcess(ctx, machine.Command{Argv: []string{"cat"}, OutputLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	cctx, ccancel := context.WithTimeout(ctx, 10*time.Second)
	defer ccancel()
	if err := p.Close(cctx); err != nil {
		t.Fatalf("Close again: %v", err)
	}
	if _, err := p.Wait(cctx); errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("Wait on a closed process blocks")
	}

	if s.caps.BatchProcesses {
		// A process that never got its input is simply discarded.
		p, err = pm.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "cat > never"}, OutputLimit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Close(ctx); err != nil {
			t.Fatal(err)
		}
		want(t, sh(t, m, "test -e never || echo none"), 0, "none\n", "")
		return
	}
	// Close stops the group of a running process.
	p, err = pm.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 & echo $! > proc.pid; echo ready; sleep 1000"}, OutputLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	ready := make([]byte, len("ready\n"))
	if err := readFull(p.Stdout(), ready); err != nil {
		t.Fatal(err)
	}
	if !alive(t, m, "proc.pid") {
		t.Fatal("the process's child is not running")
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	waitGone(t, m, "proc.pid", "a child of a closed process")
	// Command.Timeout stops the group of a process: it ends as killed.
	p, err = pm.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "sleep 1000 & echo $! > timed.pid; sleep 1000"}, OutputLimit: 100, Timeout: s.caps.timeout()})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = readAll(p.Stdout()) }()
	exit, err = p.Wait(ctx)
	if err != nil || exit.ExitCode != 137 {
		t.Fatalf("a process past its timeout: %+v %v, want exit 137", exit, err)
	}
	p.Close(ctx)
	waitGone(t, m, "timed.pid", "a child of a timed-out process")
	// Closing the machine ends its open processes.
	p, err = pm.OpenProcess(ctx, machine.Command{Argv: []string{"sleep", "1000"}, OutputLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(ctx); err == nil {
		t.Fatal("Wait on a process of a closed machine succeeded")
	}
	p.Close(ctx)
}

// readFull is io.ReadFull that also refuses a read of nothing without an
// error: callers across the C ABI take an empty read for the end of the
// stream.
func readFull(r io.Reader, b []byte) error {
	got := make([]byte, len(b)) // b stays untouched by a read given up on
	err := bounded(func() error {
		for n := 0; n < len(got); {
			m, err := r.Read(got[n:])
			if m == 0 && err == nil {
				return errors.New("Stdout().Read returned 0 bytes and no error before the end of the stream")
			}
			n += m
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		copy(b, got)
	}
	return err
}
