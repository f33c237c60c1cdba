package text

import "testing"

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestColumn(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"column", "-t"}, stdin: `a b c
longer x y
z
`, out: `a       b  c
longer  x  y
z          
`},
		{args: []string{"column", "-t", "-s:"}, stdin: `a:b:c
longer::y
`, out: `a       b  c
longer     y
`},
		{args: []string{"column", "-t", "-s:", "-o", " | "}, stdin: `a:b:c
longer::y
`, out: `a      | b | c
longer |   | y
`},
		{args: []string{"column", "-s,", "-t", "-R", "1"}, stdin: `a,b
ccc,d
`, out: `  a  b
ccc  d
`},
		{args: []string{"column"}, stdin: `1
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
20
21
22
23
24
25
26
27
28
29
30
`, out: `1	4	7	10	13	16	19	22	25	28
2	5	8	11	14	17	20	23	26	29
3	6	9	12	15	18	21	24	27	30
`},
		{args: []string{"column", "-x"}, stdin: `1
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
20
21
22
23
24
25
26
27
28
29
30
`, out: `1	2	3	4	5	6	7	8	9	10
11	12	13	14	15	16	17	18	19	20
21	22	23	24	25	26	27	28	29	30
`},
		{args: []string{"column", "-x"}, stdin: `1
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
20
21
22
23
24
25
`, out: `1	2	3	4	5	6	7	8	9	10
11	12	13	14	15	16	17	18	19	20
21	22	23	24	25
`},
		{args: []string{"column", "-c", "40"}, stdin: `1
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
20
21
22
23
24
25
26
27
28
29
30
`, out: `1	7	13	19	25
2	8	14	20	26
3	9	15	21	27
4	10	16	22	28
5	11	17	23	29
6	12	18	24	30
`},
		{args: []string{"column"}, stdin: `1
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
20
21
22
23
24
25
`, out: `1	4	7	10	13	16	19	22	25
2	5	8	11	14	17	20	23
3	6	9	12	15	18	21	24
`},
		{args: []string{"column", "-t"}, stdin: `a  b

c d
`, out: `a  b
c  d
`},
		{args: []string{"column", "-t"}, stdin: "a\tb\n", out: "a  b\n"},
		{args: []string{"column", "-t", "nosuch"}, out: "", err: "column: nosuch: No such file or directory\n", status: 1},
		{args: []string{"column", "-t", "-N", "A,B"}, stdin: "x y\n", out: `A  B
x  y
`},
		{args: []string{"column", "-t", "-l", "2"}, stdin: "a b c d\n", out: "a  b c d\n"},
		{args: []string{"column"}, stdin: `short
a-much-longer-entry
mid
`, out: "short\t\t\ta-much-longer-entry\tmid\n"},
		{args: []string{"column", "-c", "10"}, stdin: `abcdefghijkl
b
`, out: `abcdefghijkl
b
`},
		{args: []string{"column", "-t"}, stdin: `name size
foo.txt 12
bar 345
`, out: `name     size
foo.txt  12
bar      345
`},
		{args: []string{"column", "-t", "-s", ","}, stdin: `a,b
,c
d,
`, out: `a  b
   c
d  
`},
		{args: []string{"column"}, out: ""},
	})
}
