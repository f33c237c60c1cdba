package text

import "testing"

// Fixtures shared by several cases below.
var splitFiles1 = map[string]string{"in": `1
2
3
4
5
6
7
8
9
10
`}
var splitFiles2 = map[string]string{"in": "abc"}
var splitFiles3 = map[string]string{}
var splitFiles4 = map[string]string{"in": "a;b;c;d;e"}
var splitFiles5 = map[string]string{"in": `x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
x
`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestSplit(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"split", "-l", "3", "in"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"xaa": `1
2
3
`, "xab": `4
5
6
`, "xac": `7
8
9
`, "xad": "10\n"})},
		{args: []string{"split", "-l", "3", "-d", "--verbose", "in", "p_"}, files: splitFiles1, out: `creating file 'p_00'
creating file 'p_01'
creating file 'p_02'
creating file 'p_03'
`, check: wantFiles(splitFiles1, map[string]string{"p_00": `1
2
3
`, "p_01": `4
5
6
`, "p_02": `7
8
9
`, "p_03": "10\n"})},
		{args: []string{"split", "-b", "7", "-a", "3", "in", "b"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"baaa": `1
2
3
4`, "baab": `
5
6
7
`, "baac": `8
9
10
`})},
		{args: []string{"split", "-n", "3", "in", "n"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"naa": `1
2
3
4`, "nab": `
5
6
7
`, "nac": `8
9
10
`})},
		{args: []string{"split", "-n", "l/3", "in", "L"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"Laa": `1
2
3
4
`, "Lab": `5
6
7
`, "Lac": `8
9
10
`})},
		{args: []string{"split", "-n", "r/3", "in", "R"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"Raa": `1
4
7
10
`, "Rab": `2
5
8
`, "Rac": `3
6
9
`})},
		{args: []string{"split", "-n", "2/3", "in"}, files: splitFiles1, out: `
5
6
7
`, check: wantFiles(splitFiles1, map[string]string{})},
		{args: []string{"split", "-n", "l/2/3", "in"}, files: splitFiles1, out: `5
6
7
`, check: wantFiles(splitFiles1, map[string]string{})},
		{args: []string{"split", "-n", "r/1/3", "in"}, files: splitFiles1, out: `1
4
7
10
`, check: wantFiles(splitFiles1, map[string]string{})},
		{args: []string{"split", "-l", "0", "in"}, files: splitFiles1, out: "", err: "split: invalid number of lines: '0': Numerical result out of range\n", status: 1, check: wantFiles(splitFiles1, map[string]string{})},
		{args: []string{"split", "-C", "6", "in", "C"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"Caa": `1
2
3
`, "Cab": `4
5
6
`, "Cac": `7
8
9
`, "Cad": "10\n"})},
		{args: []string{"split", "-l", "1", "-a", "1", "in", "s"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"sa": "1\n", "sb": "2\n", "sc": "3\n", "sd": "4\n", "se": "5\n", "sf": "6\n", "sg": "7\n", "sh": "8\n", "si": "9\n", "sj": "10\n"})},
		{args: []string{"split", "-l", "1", "-a", "1", "-d", "in", "s"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"s0": "1\n", "s1": "2\n", "s2": "3\n", "s3": "4\n", "s4": "5\n", "s5": "6\n", "s6": "7\n", "s7": "8\n", "s8": "9\n", "s9": "10\n"})},
		{args: []string{"split", "nosuch"}, files: splitFiles1, out: "", err: "split: cannot open 'nosuch' for reading: No such file or directory\n", status: 1, check: wantFiles(splitFiles1, map[string]string{})},
		{args: []string{"split", "-n", "20", "in", "E", "-e"}, files: splitFiles2, out: "", check: wantFiles(splitFiles2, map[string]string{"Eaa": "a", "Eab": "b", "Eac": "c"})},
		{args: []string{"split", "-n", "5", "in", "E"}, files: splitFiles2, out: "", check: wantFiles(splitFiles2, map[string]string{"Eaa": "a", "Eab": "b", "Eac": "c", "Ead": "", "Eae": ""})},
		{args: []string{"split", "-l", "2", "--additional-suffix=.txt", "in", "A"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"Aaa.txt": `1
2
`, "Aab.txt": `3
4
`, "Aac.txt": `5
6
`, "Aad.txt": `7
8
`, "Aae.txt": `9
10
`})},
		{args: []string{"split", "-x", "-l", "5", "in", "X"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"X00": `1
2
3
4
5
`, "X01": `6
7
8
9
10
`})},
		{args: []string{"split", "--numeric-suffixes=5", "-l", "5", "in", "N5"}, files: splitFiles1, out: "", check: wantFiles(splitFiles1, map[string]string{"N505": `1
2
3
4
5
`, "N506": `6
7
8
9
10
`})},
		{args: []string{"split", "-b", "x", "in"}, files: splitFiles1, out: "", err: "split: invalid number of bytes: 'x'\n", status: 1, check: wantFiles(splitFiles1, map[string]string{})},
		{args: []string{"split", "-l", "4"}, stdin: `a
b
c
d
e
`, out: "", check: wantFiles(splitFiles3, map[string]string{"xaa": `a
b
c
d
`, "xab": "e\n"})},
		{args: []string{"split", "-b", "1"}, stdin: "abcd", out: "", check: wantFiles(splitFiles3, map[string]string{"xaa": "a", "xab": "b", "xac": "c", "xad": "d"})},
		{args: []string{"split", "-t", ";", "-l", "2", "in"}, files: splitFiles4, out: "", check: wantFiles(splitFiles4, map[string]string{"xaa": "a;b;", "xab": "c;d;", "xac": "e"})},
		{args: []string{"split", "in", "a", "b"}, files: splitFiles1, out: "", err: `split: extra operand 'b'
Try 'split --help' for more information.
`, status: 1, check: wantFiles(splitFiles1, map[string]string{})},
		{args: []string{"split", "-l", "1", "-a", "1", "in"}, files: splitFiles5, out: "", err: "split: output file suffixes exhausted\n", status: 1, check: wantFiles(splitFiles5, map[string]string{"xa": "x\n", "xb": "x\n", "xc": "x\n", "xd": "x\n", "xe": "x\n", "xf": "x\n", "xg": "x\n", "xh": "x\n", "xi": "x\n", "xj": "x\n", "xk": "x\n", "xl": "x\n", "xm": "x\n", "xn": "x\n", "xo": "x\n", "xp": "x\n", "xq": "x\n", "xr": "x\n", "xs": "x\n", "xt": "x\n", "xu": "x\n", "xv": "x\n", "xw": "x\n", "xx": "x\n", "xy": "x\n", "xz": "x\n"})},
	})
}
