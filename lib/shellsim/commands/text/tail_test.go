package text

import "testing"

// Fixtures shared by several cases below.
var tailFiles1 = map[string]string{"d/": "", "f3": "y\n", "n12": `1
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
func TestTail(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"tail"}, files: tailFiles1, stdin: `1
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
`, out: `10
11
12
13
14
15
16
17
18
19
`},
		{args: []string{"tail", "n12"}, files: tailFiles1, out: `3
4
5
6
7
8
9
10
11
12
`},
		{args: []string{"tail", "-n", "+4", "n5"}, files: tailFiles1, out: "4\n5"},
		{args: []string{"tail", "-n", "2", "n5"}, files: tailFiles1, out: "4\n5"},
		{args: []string{"tail", "-c", "3", "n5"}, files: tailFiles1, out: "4\n5"},
		{args: []string{"tail", "-c", "+2", "n5"}, files: tailFiles1, out: `
2
3
4
5`},
		{args: []string{"tail", "-3", "n5"}, files: tailFiles1, out: `3
4
5`},
		{args: []string{"tail", "+3", "n5"}, files: tailFiles1, out: `3
4
5`},
		{args: []string{"tail", "-n", "1x", "n5"}, files: tailFiles1, out: "", err: "tail: invalid number of lines: '1x'\n", status: 1},
		{args: []string{"tail", "-n", "+0", "n5"}, files: tailFiles1, out: `1
2
3
4
5`},
		{args: []string{"tail", "-z", "-n", "1"}, files: tailFiles1, stdin: "a\x00b\x00c", out: "c"},
		{args: []string{"tail", "-n", "99999999999999999999", "n5"}, files: tailFiles1, out: "", err: "tail: invalid number of lines: '99999999999999999999': Value too large for defined data type\n", status: 1},
		{args: []string{"tail", "-n", "+1", "n5", "f3"}, files: tailFiles1, out: `==> n5 <==
1
2
3
4
5
==> f3 <==
y
`},
		{args: []string{"tail", "-v", "-c", "1", "-"}, files: tailFiles1, stdin: "xyz", out: "==> standard input <==\nz"},
		{args: []string{"tail", "d", "nosuch"}, files: tailFiles1, out: "==> d <==\n", err: `tail: error reading 'd': Is a directory
tail: cannot open 'nosuch' for reading: No such file or directory
`, status: 1},
		{args: []string{"tail", "-n", "0", "n5"}, files: tailFiles1, out: ""},
		{args: []string{"tail", "-q", "-n1", "n5", "n12"}, files: tailFiles1, out: "512\n"},
		{args: []string{"tail", "-c", "0", "n5"}, files: tailFiles1, out: ""},
		{args: []string{"tail", "-n", "20", "n5"}, files: tailFiles1, out: `1
2
3
4
5`},
		{args: []string{"tail", "-c", "100", "n5"}, files: tailFiles1, out: `1
2
3
4
5`},
		{args: []string{"tail", "-n", "-2", "n12"}, files: tailFiles1, out: `11
12
`},
	})
}
