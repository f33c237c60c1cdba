package files

import (
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestNames(t *testing.T) {
	f := []string{"x/", "m1=", "sx->x", "loop->loop"}
	runTable(t, []tc{
		{name: "basename", args: "basename /a/b/", out: "b\n"},
		{name: "basename-suffix", args: "basename a.txt .txt", out: "a\n"},
		{name: "basename-s", args: "basename -s .c x.c y.c", out: "x\ny\n"},
		{name: "basename-a", args: "basename -a a/b c/d", out: "b\nd\n"},
		{name: "basename-empty", argv: []string{"basename", ""}, out: "\n"},
		{name: "basename-none", args: "basename", err: "basename: missing operand\nTry 'basename --help' for more information.\n", status: 1},
		{name: "dirname", argv: []string{"dirname", "a/b/", "/x", "a", "//", ""}, out: "a\n/\n.\n/\n.\n"},
		{name: "realpath-m", files: f, args: "realpath -m ../x/./y", out: "/x/y\n"},
		{name: "realpath-link", files: f, args: "realpath sx", out: "/work/x\n"},
		{name: "realpath-missing-last", files: f, args: "realpath x/new", out: "/work/x/new\n"},
		{name: "realpath-missing", files: f, args: "realpath nosuch/x", err: "realpath: nosuch/x: No such file or directory\n", status: 1},
		{name: "realpath-e", files: f, args: "realpath -e nosuch", err: "realpath: nosuch: No such file or directory\n", status: 1},
		{name: "realpath-relative", files: f, args: "realpath --relative-to=/tmp /work/x", out: "../work/x\n"},
		{name: "realpath-loop", files: f, args: "realpath loop", err: "realpath: loop: Too many levels of symbolic links\n", status: 1},
		{name: "readlink", files: f, args: "readlink sx", out: "x\n"},
		{name: "readlink-not-link", files: f, args: "readlink m1", status: 1},
		{name: "readlink-f", files: f, args: "readlink -f sx/../m1", out: "/work/m1\n"},
		{name: "readlink-physical-dotdot", files: []string{"top/inner/", "via->top/inner"}, args: "readlink -f via/../inner", out: "/work/top/inner\n"},
		{name: "readlink-m", args: "readlink -m /a/../b/c", out: "/b/c\n"},
		{name: "readlink-e", args: "readlink -e nosuch", status: 1},
	})
}

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
