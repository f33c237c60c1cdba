package text

import "testing"

// Fixtures shared by several cases below.
var nlFiles1 = map[string]string{"c1": `a
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
func TestNl(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"nl", "nl1"}, files: nlFiles1, out: `     1	a
       
     2	b
       
       
     3	c
`},
		{args: []string{"nl", "-ba", "nl1"}, files: nlFiles1, out: `     1	a
     2	
     3	b
     4	
     5	
     6	c
`},
		{args: []string{"nl", "-n", "ln", "-w", "3", "-s", ": ", "nl1"}, files: nlFiles1, out: `1  : a
     
2  : b
     
     
3  : c
`},
		{args: []string{"nl", "-n", "rz", "-v", "5", "-i", "2", "nl1"}, files: nlFiles1, out: `000005	a
       
000007	b
       
       
000009	c
`},
		{args: []string{"nl", "-b", "pb", "nl1"}, files: nlFiles1, out: `       a
       
     1	b
       
       
       c
`},
		{args: []string{"nl", "-bn", "nl1"}, files: nlFiles1, out: `       a
       
       b
       
       
       c
`},
		{args: []string{"nl", "x"}, files: nlFiles1, out: "", err: "nl: x: No such file or directory\n", status: 1},
		{args: []string{"nl"}, files: nlFiles1, stdin: `h
\:\:\:
H
\:\:
B
\:
F
`, out: `     1	h

       H

     1	B

       F
`},
		{args: []string{"nl", "-l", "2", "-ba", "nl1"}, files: nlFiles1, out: `     1	a
       
     2	b
       
     3	
     4	c
`},
		{args: []string{"nl", "-b", "x"}, files: nlFiles1, out: "", err: `nl: invalid body numbering style: 'x'
Try 'nl --help' for more information.
`, status: 1},
		{args: []string{"nl", "-w", "0", "nl1"}, files: nlFiles1, out: "", err: "nl: invalid line number field width: '0': Numerical result out of range\n", status: 1},
		{args: []string{"nl", "-n", "xx", "nl1"}, files: nlFiles1, out: "", err: `nl: invalid line numbering format: 'xx'
Try 'nl --help' for more information.
`, status: 1},
		{args: []string{"nl", "p1", "p2"}, files: nlFiles1, out: `     1	1
     2	2
     3	3
     4	a
     5	b
`},
		{args: []string{"nl", "-p", "-ha", "-fa"}, files: nlFiles1, stdin: `\:\:\:
h
\:\:
b
\:
f
\:\:\:
h2
`, out: `
     1	h

     2	b

     3	f

     4	h2
`},
		{args: []string{"nl", "-ha", "-fa"}, files: nlFiles1, stdin: `\:\:\:
h
\:\:
b
\:
f
\:\:\:
h2
`, out: `
     1	h

     1	b

     1	f

     1	h2
`},
		{args: []string{"nl"}, files: nlFiles1, stdin: "no newline", out: "     1\tno newline\n"},
		{args: []string{"nl", "-v", "-2", "-n", "rz", "-w", "3"}, files: nlFiles1, stdin: `a
b
c
d
`, out: `-02	a
-01	b
000	c
001	d
`},
	})
}
