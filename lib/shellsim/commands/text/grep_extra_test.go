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
	runTable(t, []commandtest.Golden{
		{Args: sh("grep -r foo"), Files: grepTree,
			Stdout: ".hid/c:foo\na.txt:foo\na.txt:foo bar\nsub/b.txt:nofoo\nsub/c.log:foo\n",
			Stderr: "grep: bin.dat: binary file matches\n"},
		{Args: sh("grep -r foo ."), Files: grepTree,
			Stdout: "./.hid/c:foo\n./a.txt:foo\n./a.txt:foo bar\n./sub/b.txt:nofoo\n./sub/c.log:foo\n",
			Stderr: "grep: ./bin.dat: binary file matches\n"},
		{Args: sh("grep -r foo sub"), Files: grepTree, Stdout: "sub/b.txt:nofoo\nsub/c.log:foo\n"},
		{Args: sh("grep -r foo sub/"), Files: grepTree, Stdout: "sub/b.txt:nofoo\nsub/c.log:foo\n"},
		{Args: sh("grep -rh foo sub"), Files: grepTree, Stdout: "nofoo\nfoo\n"},
		{Args: sh("grep -rc foo sub"), Files: grepTree, Stdout: "sub/b.txt:1\nsub/c.log:1\n"},
		{Args: sh("grep -rl foo"), Files: grepTree, Stdout: ".hid/c\na.txt\nbin.dat\nsub/b.txt\nsub/c.log\n"},
		{Args: []string{"grep", "-r", "--include=*.txt", "foo"}, Files: grepTree,
			Stdout: "a.txt:foo\na.txt:foo bar\nsub/b.txt:nofoo\n"},
		{Args: []string{"grep", "-r", "--exclude=*.txt", "foo", "."}, Files: grepTree,
			Stdout: "./.hid/c:foo\n./sub/c.log:foo\n", Stderr: "grep: ./bin.dat: binary file matches\n"},
		{Args: []string{"grep", "-r", "--exclude-dir=sub", "-I", "foo"}, Files: grepTree,
			Stdout: ".hid/c:foo\na.txt:foo\na.txt:foo bar\n"},
		{Args: []string{"grep", "-rn", "--exclude-dir=.hid", "--exclude=*.dat", "bar", "."}, Files: grepTree,
			Stdout: "./a.txt:2:bar\n./a.txt:3:foo bar\n"},
		{Args: sh("grep -r zzz"), Files: grepTree, Status: 1},
		{Args: sh("grep foo sub"), Files: grepTree, Stderr: "grep: sub: Is a directory\n", Status: 2},
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
	runTable(t, []commandtest.Golden{
		{Args: []string{"grep", `\(a\)\1`}, Stdin: "xaay\nab\n", Stdout: "xaay\n"},
		{Args: []string{"grep", "-o", `\([a-z]*\) \1`}, Stdin: "the the cat\n", Stdout: "the the\n \n"},
		{Args: []string{"grep", "-Eo", `\b([a-z]+) \1\b`}, Stdin: "it is is fine, fine\n", Stdout: "is is\n"},
		{Args: []string{"grep", "-c", "-e", `\(x\)\1`, "-e", `\(y\)\1`}, Stdin: "xx\nyy\nxy\n", Stdout: "2\n"},
		{Args: []string{"grep", "-iE", `^(.)(.).?\2\1$`}, Stdin: "abba\nAbBa\nabab\nracecar\nxyzyx\n", Stdout: "abba\nAbBa\nxyzyx\n"},
		{Args: []string{"grep", "-w", `\(ab\)\1`}, Stdin: "ababab abab\n", Stdout: "ababab abab\n"},
		{Args: []string{"grep", `\(a\)\2`}, Stdin: "a\n", Stderr: "grep: Invalid back reference\n", Status: 2},
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
	runTable(t, []commandtest.Golden{
		{Args: sh("grep -Tn y"), Stdin: "x\ny\n", Stdout: "                  2:\ty\n"},
		{Args: sh("grep -o é."), Stdin: "café!\n", Stdout: "é!\n", Env: map[string]string{"LANG": "C.UTF-8"}},
		{Args: sh("grep a"), Stdin: "a\xff\n", Stderr: "grep: (standard input): binary file matches\n",
			Env: map[string]string{"LANG": "C.UTF-8"}},
		{Args: sh("grep a"), Stdin: "a\xff\n", Stdout: "a\xff\n"},
	})
}

var _ = commandtest.New

// -P is leftmost-first like Perl; BRE/ERE are leftmost-longest (GNU grep 3.8).
func TestGrepMatchSemantics(t *testing.T) {
	runTable(t, []commandtest.Golden{
		{Args: []string{"grep", "-oP", "a|ab"}, Stdin: "abc\n", Stdout: "a\n"},
		{Args: []string{"grep", "-oE", "a|ab"}, Stdin: "abc\n", Stdout: "ab\n"},
		{Args: []string{"grep", "-oP", "a.*?c"}, Stdin: "abcabc\n", Stdout: "abc\nabc\n"},
		{Args: []string{"grep", "-oP", `\d+`}, Stdin: "x12y345\n", Stdout: "12\n345\n"},
	})
}
