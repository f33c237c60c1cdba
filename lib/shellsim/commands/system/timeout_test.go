package system

import (
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

var sleepStub = []command.Entry{
	{Name: "test-sleep", Trust: command.Real, Run: func(inv *command.Invocation) int {
		d, _ := time.ParseDuration(inv.Args[1])
		if inv.Sys.Sleep(d) != nil {
			return 1
		}
		return 0
	}},
}

func TestTimeout(t *testing.T) {
	runTable(t, []tc{
		{name: "finishes", args: "timeout 5 test-sleep 1s", check: func(t *testing.T, e *commandtest.Env) {
			if e.Sys.Clock != time.Second {
				t.Errorf("clock %v", e.Sys.Clock)
			}
		}},
		{name: "expires", args: "timeout 1 test-sleep 10s", status: 124},
		{name: "preserve", args: "timeout --preserve-status -s KILL 1 test-sleep 10s", status: 137},
		{name: "status", args: "timeout 1 false", status: 1},
		{name: "kill", args: "timeout -s KILL 1 test-sleep 10s", status: 137},
		{name: "not-found", args: "timeout 1 nosuch", err: "nosuch: command not found\n", status: 127},
		{name: "usage", args: "timeout", err: "Try 'timeout --help' for more information.\n", status: 125},
		{name: "bad-interval", args: "timeout x true", err: "timeout: invalid time interval 'x'\nTry 'timeout --help' for more information.\n", status: 125},
		{name: "bad-signal", args: "timeout -s FOO 1 true", err: "timeout: 'FOO': invalid signal\nTry 'timeout --help' for more information.\n", status: 125},
	})
}
