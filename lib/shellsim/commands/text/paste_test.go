package text

import "testing"

// Fixtures shared by several cases below.
var pasteFiles1 = map[string]string{"c1": `a
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
func TestPaste(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"paste", "p1", "p2"}, files: pasteFiles1, out: `1	a
2	b
3	
`},
		{args: []string{"paste", "-d,", "p1", "p2"}, files: pasteFiles1, out: `1,a
2,b
3,
`},
		{args: []string{"paste", "-s", "p1", "p2"}, files: pasteFiles1, out: `1	2	3
a	b
`},
		{args: []string{"paste", "-sd,", "p1"}, files: pasteFiles1, out: "1,2,3\n"},
		{args: []string{"paste", "-d", ",;", "p1", "p2", "p1"}, files: pasteFiles1, out: `1,a;1
2,b;2
3,;3
`},
		{args: []string{"paste", "-", "-"}, files: pasteFiles1, stdin: `1
2
3
`, out: `1	2
3	
`},
		{args: []string{"paste", "-d", "\\n", "p1", "p2"}, files: pasteFiles1, out: `1
a
2
b
3

`},
		{args: []string{"paste", "-d", "", "p1", "p2"}, files: pasteFiles1, out: `1a
2b
3
`},
		{args: []string{"paste", "nosuch"}, files: pasteFiles1, out: "", err: "paste: nosuch: No such file or directory\n", status: 1},
		{args: []string{"paste", "-", "p2"}, files: pasteFiles1, stdin: "x", out: `x	a
	b
`},
		{args: []string{"paste", "-s", "-d", "\\0", "p1"}, files: pasteFiles1, out: "123\n"},
		{args: []string{"paste", "-s"}, files: pasteFiles1, out: "\n"},
		{args: []string{"paste", "-d", "a\\"}, files: pasteFiles1, out: "", err: "paste: delimiter list ends with an unescaped backslash: a\\\n", status: 1},
		{args: []string{"paste", "-z", "-"}, files: pasteFiles1, stdin: "a\x00b\x00", out: "a\x00b\x00"},
		{args: []string{"paste", "-s", "-d", "\\t,", "p1"}, files: pasteFiles1, out: "1\t2,3\n"},
	})
}
