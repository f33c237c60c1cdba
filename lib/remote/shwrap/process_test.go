package shwrap

import (
	"bufio"
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// ProcessScript on the host's sh: binary input reaches the command while it
// runs, its output comes back line by line before the input ends, and the
// exit line carries the status and stderr; the private directory is gone.
func TestProcessScriptOnTheHost(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	cmd := exec.Command("sh", "-c", ProcessScript(RunOptions{Dir: dir, Cwd: "/", Argv: []string{"sh", "-c", "cat; echo bye >&2; exit 5"}, Limit: 100}))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan ProcessLine, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			p, err := ParseProcessLine(sc.Text())
			if err != nil {
				t.Error(err)
				return
			}
			lines <- p
		}
	}()
	payload := []byte("\x00\x01\xff binary\n.\n")
	if _, err := io.WriteString(in, EncodeInput(payload)); err != nil {
		t.Fatal(err)
	}
	var got []byte
	for len(got) < len(payload) {
		select {
		case p := <-lines:
			if p.Exited {
				t.Fatalf("exited before its input ended: %+v", p)
			}
			got = append(got, p.Stdout...)
		case <-time.After(30 * time.Second):
			t.Fatalf("no streamed echo; got %q", got)
		}
	}
	if !bytes.Equal(got, payload) {
		t.Fatalf("echo %q", got)
	}
	io.WriteString(in, InputEnd)
	p, ok := <-lines
	if !ok || !p.Exited || p.Code != 5 || string(p.Stderr) != "bye\n" || p.ErrLen != 4 {
		t.Fatalf("exit %+v %v", p, ok)
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.Command("test", "-e", dir).CombinedOutput(); err == nil {
		t.Fatalf("%s is left", dir)
	}
}
