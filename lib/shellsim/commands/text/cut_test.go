package text

import "testing"

// Fixtures shared by several cases below.
var cutFiles1 = map[string]string{"c": `a:b:c
abc
one	two	three
:x:
`, "d/": "", "u": `a
a
b
A
a
c
c
`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestCut(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"cut"}, files: cutFiles1, out: "", err: `cut: you must specify a list of bytes, characters, or fields
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-f"}, files: cutFiles1, out: "", err: `cut: option requires an argument -- 'f'
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-b", "1", "-f", "2"}, files: cutFiles1, out: "", err: `cut: only one list may be specified
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-d", "ab", "-f1"}, files: cutFiles1, out: "", err: `cut: the delimiter must be a single character
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-f", "x"}, files: cutFiles1, out: "", err: `cut: invalid field value 'x'
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-f", "0"}, files: cutFiles1, out: "", err: `cut: fields are numbered from 1
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-c", "0"}, files: cutFiles1, out: "", err: `cut: byte/character positions are numbered from 1
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-f", "3-1"}, files: cutFiles1, out: "", err: `cut: invalid decreasing range
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-f", "-"}, files: cutFiles1, out: "", err: `cut: invalid range with no endpoint: -
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-c", "2", "-d:"}, files: cutFiles1, out: "", err: `cut: an input delimiter may be specified only when operating on fields
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-c", "2", "-s"}, files: cutFiles1, out: "", err: `cut: suppressing non-delimited lines makes sense
	only when operating on fields
Try 'cut --help' for more information.
`, status: 1},
		{args: []string{"cut", "-d:", "-f", "2-", "c"}, files: cutFiles1, out: `b:c
abc
one	two	three
x:
`},
		{args: []string{"cut", "-d:", "-f", "-2", "--output-delimiter=XY", "c"}, files: cutFiles1, out: `aXYb
abc
one	two	three
XYx
`},
		{args: []string{"cut", "-s", "-d:", "-f2", "c"}, files: cutFiles1, out: `b
x
`},
		{args: []string{"cut", "-c", "2,4-5", "--complement", "c"}, files: cutFiles1, out: `ab
ac
oewo	three
::
`},
		{args: []string{"cut", "-f", "2", "c"}, files: cutFiles1, out: `a:b:c
abc
two
:x:
`},
		{args: []string{"cut", "-f", "2,3", "c"}, files: cutFiles1, out: `a:b:c
abc
two	three
:x:
`},
		{args: []string{"cut", "-b", "5-,1-2", "c"}, files: cutFiles1, out: `a:c
ab
ontwo	three
:x
`},
		{args: []string{"cut", "-c", "1-2,4-", "--output-delimiter=|", "c"}, files: cutFiles1, out: `a:|:c
ab
on|	two	three
:x
`},
		{args: []string{"cut", "-d:", "-f1"}, files: cutFiles1, stdin: "a:b\nc", out: `a
c
`},
		{args: []string{"cut", "-f1,1", "-d", "b"}, files: cutFiles1, stdin: "abc\n", out: "a\n"},
		{args: []string{"cut", "-f", "1", "nosuch", "c"}, files: cutFiles1, out: `a:b:c
abc
one
:x:
`, err: "cut: nosuch: No such file or directory\n", status: 1},
		{args: []string{"cut", "-d", " ", "-f", "2,4"}, files: cutFiles1, stdin: "a b c d e\n", out: "b d\n"},
		{args: []string{"cut", "-d", " ", "-f", "3-", "--complement"}, files: cutFiles1, stdin: "a b c d e\n", out: "a b\n"},
		{args: []string{"cut", "-z", "-d:", "-f2"}, files: cutFiles1, stdin: "a:b\x00c:d\x00", out: "b\x00d\x00"},
		{args: []string{"cut", "-f2", "-d", ""}, files: cutFiles1, stdin: "a\x00b\n", out: "b\n"},
		{args: []string{"cut", "-c-3"}, files: cutFiles1, stdin: "abcdef\n", out: "abc\n"},
	})
}
