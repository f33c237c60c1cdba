import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *
D = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..') + '/'
L = 'banana\napple\nCherry\n  date\napple\n10\n9\n-3\n1.5\n\n'
NUM = '10\n9\n-3\n1.5\n-0\n0\nabc\n 7\n1e3\n+4\n.5\n-.5\n007\n'
H = '1K\n2M\n512\n1G\n-1K\n3k\n0.5M\nfoo\n'
V = 'a-1.10\na-1.9\na-1.1~rc1\na-1.1\nfile.tar.gz\nfile2.txt\nfile10.txt\n.hidden\n..\n.\nx\n'
T = 'b 2 x\na 10 y\nc 1 z\na 2 w\nb 2 a\n'
C = 'root:x:0:0\nuser:x:1000:100\nbin:x:2:2\ndaemon:x:1:1\nnobody:x:65534:65534\n'
M = 'mar 3\nJan 1\nfoo 0\nDEC 12\nfeb 2\n'
G = '1e3\n-inf\nnan\n2.5\nabc\n0x10\n100\ninf\n-5\n'
F = {'l': L, 'num': NUM, 'h': H, 'v': V, 't': T, 'c': C, 'm': M, 'g': G, 'un': 'b\na\n', 'so': 'a\nb\nb\n', 'd/': '', 'x': 'x3\nx1\n', 'y': 'x2\nx4\n'}
cases = []
for a in [[], ['-r'], ['-f'], ['-u'], ['-fu'], ['-b'], ['-d'], ['-n'], ['-rn'], ['-i'], ['-s', '-f']]:
    cases.append(case(['sort'] + a + ['l'], F))
for a in [['-n'], ['-g'], ['-h'], ['-nu'], ['-nr'], ['-k1n']]:
    cases.append(case(['sort'] + a + ['num'], F))
for a in [['-h'], ['-hr']]:
    cases.append(case(['sort'] + a + ['h'], F))
for a in [['-V'], ['-rV']]:
    cases.append(case(['sort'] + a + ['v'], F))
for a in [['-k2n'], ['-k2,2n'], ['-k2,2n', '-k3'], ['-k1,1', '-k2n'], ['-k1,1', '-u'], ['-k2,2n', '-s'], ['-k2nr', '-k1'], ['-k1.2'], ['-k3,3', '-r'], ['-k2,2n', '-u'], ['-t', ' ', '-k2,2'], ['-k', '2b,2'], ['-k2.1,2.1']]:
    cases.append(case(['sort'] + a + ['t'], F))
for a in [['-t:', '-k3,3n'], ['-t:', '-k3n', '-r'], ['-t', ':', '-k1,1'], ['-t:', '-k2'], ['-t:', '-k4,4nr', '-k1,1'], ['-t:', '-k3.2,3.3']]:
    cases.append(case(['sort'] + a + ['c'], F))
cases += [
 case(['sort', '-M', 'm'], F),
 case(['sort', '-g', 'g'], F),
 case(['sort', '-c', 'un'], F),
 case(['sort', '-C', 'un'], F),
 case(['sort', '-c', 'so'], F),
 case(['sort', '-cu', 'so'], F),
 case(['sort', '-c', '-', 'un'], F, stdin='a\n'),
 case(['sort', 'nosuch'], F),
 case(['sort', 'd'], F),
 case(['sort', '-t', 'ab'], F),
 case(['sort', '-k', '0'], F),
 case(['sort', '-k', '1.0'], F),
 case(['sort', '-k', '1,0'], F),
 case(['sort', '-k', 'a'], F),
 case(['sort', '-k1x'], F),
 case(['sort', '-n', '-g'], F),
 case(['sort', '-k1,1n', '-k2nd'], F),
 case(['sort', '--sort=foo'], F),
 case(['sort', '--sort=numeric', 'num'], F),
 case(['sort', '-o'], F),
 case(['sort', '-m', 'x', 'y'], F),
 case(['sort', '-z'], F, stdin='b\x00a\x00c'),
 case(['sort'], F, stdin='b\na'),
 case(['sort', 'x', 'y', '-r'], F),
 case(['sort', '--s'], F),
 case(['sort', '-S', '1M', 'un'], F),
 case(['sort', '-S', 'x', 'un'], F),
 case(['sort', '-n'], F, stdin='1,000\n999\n1.000\n'),
 case(['sort', '-R', '-n'], F),
 case(['sort', '-f', '-u'], F, stdin='a\nA\nb\nB\na\n'),
 case(['sort', '-b', '-k2'], F, stdin='x   b\ny a\nz  c\n'),
 case(['sort', '-k2'], F, stdin='x   b\ny a\nz  c\n'),
 case(['sort', '-k2b'], F, stdin='x   b\ny a\nz  c\n'),
 case(['sort', '-t,', '-k2,2', '-k1,1r'], F, stdin='a,1\nb,1\nc,0\n'),
 case(['sort', '-u', '-t,', '-k1,1'], F, stdin='a,3\nb,1\na,2\n'),
 case(['sort', '-n', '-k', '1,1', '-k', '2,2r'], F, stdin='1 a\n1 b\n0 c\n'),
 case(['sort', '-o', 'un', 'un'], F),
 case(['sort', '-h'], F, stdin='-1K\n-1M\n-2K\n0K\n1\n'),
 case(['sort', '-V'], F, stdin='1.10\n1.9\n1.1\n1.01\nv2\nv10\n'),
]
emit(D+'sort_test.go', 'TestSort', cases)
