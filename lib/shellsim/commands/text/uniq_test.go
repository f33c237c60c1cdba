package text

import "testing"

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestUniq(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"uniq", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `a
b
A
a
c
`},
		{args: []string{"uniq", "-c", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `      2 a
      1 b
      1 A
      1 a
      2 c
`},
		{args: []string{"uniq", "-d", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `a
c
`},
		{args: []string{"uniq", "-u", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `b
A
a
`},
		{args: []string{"uniq", "-D", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `a
a
c
c
`},
		{args: []string{"uniq", "-ci", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `      2 a
      1 b
      2 A
      2 c
`},
		{args: []string{"uniq", "-di", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `a
A
c
`},
		{args: []string{"uniq", "--all-repeated=separate", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `a
a

c
c
`},
		{args: []string{"uniq", "--all-repeated=prepend", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `
a
a

c
c
`},
		{args: []string{"uniq", "--group", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `a
a

b

A

a

c
c
`},
		{args: []string{"uniq", "--group=both", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `
a
a

b

A

a

c
c

`},
		{args: []string{"uniq", "--group=prepend", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `
a
a

b

A

a

c
c
`},
		{args: []string{"uniq", "--group=append", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: `a
a

b

A

a

c
c

`},
		{args: []string{"uniq", "-f1", "-c"}, files: map[string]string{"c": `a:b:c
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
`}, stdin: `x 1 a
y 1 a
z 2 a
`, out: `      2 x 1 a
      1 z 2 a
`},
		{args: []string{"uniq", "-s1"}, files: map[string]string{"c": `a:b:c
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
`}, stdin: `xa
ya
za
`, out: "xa\n"},
		{args: []string{"uniq", "-w1"}, files: map[string]string{"c": `a:b:c
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
`}, stdin: `ab
ac
bc
`, out: `ab
bc
`},
		{args: []string{"uniq", "-D", "-c", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: "", err: `uniq: printing all duplicated lines and repeat counts is meaningless
Try 'uniq --help' for more information.
`, status: 1},
		{args: []string{"uniq", "nosuch"}, files: map[string]string{"c": `a:b:c
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
`}, out: "", err: "uniq: nosuch: No such file or directory\n", status: 1},
		{args: []string{"uniq", "a", "b", "c"}, files: map[string]string{"c": `a:b:c
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
`}, out: "", err: `uniq: extra operand 'c'
Try 'uniq --help' for more information.
`, status: 1},
		{args: []string{"uniq", "-f", "x", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: "", err: "uniq: x: invalid number of fields to skip\n", status: 1},
		{args: []string{"uniq", "-c"}, files: map[string]string{"c": `a:b:c
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
`}, stdin: "a\na", out: "      2 a\n"},
		{args: []string{"uniq", "-z"}, files: map[string]string{"c": `a:b:c
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
`}, stdin: "a\x00a\x00b\x00", out: "a\x00b\x00"},
		{args: []string{"uniq", "-u", "-d", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: ""},
		{args: []string{"uniq", "--group", "-c", "u"}, files: map[string]string{"c": `a:b:c
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
`}, out: "", err: `uniq: --group is mutually exclusive with -c/-d/-D/-u
Try 'uniq --help' for more information.
`, status: 1},
	})
}
