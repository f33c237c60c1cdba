package shellsim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

func TestForkIsIndependent(t *testing.T) {
	ctx := context.Background()
	e := NewEnvironment(DefaultLimits())
	e.AddRoute(command.Route{Pattern: "http://x/", Status: 200, Body: []byte("hi")})
	r := e.Run(ctx, "cd /tmp; X=1; f() { echo f$X; }; alias ll='echo ll'; set -o pipefail; echo data > /work/a; sleep 5", nil)
	if r.Outcome.ExitStatus != 0 {
		t.Fatalf("%q", r.Stderr)
	}
	c, err := e.Duplicate()
	if err != nil {
		t.Fatal(err)
	}
	before := e.Usage()
	if c.Usage() != before {
		t.Fatalf("usage %+v vs %+v", c.Usage(), before)
	}
	rc := c.Run(ctx, "pwd; f; echo $X; cat /work/a; echo changed > /work/a; Y=2; date +%s; [[ -o pipefail ]] && echo pipefail on", nil)
	want := "/tmp\nf1\n1\ndata\n1735689605\npipefail on\n"
	if string(rc.Stdout) != want {
		t.Fatalf("fork: %q want %q (%q)", rc.Stdout, want, rc.Stderr)
	}
	ro := e.Run(ctx, "cat /work/a; echo y${Y}y", nil)
	if string(ro.Stdout) != "data\nyy\n" {
		t.Fatalf("original changed: %q", ro.Stdout)
	}
	if got, _ := c.ReadFile("/work/a"); string(got) != "changed\n" {
		t.Fatalf("%q", got)
	}
	if len(c.rt.Routes().Routes()) != 1 {
		t.Fatal("routes not forked")
	}
	e.Close()
	c.Close()
}

// A busy environment (background jobs in a pipeline, timers, a trap, data
// in pipes) is copied with all of it: forks taken at many points each go
// on exactly as the original does from there.
func TestForkBusyEnvironment(t *testing.T) {
	ctx := context.Background()
	e := NewEnvironment(DefaultLimits())
	defer e.Close()
	e.WriteFile("/work/in", []byte("3\n1\n2\n"), 0o644)
	steps := []string{
		"trap 'echo usr1 >> /work/log' USR1; n=0",
		"(for i in 1 2 3 4 5; do sleep 1; echo tick$i; done) | (sort -r > /work/ticks) & echo $! > /work/pid",
		"sleep 1.5; n=$((n+1)); kill -USR1 $$",
		"yes abc | head -c 50000 > /work/yes & sleep 0.2",
		"sleep 2; n=$((n+1)); jobs > /work/jobs",
		"wait; sort /work/in; cat /work/ticks; wc -c < /work/yes; cat /work/log; echo n=$n; date +%s.%N",
	}
	var forks []*Environment
	var from []int
	for i, src := range steps {
		if i > 0 {
			if busy := e.rt.Sched.Live() > 0; busy != (i >= 2) {
				t.Fatalf("step %d: busy=%v", i, busy)
			}
			c, err := e.Duplicate()
			if err != nil {
				t.Fatalf("fork before step %d: %v", i, err)
			}
			defer c.Close()
			if got, want := js(c.Inspect()), js(e.Inspect()); got != want {
				t.Fatalf("fork before step %d differs:\n%+v\n%+v", i, got, want)
			}
			forks, from = append(forks, c), append(from, i)
		}
		if r := e.Run(ctx, src, nil); r.Outcome.ExitStatus != 0 {
			t.Fatalf("step %d: %d %q", i, r.Outcome.ExitStatus, r.Stderr)
		}
	}
	want, _ := e.ReadFile("/work/ticks")
	if string(want) != "tick5\ntick4\ntick3\ntick2\ntick1\n" {
		t.Fatalf("ticks %q", want)
	}
	final := e.Inspect()
	for k, c := range forks {
		var last Result
		for _, src := range steps[from[k]:] {
			last = c.Run(ctx, src, nil)
		}
		if got, want := js(c.Inspect()), js(final); got != want {
			t.Fatalf("fork %d ends differently:\n%+v\n%+v", k, got, want)
		}
		if !strings.Contains(string(last.Stdout), "tick5\ntick4") || !strings.Contains(string(last.Stdout), "usr1\nn=2\n") {
			t.Fatalf("fork %d: %q", k, last.Stdout)
		}
	}
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

// The journal is dropped once an idle environment has done enough, so a
// fork replays a bounded history; and a busy environment whose history
// outgrew the limit refuses to fork instead of forking wrongly.
func TestForkJournalBounds(t *testing.T) {
	ctx := context.Background()
	e := NewEnvironment(DefaultLimits())
	defer e.Close()
	for i := 0; i < journalKeep; i++ {
		e.Run(ctx, "echo $RANDOM > /dev/null", nil)
	}
	if e.j != nil {
		t.Fatalf("an idle environment keeps %d journal entries", len(e.j.entries))
	}
	e.Run(ctx, "cat > /dev/null", bytes.Repeat([]byte("x"), journalIdleBytes))
	if e.j != nil {
		t.Fatal("an idle environment holds on to a large stdin")
	}
	e.Run(ctx, "sleep 100 &", nil)
	if e.j == nil || len(e.j.entries) != 1 {
		t.Fatal("no journal for a busy environment")
	}
	defer func(n int64) { journalMaxBytes = n }(journalMaxBytes)
	journalMaxBytes = 1 << 10
	e.Run(ctx, "true", bytes.Repeat([]byte("x"), 2<<10))
	if _, err := e.Duplicate(); !errors.Is(err, ErrForkBusy) {
		t.Fatalf("over the limit: %v", err)
	}
	e.Run(ctx, "kill %1; wait", nil)
	if _, err := e.Duplicate(); err != nil {
		t.Fatalf("idle again: %v", err)
	}
}

func TestDuplicateSharesFileBytesCopyOnWrite(t *testing.T) {
	ctx := context.Background()
	e := NewEnvironment(DefaultLimits())
	e.Run(ctx, "printf abc > /work/c; printf 12345678 > /work/d", nil)
	c, err := e.Duplicate()
	if err != nil {
		t.Fatal(err)
	}
	c.Run(ctx, "echo x >> /work/c; printf Z | dd of=/work/d bs=1 seek=2 conv=notrunc 2>/dev/null; truncate -s 3 /work/d 2>/dev/null || true", nil)
	e.Run(ctx, "echo y >> /work/c", nil)
	if got, _ := e.ReadFile("/work/c"); string(got) != "abcy\n" {
		t.Fatalf("original: %q", got)
	}
	if got, _ := c.ReadFile("/work/c"); string(got) != "abcx\n" {
		t.Fatalf("copy: %q", got)
	}
	if got, _ := e.ReadFile("/work/d"); string(got) != "12345678" {
		t.Fatalf("original d: %q", got)
	}
}
