package system

import (
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestSleep(t *testing.T) {
	clock := func(want time.Duration) func(*testing.T, *commandtest.Env) {
		return func(t *testing.T, e *commandtest.Env) {
			if e.Sys.Clock != want {
				t.Errorf("clock %v, want %v", e.Sys.Clock, want)
			}
		}
	}
	runTable(t, []tc{
		{name: "seconds", args: "sleep 2", check: clock(2 * time.Second)},
		{name: "fraction", args: "sleep 0.25", check: clock(250 * time.Millisecond)},
		{name: "suffixes", args: "sleep 1m 1h 1d 1s", check: clock(24*time.Hour + time.Hour + time.Minute + time.Second)},
		{name: "missing", args: "sleep", err: "sleep: missing operand\nTry 'sleep --help' for more information.\n", status: 1},
		{name: "option", args: "sleep -1", err: "sleep: invalid option -- '1'\nTry 'sleep --help' for more information.\n", status: 1},
		{name: "invalid", args: "sleep x", err: "sleep: invalid time interval 'x'\nTry 'sleep --help' for more information.\n", status: 1, check: clock(0)},
	})
}
