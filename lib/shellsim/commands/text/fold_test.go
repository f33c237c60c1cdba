package text

import "testing"

// Fixtures shared by several cases below.
var foldFiles1 = map[string]string{"c1": `a
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
func TestFold(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"fold", "-w", "10"}, files: foldFiles1, stdin: "the quick brown fox jumps over the lazy dog\n", out: `the quick 
brown fox 
jumps over
 the lazy 
dog
`},
		{args: []string{"fold", "-sw", "10"}, files: foldFiles1, stdin: "the quick brown fox jumps over the lazy dog\n", out: `the quick 
brown fox 
jumps 
over the 
lazy dog
`},
		{args: []string{"fold", "-w", "5"}, files: foldFiles1, stdin: "a\tbcdefghij\n", out: `a
	
bcdef
ghij
`},
		{args: []string{"fold", "-bw", "5"}, files: foldFiles1, stdin: "a\tbcdefghij\n", out: `a	bcd
efghi
j
`},
		{args: []string{"fold", "-w", "0"}, files: foldFiles1, out: "", err: "fold: invalid number of columns: '0': Numerical result out of range\n", status: 1},
		{args: []string{"fold", "-w", "x"}, files: foldFiles1, out: "", err: "fold: invalid number of columns: 'x'\n", status: 1},
		{args: []string{"fold", "-w", "3"}, files: foldFiles1, stdin: "abc\x08de\n", out: "abc\x08d\ne\n"},
		{args: []string{"fold", "-w", "3"}, files: foldFiles1, stdin: "abcdefgh", out: `abc
def
gh`},
		{args: []string{"fold", "-5"}, files: foldFiles1, stdin: "abcdefg\n", out: `abcde
fg
`},
		{args: []string{"fold"}, files: foldFiles1, stdin: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", out: `xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
xxxxxxxxxxxxxxxxxxxx
`},
		{args: []string{"fold", "-s", "-w", "4"}, files: foldFiles1, stdin: "ab cd ef\n", out: `ab 
cd 
ef
`},
		{args: []string{"fold", "-s", "-w", "4"}, files: foldFiles1, stdin: "abcdefgh ij\n", out: `abcd
efgh
 ij
`},
		{args: []string{"fold", "-w", "4"}, files: foldFiles1, stdin: "ab\x0dcdefg\n", out: "ab\x0dcdef\ng\n"},
		{args: []string{"fold", "nosuch"}, files: foldFiles1, out: "", err: "fold: nosuch: No such file or directory\n", status: 1},
	})
}
