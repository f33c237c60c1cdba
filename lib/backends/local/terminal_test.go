package local

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// readUntil reads the terminal until want appears or the deadline passes.
func readUntil(t *testing.T, r io.Reader, want string) string {
	t.Helper()
	var got bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for !strings.Contains(got.String(), want) {
			n, err := r.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("terminal never showed %q; got %q", want, got.String())
	}
	if !strings.Contains(got.String(), want) {
		t.Fatalf("terminal ended without %q; got %q", want, got.String())
	}
	return got.String()
}

func TestTerminalIsARealTTYWithJobControl(t *testing.T) {
	m := newMachine(t, newFactory(t, Options{}), hostSpec())
	ctx := context.Background()
	p, err := m.OpenTerminal(ctx, machine.Command{Argv: []string{"bash", "--norc", "--noprofile", "-i"},
		Env: map[string]string{"PS1": "PROMPT> "}, OutputLimit: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	readUntil(t, p.Stdout(), "PROMPT> ")
	io.WriteString(p.Stdin(), "tty; stty size; echo marker-$((6*7))\n")
	out := readUntil(t, p.Stdout(), "marker-42")
	if !strings.Contains(out, "/dev/pts/") || !strings.Contains(out, "50 250") {
		t.Fatalf("not a terminal of 50x250: %q", out)
	}
	// Ctrl-C interrupts the foreground job and the shell survives.
	io.WriteString(p.Stdin(), "sleep 100; echo after-$?\n")
	time.Sleep(300 * time.Millisecond)
	p.Stdin().Write([]byte{3})
	readUntil(t, p.Stdout(), "PROMPT> ")
	io.WriteString(p.Stdin(), "echo alive-$((1+1))\n")
	readUntil(t, p.Stdout(), "alive-2")
	io.WriteString(p.Stdin(), "exit 9\n")
	go io.Copy(io.Discard, p.Stdout()) // Wait needs stdout read to its end
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	exit, err := p.Wait(wctx)
	if err != nil {
		t.Fatal(err)
	}
	if exit.ExitCode != 9 {
		t.Fatalf("exit %d", exit.ExitCode)
	}
}
