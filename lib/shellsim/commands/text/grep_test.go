package text

import "testing"

// Fixtures shared by several cases below.
var grepFiles1 = map[string]string{"a.txt": `foo
bar
foo bar
`, "bin.dat": "x\x00foo\n", "ctx": `a
foo
b
c
d
foo
e
f
g
h
foo
`, "d/": "", "num.txt": `x=1
y=22
abc
z=333
`, "pats": `bar
zz
`, "up.txt": `Hello
HELLO world
hello
`, "w.txt": `the cat
catalog
concat
cat
@foo a@foo
foo_bar foo
`}

// Goldens recorded from GNU grep 3.8 (LC_ALL=C) on the build host.
func TestGrep(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"grep", "foo", "a.txt"}, files: grepFiles1, out: `foo
foo bar
`},
		{args: []string{"grep", "foo", "d", "a.txt"}, files: grepFiles1, out: `a.txt:foo
a.txt:foo bar
`, err: "grep: d: Is a directory\n", status: 2},
		{args: []string{"grep", "foo", "nosuch", "a.txt"}, files: grepFiles1, out: `a.txt:foo
a.txt:foo bar
`, err: "grep: nosuch: No such file or directory\n", status: 2},
		{args: []string{"grep", "-s", "foo", "nosuch", "a.txt"}, files: grepFiles1, out: `a.txt:foo
a.txt:foo bar
`, status: 2},
		{args: []string{"grep", "-q", "foo", "nosuch", "a.txt"}, files: grepFiles1, out: "", err: "grep: nosuch: No such file or directory\n"},
		{args: []string{"grep", "-q", "zzz", "a.txt"}, files: grepFiles1, out: "", status: 1},
		{args: []string{"grep", "foo", "bin.dat"}, files: grepFiles1, out: "", err: "grep: bin.dat: binary file matches\n"},
		{args: []string{"grep", "-c", "foo", "bin.dat"}, files: grepFiles1, out: "1\n"},
		{args: []string{"grep", "-a", "foo", "bin.dat"}, files: grepFiles1, out: "x\x00foo\n"},
		{args: []string{"grep", "-l", "foo", "bin.dat", "a.txt", "ctx", "num.txt"}, files: grepFiles1, out: `bin.dat
a.txt
ctx
`},
		{args: []string{"grep", "-L", "foo", "bin.dat", "a.txt", "ctx", "num.txt"}, files: grepFiles1, out: "num.txt\n"},
		{args: []string{"grep", "-n", "-C1", "foo", "ctx"}, files: grepFiles1, out: `1-a
2:foo
3-b
--
5-d
6:foo
7-e
--
10-h
11:foo
`},
		{args: []string{"grep", "-A1", "-m2", "foo", "ctx"}, files: grepFiles1, out: `foo
b
--
foo
e
`},
		{args: []string{"grep", "-B2", "-n", "foo", "ctx", "a.txt"}, files: grepFiles1, out: `ctx-1-a
ctx:2:foo
--
ctx-4-c
ctx-5-d
ctx:6:foo
--
ctx-9-g
ctx-10-h
ctx:11:foo
--
a.txt:1:foo
a.txt-2-bar
a.txt:3:foo bar
`},
		{args: []string{"grep", "-c", "-v", "foo", "ctx", "a.txt"}, files: grepFiles1, out: `ctx:8
a.txt:1
`},
		{args: []string{"grep", "-nbo", "o", "a.txt"}, files: grepFiles1, out: `1:1:o
1:2:o
3:9:o
3:10:o
`},
		{args: []string{"grep", "-2", "e", "ctx"}, files: grepFiles1, out: `d
foo
e
f
g
`},
		{args: []string{"grep", "-A", "1", "-B", "0", "c", "ctx"}, files: grepFiles1, out: `c
d
`},
		{args: []string{"grep", "--no-group-separator", "-A0", "foo", "ctx"}, files: grepFiles1, out: `foo
foo
foo
`},
		{args: []string{"grep", "--group-separator=XX", "-A0", "foo", "ctx"}, files: grepFiles1, out: `foo
XX
foo
XX
foo
`},
		{args: []string{"grep", "-m1", "-c", "foo", "ctx"}, files: grepFiles1, out: "1\n"},
		{args: []string{"grep", "-m", "0", "foo", "ctx"}, files: grepFiles1, out: "", status: 1},
		{args: []string{"grep", "-ow", "fo*", "a.txt"}, files: grepFiles1, out: `foo
foo
`},
		{args: []string{"grep", "-w", "o*", "a.txt"}, files: grepFiles1, out: "", status: 1},
		{args: []string{"grep", "-w", "cat", "w.txt"}, files: grepFiles1, out: `the cat
cat
`},
		{args: []string{"grep", "-wo", "cat", "w.txt"}, files: grepFiles1, out: `cat
cat
`},
		{args: []string{"grep", "-w", "@foo", "w.txt"}, files: grepFiles1, out: "@foo a@foo\n"},
		{args: []string{"grep", "-w", "foo", "w.txt"}, files: grepFiles1, out: `@foo a@foo
foo_bar foo
`},
		{args: []string{"grep", "-x", "cat", "w.txt"}, files: grepFiles1, out: "cat\n"},
		{args: []string{"grep", "-x", "-e", "cat", "-e", "concat", "w.txt"}, files: grepFiles1, out: `concat
cat
`},
		{args: []string{"grep", "-e", "foo", "-e", "bar", "-o", "a.txt"}, files: grepFiles1, out: `foo
bar
foo
bar
`},
		{args: []string{"grep", "", "a.txt"}, files: grepFiles1, out: `foo
bar
foo bar
`},
		{args: []string{"grep", "-E", "a|", "a.txt"}, files: grepFiles1, out: `foo
bar
foo bar
`},
		{args: []string{"grep", "-vn", "foo", "a.txt"}, files: grepFiles1, out: "2:bar\n"},
		{args: []string{"grep", "-x"}, files: grepFiles1, out: "", err: `Usage: grep [OPTION]... PATTERNS [FILE]...
Try 'grep --help' for more information.
`, status: 2},
		{args: []string{"grep"}, files: grepFiles1, out: "", err: `Usage: grep [OPTION]... PATTERNS [FILE]...
Try 'grep --help' for more information.
`, status: 2},
		{args: []string{"grep", "-A", "x", "foo", "a.txt"}, files: grepFiles1, out: "", err: "grep: x: invalid context length argument\n", status: 2},
		{args: []string{"grep", "-m", "x", "foo", "a.txt"}, files: grepFiles1, out: "", err: "grep: invalid max count\n", status: 2},
		{args: []string{"grep", "-E", "a{1", "a.txt"}, files: grepFiles1, out: "", status: 1},
		{args: []string{"grep", "-l", "foo", "a.txt", "-"}, files: grepFiles1, stdin: "foo\n", out: `a.txt
(standard input)
`},
		{args: []string{"grep", "foo", "--label=LBL", "-H"}, files: grepFiles1, stdin: `foo
bar
`, out: "LBL:foo\n"},
		{args: []string{"grep", "-c", "foo"}, files: grepFiles1, out: "0\n", status: 1},
		{args: []string{"grep", "-Z", "-l", "foo", "a.txt"}, files: grepFiles1, out: "a.txt\x00"},
		{args: []string{"grep", "-HZ", "foo", "a.txt"}, files: grepFiles1, out: "a.txt\x00foo\na.txt\x00foo bar\n"},
		{args: []string{"grep", "-o", "o*", "a.txt"}, files: grepFiles1, out: `oo
oo
`},
		{args: []string{"grep", "-ob", "b", "a.txt"}, files: grepFiles1, out: `4:b
12:b
`},
		{args: []string{"grep", "-r", "foo", "nosuch"}, files: grepFiles1, out: "", err: "grep: nosuch: No such file or directory\n", status: 2},
		{args: []string{"grep", "-i", "hello", "up.txt"}, files: grepFiles1, out: `Hello
HELLO world
hello
`},
		{args: []string{"grep", "-y", "HELLO", "up.txt"}, files: grepFiles1, out: `Hello
HELLO world
hello
`},
		{args: []string{"grep", "-i", "-w", "HELLO", "up.txt"}, files: grepFiles1, out: `Hello
HELLO world
hello
`},
		{args: []string{"grep", "-E", "[0-9]{2,}", "num.txt"}, files: grepFiles1, out: `y=22
z=333
`},
		{args: []string{"grep", "[0-9]\\{2,\\}", "num.txt"}, files: grepFiles1, out: `y=22
z=333
`},
		{args: []string{"grep", "-oE", "[a-z]=[0-9]+", "num.txt"}, files: grepFiles1, out: `x=1
y=22
z=333
`},
		{args: []string{"grep", "-o", "[[:digit:]]\\+", "num.txt"}, files: grepFiles1, out: `1
22
333
`},
		{args: []string{"grep", "-F", "x=1", "num.txt"}, files: grepFiles1, out: "x=1\n"},
		{args: []string{"grep", "-F", ".", "num.txt"}, files: grepFiles1, out: "", status: 1},
		{args: []string{"grep", "-Fx", "abc", "num.txt"}, files: grepFiles1, out: "abc\n"},
		{args: []string{"fgrep", "[", "num.txt"}, files: grepFiles1, out: "", status: 1},
		{args: []string{"egrep", "y|z", "num.txt"}, files: grepFiles1, out: `y=22
z=333
`},
		{args: []string{"egrep", "(", "num.txt"}, files: grepFiles1, out: "", err: "grep: Unmatched ( or \\(\n", status: 2},
		{args: []string{"fgrep", "-E", "x", "num.txt"}, files: grepFiles1, out: "", err: "grep: conflicting matchers specified\n", status: 2},
		{args: []string{"grep", "-f", "pats", "a.txt"}, files: grepFiles1, out: `bar
foo bar
`},
		{args: []string{"grep", "-f", "nosuch", "a.txt"}, files: grepFiles1, out: "", err: "grep: nosuch: No such file or directory\n", status: 2},
		{args: []string{"grep", "-E", "(", "a.txt"}, files: grepFiles1, out: "", err: "grep: Unmatched ( or \\(\n", status: 2},
		{args: []string{"grep", "\\(", "a.txt"}, files: grepFiles1, out: "", err: "grep: Unmatched ( or \\(\n", status: 2},
		{args: []string{"grep", "[[:foo:]]", "a.txt"}, files: grepFiles1, out: "", err: "grep: Invalid character class name\n", status: 2},
		{args: []string{"grep", "-P", "\\d+", "num.txt"}, files: grepFiles1, out: `x=1
y=22
z=333
`},
		{args: []string{"grep", "-oP", "\\w+(?:=)\\d", "num.txt"}, files: grepFiles1, out: `x=1
y=2
z=3
`},
		{args: []string{"grep", "-h", "foo", "a.txt", "ctx"}, files: grepFiles1, out: `foo
foo bar
foo
foo
foo
`},
		{args: []string{"grep", "-n", "foo"}, files: grepFiles1, stdin: `a
foo
`, out: "2:foo\n"},
		{args: []string{"grep", "-c", "foo", "a.txt", "ctx"}, files: grepFiles1, out: `a.txt:2
ctx:3
`},
		{args: []string{"grep", "-z", "b"}, files: grepFiles1, stdin: "a\nb\x00c\x00b", out: "a\nb\x00b\x00"},
		{args: []string{"grep", "--color=never", "foo", "a.txt"}, files: grepFiles1, out: `foo
foo bar
`},
		{args: []string{"grep", "-THnb", "foo", "a.txt"}, files: grepFiles1, out: `a.txt: 1: 0:	foo
a.txt: 3: 8:	foo bar
`},
		{args: []string{"grep", "-Tn", "foo", "ctx"}, files: grepFiles1, out: ` 2:	foo
 6:	foo
11:	foo
`},
		{args: []string{"grep", "-TH", "foo", "a.txt"}, files: grepFiles1, out: `a.txt:	foo
a.txt:	foo bar
`},
		{args: []string{"grep", "-T", "foo", "a.txt"}, files: grepFiles1, out: `foo
foo bar
`},
		{args: []string{"grep", "-Tc", "foo", "a.txt", "ctx"}, files: grepFiles1, out: `a.txt:2
ctx:3
`},
		{args: []string{"grep", "-T", "-C1", "-n", "foo", "ctx"}, files: grepFiles1, out: ` 1-	a
 2:	foo
 3-	b
--
 5-	d
 6:	foo
 7-	e
--
10-	h
11:	foo
`},
		{args: []string{"grep", "--color=always", "-n", "foo", "a.txt", "ctx"}, files: grepFiles1, out: "\x1b[35m\x1b[Ka.txt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K1\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n\x1b[35m\x1b[Ka.txt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K bar\n\x1b[35m\x1b[Kctx\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K2\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n\x1b[35m\x1b[Kctx\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K6\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n\x1b[35m\x1b[Kctx\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K11\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n"},
		{args: []string{"grep", "--color=always", "-v", "-A1", "bar", "a.txt"}, files: grepFiles1, out: "foo\n\x1b[01;31m\x1b[Kbar\x1b[m\x1b[K\n"},
		{args: []string{"grep", "--color=always", "-c", "foo", "a.txt", "ctx"}, files: grepFiles1, out: "\x1b[35m\x1b[Ka.txt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K2\n\x1b[35m\x1b[Kctx\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K3\n"},
		{args: []string{"grep", "--color=always", "-l", "foo", "a.txt"}, files: grepFiles1, out: "\x1b[35m\x1b[Ka.txt\x1b[m\x1b[K\n"},
		{args: []string{"grep", "--color=always", "-C1", "-o", "foo", "ctx"}, files: grepFiles1, out: "\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n\x1b[36m\x1b[K--\x1b[m\x1b[K\n\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n\x1b[36m\x1b[K--\x1b[m\x1b[K\n\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K\n"},
		{args: []string{"grep", "--color=always", "-bH", "-e", "o", "-e", "ba"}, files: grepFiles1, stdin: "foo bar\n", out: "\x1b[35m\x1b[K(standard input)\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K0\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[Kf\x1b[01;31m\x1b[Ko\x1b[m\x1b[K\x1b[01;31m\x1b[Ko\x1b[m\x1b[K \x1b[01;31m\x1b[Kba\x1b[m\x1b[Kr\n"},
		{args: []string{"grep", "--colour=always", "-w", "cat", "w.txt"}, files: grepFiles1, out: "the \x1b[01;31m\x1b[Kcat\x1b[m\x1b[K\n\x1b[01;31m\x1b[Kcat\x1b[m\x1b[K\n"},
		{args: []string{"grep", "--colour=auto", "foo", "a.txt"}, files: grepFiles1, out: `foo
foo bar
`},
		{args: []string{"grep", "-E", "^(foo|bar)$", "a.txt"}, files: grepFiles1, out: `foo
bar
`},
		{args: []string{"grep", "-v", ""}, files: grepFiles1, stdin: "a\n", out: "", status: 1},
		{args: []string{"grep", "-vc", "x"}, files: grepFiles1, stdin: "a\nb", out: "2\n"},
		{args: []string{"grep", "b"}, files: grepFiles1, stdin: "a\nb", out: "b\n"},
		{args: []string{"grep", "-n", "-A1", "foo", "a.txt"}, files: grepFiles1, out: `1:foo
2-bar
3:foo bar
`},
		{args: []string{"grep", "-c", "-A1", "foo", "a.txt"}, files: grepFiles1, out: "2\n"},
		{args: []string{"grep", "--binary-files=text", "foo", "bin.dat"}, files: grepFiles1, out: "x\x00foo\n"},
		{args: []string{"grep", "-I", "foo", "bin.dat", "a.txt"}, files: grepFiles1, out: `a.txt:foo
a.txt:foo bar
`},
		{args: []string{"grep", "-e"}, files: grepFiles1, out: "", err: `grep: option requires an argument -- 'e'
Usage: grep [OPTION]... PATTERNS [FILE]...
Try 'grep --help' for more information.
`, status: 2},
		{args: []string{"grep", "--bogus"}, files: grepFiles1, out: "", err: `grep: unrecognized option '--bogus'
Usage: grep [OPTION]... PATTERNS [FILE]...
Try 'grep --help' for more information.
`, status: 2},
		{args: []string{"grep", "-j", "x"}, files: grepFiles1, out: "", err: `grep: invalid option -- 'j'
Usage: grep [OPTION]... PATTERNS [FILE]...
Try 'grep --help' for more information.
`, status: 2},
		{args: []string{"grep", "--contex=1", "e", "ctx"}, files: grepFiles1, out: `foo
e
f
`},
		{args: []string{"grep", "-ov", "foo", "a.txt"}, files: grepFiles1, out: ""},
		{args: []string{"grep", "-lv", "foo", "a.txt"}, files: grepFiles1, out: "a.txt\n"},
		{args: []string{"grep", "-ho", "o.", "a.txt", "ctx"}, files: grepFiles1, out: `oo
oo
oo
oo
oo
`},
		{args: []string{"grep", "-wc", "bar", "w.txt", "a.txt"}, files: grepFiles1, out: `w.txt:0
a.txt:2
`},
		{args: []string{"grep", "-in", "h.llo$", "up.txt"}, files: grepFiles1, out: `1:Hello
3:hello
`},
		{args: []string{"grep", "-e", "a", "-f", "pats", "-c", "a.txt"}, files: grepFiles1, out: "2\n"},
		{args: []string{"grep", "-d", "skip", "foo", "d", "a.txt"}, files: grepFiles1, out: `a.txt:foo
a.txt:foo bar
`},
		{args: []string{"grep", ".*", "a.txt", "-o", "-b"}, files: grepFiles1, out: `0:foo
4:bar
8:foo bar
`},
	})
}
