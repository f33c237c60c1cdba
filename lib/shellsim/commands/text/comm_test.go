package text

import "testing"

// Fixtures shared by several cases below.
var commFiles1 = map[string]string{"c1": `a
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
func TestComm(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"comm", "c1", "c2"}, files: commFiles1, out: `a
		b
	c
		d
	e
`},
		{args: []string{"comm", "-12", "c1", "c2"}, files: commFiles1, out: `b
d
`},
		{args: []string{"comm", "-3", "c1", "c2"}, files: commFiles1, out: `a
	c
	e
`},
		{args: []string{"comm", "-1", "c1", "c2"}, files: commFiles1, out: `	b
c
	d
e
`},
		{args: []string{"comm", "--output-delimiter=XX", "c1", "c2"}, files: commFiles1, out: `a
XXXXb
XXc
XXXXd
XXe
`},
		{args: []string{"comm", "c3", "c2"}, files: commFiles1, out: `		b
a
	c
	d
	e
`, err: `comm: file 1 is not in sorted order
comm: input is not in sorted order
`, status: 1},
		{args: []string{"comm", "--nocheck-order", "c3", "c2"}, files: commFiles1, out: `		b
a
	c
	d
	e
`},
		{args: []string{"comm", "--check-order", "c3", "c2"}, files: commFiles1, out: "\t\tb\n", err: "comm: file 1 is not in sorted order\n", status: 1},
		{args: []string{"comm", "c1"}, files: commFiles1, out: "", err: `comm: missing operand after 'c1'
Try 'comm --help' for more information.
`, status: 1},
		{args: []string{"comm"}, files: commFiles1, out: "", err: `comm: missing operand
Try 'comm --help' for more information.
`, status: 1},
		{args: []string{"comm", "c1", "c2", "c3"}, files: commFiles1, out: "", err: `comm: extra operand 'c3'
Try 'comm --help' for more information.
`, status: 1},
		{args: []string{"comm", "--total", "c1", "c2"}, files: commFiles1, out: `a
		b
	c
		d
	e
1	2	2	total
`},
		{args: []string{"comm", "-123", "--total", "c1", "c2"}, files: commFiles1, out: "1\t2\t2\ttotal\n"},
		{args: []string{"comm", "-", "c2"}, files: commFiles1, stdin: `a
b
d
`, out: `a
		b
	c
		d
	e
`},
		{args: []string{"comm", "nosuch", "c2"}, files: commFiles1, out: "", err: "comm: nosuch: No such file or directory\n", status: 1},
		{args: []string{"comm", "c3", "c3"}, files: commFiles1, out: `		b
		a
`},
		{args: []string{"comm", "c2", "c3"}, files: commFiles1, out: `		b
	a
c
d
e
`, err: `comm: file 2 is not in sorted order
comm: input is not in sorted order
`, status: 1},
	})
}
