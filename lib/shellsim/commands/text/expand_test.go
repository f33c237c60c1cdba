package text

import "testing"

// Fixtures shared by several cases below.
var expandFiles1 = map[string]string{"c1": `a
b
d
`, "c2": `b
c
d
e
`, "c3": `b
a
`, "d/": "", "nl1": `a

b


c
`, "p1": `1
2
3
`, "p2": `a
b
`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestExpand(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"expand"}, files: expandFiles1, stdin: "a\tb\tc\n", out: "a       b       c\n"},
		{args: []string{"expand", "-t", "4"}, files: expandFiles1, stdin: "a\tb\tc\n", out: "a   b   c\n"},
		{args: []string{"expand", "-t", "2,5"}, files: expandFiles1, stdin: "a\tb\tc\n", out: "a b  c\n"},
		{args: []string{"expand", "-i", "-t4"}, files: expandFiles1, stdin: "\ta\tb\n", out: "    a\tb\n"},
		{args: []string{"expand", "-t", "0"}, files: expandFiles1, out: "", err: "expand: tab size cannot be 0\n", status: 1},
		{args: []string{"expand", "-t", "3,2"}, files: expandFiles1, out: "", err: "expand: tab sizes must be ascending\n", status: 1},
		{args: []string{"expand", "-t", "2,+3"}, files: expandFiles1, stdin: "ab\tc\n", out: "ab   c\n"},
		{args: []string{"expand", "-t", "2,/3"}, files: expandFiles1, stdin: "ab\tc\td\n", out: "ab c  d\n"},
		{args: []string{"expand"}, files: expandFiles1, stdin: "a\x08b\tc\n", out: "a\x08b       c\n"},
		{args: []string{"expand", "-3"}, files: expandFiles1, stdin: "a\tb\n", out: "a  b\n"},
		{args: []string{"expand", "-t", "x"}, files: expandFiles1, out: "", err: "expand: tab size contains invalid character(s): 'x'\n", status: 1},
		{args: []string{"expand", "-t", "2", "-t", "4"}, files: expandFiles1, stdin: "\t\t\tx\n", out: "     x\n"},
		{args: []string{"expand", "-t", "1 3"}, files: expandFiles1, stdin: "\t\t\tx\n", out: "    x\n"},
		{args: []string{"expand", "nosuch"}, files: expandFiles1, out: "", err: "expand: nosuch: No such file or directory\n", status: 1},
	})
}
