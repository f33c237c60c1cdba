package local

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

func TestOpenProcess(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	ctx := context.Background()
	p, err := m.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "cat; echo done-err >&2; exit 5"}, OutputLimit: 4})
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("SHELLBOX\x00\xff frame-looking bytes\n")
	go func() {
		p.Stdin().Write(payload)
		p.Stdin().Close()
	}()
	out, err := io.ReadAll(p.Stdout())
	if err != nil || !bytes.Equal(out, payload) {
		t.Fatalf("stdout %q %v", out, err)
	}
	exit, err := p.Wait(ctx)
	if err != nil || exit.ExitCode != 5 || string(exit.Stderr) != "done" || !exit.StderrTruncated {
		t.Fatalf("exit %+v %v", exit, err)
	}
	p.Close(ctx)

	// Large output streams with backpressure; Close kills a running process.
	p, err = m.OpenProcess(ctx, machine.Command{Argv: []string{"sh", "-c", "echo $$ > /tmp/pp; yes"}, OutputLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(p.Stdout())
	n := 0
	for n < 64<<20 {
		line, err := br.ReadSlice('\n')
		if err != nil {
			t.Fatal(err)
		}
		n += len(line)
	}
	start := time.Now()
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("close took %v", el)
	}
	if r := run(t, m, aliveScript("/tmp/pp")); string(r.Stdout) != "gone\n" {
		t.Fatalf("process survived Close: %q", r.Stdout)
	}
}
