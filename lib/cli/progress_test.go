package cli

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestStepLogs: off a terminal, a long step is logged as logfmt lines when
// it has taken a second and when it ends; a quick one leaves stderr clean.
func TestStepLogs(t *testing.T) {
	var buf bytes.Buffer
	stdio := IO{Stdout: io.Discard, Stderr: &buf}
	if err := step(stdio, "quick", nil, func() error { return nil }); err != nil || buf.Len() != 0 {
		t.Fatalf("quick step: %v, logged %q", err, buf.String())
	}
	err := step(stdio, "pulling", []any{"image", "x:1"}, func() error { time.Sleep(1200 * time.Millisecond); return nil })
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if err != nil || len(lines) != 2 ||
		!regexp.MustCompile(`^time=\S+ level=INFO msg=pulling image=x:1$`).MatchString(lines[0]) ||
		!regexp.MustCompile(`^time=\S+ level=INFO msg="pulling done" image=x:1 elapsed=1\.\d+s$`).MatchString(lines[1]) {
		t.Fatalf("%v, logged %q", err, buf.String())
	}
	buf.Reset()
	boom := errors.New("no such image")
	err = step(stdio, "pulling", nil, func() error { time.Sleep(1100 * time.Millisecond); return boom })
	if err != boom || !regexp.MustCompile(`(?m)^time=\S+ level=ERROR msg="pulling failed" elapsed=\S+ error="no such image"$`).MatchString(buf.String()) {
		t.Fatalf("%v, logged %q", err, buf.String())
	}
}

// TestStepSpinner: on a terminal the step shows a spinner with its
// description and elapsed time, cleared at the end.
func TestStepSpinner(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var out bytes.Buffer
	read := make(chan struct{})
	go func() { io.Copy(&out, ptmx); close(read) }()
	err = step(IO{Stdout: io.Discard, Stderr: tty}, "building", []any{"context", "env"}, func() error {
		time.Sleep(1200 * time.Millisecond)
		return nil
	})
	tty.Close()
	<-read
	s := out.String()
	if err != nil || !strings.Contains(s, "building context=env") || !regexp.MustCompile(`\[\d+s\]`).MatchString(s) ||
		!strings.Contains(s, "building context=env: done in 1.") {
		t.Fatalf("%v, terminal got %q", err, s)
	}
}
