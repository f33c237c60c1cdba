package text

import "testing"

// Fixtures shared by several cases below.
var catFiles1 = map[string]string{"d/": "", "f1": "a\n\n\n\tb\x01\x80\xff\n", "f2": "x", "f3": "y\n"}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestCat(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"cat"}, stdin: `hello
world
`, out: `hello
world
`},
		{args: []string{"cat", "f1", "f2", "f3"}, files: catFiles1, out: "a\n\n\n\tb\x01\x80\xff\nxy\n"},
		{args: []string{"cat", "-A", "f1", "f2", "f3"}, files: catFiles1, out: `a$
$
$
^Ib^AM-^@M-^?$
xy$
`},
		{args: []string{"cat", "-n", "f2", "f3", "f1"}, files: catFiles1, out: "     1\txy\n     2\ta\n     3\t\n     4\t\n     5\t\tb\x01\x80\xff\n"},
		{args: []string{"cat", "-b", "f1"}, files: catFiles1, out: "     1\ta\n\n\n     2\t\tb\x01\x80\xff\n"},
		{args: []string{"cat", "-s", "f1"}, files: catFiles1, out: "a\n\n\tb\x01\x80\xff\n"},
		{args: []string{"cat", "-bs", "f1"}, files: catFiles1, out: "     1\ta\n\n     2\t\tb\x01\x80\xff\n"},
		{args: []string{"cat", "-vt", "f1"}, files: catFiles1, out: `a


^Ib^AM-^@M-^?
`},
		{args: []string{"cat", "-e", "f1"}, files: catFiles1, out: `a$
$
$
	b^AM-^@M-^?$
`},
		{args: []string{"cat", "-T", "f1"}, files: catFiles1, out: "a\n\n\n^Ib\x01\x80\xff\n"},
		{args: []string{"cat", "--number", "-E", "-"}, files: catFiles1, stdin: "a\nb", out: "     1\ta$\n     2\tb"},
		{args: []string{"cat", "f3", "-", "f3"}, files: catFiles1, stdin: "in\n", out: `y
in
y
`},
		{args: []string{"cat", "nosuch", "f3", "d"}, files: catFiles1, out: "y\n", err: `cat: nosuch: No such file or directory
cat: d: Is a directory
`, status: 1},
		{args: []string{"cat", "-x"}, files: catFiles1, out: "", err: `cat: invalid option -- 'x'
Try 'cat --help' for more information.
`, status: 1},
		{args: []string{"cat", "--nonsense"}, files: catFiles1, out: "", err: `cat: unrecognized option '--nonsense'
Try 'cat --help' for more information.
`, status: 1},
		{args: []string{"cat", "-ns", "f1", "f1"}, files: catFiles1, out: "     1\ta\n     2\t\n     3\t\tb\x01\x80\xff\n     4\ta\n     5\t\n     6\t\tb\x01\x80\xff\n"},
	})
}
