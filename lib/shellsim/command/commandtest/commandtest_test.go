package commandtest

import (
	"fmt"
	"io"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

var catStub = []command.Entry{
	{Name: "commandtest-cat", Trust: command.Real, Run: func(inv *command.Invocation) int {
		if len(inv.Args) == 1 {
			io.Copy(inv.Stdout, inv.Stdin)
			return 0
		}
		st := 0
		for _, a := range inv.Args[1:] {
			b, err := inv.FS.ReadFile(inv.Abs(a))
			if err != nil {
				fmt.Fprintf(inv.Stderr, "cat: %s: %s\n", a, command.Message(err))
				st = 1
				continue
			}
			if err := inv.Sys.Charge(int64(len(b))); err != nil {
				return 1
			}
			inv.Stdout.Write(b)
		}
		return st
	}},
}

func TestRun(t *testing.T) {
	e := New(t, catStub)
	e.WriteFile("a.txt", "A\n")
	tests := []struct {
		args     []string
		stdin    string
		out, err string
		status   int
	}{
		{[]string{"commandtest-cat"}, "in\n", "in\n", "", 0},
		{[]string{"commandtest-cat", "a.txt"}, "", "A\n", "", 0},
		{[]string{"commandtest-cat", "nosuch"}, "", "", "cat: nosuch: No such file or directory\n", 1},
		{[]string{"commandtest-cat", "/dev/stdin"}, "x", "x", "", 0},
	}
	for _, tc := range tests {
		out, errs, st := e.Run(tc.args, tc.stdin)
		if out != tc.out || errs != tc.err || st != tc.status {
			t.Errorf("%v: got %q %q %d", tc.args, out, errs, st)
		}
	}
	if e.ReadFile("a.txt") != "A\n" || !e.Exists("/work/a.txt") {
		t.Fatal("files")
	}
	e.Sys.Fuel = 1
	if _, _, st := e.Run([]string{"commandtest-cat", "a.txt"}, ""); st != 1 {
		t.Fatal(st)
	}
	st, _ := e.Sys.Exec(command.ExecRequest{Args: []string{"nosuchcmd"}})
	if st != 127 {
		t.Fatal(st)
	}
}
