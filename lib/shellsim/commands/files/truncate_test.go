package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestTruncate(t *testing.T) {
	size := func(want int64) func(*testing.T, *commandtest.Env) {
		return func(t *testing.T, e *commandtest.Env) {
			fi, err := e.FS.Stat("/work/f")
			if err != nil || fi.Size != want {
				t.Errorf("size %d (%v), want %d", fi.Size, err, want)
			}
		}
	}
	f := []string{"f=1234567890"}
	runTable(t, []tc{
		{name: "create", args: "truncate -s 10 f", check: size(10)},
		{name: "grow", files: f, args: "truncate -s +5 f", check: size(15)},
		{name: "shrink", files: f, args: "truncate -s -3 f", check: size(7)},
		{name: "kib", files: f, args: "truncate -s 1K f", check: size(1024)},
		{name: "round-up", files: f, args: "truncate -s %8 f", check: size(16)},
		{name: "round-down", files: f, args: "truncate -s /4 f", check: size(8)},
		{name: "no-size", files: f, args: "truncate f", err: "truncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.\n", status: 1},
		{name: "bad", files: f, args: "truncate -s zz f", err: "truncate: Invalid number: 'zz'\n", status: 1},
		{name: "no-dir", args: "truncate -s 5 nosuch/x", err: "truncate: cannot open 'nosuch/x' for writing: No such file or directory\n", status: 1},
	})
}
