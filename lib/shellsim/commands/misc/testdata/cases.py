import gzip as gz, io, tarfile, zipfile
def mktar():
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode='w', format=tarfile.GNU_FORMAT) as t:
        ti = tarfile.TarInfo('a.txt'); ti.size = 3; t.addfile(ti, io.BytesIO(b'hi\n'))
    return b.getvalue()
def mkzip():
    b = io.BytesIO()
    with zipfile.ZipFile(b, 'w') as z:
        z.writestr(zipfile.ZipInfo('a.txt', date_time=(2025, 1, 1, 0, 0, 0)), b'hi\n')
    return b.getvalue()
F = {'a.txt': 'hello\n', 'empty': '', 'u.txt': 'h\u00e9llo\n', 'crlf': 'a\r\nb\r\n', 'noeol': 'noeol', 's.sh': '#!/bin/bash\necho\n',
     'p.sh': '#!/bin/sh\necho\n', 'py': '#!/usr/bin/env python3\nprint(1)\n', 'j.json': '{"a": [1, 2]}\n', 'bin': b'\x00\x01\x02',
     'i.html': '<html><body></body></html>\n', 'long': 'x' * 400, 'g.gz': gz.compress(b'hello\n', mtime=0), 't.tar': mktar(), 'z.zip': mkzip(),
     'x.py': 'import os\n', 'data.txt': 'hello world\n', 'tmpl': 'Hi $USER, home=${HOME} $NOPE $$ ${A:-b} $1x\n', 'prog.bc': 'define sq(x) { return x*x; }\nsq(12)\n'}
CASES = []
def c(name, args, stdin='', files=F, **kw):
    CASES.append(dict(name=name, args=args, stdin=stdin, files=files, **kw))
c('file-all', ['file', 'a.txt', 'empty', 'u.txt', 'crlf', 'noeol', 's.sh', 'p.sh', 'py', 'j.json', 'bin', 'i.html', 'long', 't.tar', 'z.zip', 'x.py', 'd'], dirs=['d'])
c('file-gz', ['file', 'g.gz'])
c('file-brief', ['file', '-b', 'a.txt'])
c('file-mime-type', ['file', '--mime-type', 'a.txt', 'j.json'])
c('file-mime', ['file', '-i', 'a.txt', 'u.txt'])
c('file-missing', ['file', 'nosuch'])
c('envsubst', ['envsubst'], stdin=F['tmpl'], env={'USER': 'u', 'HOME': '/h'})
c('envsubst-format', ['envsubst', '$USER'], stdin=F['tmpl'], env={'USER': 'u', 'HOME': '/h'})
c('envsubst-format2', ['envsubst', 'x ${HOME} y'], stdin=F['tmpl'], env={'USER': 'u', 'HOME': '/h'})
c('envsubst-v', ['envsubst', '-v', '$A ${B} $C_1 $$ ${D:-x}'])
c('install-missing-dest', ['install', 'a.txt'])
c('install-v', ['install', '-v', 'a.txt', 'b'], check=['b'])
c('install-d', ['install', '-d', '-v', 'x/y'])
c('install-D', ['install', '-D', '-v', 'a.txt', 'p/q/r'], check=['p/q/r'])
c('install-nosrc', ['install', '-m', '644', 'nosuch', 'z'])
c('install-badmode', ['install', '-m', '999', 'a.txt', 'z'])
c('install-todir', ['install', '-v', 'a.txt', 'data.txt', 'd'], dirs=['d'], check=['d/a.txt'])
c('install-notdir', ['install', 'a.txt', 'data.txt', 'nodir'])
c('install-d-exists', ['install', '-d', 'a.txt'])
DDFIX = [(r'copied, [0-9.e-]+ s, [0-9.]+ [kMG]?B/s', 'copied, 0 s, Infinity B/s')]
c('dd-default', ['dd'], stdin='hello\n', refix=DDFIX)
c('dd-bs', ['dd', 'bs=4'], stdin='hello world\n', refix=DDFIX)
c('dd-big', ['dd', 'bs=1K'], stdin='z' * 2000, refix=DDFIX)
c('dd-noxfer', ['dd', 'bs=1M', 'status=noxfer'], stdin='z' * 2000)
c('dd-ucase', ['dd', 'conv=ucase', 'status=none'], stdin='hello')
c('dd-skip-count', ['dd', 'bs=2', 'skip=1', 'count=2', 'status=none'], stdin='abcdefgh')
c('dd-if-of', ['dd', 'if=data.txt', 'of=out', 'bs=5'], refix=DDFIX, check=['out'])
c('dd-seek-notrunc', ['dd', 'if=a.txt', 'of=data.txt', 'bs=1', 'seek=2', 'conv=notrunc', 'status=none'], check=['data.txt'])
c('dd-seek-trunc', ['dd', 'if=a.txt', 'of=data.txt', 'bs=1', 'seek=2', 'count=3', 'status=none'], check=['data.txt'])
c('dd-ibs-obs', ['dd', 'ibs=1', 'obs=2'], stdin='abc', refix=DDFIX)
c('dd-missing', ['dd', 'if=nosuch'])
c('dd-badnum', ['dd', 'bs=x'], fix=[('\u2018', "'"), ('\u2019', "'")])
c('dd-badop', ['dd', 'foo=1'], fix=[('\u2018', "'"), ('\u2019', "'")])
c('dd-one-byte', ['dd', 'bs=1', 'count=1'], stdin='xy', refix=DDFIX)
BC = '''scale=2; 1-1.00
0.5
-0.5
1/3
scale=0; 7/2; -7/2; 7%3; -7%3; 2^10; 2^-1; scale=5; 2^-1; 1.5^2; sqrt(2)
x=3; x; x+=2; x; ++x; x++; x
length(123.45); scale(1.234)
2^200
obase=16; 255; obase=2; 5; obase=10
ibase=16; FF; ibase=A
"str\\n"
print "a", 1, "\\n"
if (1<2) 10 else 20
i=0; while (i<3) { i; i=i+1 }
for (j=0;j<2;j++) j
define f(n) { if (n<2) return 1; return n*f(n-1); }
f(10)
define g() { auto a; a=5; }
g()
3 == 3; 3 != 3; !0; 1 && 0; 0 || 2
a[1]=5; a[2]=7; a[1]+a[2]
scale=3; -1.2345 % 1; 12345.6789 % 7; 1.0000; .000; 0.10*3
scale=20; 1/7
2^0.5
'''
BC = BC.replace('2^0.5', '\n' * 0 + '2^0.5')
c('bc-basics', ['bc'], stdin=BC, refix=[(r'adr=\d+', 'adr=1')])
c('bc-div0', ['bc'], stdin='10/0; 5\n6\n', refix=[(r'adr=\d+', 'adr=1')])
c('bc-sqrt-neg', ['bc'], stdin='sqrt(-1)\n7\n', refix=[(r'adr=\d+', 'adr=1')])
c('bc-syntax', ['bc'], stdin='1 +\n4\n')
c('bc-l', ['bc', '-l'], stdin='s(1); c(0); a(1)*4; l(2); e(1); scale; 1/3; e(0); l(10); s(0.5); c(1); a(0.5); e(-1); l(0.5)\n')
c('bc-long', ['bc'], stdin='2^400\n')
c('bc-file', ['bc', 'prog.bc'], stdin='sq(3)\n')
c('bc-quit', ['bc'], stdin='1\nquit\n2\n')
c('bc-dyn-scope', ['bc'], stdin='define f() { return x; }\ndefine g() { auto x; x = 5; return f(); }\nx = 1; g(); f()\n')
c('bc-break', ['bc'], stdin='for (i=0; i<10; i++) { if (i == 3) break; i }\n')
c('bc-obase16-frac', ['bc'], stdin='obase=16; scale=4; 10.5; 255/7\n')
c('bc-neg-frac', ['bc'], stdin='scale=3; -2/3; -7.5*2\n')
c('bc-last', ['bc'], stdin='5\nlast+1\n')
c('file-stdin', ['file', '-'], stdin='hi\n')
c('file-stdin-b', ['file', '-b', '-'], stdin='{"a": 1}\n')
