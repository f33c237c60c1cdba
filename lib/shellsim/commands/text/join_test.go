package text

import "testing"

// Fixtures shared by several cases below.
var joinFiles1 = map[string]string{"e1": `a,,1
b,x,
`, "e2": `a,q
b,r
`, "h1": `ID V
a 1
`, "h2": `ID W
a 2
`, "j1": `a 1
b 2
c 3
`, "j2": `a x
c y
d z
`, "j3": `a,1,p
b,2,q
`, "j4": `a,X
b,Y
`, "j5": `b 1
a 2
`, "j6": "A 1\n", "j7": "a 1 2\n", "m1": `k 1
k 2
m 3
`, "m2": `k a
k b
z c
`, "u1": `a 1
c 2
b 3
`, "u2": `a x
b y
c z
`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestJoin(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"join", "j1", "j2"}, files: joinFiles1, out: `a 1 x
c 3 y
`},
		{args: []string{"join", "-a1", "j1", "j2"}, files: joinFiles1, out: `a 1 x
b 2
c 3 y
`},
		{args: []string{"join", "-a1", "-a2", "j1", "j2"}, files: joinFiles1, out: `a 1 x
b 2
c 3 y
d z
`},
		{args: []string{"join", "-v1", "j1", "j2"}, files: joinFiles1, out: "b 2\n"},
		{args: []string{"join", "-v2", "j1", "j2"}, files: joinFiles1, out: "d z\n"},
		{args: []string{"join", "-o", "1.2,2.2", "j1", "j2"}, files: joinFiles1, out: `1 x
3 y
`},
		{args: []string{"join", "-a2", "-e", "NA", "-o", "0,1.2,2.2", "j1", "j2"}, files: joinFiles1, out: `a 1 x
c 3 y
d NA z
`},
		{args: []string{"join", "-o", "auto", "-a1", "-e", "-", "j1", "j2"}, files: joinFiles1, out: `a 1 x
b 2 -
c 3 y
`},
		{args: []string{"join", "-t,", "j3", "j4"}, files: joinFiles1, out: `a,1,p,X
b,2,q,Y
`},
		{args: []string{"join", "-t,", "-1", "2", "-2", "1", "j3", "j4"}, files: joinFiles1, out: ""},
		{args: []string{"join", "j5", "j2"}, files: joinFiles1, out: "", err: `join: j5:2: is not sorted: a 2
join: input is not in sorted order
`, status: 1},
		{args: []string{"join", "--nocheck-order", "j5", "j2"}, files: joinFiles1, out: ""},
		{args: []string{"join", "--check-order", "j5", "j2"}, files: joinFiles1, out: "", err: "join: j5:2: is not sorted: a 2\n", status: 1},
		{args: []string{"join", "j1"}, files: joinFiles1, out: "", err: `join: missing operand after 'j1'
Try 'join --help' for more information.
`, status: 1},
		{args: []string{"join", "-1", "0", "j1", "j2"}, files: joinFiles1, out: "", err: "join: invalid field number: '0'\n", status: 1},
		{args: []string{"join", "-o", "3.1", "j1", "j2"}, files: joinFiles1, out: "", err: "join: invalid file number in field spec: '3.1'\n", status: 1},
		{args: []string{"join", "-i", "j6", "j2"}, files: joinFiles1, out: "A 1 x\n"},
		{args: []string{"join", "--header", "h1", "h2"}, files: joinFiles1, out: `ID V W
a 1 2
`},
		{args: []string{"join", "j7", "j2"}, files: joinFiles1, out: "a 1 2 x\n"},
		{args: []string{"join", "-j", "1", "j1", "j2"}, files: joinFiles1, out: `a 1 x
c 3 y
`},
		{args: []string{"join", "-1", "2", "-2", "2", "j1", "j1"}, files: joinFiles1, out: `1 a a
2 b b
3 c c
`},
		{args: []string{"join", "m1", "m2"}, files: joinFiles1, out: `k 1 a
k 1 b
k 2 a
k 2 b
`},
		{args: []string{"join", "-a1", "-a2", "m1", "m2"}, files: joinFiles1, out: `k 1 a
k 1 b
k 2 a
k 2 b
m 3
z c
`},
		{args: []string{"join", "-t,", "e1", "e2"}, files: joinFiles1, out: `a,,1,q
b,x,,r
`},
		{args: []string{"join", "-t,", "-o", "1.2,1.3,2.2", "-e", "E", "e1", "e2"}, files: joinFiles1, out: `E,1,q
x,E,r
`},
		{args: []string{"join", "u1", "u2"}, files: joinFiles1, out: `a 1 x
c 2 z
`, err: `join: u1:3: is not sorted: b 3
join: input is not in sorted order
`, status: 1},
		{args: []string{"join", "-a1", "u1", "u2"}, files: joinFiles1, out: `a 1 x
c 2 z
b 3
`, err: `join: u1:3: is not sorted: b 3
join: input is not in sorted order
`, status: 1},
		{args: []string{"join", "-", "j2"}, files: joinFiles1, stdin: `a 9
d 8
`, out: `a 9 x
d 8 z
`},
		{args: []string{"join", "nosuch", "j2"}, files: joinFiles1, out: "", err: "join: nosuch: No such file or directory\n", status: 1},
		{args: []string{"join", "-t", "ab", "j1", "j2"}, files: joinFiles1, out: "", err: "join: multi-character tab 'ab'\n", status: 1},
		{args: []string{"join", "-a", "3", "j1", "j2"}, files: joinFiles1, out: "", err: "join: invalid field number: '3'\n", status: 1},
		{args: []string{"join", "j1", "j2", "j3"}, files: joinFiles1, out: "", err: `join: extra operand 'j3'
Try 'join --help' for more information.
`, status: 1},
		{args: []string{"join", "-t,", "-e", "E", "e1", "e2"}, files: joinFiles1, out: `a,E,1,q
b,x,E,r
`},
	})
}
