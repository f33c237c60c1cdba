package text

import "testing"

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestFmt(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"fmt"}, stdin: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.  Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.\n", out: `Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod
tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim
veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea
commodo consequat.  Duis aute irure dolor in reprehenderit in voluptate
velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat
cupidatat non proident, sunt in culpa qui officia deserunt mollit anim
id est laborum.
`},
		{args: []string{"fmt", "-w", "40"}, stdin: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.  Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.\n", out: `Lorem ipsum dolor sit amet, consectetur
adipiscing elit, sed do eiusmod tempor
incididunt ut labore et dolore magna
aliqua. Ut enim ad minim veniam,
quis nostrud exercitation ullamco
laboris nisi ut aliquip ex ea commodo
consequat.  Duis aute irure dolor
in reprehenderit in voluptate velit
esse cillum dolore eu fugiat nulla
pariatur. Excepteur sint occaecat
cupidatat non proident, sunt in culpa
qui officia deserunt mollit anim id
est laborum.
`},
		{args: []string{"fmt", "-w", "20"}, stdin: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.  Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.\n", out: `Lorem ipsum
dolor sit amet,
consectetur
adipiscing elit,
sed do eiusmod
tempor incididunt
ut labore et
dolore magna
aliqua. Ut enim
ad minim veniam,
quis nostrud
exercitation
ullamco laboris
nisi ut aliquip
ex ea commodo
consequat.  Duis
aute irure dolor
in reprehenderit
in voluptate velit
esse cillum dolore
eu fugiat nulla
pariatur. Excepteur
sint occaecat
cupidatat non
proident, sunt
in culpa qui
officia deserunt
mollit anim id
est laborum.
`},
		{args: []string{"fmt", "-60"}, stdin: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.  Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.\n", out: `Lorem ipsum dolor sit amet, consectetur adipiscing elit,
sed do eiusmod tempor incididunt ut labore et dolore magna
aliqua. Ut enim ad minim veniam, quis nostrud exercitation
ullamco laboris nisi ut aliquip ex ea commodo consequat.
Duis aute irure dolor in reprehenderit in voluptate velit
esse cillum dolore eu fugiat nulla pariatur. Excepteur
sint occaecat cupidatat non proident, sunt in culpa qui
officia deserunt mollit anim id est laborum.
`},
		{args: []string{"fmt", "-u", "-w", "50"}, stdin: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.  Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.\n", out: `Lorem ipsum dolor sit amet, consectetur
adipiscing elit, sed do eiusmod tempor incididunt
ut labore et dolore magna aliqua. Ut enim ad
minim veniam, quis nostrud exercitation ullamco
laboris nisi ut aliquip ex ea commodo consequat.
Duis aute irure dolor in reprehenderit in
voluptate velit esse cillum dolore eu fugiat
nulla pariatur. Excepteur sint occaecat cupidatat
non proident, sunt in culpa qui officia deserunt
mollit anim id est laborum.
`},
		{args: []string{"fmt", "-g", "30"}, stdin: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.  Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.\n", out: `Lorem ipsum dolor sit amet,
consectetur adipiscing elit, sed do
eiusmod tempor incididunt ut labore
et dolore magna aliqua. Ut enim
ad minim veniam, quis nostrud
exercitation ullamco laboris
nisi ut aliquip ex ea commodo
consequat.  Duis aute irure dolor
in reprehenderit in voluptate
velit esse cillum dolore eu fugiat
nulla pariatur. Excepteur sint
occaecat cupidatat non proident,
sunt in culpa qui officia deserunt
mollit anim id est laborum.
`},
		{args: []string{"fmt", "-w", "30", "-g", "20"}, stdin: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.  Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.\n", out: `Lorem ipsum dolor sit amet,
consectetur adipiscing
elit, sed do eiusmod
tempor incididunt ut
labore et dolore magna
aliqua. Ut enim ad minim
veniam, quis nostrud
exercitation ullamco
laboris nisi ut aliquip
ex ea commodo consequat.
Duis aute irure dolor
in reprehenderit in
voluptate velit esse
cillum dolore eu fugiat
nulla pariatur. Excepteur
sint occaecat cupidatat
non proident, sunt in
culpa qui officia deserunt
mollit anim id est laborum.
`},
		{args: []string{"fmt"}, stdin: `  This is an indented paragraph
  with two lines (and a parenthesis) that
  should be joined.


Next paragraph here.  It has two sentences! Yes?
`, out: `  This is an indented paragraph with two lines (and a parenthesis)
  that should be joined.


Next paragraph here.  It has two sentences! Yes?
`},
		{args: []string{"fmt", "-w", "30"}, stdin: `  This is an indented paragraph
  with two lines (and a parenthesis) that
  should be joined.


Next paragraph here.  It has two sentences! Yes?
`, out: `  This is an indented
  paragraph with two lines
  (and a parenthesis) that
  should be joined.


Next paragraph here.  It has
two sentences! Yes?
`},
		{args: []string{"fmt", "-s", "-w", "20"}, stdin: `  This is an indented paragraph
  with two lines (and a parenthesis) that
  should be joined.


Next paragraph here.  It has two sentences! Yes?
`, out: `  This is an
  indented
  paragraph
  with two
  lines (and a
  parenthesis) that
  should be joined.


Next paragraph
here.  It has two
sentences! Yes?
`},
		{args: []string{"fmt", "-c", "-w", "40"}, stdin: `1. first item line that is rather long and wraps around the width
   continuation of the first item
2. second
`, out: `1. first item line that is rather
   long and wraps around the width
   continuation of the first item
2. second
`},
		{args: []string{"fmt", "-t", "-w", "40"}, stdin: `1. first item line that is rather long and wraps around the width
   continuation of the first item
2. second
`, out: `1. first item line that is rather
   long and wraps around the width
   continuation of the first item
2. second
`},
		{args: []string{"fmt", "-w", "40"}, stdin: `1. first item line that is rather long and wraps around the width
   continuation of the first item
2. second
`, out: `1. first item line that is rather long
and wraps around the width
   continuation of the first item
2. second
`},
		{args: []string{"fmt", "-w", "40"}, stdin: `	Tabbed start of a paragraph that goes on and on and on and on until it wraps.
	second line
`, out: `	Tabbed start of a paragraph
	that goes on and on and on and
	on until it wraps.  second line
`},
		{args: []string{"fmt"}, stdin: "no trailing newline", out: "no trailing newline\n"},
		{args: []string{"fmt"}, stdin: `a

  
b
`, out: `a


b
`},
		{args: []string{"fmt", "-w", "x"}, out: "", err: "fmt: invalid width: 'x'\n", status: 1},
		{args: []string{"fmt", "-w", "10"}, stdin: "averyveryverylongwordthatcannotbreak short words\n", out: `averyveryverylongwordthatcannotbreak
short
words
`},
		{args: []string{"fmt", "nosuch"}, out: "", err: "fmt: cannot open 'nosuch' for reading: No such file or directory\n", status: 1},
		{args: []string{"fmt", "-w", "30"}, stdin: "Mr. Smith went to Washington. He said \"Hello.\" Then (he) left.\n", out: `Mr. Smith went to
Washington. He said
"Hello." Then (he) left.
`},
		{args: []string{"fmt", "-w", "25"}, stdin: "one two three four five six seven eight nine ten eleven twelve thirteen\n", out: `one two three four five
six seven eight nine ten
eleven twelve thirteen
`},
		{args: []string{"fmt", "-p", "#", "-w", "30"}, stdin: `# This is a long comment line that should be wrapped by fmt because it is long.
# second line
code = 1
#
#   indented comment text that also goes on and on
`, out: `# This is a long comment line
# that should be wrapped by
# fmt because it is long.
# second line
code = 1
#
#   indented comment text
#   that also goes on and on
`},
		{args: []string{"fmt", "-p", "# ", "-w", "30"}, stdin: `# This is a long comment line that should be wrapped by fmt because it is long.
# second line
code = 1
#
#   indented comment text that also goes on and on
`, out: `# This is a long comment line
# that should be wrapped by
# fmt because it is long.
# second line
code = 1
#
#   indented comment text
#   that also goes on and on
`},
		{args: []string{"fmt", "-p", "  //", "-w", "25"}, stdin: `  // one two three four five six seven eight
  // nine ten
  code();
    // deeper comment words here and more
`, out: `  // one two three four
  // five six seven
  // eight nine ten
  code();
    // deeper comment
    // words here
    // and more
`},
		{args: []string{"fmt", "-p", "#"}, stdin: `no prefix here at all
# a
# b
trailing  
  `, out: `no prefix here at all
# a b
trailing  
`},
		{args: []string{"fmt", "-p", "x"}, out: ""},
	})
}
