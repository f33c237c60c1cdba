package text

import "testing"

// Fixtures shared by several cases below.
var tacFiles1 = map[string]string{"d/": "", "f3": "y\n", "n12": `1
2
3
4
5
6
7
8
9
10
11
12
`, "n5": `1
2
3
4
5`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestTac(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"tac"}, stdin: `a
b
c`, out: `cb
a
`},
		{args: []string{"tac"}, stdin: `a
b
c
`, out: `c
b
a
`},
		{args: []string{"tac", "-s", ","}, stdin: "a,b,c,", out: "c,b,a,"},
		{args: []string{"tac", "-b", "-s", ","}, stdin: "a,b,c", out: ",c,ba"},
		{args: []string{"tac", "-b"}, stdin: "a\nb", out: "\nba"},
		{args: []string{"tac", "-r", "-s", "x[0-9]"}, stdin: "ax1bx2c\n", out: "c\nbx2ax1"},
		{args: []string{"tac", "nosuch", "f3"}, files: tacFiles1, out: "y\n", err: "tac: failed to open 'nosuch' for reading: No such file or directory\n", status: 1},
		{args: []string{"tac", "n5", "f3"}, files: tacFiles1, out: `54
3
2
1
y
`},
	})
}
