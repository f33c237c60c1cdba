package text

import "testing"

// Fixtures shared by several cases below.
var revFiles1 = map[string]string{"c1": `a
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

// Goldens recorded from util-linux rev on the build host.
func TestRev(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"rev"}, files: revFiles1, stdin: `abc
de

f`, out: `cba
ed

f`},
		{args: []string{"rev", "p1", "p2"}, files: revFiles1, out: `1
2
3
a
b
`},
		{args: []string{"rev", "nosuch", "p2"}, files: revFiles1, out: `a
b
`, err: "rev: cannot open nosuch: No such file or directory\n", status: 1},
		{args: []string{"rev"}, files: revFiles1, stdin: "h\xc3\xa9llo\n", env: map[string]string{"LC_ALL": "C.UTF-8"}, out: "oll\xc3\xa9h\n"},
	})
}
