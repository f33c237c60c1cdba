import subprocess, random, shlex, sys, os, tempfile, shutil
SIM = os.environ.get('SHELLSIM', 'shellsim')
def pf(b):
    return "printf '" + ''.join('\\%03o' % c for c in b) + "'"
def host(args, files, stdin=b''):
    d = tempfile.mkdtemp()
    try:
        for n, c in files.items():
            os.makedirs(os.path.dirname(os.path.join(d, n)) or d, exist_ok=True)
            open(os.path.join(d, n), 'wb').write(c)
        r = subprocess.run(args, cwd=d, input=stdin, capture_output=True, env={'LC_ALL': 'C', 'PATH': os.environ['PATH']}, timeout=10)
        return r.stdout, r.stderr, r.returncode
    finally:
        shutil.rmtree(d)
def sim(args, files, stdin=b''):
    src = []
    for n, c in files.items():
        if '/' in n: src.append('mkdir -p ' + shlex.quote(os.path.dirname(n)))
        src.append(pf(c) + ' > ' + shlex.quote(n))
    src.append(' '.join(shlex.quote(a) for a in args))
    r = subprocess.run([SIM, '-c', '\n'.join(src)], input=stdin, capture_output=True, timeout=20)
    return r.stdout, r.stderr, r.returncode
WORDS = ['a', 'b', 'c', 'ab', '1', '2', '10', 'x', 'foo', 'Foo', 'bar']
def sorted_lines(n, uniq=False):
    ls = sorted(random.choice(WORDS) + random.choice(['', ' 1', ' 2', ' q z']) for _ in range(n))
    if uniq: ls = sorted(set(ls))
    return ('\n'.join(ls) + ('\n' if ls else '')).encode()
def rand_lines(n):
    ls = [' '.join(random.choice(WORDS) for _ in range(random.randint(0, 3))) for _ in range(n)]
    return ('\n'.join(ls) + ('\n' if ls else '')).encode()
random.seed(int(sys.argv[2]))
fails = 0
for i in range(int(sys.argv[3])):
    cmd = sys.argv[1]
    if cmd == 'join':
        files = {'f1': sorted_lines(random.randint(0, 6)), 'f2': sorted_lines(random.randint(0, 6))}
        if random.random() < 0.2: files['f1'] = rand_lines(5)
        opts = random.sample(['-a1', '-a2', '-v1', '-v2', '-i', '-e', 'NA', '-o', 'auto', '-o', '0,1.2,2.2', '-j1', '--nocheck-order', '--check-order', '--header', '-t '], random.randint(0, 3))
        args = ['join'] + [o for o in opts] + ['f1', 'f2']
        if '-e' in args and args.index('-e') == len(args) - 3: pass
    elif cmd == 'comm':
        files = {'f1': sorted_lines(random.randint(0, 6), True), 'f2': sorted_lines(random.randint(0, 6), True)}
        if random.random() < 0.2: files['f1'] = rand_lines(5)
        args = ['comm'] + random.sample(['-1', '-2', '-3', '--total', '--check-order', '--nocheck-order', '--output-delimiter=|'], random.randint(0, 2)) + ['f1', 'f2']
    elif cmd == 'grep':
        files = {'a.txt': rand_lines(5), 'b.log': rand_lines(4), 'd/c.txt': rand_lines(3), 'd/e/f.txt': rand_lines(2)}
        pat = random.choice(['a', 'foo', '^b', 'x$', '1\\|2', '[A-Z]'])
        opts = random.sample(['-r', '-l', '-L', '-c', '-n', '-h', '-H', '-i', '-v', '-o', '-w', '--include=*.txt', '--exclude=*.log', '--exclude-dir=e', '-m1', '-s', '-q', '-C1'], random.randint(0, 3))
        ops = random.choice([['a.txt'], ['a.txt', 'b.log'], ['d'], ['nosuch', 'a.txt'], ['d/e'], ['a.txt', 'd/c.txt']])
        args = ['grep'] + opts + ['--', pat] + ops
        # readdir order differs from GNU's: only compare when output order is defined
        if '-r' in opts and ops == ['d']: continue
    elif cmd == 'sortf':
        files = {'f1': rand_lines(5), 'f2': rand_lines(4)}
        args = ['sort'] + random.sample(['-m', '-u', '-r', '-o', 'f1', '-c', '-k2', '-n'], random.randint(0, 2)) + ['f1', 'f2']
    elif cmd == 'misc':
        files = {'f1': rand_lines(5), 'f2': rand_lines(3)}
        c = random.choice([['head', '-n2'], ['tail', '-n1'], ['wc'], ['wc', '-l'], ['cat', '-n'], ['paste'], ['nl'], ['tac'], ['cut', '-d', ' ', '-f2'], ['head', '-v', '-c3'], ['tail', '-q', '-n2'], ['uniq'], ['rev'], ['fold', '-w3']])
        ops = random.choice([['f1'], ['f1', 'f2'], ['f2', 'nosuch', 'f1'], ['-', 'f1']])
        args = c + ops
    h = host(args, files, b'in1\nin2\n'); s = sim(args, files, b'in1\nin2\n')
    if h != s:
        fails += 1
        if fails <= 6:
            print('DIFF', args, files)
            print('  host', h)
            print('  sim ', s)
print('fails', fails)
