package text

import "testing"

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestSeq(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"seq", "3"}, out: `1
2
3
`},
		{args: []string{"seq", "1", "0.5", "3"}, out: `1.0
1.5
2.0
2.5
3.0
`},
		{args: []string{"seq", "-w", "8", "10"}, out: `08
09
10
`},
		{args: []string{"seq", "-w", "-1", "1"}, out: `-1
00
01
`},
		{args: []string{"seq", "-s,", "3"}, out: "1,2,3\n"},
		{args: []string{"seq", "1e2", "1e2"}, out: "100\n"},
		{args: []string{"seq", "0.1", "0.1", "0.3"}, out: `0.1
0.2
0.3
`},
		{args: []string{"seq", "-f", "%03g", "3"}, out: `001
002
003
`},
		{args: []string{"seq", "-f", "%.2f", "1", "2"}, out: `1.00
2.00
`},
		{args: []string{"seq", "-f", "n=%g%%", "2"}, out: `n=1%
n=2%
`},
		{args: []string{"seq", "x"}, out: "", err: `seq: invalid floating point argument: 'x'
Try 'seq --help' for more information.
`, status: 1},
		{args: []string{"seq", "1", "0", "2"}, out: "", err: `seq: invalid Zero increment value: '0'
Try 'seq --help' for more information.
`, status: 1},
		{args: []string{"seq"}, out: "", err: `seq: missing operand
Try 'seq --help' for more information.
`, status: 1},
		{args: []string{"seq", "1", "2", "3", "4"}, out: "", err: `seq: extra operand '4'
Try 'seq --help' for more information.
`, status: 1},
		{args: []string{"seq", "-f", "x", "1"}, out: "", err: "seq: format 'x' has no % directive\n", status: 1},
		{args: []string{"seq", "-f", "%d", "1"}, out: "", err: "seq: format '%d' has unknown %d directive\n", status: 1},
		{args: []string{"seq", "-f", "%g%g", "1"}, out: "", err: "seq: format '%g%g' has too many % directives\n", status: 1},
		{args: []string{"seq", "5", "1"}, out: ""},
		{args: []string{"seq", "-w", "1", "0.5", "2"}, out: `1.0
1.5
2.0
`},
		{args: []string{"seq", "1.50", "2"}, out: "1.50\n"},
		{args: []string{"seq", "10", "-3", "1"}, out: `10
7
4
1
`},
		{args: []string{"seq", "-s", "", "3"}, out: "123\n"},
		{args: []string{"seq", "2", "-1", "-1", "-w"}, out: "", err: `seq: extra operand '-w'
Try 'seq --help' for more information.
`, status: 1},
		{args: []string{"seq", "-5", "-3"}, out: `-5
-4
-3
`},
		{args: []string{"seq", "-s:", "1", "2"}, out: "1:2\n"},
		{args: []string{"seq", "0", "0.1", "0.5"}, out: `0.0
0.1
0.2
0.3
0.4
0.5
`},
		{args: []string{"seq", "-w", "-f", "%g", "3"}, out: "", err: `seq: format string may not be specified when printing equal width strings
Try 'seq --help' for more information.
`, status: 1},
		{args: []string{"seq", "1", "3", "-s:"}, out: "", err: `seq: invalid floating point argument: '-s:'
Try 'seq --help' for more information.
`, status: 1},
		{args: []string{"seq", "-1.5", "1"}, out: `-1.5
-0.5
0.5
`},
		{args: []string{"seq", "100000", "100002"}, out: `100000
100001
100002
`},
		{args: []string{"seq", "--separator=-", "--equal-width", "9", "11"}, out: "09-10-11\n"},
	})
}
