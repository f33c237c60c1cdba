import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import *
D = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..') + '/'
I = {'in': ''.join('%d\n' % i for i in range(1, 11))}
emit(D+'split_test.go', 'TestSplit', [
 case_files(['split', '-l', '3', 'in'], I),
 case_files(['split', '-l', '3', '-d', '--verbose', 'in', 'p_'], I),
 case_files(['split', '-b', '7', '-a', '3', 'in', 'b'], I),
 case_files(['split', '-n', '3', 'in', 'n'], I),
 case_files(['split', '-n', 'l/3', 'in', 'L'], I),
 case_files(['split', '-n', 'r/3', 'in', 'R'], I),
 case_files(['split', '-n', '2/3', 'in'], I),
 case_files(['split', '-n', 'l/2/3', 'in'], I),
 case_files(['split', '-n', 'r/1/3', 'in'], I),
 case_files(['split', '-l', '0', 'in'], I),
 case_files(['split', '-C', '6', 'in', 'C'], I),
 case_files(['split', '-l', '1', '-a', '1', 'in', 's'], I),
 case_files(['split', '-l', '1', '-a', '1', '-d', 'in', 's'], I),
 case_files(['split', 'nosuch'], I),
 case_files(['split', '-n', '20', 'in', 'E', '-e'], {'in': 'abc'}),
 case_files(['split', '-n', '5', 'in', 'E'], {'in': 'abc'}),
 case_files(['split', '-l', '2', '--additional-suffix=.txt', 'in', 'A'], I),
 case_files(['split', '-x', '-l', '5', 'in', 'X'], I),
 case_files(['split', '--numeric-suffixes=5', '-l', '5', 'in', 'N5'], I),
 case_files(['split', '-b', 'x', 'in'], I),
 case_files(['split', '-l', '4'], {}, stdin='a\nb\nc\nd\ne\n'),
 case_files(['split', '-b', '1'], {}, stdin='abcd'),
 case_files(['split', '-t', ';', '-l', '2', 'in'], {'in': 'a;b;c;d;e'}),
 case_files(['split', 'in', 'a', 'b'], I),
 case_files(['split', '-l', '1', '-a', '1', 'in'], {'in': 'x\n' * 30}),
])
