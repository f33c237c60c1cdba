package text

import "testing"

// Fixtures shared by several cases below.
var headFiles1 = map[string]string{"d/": "", "f3": "y\n", "n12": `1
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
func TestHead(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"head"}, files: headFiles1, stdin: `1
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
13
14
15
16
17
18
19
`, out: `1
2
3
4
5
6
7
8
9
10
`},
		{args: []string{"head", "-n", "3", "n5"}, out: "", err: "head: cannot open 'n5' for reading: No such file or directory\n", status: 1},
		{args: []string{"head", "-n", "3", "n5"}, files: headFiles1, out: `1
2
3
`},
		{args: []string{"head", "-n", "-2", "n5", "f3"}, files: headFiles1, out: `==> n5 <==
1
2
3

==> f3 <==
`},
		{args: []string{"head", "-n", "-2", "n12"}, files: headFiles1, out: `1
2
3
4
5
6
7
8
9
10
`},
		{args: []string{"head", "-c", "2K", "n5"}, files: headFiles1, out: `1
2
3
4
5`},
		{args: []string{"head", "-c", "3", "n5"}, files: headFiles1, out: "1\n2"},
		{args: []string{"head", "-c", "-3", "n5"}, files: headFiles1, out: `1
2
3
`},
		{args: []string{"head", "-3", "n12"}, files: headFiles1, out: `1
2
3
`},
		{args: []string{"head", "-2c", "n12"}, files: headFiles1, out: "1\n"},
		{args: []string{"head", "-n", "x", "n5"}, files: headFiles1, out: "", err: "head: invalid number of lines: 'x'\n", status: 1},
		{args: []string{"head", "-c", "-x", "n5"}, files: headFiles1, out: "", err: "head: invalid number of bytes: 'x'\n", status: 1},
		{args: []string{"head", "-n", "99999999999999999999", "n5"}, files: headFiles1, out: "", err: "head: invalid number of lines: '99999999999999999999': Value too large for defined data type\n", status: 1},
		{args: []string{"head", "-n", "1g", "n5"}, files: headFiles1, out: "", err: "head: invalid number of lines: '1g'\n", status: 1},
		{args: []string{"head", "-n", "1m", "n5"}, files: headFiles1, out: `1
2
3
4
5`},
		{args: []string{"head", "d", "nosuch", "f3"}, files: headFiles1, out: `==> d <==

==> f3 <==
y
`, err: `head: error reading 'd': Is a directory
head: cannot open 'nosuch' for reading: No such file or directory
`, status: 1},
		{args: []string{"head", "-v", "n5", "-n1"}, files: headFiles1, out: `==> n5 <==
1
`},
		{args: []string{"head", "-q", "n5", "f3", "-n1"}, files: headFiles1, out: `1
y
`},
		{args: []string{"head", "-n", "+2", "n5"}, files: headFiles1, out: `1
2
`},
		{args: []string{"head", "--lines=2", "n12", "-"}, files: headFiles1, stdin: `s1
s2
s3
`, out: `==> n12 <==
1
2

==> standard input <==
s1
s2
`},
		{args: []string{"head", "-z", "-n", "1"}, files: headFiles1, stdin: "a\x00b\x00", out: "a\x00"},
		{args: []string{"head", "-n"}, files: headFiles1, out: "", err: `head: option requires an argument -- 'n'
Try 'head --help' for more information.
`, status: 1},
		{args: []string{"head", "--li"}, files: headFiles1, out: "", err: `head: option '--lines' requires an argument
Try 'head --help' for more information.
`, status: 1},
		{args: []string{"head", "-n", "0", "n5"}, files: headFiles1, out: ""},
	})
}
