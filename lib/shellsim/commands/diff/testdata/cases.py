A = ''.join('line %d\n' % i for i in range(1, 21))
B = A.replace('line 5\n', 'line five\n').replace('line 15\n', '').replace('line 20\n', 'line 20\nline 21\n')
C = 'a\nb\nc\na\nb\nc\n'
D = 'a\nc\nb\na\nc\n'
F = {'a.txt': A, 'b.txt': B, 'c': C, 'd': D, 'same': A, 'n1': 'a\nb', 'n2': 'a\nc', 'n3': 'a\nb\n', 'empty': '',
     'bin1': 'a\x00b\n', 'bin2': 'a\x00c\n',
     'd1/f': 'x\n', 'd2/f': 'y\n', 'd1/s/g': 'z\n', 'd2/s/g': 'z\n', 'd2/new': 'q\n', 'd1/s/h': 'h1\n', 'd2/s/h': 'h2\n',
     'ws1': 'a  b\nC\n x\n', 'ws2': 'a b\nc\nx\n',
     'p1': 'the quick\nbrown fox\n', 'p2': 'the slow\nbrown fox\njumps\n'}
CASES = []
def c(name, args, stdin='', files=F, **kw):
    CASES.append(dict(name=name, args=args, stdin=stdin, files=files, **kw))

c('normal', ['diff', 'a.txt', 'b.txt'])
c('unified', ['diff', '-u', 'a.txt', 'b.txt'])
c('unified-U1', ['diff', '-U', '1', 'a.txt', 'b.txt'])
c('unified-U0', ['diff', '-U0', 'a.txt', 'b.txt'])
c('unified-U10', ['diff', '-U10', 'a.txt', 'b.txt'])
c('same', ['diff', 'a.txt', 'same'])
c('ties-normal', ['diff', 'c', 'd'])
c('ties-unified', ['diff', '-u', 'c', 'd'])
c('ties-rev', ['diff', 'd', 'c'])
c('noeol', ['diff', 'n1', 'n2'])
c('noeol-u', ['diff', '-u', 'n1', 'n2'])
c('noeol-vs-eol', ['diff', 'n1', 'n3'])
c('empty-vs', ['diff', 'empty', 'n3'])
c('empty-vs-u', ['diff', '-u', 'empty', 'n3'])
c('vs-empty-u', ['diff', '-u', 'n3', 'empty'])
c('brief', ['diff', '-q', 'a.txt', 'b.txt'])
c('brief-same', ['diff', '-q', 'a.txt', 'same'])
c('binary', ['diff', 'bin1', 'bin2'])
c('missing', ['diff', 'a.txt', 'nosuch'])
c('missing-N', ['diff', '-N', 'a.txt', 'nosuch'], fix=[])
c('dirs', ['diff', 'd1', 'd2'])
c('dirs-r', ['diff', '-r', 'd1', 'd2'])
c('dirs-ru', ['diff', '-ru', 'd1', 'd2'])
c('dirs-q', ['diff', '-rq', 'd1', 'd2'])
c('file-dir', ['diff', 'd1/f', 'd2'])
c('stdin', ['diff', '-', 'n3'], stdin='a\nx\n')
c('icase', ['diff', '-i', 'ws1', 'ws2'])
c('space-b', ['diff', '-b', 'ws1', 'ws2'])
c('space-w', ['diff', '-w', 'ws1', 'ws2'])
c('label', ['diff', '-u', '--label', 'old', '--label', 'new', 'p1', 'p2'])
c('one-operand', ['diff', 'a.txt'])
c('bad-option', ['diff', '-Z', 'a', 'b']) if False else None
c('big-change', ['diff', 'a.txt', 'c'])
c('big-change-u', ['diff', '-u', 'c', 'a.txt'])
# GNU cmp says "char" in the C locale and "byte" in UTF-8 ones; ShellSim says byte.
c('cmp-differ', ['cmp', 'p1', 'p2'], fix=[('char', 'byte')])
c('cmp-same', ['cmp', 'a.txt', 'same'])
c('cmp-s', ['cmp', '-s', 'p1', 'p2'])
c('cmp-l', ['cmp', '-l', 'p1', 'p2'])
c('cmp-eof', ['cmp', 'n3', 'c'])
c('cmp-eof2', ['cmp', 'c', 'n3'])
c('cmp-empty', ['cmp', 'c', 'empty'])
c('cmp-missing', ['cmp', 'c', 'nosuch'])
c('cmp-b', ['cmp', '-b', 'p1', 'p2'])
c('cmp-n', ['cmp', '-n', '4', 'p1', 'p2'])
c('cmp-l-eof', ['cmp', '-l', 'n3', 'n2'])
c('cmp-stdin', ['cmp', 'n3', '-'], stdin='a\nb\n')

P1 = '--- a/p1\n+++ b/p1\n@@ -1,2 +1,3 @@\n-the quick\n+the slow\n brown fox\n+jumps\n'
c('patch-basic', ['patch', '-p1'], stdin=P1, check=['p1'])
c('patch-p0-name', ['patch', 'p1'], stdin=P1, check=['p1'])
c('patch-dry', ['patch', '-p1', '--dry-run'], stdin=P1, check=['p1'])
c('patch-i', ['patch', '-p1', '-i', 'fix.diff'], files=dict(F, **{'fix.diff': P1}), check=['p1'])
c('patch-R', ['patch', '-R', '-p1'], stdin=P1, files=dict(F, p1='the slow\nbrown fox\njumps\n'), check=['p1'])
c('patch-already', ['patch', '-p1', '-N'], stdin=P1, files=dict(F, p1='the slow\nbrown fox\njumps\n'), check=['p1'], fix=[(' -- saving rejects to file p1.rej', ' -- rejects not saved (no file was changed)')])
# ShellSim writes no reject files (patch is atomic) and says so.
c('patch-already-noN', ['patch', '-p1'], stdin=P1, files=dict(F, p1='the slow\nbrown fox\njumps\n'), check=['p1'], fix=[(' -- saving rejects to file p1.rej', ' -- rejects not saved (no file was changed)')])
PA = ''.join('--- a.txt\n+++ b.txt\n')
import subprocess
UD = subprocess.run(['diff', '-u', '--label', 'a/a.txt', '--label', 'b/a.txt', '/dev/stdin', '/dev/fd/3'], input=A.encode(), capture_output=True, pass_fds=(), ) if False else None
HUNKS = '--- a/a.txt\n+++ b/a.txt\n@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n@@ -12,7 +12,6 @@\n line 12\n line 13\n line 14\n-line 15\n line 16\n line 17\n line 18\n'
c('patch-multi-hunk', ['patch', '-p1'], stdin=HUNKS, check=['a.txt'])
c('patch-offset', ['patch', '-p1'], stdin=HUNKS, files=dict(F, **{'a.txt': 'extra 1\nextra 2\nextra 3\n' + A}), check=['a.txt'])
c('patch-fuzz', ['patch', '-p1'], stdin=HUNKS, files=dict(F, **{'a.txt': A.replace('line 2\n', 'LINE 2\n').replace('line 18\n', 'line eighteen\n')}), check=['a.txt'])
c('patch-create', ['patch', '-p1'], stdin='--- /dev/null\n+++ b/newdir/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n', dirs=['newdir'], check=['newdir/new.txt'])
c('patch-delete', ['patch', '-p1'], stdin='--- a/n3\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n', check=['n3'])
c('patch-noeol', ['patch', '-p1'], stdin='--- a/n1\n+++ b/n1\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n', check=['n1'])
c('patch-garbage', ['patch', '-p1'], stdin='hello\n')
c('patch-missing-file', ['patch', '-p1'], stdin='--- a/zzz\n+++ b/zzz\n@@ -1 +1 @@\n-a\n+b\n')
c('patch-two-files', ['patch', '-p1'], stdin=P1 + '--- a/n3\n+++ b/n3\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n', check=['p1', 'n3'])
c('patch-git', ['patch', '-p1'], stdin='diff --git a/p1 b/p1\nindex 123..456 100644\n' + P1, check=['p1'])
c('patch-silent', ['patch', '-s', '-p1'], stdin=P1, check=['p1'])
c('dirs-exclude', ['diff', '-r', '-x', 's', 'd1', 'd2'])
c('dirs-exclude-long', ['diff', '-r', '--exclude=ne*', 'd1', 'd2'])
c('patch-both-exist', ['patch', '-p0', '--dry-run'], stdin='--- src/a.txt\n+++ src/b.txt\n@@ -1,2 +1,3 @@\n hello\n world\n+extra\n', files=dict(F, **{'src/a.txt': 'hello\nworld\n', 'src/b.txt': 'hello\nworld\nextra\n'}))
c('patch-nostrip-missing', ['patch', '--dry-run'], stdin='--- x/deep/f\n+++ y/deep/f\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n')
c('patch-nostrip-basename', ['patch'], stdin='--- x/deep/n3\n+++ y/deep/n3\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n', check=['n3'])
# In the C locale GNU diff -c prints ctime-style dates; ShellSim runs in
# C.UTF-8, where it prints ISO dates, so these cases run under C.UTF-8.
U8 = {'LC_ALL': 'C.UTF-8'}
CF = dict(F, **{'c1': 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n', 'c2': 'a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n', 'c3': 'x\n', 'c4': '', 'c5': 'a\nb', 'c6': 'a\nc'})
c('context', ['diff', '-c', 'c1', 'c2'], files=CF, env=U8)
c('context-empty1', ['diff', '-c', 'c4', 'c3'], files=CF, env=U8)
c('context-empty2', ['diff', '-c', 'c3', 'c4'], files=CF, env=U8)
c('context-C1', ['diff', '-C1', 'c1', 'c2'], files=CF, env=U8)
c('context-noeol', ['diff', '-c', 'c5', 'c6'], files=CF, env=U8)
c('context-big', ['diff', '-c', 'a.txt', 'b.txt'], env=U8)
c('context-C0', ['diff', '-C', '0', 'a.txt', 'b.txt'], env=U8)
