package text

import "testing"

// Fixtures shared by several cases below.
var uniqFiles1 = map[string]string{"c": `a:b:c
abc
one	two	three
:x:
`, "d/": "", "u": `a
a
b
A
a
c
c
`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestUniq(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"uniq", "u"}, files: uniqFiles1, out: `a
b
A
a
c
`},
		{args: []string{"uniq", "-c", "u"}, files: uniqFiles1, out: `      2 a
      1 b
      1 A
      1 a
      2 c
`},
		{args: []string{"uniq", "-d", "u"}, files: uniqFiles1, out: `a
c
`},
		{args: []string{"uniq", "-u", "u"}, files: uniqFiles1, out: `b
A
a
`},
		{args: []string{"uniq", "-D", "u"}, files: uniqFiles1, out: `a
a
c
c
`},
		{args: []string{"uniq", "-ci", "u"}, files: uniqFiles1, out: `      2 a
      1 b
      2 A
      2 c
`},
		{args: []string{"uniq", "-di", "u"}, files: uniqFiles1, out: `a
A
c
`},
		{args: []string{"uniq", "--all-repeated=separate", "u"}, files: uniqFiles1, out: `a
a

c
c
`},
		{args: []string{"uniq", "--all-repeated=prepend", "u"}, files: uniqFiles1, out: `
a
a

c
c
`},
		{args: []string{"uniq", "--group", "u"}, files: uniqFiles1, out: `a
a

b

A

a

c
c
`},
		{args: []string{"uniq", "--group=both", "u"}, files: uniqFiles1, out: `
a
a

b

A

a

c
c

`},
		{args: []string{"uniq", "--group=prepend", "u"}, files: uniqFiles1, out: `
a
a

b

A

a

c
c
`},
		{args: []string{"uniq", "--group=append", "u"}, files: uniqFiles1, out: `a
a

b

A

a

c
c

`},
		{args: []string{"uniq", "-f1", "-c"}, files: uniqFiles1, stdin: `x 1 a
y 1 a
z 2 a
`, out: `      2 x 1 a
      1 z 2 a
`},
		{args: []string{"uniq", "-s1"}, files: uniqFiles1, stdin: `xa
ya
za
`, out: "xa\n"},
		{args: []string{"uniq", "-w1"}, files: uniqFiles1, stdin: `ab
ac
bc
`, out: `ab
bc
`},
		{args: []string{"uniq", "-D", "-c", "u"}, files: uniqFiles1, out: "", err: `uniq: printing all duplicated lines and repeat counts is meaningless
Try 'uniq --help' for more information.
`, status: 1},
		{args: []string{"uniq", "nosuch"}, files: uniqFiles1, out: "", err: "uniq: nosuch: No such file or directory\n", status: 1},
		{args: []string{"uniq", "a", "b", "c"}, files: uniqFiles1, out: "", err: `uniq: extra operand 'c'
Try 'uniq --help' for more information.
`, status: 1},
		{args: []string{"uniq", "-f", "x", "u"}, files: uniqFiles1, out: "", err: "uniq: x: invalid number of fields to skip\n", status: 1},
		{args: []string{"uniq", "-c"}, files: uniqFiles1, stdin: "a\na", out: "      2 a\n"},
		{args: []string{"uniq", "-z"}, files: uniqFiles1, stdin: "a\x00a\x00b\x00", out: "a\x00b\x00"},
		{args: []string{"uniq", "-u", "-d", "u"}, files: uniqFiles1, out: ""},
		{args: []string{"uniq", "--group", "-c", "u"}, files: uniqFiles1, out: "", err: `uniq: --group is mutually exclusive with -c/-d/-D/-u
Try 'uniq --help' for more information.
`, status: 1},
	})
}
