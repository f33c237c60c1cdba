import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *
D = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..') + '/'
S30 = ''.join('%d\n' % i for i in range(1, 31))
S25 = ''.join('%d\n' % i for i in range(1, 26))
emit(D+'column_test.go', 'TestColumn', [
 case(['column', '-t'], stdin='a b c\nlonger x y\nz\n'),
 case(['column', '-t', '-s:'], stdin='a:b:c\nlonger::y\n'),
 case(['column', '-t', '-s:', '-o', ' | '], stdin='a:b:c\nlonger::y\n'),
 case(['column', '-s,', '-t', '-R', '1'], stdin='a,b\nccc,d\n'),
 case(['column'], stdin=S30),
 case(['column', '-x'], stdin=S30),
 case(['column', '-x'], stdin=S25),
 case(['column', '-c', '40'], stdin=S30),
 case(['column'], stdin=S25),
 case(['column', '-t'], stdin='a  b\n\nc d\n'),
 case(['column', '-t'], stdin='a\tb\n'),
 case(['column', '-t', 'nosuch']),
 case(['column', '-t', '-N', 'A,B'], stdin='x y\n'),
 case(['column', '-t', '-l', '2'], stdin='a b c d\n'),
 case(['column'], stdin='short\na-much-longer-entry\nmid\n'),
 case(['column', '-c', '10'], stdin='abcdefghijkl\nb\n'),
 case(['column', '-t'], stdin='name size\nfoo.txt 12\nbar 345\n'),
 case(['column', '-t', '-s', ','], stdin='a,b\n,c\nd,\n'),
 case(['column'], stdin=''),
])
