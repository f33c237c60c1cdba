import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *
D = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..') + '/'
LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. "
 "Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.  Duis aute irure dolor in "
 "reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa "
 "qui officia deserunt mollit anim id est laborum.\n")
P2 = "  This is an indented paragraph\n  with two lines (and a parenthesis) that\n  should be joined.\n\n\nNext paragraph here.  It has two sentences! Yes?\n"
TAG = "1. first item line that is rather long and wraps around the width\n   continuation of the first item\n2. second\n"
TABS = "\tTabbed start of a paragraph that goes on and on and on and on until it wraps.\n\tsecond line\n"
CMT = "# This is a long comment line that should be wrapped by fmt because it is long.\n# second line\ncode = 1\n#\n#   indented comment text that also goes on and on\n"
CMT2 = "  // one two three four five six seven eight\n  // nine ten\n  code();\n    // deeper comment words here and more\n"
emit(D+'fmt_test.go', 'TestFmt', [
 case(['fmt'], stdin=LOREM),
 case(['fmt', '-w', '40'], stdin=LOREM),
 case(['fmt', '-w', '20'], stdin=LOREM),
 case(['fmt', '-60'], stdin=LOREM),
 case(['fmt', '-u', '-w', '50'], stdin=LOREM),
 case(['fmt', '-g', '30'], stdin=LOREM),
 case(['fmt', '-w', '30', '-g', '20'], stdin=LOREM),
 case(['fmt'], stdin=P2),
 case(['fmt', '-w', '30'], stdin=P2),
 case(['fmt', '-s', '-w', '20'], stdin=P2),
 case(['fmt', '-c', '-w', '40'], stdin=TAG),
 case(['fmt', '-t', '-w', '40'], stdin=TAG),
 case(['fmt', '-w', '40'], stdin=TAG),
 case(['fmt', '-w', '40'], stdin=TABS),
 case(['fmt'], stdin='no trailing newline'),
 case(['fmt'], stdin='a\n\n  \nb\n'),
 case(['fmt', '-w', 'x']),
 case(['fmt', '-w', '10'], stdin='averyveryverylongwordthatcannotbreak short words\n'),
 case(['fmt', 'nosuch']),
 case(['fmt', '-w', '30'], stdin='Mr. Smith went to Washington. He said "Hello." Then (he) left.\n'),
 case(['fmt', '-w', '25'], stdin='one two three four five six seven eight nine ten eleven twelve thirteen\n'),
 case(['fmt', '-p', '#', '-w', '30'], stdin=CMT),
 case(['fmt', '-p', '# ', '-w', '30'], stdin=CMT),
 case(['fmt', '-p', '  //', '-w', '25'], stdin=CMT2),
 case(['fmt', '-p', '#'], stdin='no prefix here at all\n# a\n# b\ntrailing  \n  '),
 case(['fmt', '-p', 'x'], stdin=''),
])
