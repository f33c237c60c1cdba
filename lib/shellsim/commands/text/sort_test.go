package text

import "testing"

// Fixtures shared by several cases below.
var sortFiles1 = map[string]string{"c": `root:x:0:0
user:x:1000:100
bin:x:2:2
daemon:x:1:1
nobody:x:65534:65534
`, "d/": "", "g": `1e3
-inf
nan
2.5
abc
0x10
100
inf
-5
`, "h": `1K
2M
512
1G
-1K
3k
0.5M
foo
`, "l": `banana
apple
Cherry
  date
apple
10
9
-3
1.5

`, "m": `mar 3
Jan 1
foo 0
DEC 12
feb 2
`, "num": `10
9
-3
1.5
-0
0
abc
 7
1e3
+4
.5
-.5
007
`, "so": `a
b
b
`, "t": `b 2 x
a 10 y
c 1 z
a 2 w
b 2 a
`, "un": `b
a
`, "v": `a-1.10
a-1.9
a-1.1~rc1
a-1.1
file.tar.gz
file2.txt
file10.txt
.hidden
..
.
x
`, "x": `x3
x1
`, "y": `x2
x4
`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestSort(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"sort", "l"}, files: sortFiles1, out: `
  date
-3
1.5
10
9
Cherry
apple
apple
banana
`},
		{args: []string{"sort", "-r", "l"}, files: sortFiles1, out: `banana
apple
apple
Cherry
9
10
1.5
-3
  date

`},
		{args: []string{"sort", "-f", "l"}, files: sortFiles1, out: `
  date
-3
1.5
10
9
apple
apple
banana
Cherry
`},
		{args: []string{"sort", "-u", "l"}, files: sortFiles1, out: `
  date
-3
1.5
10
9
Cherry
apple
banana
`},
		{args: []string{"sort", "-fu", "l"}, files: sortFiles1, out: `
  date
-3
1.5
10
9
apple
banana
Cherry
`},
		{args: []string{"sort", "-b", "l"}, files: sortFiles1, out: `
-3
1.5
10
9
Cherry
apple
apple
banana
  date
`},
		{args: []string{"sort", "-d", "l"}, files: sortFiles1, out: `
  date
10
1.5
-3
9
Cherry
apple
apple
banana
`},
		{args: []string{"sort", "-n", "l"}, files: sortFiles1, out: `-3

  date
Cherry
apple
apple
banana
1.5
9
10
`},
		{args: []string{"sort", "-rn", "l"}, files: sortFiles1, out: `10
9
1.5
banana
apple
apple
Cherry
  date

-3
`},
		{args: []string{"sort", "-i", "l"}, files: sortFiles1, out: `
  date
-3
1.5
10
9
Cherry
apple
apple
banana
`},
		{args: []string{"sort", "-s", "-f", "l"}, files: sortFiles1, out: `
  date
-3
1.5
10
9
apple
apple
banana
Cherry
`},
		{args: []string{"sort", "-n", "num"}, files: sortFiles1, out: `-3
-.5
+4
-0
0
abc
.5
1e3
1.5
 7
007
9
10
`},
		{args: []string{"sort", "-g", "num"}, files: sortFiles1, out: `abc
-3
-.5
-0
0
.5
1.5
+4
 7
007
9
10
1e3
`},
		{args: []string{"sort", "-h", "num"}, files: sortFiles1, out: `-3
-.5
+4
-0
0
abc
.5
1e3
1.5
 7
007
9
10
`},
		{args: []string{"sort", "-nu", "num"}, files: sortFiles1, out: `-3
-.5
-0
.5
1e3
1.5
 7
9
10
`},
		{args: []string{"sort", "-nr", "num"}, files: sortFiles1, out: `10
9
007
 7
1.5
1e3
.5
abc
0
-0
+4
-.5
-3
`},
		{args: []string{"sort", "-k1n", "num"}, files: sortFiles1, out: `-3
-.5
+4
-0
0
abc
.5
1e3
1.5
 7
007
9
10
`},
		{args: []string{"sort", "-h", "h"}, files: sortFiles1, out: `-1K
foo
512
1K
3k
0.5M
2M
1G
`},
		{args: []string{"sort", "-hr", "h"}, files: sortFiles1, out: `1G
2M
0.5M
3k
1K
512
foo
-1K
`},
		{args: []string{"sort", "-V", "v"}, files: sortFiles1, out: `.
..
.hidden
a-1.1~rc1
a-1.1
a-1.9
a-1.10
file.tar.gz
file2.txt
file10.txt
x
`},
		{args: []string{"sort", "-rV", "v"}, files: sortFiles1, out: `x
file10.txt
file2.txt
file.tar.gz
a-1.10
a-1.9
a-1.1
a-1.1~rc1
.hidden
..
.
`},
		{args: []string{"sort", "-k2n", "t"}, files: sortFiles1, out: `c 1 z
a 2 w
b 2 a
b 2 x
a 10 y
`},
		{args: []string{"sort", "-k2,2n", "t"}, files: sortFiles1, out: `c 1 z
a 2 w
b 2 a
b 2 x
a 10 y
`},
		{args: []string{"sort", "-k2,2n", "-k3", "t"}, files: sortFiles1, out: `c 1 z
b 2 a
a 2 w
b 2 x
a 10 y
`},
		{args: []string{"sort", "-k1,1", "-k2n", "t"}, files: sortFiles1, out: `a 2 w
a 10 y
b 2 a
b 2 x
c 1 z
`},
		{args: []string{"sort", "-k1,1", "-u", "t"}, files: sortFiles1, out: `a 10 y
b 2 x
c 1 z
`},
		{args: []string{"sort", "-k2,2n", "-s", "t"}, files: sortFiles1, out: `c 1 z
b 2 x
a 2 w
b 2 a
a 10 y
`},
		{args: []string{"sort", "-k2nr", "-k1", "t"}, files: sortFiles1, out: `a 10 y
a 2 w
b 2 a
b 2 x
c 1 z
`},
		{args: []string{"sort", "-k1.2", "t"}, files: sortFiles1, out: `c 1 z
a 10 y
b 2 a
a 2 w
b 2 x
`},
		{args: []string{"sort", "-k3,3", "-r", "t"}, files: sortFiles1, out: `c 1 z
a 10 y
b 2 x
a 2 w
b 2 a
`},
		{args: []string{"sort", "-k2,2n", "-u", "t"}, files: sortFiles1, out: `c 1 z
b 2 x
a 10 y
`},
		{args: []string{"sort", "-t", " ", "-k2,2", "t"}, files: sortFiles1, out: `c 1 z
a 10 y
a 2 w
b 2 a
b 2 x
`},
		{args: []string{"sort", "-k", "2b,2", "t"}, files: sortFiles1, out: `c 1 z
a 10 y
a 2 w
b 2 a
b 2 x
`},
		{args: []string{"sort", "-k2.1,2.1", "t"}, files: sortFiles1, out: `a 10 y
a 2 w
b 2 a
b 2 x
c 1 z
`},
		{args: []string{"sort", "-t:", "-k3,3n", "c"}, files: sortFiles1, out: `root:x:0:0
daemon:x:1:1
bin:x:2:2
user:x:1000:100
nobody:x:65534:65534
`},
		{args: []string{"sort", "-t:", "-k3n", "-r", "c"}, files: sortFiles1, out: `root:x:0:0
daemon:x:1:1
bin:x:2:2
user:x:1000:100
nobody:x:65534:65534
`},
		{args: []string{"sort", "-t", ":", "-k1,1", "c"}, files: sortFiles1, out: `bin:x:2:2
daemon:x:1:1
nobody:x:65534:65534
root:x:0:0
user:x:1000:100
`},
		{args: []string{"sort", "-t:", "-k2", "c"}, files: sortFiles1, out: `root:x:0:0
user:x:1000:100
daemon:x:1:1
bin:x:2:2
nobody:x:65534:65534
`},
		{args: []string{"sort", "-t:", "-k4,4nr", "-k1,1", "c"}, files: sortFiles1, out: `nobody:x:65534:65534
user:x:1000:100
bin:x:2:2
daemon:x:1:1
root:x:0:0
`},
		{args: []string{"sort", "-t:", "-k3.2,3.3", "c"}, files: sortFiles1, out: `user:x:1000:100
nobody:x:65534:65534
root:x:0:0
daemon:x:1:1
bin:x:2:2
`},
		{args: []string{"sort", "-M", "m"}, files: sortFiles1, out: `foo 0
Jan 1
feb 2
mar 3
DEC 12
`},
		{args: []string{"sort", "-g", "g"}, files: sortFiles1, out: `abc
nan
-inf
-5
2.5
0x10
100
1e3
inf
`},
		{args: []string{"sort", "-c", "un"}, files: sortFiles1, out: "", err: "sort: un:2: disorder: a\n", status: 1},
		{args: []string{"sort", "-C", "un"}, files: sortFiles1, out: "", status: 1},
		{args: []string{"sort", "-c", "so"}, files: sortFiles1, out: ""},
		{args: []string{"sort", "-cu", "so"}, files: sortFiles1, out: "", err: "sort: so:3: disorder: b\n", status: 1},
		{args: []string{"sort", "-c", "-", "un"}, files: sortFiles1, stdin: "a\n", out: "", err: "sort: extra operand 'un' not allowed with -c\n", status: 2},
		{args: []string{"sort", "nosuch"}, files: sortFiles1, out: "", err: "sort: cannot read: nosuch: No such file or directory\n", status: 2},
		{args: []string{"sort", "d"}, files: sortFiles1, out: "", err: "sort: read failed: d: Is a directory\n", status: 2},
		{args: []string{"sort", "-t", "ab"}, files: sortFiles1, out: "", err: "sort: multi-character tab 'ab'\n", status: 2},
		{args: []string{"sort", "-k", "0"}, files: sortFiles1, out: "", err: "sort: field number is zero: invalid field specification '0'\n", status: 2},
		{args: []string{"sort", "-k", "1.0"}, files: sortFiles1, out: "", err: "sort: character offset is zero: invalid field specification '1.0'\n", status: 2},
		{args: []string{"sort", "-k", "1,0"}, files: sortFiles1, out: "", err: "sort: field number is zero: invalid field specification '1,0'\n", status: 2},
		{args: []string{"sort", "-k", "a"}, files: sortFiles1, out: "", err: "sort: invalid number at field start: invalid count at start of 'a'\n", status: 2},
		{args: []string{"sort", "-k1x"}, files: sortFiles1, out: "", err: "sort: stray character in field spec: invalid field specification '1x'\n", status: 2},
		{args: []string{"sort", "-n", "-g"}, files: sortFiles1, out: "", err: "sort: options '-gn' are incompatible\n", status: 2},
		{args: []string{"sort", "-k1,1n", "-k2nd"}, files: sortFiles1, out: "", err: "sort: options '-dn' are incompatible\n", status: 2},
		{args: []string{"sort", "--sort=foo"}, files: sortFiles1, out: "", err: `sort: invalid argument 'foo' for '--sort'
Valid arguments are:
  - 'general-numeric'
  - 'human-numeric'
  - 'month'
  - 'numeric'
  - 'random'
  - 'version'
Try 'sort --help' for more information.
`, status: 1},
		{args: []string{"sort", "--sort=numeric", "num"}, files: sortFiles1, out: `-3
-.5
+4
-0
0
abc
.5
1e3
1.5
 7
007
9
10
`},
		{args: []string{"sort", "-o"}, files: sortFiles1, out: "", err: `sort: option requires an argument -- 'o'
Try 'sort --help' for more information.
`, status: 2},
		{args: []string{"sort", "-m", "x", "y"}, files: sortFiles1, out: `x2
x3
x1
x4
`},
		{args: []string{"sort", "-z"}, files: sortFiles1, stdin: "b\x00a\x00c", out: "a\x00b\x00c\x00"},
		{args: []string{"sort"}, files: sortFiles1, stdin: "b\na", out: `a
b
`},
		{args: []string{"sort", "x", "y", "-r"}, files: sortFiles1, out: `x4
x3
x2
x1
`},
		{args: []string{"sort", "--s"}, files: sortFiles1, out: "", err: `sort: option '--s' is ambiguous; possibilities: '--sort' '--stable'
Try 'sort --help' for more information.
`, status: 2},
		{args: []string{"sort", "-S", "1M", "un"}, files: sortFiles1, out: `a
b
`},
		{args: []string{"sort", "-S", "x", "un"}, files: sortFiles1, out: "", err: "sort: invalid -S argument 'x'\n", status: 2},
		{args: []string{"sort", "-n"}, files: sortFiles1, stdin: `1,000
999
1.000
`, out: `1,000
1.000
999
`},
		{args: []string{"sort", "-R", "-n"}, files: sortFiles1, out: "", err: "sort: options '-nR' are incompatible\n", status: 2},
		{args: []string{"sort", "-f", "-u"}, files: sortFiles1, stdin: `a
A
b
B
a
`, out: `a
b
`},
		{args: []string{"sort", "-b", "-k2"}, files: sortFiles1, stdin: `x   b
y a
z  c
`, out: `y a
x   b
z  c
`},
		{args: []string{"sort", "-k2"}, files: sortFiles1, stdin: `x   b
y a
z  c
`, out: `x   b
z  c
y a
`},
		{args: []string{"sort", "-k2b"}, files: sortFiles1, stdin: `x   b
y a
z  c
`, out: `y a
x   b
z  c
`},
		{args: []string{"sort", "-t,", "-k2,2", "-k1,1r"}, files: sortFiles1, stdin: `a,1
b,1
c,0
`, out: `c,0
b,1
a,1
`},
		{args: []string{"sort", "-u", "-t,", "-k1,1"}, files: sortFiles1, stdin: `a,3
b,1
a,2
`, out: `a,3
b,1
`},
		{args: []string{"sort", "-n", "-k", "1,1", "-k", "2,2r"}, files: sortFiles1, stdin: `1 a
1 b
0 c
`, out: `0 c
1 b
1 a
`},
		{args: []string{"sort", "-o", "un", "un"}, files: sortFiles1, out: ""},
		{args: []string{"sort", "-h"}, files: sortFiles1, stdin: `-1K
-1M
-2K
0K
1
`, out: `-1M
-2K
-1K
0K
1
`},
		{args: []string{"sort", "-V"}, files: sortFiles1, stdin: `1.10
1.9
1.1
1.01
v2
v10
`, out: `1.01
1.1
1.9
1.10
v2
v10
`},
	})
}
