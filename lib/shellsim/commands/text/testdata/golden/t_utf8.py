import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen
from gen import *
D = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..') + '/'
# Diagnostics under LANG=C.UTF-8, ShellSim's default locale: quote() uses
# curved quotes, quoteaf() (file names) and getopt keep ASCII ones.
U = {'LANG': 'C.UTF-8'}
F = {'n5': '1\n2\n', 'd/': ''}
def ucase(args, files=None, stdin=''):
    # run with LANG=C.UTF-8 and no LC_ALL
    old = gen.run
    def run(a, f=None, s='', env=None):
        files = f or {}
        import tempfile, subprocess
        with tempfile.TemporaryDirectory() as d:
            for p, c in files.items():
                fp = os.path.join(d, p)
                if p.endswith('/'):
                    os.makedirs(fp, exist_ok=True); continue
                open(fp, 'wb').write(c.encode('latin-1'))
            r = subprocess.run(a, cwd=d, input=s.encode('latin-1'), capture_output=True, env={'LANG': 'C.UTF-8', 'PATH': os.environ['PATH']}, timeout=10)
            return r.stdout.decode('latin-1'), r.stderr.decode('latin-1'), r.returncode, d
    gen.run = run
    try:
        return case(args, files, stdin, env=U)
    finally:
        gen.run = old
emit(D+'locale_test.go', 'TestUTF8Diagnostics', [
 ucase(['head', '-n', 'x', 'n5'], F),
 ucase(['head', 'nosuch'], F),
 ucase(['sort', '--sort=foo'], F),
 ucase(['sort', '-S', 'x'], F),
 ucase(['sort', '--foo'], F),
 ucase(['join', 'a', 'b', 'c'], F),
 ucase(['uniq', 'a', 'b', 'c'], F),
 ucase(['wc', '--files0-from=x', 'a'], F),
 ucase(['tr', 'a'], F),
 ucase(['tr', 'z-a', 'x'], F),
 ucase(['cut', '-f', 'x'], F),
 ucase(['seq', '-f', '%g%g', '1'], F),
 ucase(['tac', 'nosuch'], F),
 ucase(['tail', '--follow=x', 'n5'], F),
 ucase(['wc', '-m'], F, stdin='h\xc3\xa9llo\n'),
 ucase(['grep', '-c', '.'], F, stdin='a\xff\n'),
 ucase(['grep', '-oE', '\\w+'], F, stdin='caf\xc3\xa9 na\xc3\xafve \xc3\x9cn\xc3\xafcode 123 x_y\n'),
 ucase(['grep', '-oE', '[[:alpha:]]+'], F, stdin='caf\xc3\xa9 na\xc3\xafve\n'),
 ucase(['grep', '-o', '[[:upper:]]\\+'], F, stdin='\xc3\x89COLE \xc3\xa9cole\n'),
 ucase(['grep', '-ow', 'caf'], F, stdin='caf\xc3\xa9\n'),
 ucase(['grep', '-o', '\\bbar\\>'], F, stdin='caf\xc3\xa9 bar\xc3\xa9 bar\n'),
 ucase(['grep', '-io', 'ω'], F, stdin='\xce\xa9mega\n'),
 ucase(['grep', '-o', '[^[:space:][:punct:]]\\+'], F, stdin='a\xc2\xb7b, c\xe2\x80\x83d\n'),
 ucase(['grep', '-c', '^.$'], F, stdin='\xc3\xa9\n'),
], note='Goldens recorded from GNU coreutils 9.1 / grep 3.8 with LANG=C.UTF-8 on the build host.')
