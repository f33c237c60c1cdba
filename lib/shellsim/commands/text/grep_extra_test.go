package text

import (
	"io"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// Recursive searches walk directories in name order (GNU uses readdir
// order, which the VFS defines as sorted); the lines are GNU's otherwise.
var grepTree = map[string]string{
	"a.txt": "foo\nbar\nfoo bar\n", "sub/b.txt": "nofoo\n", "sub/c.log": "foo\n",
	".hid/c": "foo\n", "bin.dat": "x\x00foo\n", "empty/": "",
}

func TestGrepRecursive(t *testing.T) {
	runTable(t, []tc{
		{args: sh("grep -r foo"), files: grepTree,
			out: ".hid/c:foo\na.txt:foo\na.txt:foo bar\nsub/b.txt:nofoo\nsub/c.log:foo\n",
			err: "grep: bin.dat: binary file matches\n"},
		{args: sh("grep -r foo ."), files: grepTree,
			out: "./.hid/c:foo\n./a.txt:foo\n./a.txt:foo bar\n./sub/b.txt:nofoo\n./sub/c.log:foo\n",
			err: "grep: ./bin.dat: binary file matches\n"},
		{args: sh("grep -r foo sub"), files: grepTree, out: "sub/b.txt:nofoo\nsub/c.log:foo\n"},
		{args: sh("grep -r foo sub/"), files: grepTree, out: "sub/b.txt:nofoo\nsub/c.log:foo\n"},
		{args: sh("grep -rh foo sub"), files: grepTree, out: "nofoo\nfoo\n"},
		{args: sh("grep -rc foo sub"), files: grepTree, out: "sub/b.txt:1\nsub/c.log:1\n"},
		{args: sh("grep -rl foo"), files: grepTree, out: ".hid/c\na.txt\nbin.dat\nsub/b.txt\nsub/c.log\n"},
		{args: []string{"grep", "-r", "--include=*.txt", "foo"}, files: grepTree,
			out: "a.txt:foo\na.txt:foo bar\nsub/b.txt:nofoo\n"},
		{args: []string{"grep", "-r", "--exclude=*.txt", "foo", "."}, files: grepTree,
			out: "./.hid/c:foo\n./sub/c.log:foo\n", err: "grep: ./bin.dat: binary file matches\n"},
		{args: []string{"grep", "-r", "--exclude-dir=sub", "-I", "foo"}, files: grepTree,
			out: ".hid/c:foo\na.txt:foo\na.txt:foo bar\n"},
		{args: []string{"grep", "-rn", "--exclude-dir=.hid", "--exclude=*.dat", "bar", "."}, files: grepTree,
			out: "./a.txt:2:bar\n./a.txt:3:foo bar\n"},
		{args: sh("grep -r zzz"), files: grepTree, status: 1},
		{args: sh("grep foo sub"), files: grepTree, err: "grep: sub: Is a directory\n", status: 2},
	})
}

func TestGrepPartial(t *testing.T) {
	for _, c := range []struct {
		args    []string
		err     string
		feature string
	}{
		{[]string{"grep", "-P", `a(?=1)`}, "grep: Perl regular expression not supported in shellsim: error parsing regexp: invalid or unsupported Perl syntax: `(?=`\n", "grep -P"},
	} {
		e := setup(t, nil)
		out, errs, st := e.Run(c.args, "aa\n")
		if out != "" || errs != c.err || st != 2 {
			t.Errorf("%q: out=%q err=%q status=%d", c.args, out, errs, st)
		}
		if len(e.Sys.Partials) != 1 || e.Sys.Partials[0] != c.feature {
			t.Errorf("%q: partials %q", c.args, e.Sys.Partials)
		}
	}
}

// Backreferences run on posixre's backtracking matcher (goldens from GNU
// grep 3.8).
func TestGrepBackreferences(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"grep", `\(a\)\1`}, stdin: "xaay\nab\n", out: "xaay\n"},
		{args: []string{"grep", "-o", `\([a-z]*\) \1`}, stdin: "the the cat\n", out: "the the\n \n"},
		{args: []string{"grep", "-Eo", `\b([a-z]+) \1\b`}, stdin: "it is is fine, fine\n", out: "is is\n"},
		{args: []string{"grep", "-c", "-e", `\(x\)\1`, "-e", `\(y\)\1`}, stdin: "xx\nyy\nxy\n", out: "2\n"},
		{args: []string{"grep", "-iE", `^(.)(.).?\2\1$`}, stdin: "abba\nAbBa\nabab\nracecar\nxyzyx\n", out: "abba\nAbBa\nxyzyx\n"},
		{args: []string{"grep", "-w", `\(ab\)\1`}, stdin: "ababab abab\n", out: "ababab abab\n"},
		{args: []string{"grep", `\(a\)\2`}, stdin: "a\n", err: "grep: Invalid back reference\n", status: 2},
	})
}

// endless is an infinite stream of "y\n", as from yes.
type endless struct{ n *int }

func (e endless) Read(b []byte) (int, error) {
	if e.n == nil {
		return 0, io.ErrUnexpectedEOF
	}
	for i := range b {
		b[i] = "y\n"[*e.n%2]
		*e.n++
	}
	return len(b), nil
}

func newEndless() endless { return endless{new(int)} }

func TestGrepStopsEarly(t *testing.T) {
	for _, args := range [][]string{sh("grep -m2 y"), sh("grep -q y"), sh("grep -l y")} {
		e := setup(t, nil)
		var out, errb strings.Builder
		st := e.RunIO(args, newEndless(), &out, &errb)
		want := map[string]string{"-m2": "y\ny\n", "-q": "", "-l": "(standard input)\n"}[args[1]]
		if st != 0 || out.String() != want || errb.Len() != 0 {
			t.Errorf("%q: status %d out %q err %q", args, st, out.String(), errb.String())
		}
	}
}

func TestGrepUTF8(t *testing.T) {
	runTable(t, []tc{
		{args: sh("grep -Tn y"), stdin: "x\ny\n", out: "                  2:\ty\n"},
		{args: sh("grep -o é."), stdin: "café!\n", out: "é!\n", env: map[string]string{"LANG": "C.UTF-8"}},
		{args: sh("grep a"), stdin: "a\xff\n", err: "grep: (standard input): binary file matches\n",
			env: map[string]string{"LANG": "C.UTF-8"}},
		{args: sh("grep a"), stdin: "a\xff\n", out: "a\xff\n"},
	})
}

var _ = commandtest.New

// -P is leftmost-first like Perl; BRE/ERE are leftmost-longest (GNU grep 3.8).
func TestGrepMatchSemantics(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"grep", "-oP", "a|ab"}, stdin: "abc\n", out: "a\n"},
		{args: []string{"grep", "-oE", "a|ab"}, stdin: "abc\n", out: "ab\n"},
		{args: []string{"grep", "-oP", "a.*?c"}, stdin: "abcabc\n", out: "abc\nabc\n"},
		{args: []string{"grep", "-oP", `\d+`}, stdin: "x12y345\n", out: "12\n345\n"},
	})
}

func TestGrepLiteralFastPathAgreesWithTheRegexp(t *testing.T) {
	for _, expr := range []string{"error", "(?:a.b)", "(?i)error", "x+", "(?:error)", "(?s)(?:warn)"} {
		lit, ok := literalOf(expr)
		want := map[string]string{"error": "error", "(?:error)": "error", "(?s)(?:warn)": "warn"}[expr]
		if ok != (want != "") || string(lit) != want {
			t.Errorf("literalOf(%q) = %q, %v; want %q", expr, lit, ok, want)
		}
	}
}
