package text

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// scriptedSys runs a step of a scenario at each Sleep (another process
// writing meanwhile) and signals the process when the steps run out.
type scriptedSys struct {
	*commandtest.System
	steps []func()
	slept []time.Duration
}

func (s *scriptedSys) Sleep(d time.Duration) error {
	s.slept = append(s.slept, d)
	if len(s.steps) == 0 {
		return errors.New("signalled")
	}
	s.steps[0]()
	s.steps = s.steps[1:]
	return nil
}

func runFollow(t *testing.T, e *commandtest.Env, sys *scriptedSys, args ...string) (string, string) {
	var out, errb strings.Builder
	in := strings.NewReader("")
	inv := &command.Invocation{Args: args, Stdin: in, Stdout: &out, Stderr: &errb, Dir: "/work",
		Env: fakeEnv(e.Env), Sys: sys}
	inv.FS = &vfs.View{FS: e.FS, Streams: vfs.Streams{Stdin: in, Stdout: &out, Stderr: &errb}}
	ent, _ := e.Commands.Lookup(args[0])
	ent.Run(inv)
	return out.String(), errb.String()
}

type fakeEnv map[string]string

func (m fakeEnv) Get(n string) (string, bool) { v, ok := m[n]; return v, ok }
func (m fakeEnv) Environ() []string           { return nil }

func TestTailFollow(t *testing.T) {
	e := setup(t, map[string]string{"log": "a\n", "other": "x\n"})
	appendTo := func(name, s string) func() {
		return func() { e.WriteFile(name, e.ReadFile(name)+s) }
	}
	sys := &scriptedSys{System: e.Sys, steps: []func(){appendTo("log", "b\n"), func() {}, appendTo("log", "c\n")}}
	out, errs := runFollow(t, e, sys, "tail", "-f", "log")
	if out != "a\nb\nc\n" || errs != "" {
		t.Errorf("tail -f: out %q err %q", out, errs)
	}
	if len(sys.slept) != 4 || sys.slept[0] != time.Second {
		t.Errorf("slept %v", sys.slept)
	}

	e = setup(t, map[string]string{"log": "a\n", "other": "x\n"})
	sys = &scriptedSys{System: e.Sys, steps: []func(){
		func() { e.WriteFile("log", e.ReadFile("log")+"b\n"); e.WriteFile("other", e.ReadFile("other")+"y\n") },
		func() { e.WriteFile("log", "n\n") },
	}}
	out, errs = runFollow(t, e, sys, "tail", "-n1", "-s", "0.5", "--follow=name", "log", "other")
	want := "==> log <==\na\n\n==> other <==\nx\n\n==> log <==\nb\n\n==> other <==\ny\n\n==> log <==\nn\n"
	if out != want || errs != "tail: log: file truncated\n" {
		t.Errorf("tail -f two files:\n out %q\nwant %q\n err %q", out, want, errs)
	}
	if sys.slept[0] != 500*time.Millisecond {
		t.Errorf("slept %v", sys.slept)
	}
	runTable(t, []commandtest.Golden{
		{Args: sh("tail -f"), Stdin: "hi\n", Stdout: "hi\n"},
		{Args: sh("tail -f nosuch"), Status: 1,
			Stderr: "tail: cannot open 'nosuch' for reading: No such file or directory\ntail: no files remaining\n"},
		{Args: sh("tail --pid=999999 -f log"), Files: map[string]string{"log": "a\n"}, Stdout: "a\n"},
		{Args: sh("tail --follow=x log"), Files: map[string]string{"log": "a\n"}, Status: 1,
			Stderr: "tail: invalid argument 'x' for '--follow'\nValid arguments are:\n  - 'descriptor'\n  - 'name'\nTry 'tail --help' for more information.\n"},
	})
}
