package files

import (
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

func TestFind(t *testing.T) {
	f := []string{"a/b/E.TXT=", "a/x.txt=hi\\n", "c/y.log=", "l->a/x.txt", "e/"}
	runTable(t, []tc{
		{name: "all", files: f, args: "find", out: ".\n./a\n./a/b\n./a/b/E.TXT\n./a/x.txt\n./c\n./c/y.log\n./e\n./l\n"},
		{name: "name", files: f, argv: []string{"find", ".", "-name", "*.txt"}, out: "./a/x.txt\n"},
		{name: "iname", files: f, argv: []string{"find", ".", "-iname", "*.txt"}, out: "./a/b/E.TXT\n./a/x.txt\n"},
		{name: "type-empty", files: f, args: "find . -type d -empty", out: "./e\n"},
		{name: "path", files: f, argv: []string{"find", ".", "-path", "./a/*"}, out: "./a/b\n./a/b/E.TXT\n./a/x.txt\n"},
		{name: "or", files: f, args: "find . -maxdepth 1 -type f -o -type l", out: "./l\n"},
		{name: "size", files: f, args: "find . -type f -size -1", out: "./a/b/E.TXT\n./c/y.log\n"},
		{name: "size-c", files: f, args: "find . -size +2c -type f", out: "./a/x.txt\n"},
		{name: "not", files: f, argv: []string{"find", "a", "!", "-type", "d"}, out: "a/b/E.TXT\na/x.txt\n"},
		{name: "prune", files: f, argv: []string{"find", ".", "(", "-name", "a", "-prune", ")", "-o", "-type", "f", "-print"}, out: "./c/y.log\n"},
		{name: "mindepth", files: f, args: "find a -mindepth 2", out: "a/b/E.TXT\n"},
		{name: "print0", files: f, args: "find c -print0", out: "c\x00c/y.log\x00"},
		{name: "printf", files: f, argv: []string{"find", "a", "-printf", `%p %f %d %s %y %P\n`}, out: "a a 0 4096 d \na/b b 1 4096 d b\na/b/E.TXT E.TXT 2 0 f b/E.TXT\na/x.txt x.txt 1 3 f x.txt\n"},
		{name: "perm", files: f, args: "find c -perm 644", out: "c/y.log\n"},
		{name: "perm-any", files: f, args: "find c -perm /111", out: "c\n"},
		{name: "exec", files: f, argv: []string{"find", "c", "-type", "f", "-exec", "true", "{}", ";"}, out: "", check: nil},
		{name: "exec-test", files: f, argv: []string{"find", "c", "-exec", "false", "{}", ";", "-o", "-print"}, out: "c\nc/y.log\n"},
		{name: "exec-plus-fails", files: f, argv: []string{"find", "c", "-exec", "false", "{}", "+"}, status: 1},
		{name: "missing", args: "find nosuch", err: "find: 'nosuch': No such file or directory\n", status: 1},
		{name: "unknown", args: "find . -bogus", err: "find: unknown predicate `-bogus'\n", status: 1},
		{name: "missing-arg", args: "find . -name", err: "find: missing argument to `-name'\n", status: 1},
		{name: "unsupported", args: "find . -fls x", err: "find: -fls is not supported in ShellSim\n", status: 1},
		{name: "quit", files: f, args: "find . -name *.txt -print -quit", out: "./a/x.txt\n"},
		{name: "regex", files: f, argv: []string{"find", ".", "-regex", `.*\.\(txt\|log\)`}, out: "./a/x.txt\n./c/y.log\n"},
		{name: "iregex", files: f, argv: []string{"find", "a", "-iregex", `.*/e\.txt`}, out: "a/b/E.TXT\n"},
		{name: "regex-bad", argv: []string{"find", ".", "-regex", `\(`},
			err: "find: failed to compile regular expression '\\(': Unmatched ( or \\(\n", status: 1},
		{name: "delete", files: f, args: "find a -name *.txt -delete", check: func(t *testing.T, e *commandtest.Env) {
			exists(t, e, map[string]bool{"a/x.txt": false, "a/b/E.TXT": true})
		}},
		{name: "delete-dirs", files: f, args: "find a -delete", check: func(t *testing.T, e *commandtest.Env) { exists(t, e, map[string]bool{"a": false}) }},
	})
}

// -regex syntaxes as GNU findutils 4.9 reads them: emacs by default (+ an
// operator, no intervals, no classes, backreferences), and the POSIX and
// tool syntaxes -regextype names.
func TestFindRegexTypes(t *testing.T) {
	rf := []string{"abbb=", "ab+=", "aa=", "a.txt=", "a{2}="}
	runTable(t, []tc{
		{name: "plus", files: rf, argv: []string{"find", ".", "-regex", `.*/ab+`}, out: "./abbb\n"},
		{name: "escaped-plus", files: rf, argv: []string{"find", ".", "-regex", `.*/ab\+`}, out: "./ab+\n"},
		{name: "no-intervals", files: rf, argv: []string{"find", ".", "-regex", `.*/a\{2\}`}, out: "./a{2}\n"},
		{name: "no-classes", files: rf, argv: []string{"find", ".", "-regex", `.*/[[:alpha:]]+`}},
		{name: "backref", files: rf, argv: []string{"find", ".", "-regex", `.*/\(a\)\1`}, out: "./aa\n"},
		{name: "posix-extended", files: rf, argv: []string{"find", ".", "-regextype", "posix-extended", "-regex", `.*/a(a|\.txt)`, "-print"}, out: "./a.txt\n./aa\n"},
		{name: "posix-basic", files: rf, argv: []string{"find", ".", "-regextype", "posix-basic", "-regex", `.*/a(a|\.txt)`}},
		{name: "egrep", files: rf, argv: []string{"find", ".", "-regextype", "egrep", "-regex", `.*/a{2}`}, out: "./aa\n"},
		{name: "unsupported", argv: []string{"find", ".", "-regextype", "ed"}, err: "find: -regextype ed is not supported in ShellSim\n", status: 1},
	})
}

func TestFindExecArgs(t *testing.T) {
	e := setup(t, []string{"c/y.log=", "c/z="})
	_, _, st := e.Run([]string{"find", "c", "-type", "f", "-exec", "true", "x{}y", ";"}, "")
	if st != 0 {
		t.Fatal(st)
	}
	want := [][]string{{"find", "c", "-type", "f", "-exec", "true", "x{}y", ";"}, {"true", "xc/y.logy"}, {"true", "xc/zy"}}
	if len(e.Sys.Invocations) != 3 || e.Sys.Invocations[1][1] != want[1][1] || e.Sys.Invocations[2][1] != want[2][1] {
		t.Errorf("invocations %q", e.Sys.Invocations)
	}
	e.Sys.Invocations = nil
	e.Run([]string{"find", "c", "-type", "f", "-exec", "true", "-a", "{}", "+"}, "")
	if len(e.Sys.Invocations) != 2 || len(e.Sys.Invocations[1]) != 4 {
		t.Errorf("batch %q", e.Sys.Invocations)
	}
}

func TestFnmatch(t *testing.T) {
	for _, c := range []struct {
		p, s string
		fold bool
		want bool
	}{
		{"*.txt", "a.txt", false, true}, {"*.txt", ".txt", false, true}, {"a*", "a/b", false, true},
		{"[!a]*", "b", false, true}, {"[!a]*", "a", false, false}, {"[[:digit:]]?", "1x", false, true},
		{"*.TXT", "a.txt", true, true}, {`\*`, "*", false, true}, {"a?c", "abc", false, true}, {"a?c", "ac", false, false},
	} {
		if got := fnmatch(c.p, c.s, c.fold); got != c.want {
			t.Errorf("fnmatch(%q, %q) = %v", c.p, c.s, got)
		}
	}
}

// failWriter fails every write, like a pipe whose reader has gone.
type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) { w.n++; return 0, errBrokenPipe }

var errBrokenPipe = &pathErr{"broken pipe"}

type pathErr struct{ s string }

func (e *pathErr) Error() string { return e.s }

func TestFindStopsOnWriteError(t *testing.T) {
	var files []string
	for i := 0; i < 5000; i++ {
		files = append(files, sprintf("d/f%04d=", i))
	}
	e := setup(t, files)
	w := &failWriter{}
	var errb strings.Builder
	st := e.RunIO([]string{"find", "d"}, strings.NewReader(""), w, &errb)
	if st != 1 || w.n > 2 {
		t.Errorf("status %d after %d writes", st, w.n)
	}
}

func TestFindAge(t *testing.T) {
	e := setup(t, []string{"old="})
	e.Sys.Clock = 3*24*time.Hour + time.Hour
	e.WriteFile("new", "")
	for _, c := range []struct {
		args, want string
	}{
		{"find . -type f -mtime +1", "./old\n"},
		{"find . -type f -mtime 3", "./old\n"},
		{"find . -type f -mtime -1", "./new\n"},
		{"find . -type f -mmin +60", "./old\n"},
		{"find . -type f -mmin -1", "./new\n"},
		{"find . -type f -newer old", "./new\n"},
		{"find . -type f -newermt 2025-01-02", "./new\n"},
	} {
		out, errs, st := e.Run(strings.Fields(c.args), "")
		if out != c.want || errs != "" || st != 0 {
			t.Errorf("%s: %q %q %d, want %q", c.args, out, errs, st, c.want)
		}
	}
}

func TestFindErrors(t *testing.T) {
	f := []string{"a/f="}
	runTable(t, []tc{
		{name: "open-paren", files: f, argv: []string{"find", "a", "("}, err: "find: invalid expression; expected to find a ')' but didn't see one. Perhaps you need an extra predicate after '('\n", status: 1},
		{name: "close-paren-is-path", files: f, argv: []string{"find", "a", ")"}, out: "a\na/f\n", err: "find: ')': No such file or directory\n", status: 1},
		{name: "leading-or", files: f, argv: []string{"find", "a", "-o"}, err: "find: invalid expression; you have used a binary operator '-o' with nothing before it.\n", status: 1},
		{name: "dangling-not", files: f, argv: []string{"find", "a", "!"}, err: "find: expected an expression after '!'\n", status: 1},
		{name: "maxdepth", files: f, argv: []string{"find", "a", "-maxdepth", "-1"}, err: "find: Expected a positive decimal integer argument to -maxdepth, but got '-1'\n", status: 1},
		{name: "user", files: f, argv: []string{"find", "a", "-user", "nosuchuser"}, err: "find: 'nosuchuser' is not the name of a known user\n", status: 1},
		{name: "type", files: f, argv: []string{"find", "a", "-type", "q"}, err: "find: Unknown argument to -type: q\n", status: 1},
	})
}

func TestFindLs(t *testing.T) {
	e := setup(t, []string{"a=abc", "l->a"})
	a, _ := e.FS.Lstat("/work/a")
	l, _ := e.FS.Lstat("/work/l")
	want := sprintf("%9d      4 -rw-r--r--   1 root     root            3 Jan  1 00:00 a\n", a.Ino) +
		sprintf("%9d      0 lrwxrwxrwx   1 root     root            1 Jan  1 00:00 l -> a\n", l.Ino)
	if out, errs, st := e.Run([]string{"find", "a", "l", "-ls"}, ""); out != want || errs != "" || st != 0 {
		t.Errorf("got %q %q %d\nwant %q", out, errs, st, want)
	}
}
