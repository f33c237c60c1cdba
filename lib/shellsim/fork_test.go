package shellsim

import (
	"context"
	"errors"
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
	e.Run(ctx, "sleep 100 &", nil)
	if _, err := e.Duplicate(); !errors.Is(err, ErrForkBusy) {
		t.Fatalf("busy: %v", err)
	}
	e.Close()
	c.Close()
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
