package files

import (
	"testing"
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
