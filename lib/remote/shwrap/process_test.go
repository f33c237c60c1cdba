package shwrap

import (
	"bufio"
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
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

// A command whose input ends at once: the input pump exits while the
// script opens the output FIFO. BusyBox's sh, the usual /bin/sh of small
// images, gives up an open interrupted by SIGCHLD ("Interrupted system
// call"), which once skipped the output loop and left the script waiting
// for ever on a command blocked opening that FIFO.
func TestProcessScriptInputEndsAtOnce(t *testing.T) {
	shells := [][]string{{"sh"}}
	if bb, err := exec.LookPath("busybox"); err == nil {
		shells = append(shells, []string{bb, "sh"})
	} else {
		t.Fatal("busybox is not installed (.ci/run installs busybox-static)")
	}
	for _, sh := range shells {
		for i := range 40 {
			dir := filepath.Join(t.TempDir(), "p")
			script := ProcessScript(RunOptions{Dir: dir, Cwd: "/", Argv: []string{"sh", "-c", "echo 0123456789 >&2"}, Limit: 4})
			cmd := exec.Command(sh[0], append(sh[1:], "-c", script)...)
			cmd.Stdin = strings.NewReader(InputEnd)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("%s, round %d: %v\n%s", sh, i, err, errb.String())
				}
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("%s, round %d: the script did not end; stderr %q", sh, i, errb.String())
			}
			p, err := ParseProcessLine(strings.TrimSpace(out.String()))
			if err != nil || !p.Exited || p.Code != 0 || string(p.Stderr) != "0123" || p.ErrLen != 11 {
				t.Fatalf("%s, round %d: %q: %+v %v (stderr %q)", sh, i, out.String(), p, err, errb.String())
			}
		}
	}
}
