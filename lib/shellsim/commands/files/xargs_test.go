package files

import (
	"strings"
	"testing"
)

func TestXargs(t *testing.T) {
	runTable(t, []tc{
		{name: "default", args: "xargs test-echo", stdin: "a b\nc \"d e\"\n", out: "a b c d e\n"},
		{name: "n1", args: "xargs -n 1 test-echo", stdin: "a b\nc \"d e\"\n", out: "a\nb\nc\nd e\n"},
		{name: "L1", args: "xargs -L 1 test-echo", stdin: "a b\nc\n", out: "a b\nc\n"},
		{name: "I", args: "xargs -I{} test-echo x{}y", stdin: "1\n2\n", out: "x1y\nx2y\n"},
		{name: "null", args: "xargs -0 test-echo", stdin: "a\x00b c\x00", out: "a b c\n"},
		{name: "empty-runs-once", args: "xargs test-echo hi", out: "hi\n"},
		{name: "empty-r", args: "xargs -r test-echo hi"},
		{name: "unmatched", args: "xargs test-echo", stdin: "it's\n", err: "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n", status: 1},
		{name: "trace", args: "xargs -t test-echo", stdin: "a\nb\n", out: "a b\n", err: "test-echo a b\n"},
		{name: "delim", argv: []string{"xargs", "-d", ",", "test-echo"}, stdin: "a,b,c", out: "a b c\n"},
		{name: "fail-123", args: "xargs test-exit 1", stdin: "x", status: 123},
		{name: "fail-255", args: "xargs test-exit 255", stdin: "x", err: "xargs: test-exit: exited with status 255; aborting\n", status: 124},
		{name: "not-found", args: "xargs nosuchcmd", stdin: "x", err: "nosuchcmd: command not found\n", status: 127},
	})
}

func TestSplitXargs(t *testing.T) {
	got, _, err := splitXargs("a\\ b 'c d'\n\"e\"f  g\n", "")
	if err != nil || len(got) != 2 || len(got[0]) != 2 || got[0][0] != "a b" || got[0][1] != "c d" || got[1][0] != "ef" || got[1][1] != "g" {
		t.Errorf("splitXargs = %q, %v", got, err)
	}
}

func TestXargsStreaming(t *testing.T) {
	runTable(t, []tc{
		{name: "quote-error-runs-pending", args: "xargs test-echo", stdin: "a\nb'c\n", out: "a\n", err: "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n", status: 1},
		{name: "continuation", args: "xargs -L 1 test-echo", stdin: "a b \nc\nd\n", out: "a b c\nd\n"},
		{name: "n2", args: "xargs -n 2 test-echo", stdin: "a\nb c\nd e f\n", out: "a b\nc d\ne f\n"},
		{name: "eof", args: "xargs -E stop test-echo", stdin: "a b\nstop c\nd\n", out: "a b\n"},
		{name: "I-eof", args: "xargs -E stop -I{} test-echo <{}>", stdin: "a\nstop\nb\n", out: "<a>\n"},
		{name: "max-chars", args: "xargs -s 20 test-echo", stdin: "aaaa bbbb cccc dddd\n", out: "aaaa bbbb\ncccc dddd\n"},
	})
}

func TestXargsStopsOnFuel(t *testing.T) {
	e := setup(t, nil)
	e.Sys.Fuel = 200
	_, _, st := e.Run([]string{"xargs", "-n", "1", "test-echo"}, strings.Repeat("word\n", 1000))
	if st != 1 {
		t.Errorf("status %d, want 1 (stopped)", st)
	}
}

func TestXargsErrors(t *testing.T) {
	try := "Try 'xargs --help' for more information.\n"
	runTable(t, []tc{
		{name: "n0", args: "xargs -n 0 test-echo", stdin: "a", err: "xargs: value 0 for -n option should be >= 1\n" + try, status: 1},
		{name: "nx", args: "xargs -n x test-echo", stdin: "a", err: "xargs: invalid number \"x\" for -n option\n" + try, status: 1},
		{name: "delim", args: "xargs -d ab test-echo", stdin: "a", err: "xargs: Invalid input delimiter specification ab: the delimiter must be either a single character or an escape sequence starting with \\.\n", status: 1},
		{name: "arg-file", args: "xargs -a nosuch test-echo", err: "xargs: Cannot open input file 'nosuch': No such file or directory\n", status: 1},
		{name: "I-after-n", args: "xargs -n2 -I{} test-echo {}", stdin: "a\nb\n", out: "a\nb\n", err: "xargs: warning: options --max-args and --replace/-I/-i are mutually exclusive, ignoring previous --max-args value\n"},
	})
}
