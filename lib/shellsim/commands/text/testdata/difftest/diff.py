import subprocess, random, shlex, sys, os
SIM = os.environ.get('SHELLSIM', 'shellsim')
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
def host(args, stdin):
    r = subprocess.run(args, input=stdin, capture_output=True, env={'LC_ALL': 'C', 'PATH': os.environ['PATH']}, timeout=10)
    return r.stdout, r.stderr, r.returncode
def sim(args, stdin):
    src = ' '.join(shlex.quote(a) for a in args)
    r = subprocess.run([SIM, '-c', src], input=stdin, capture_output=True, timeout=20)
    return r.stdout, r.stderr, r.returncode
WORDS = ['a', 'b', 'B', 'ab', '10', '9', '-1', '1.5', ' x', 'x y', 'foo', 'Foo', '', '2K', '1M', 'v1.2', 'v1.10', 'a:b', ':', '\t', 'z z z', '007', '-0', 'e', '1e3']
def line():
    n = random.randint(0, 4)
    sep = random.choice([' ', ':', '\t', ','])
    return sep.join(random.choice(WORDS) for _ in range(n))
def text():
    ls = [line() for _ in range(random.randint(0, 8))]
    s = '\n'.join(ls)
    if ls and random.random() < 0.8: s += '\n'
    return s.encode()
def gen(cmd):
    if cmd == 'sort':
        opts = random.sample(['-n', '-r', '-f', '-u', '-b', '-s', '-h', '-V', '-d', '-g', '-M', '-i', '-t:', '-t,', '-k2', '-k1,1', '-k2,2n', '-k1.2', '-k3r', '-k2b', '-k1,1f', '-k2,3'], random.randint(0, 3))
        return ['sort'] + opts
    if cmd == 'grep':
        pat = random.choice(['a', 'b', '^a', 'a$', '[0-9]', '[[:space:]]', 'x y', '.', 'a*', '\\(a\\)', 'a\\|b', 'fo\\+', '[^a-z]', '1\\{2\\}', 'o', '^$', ''])
        opts = random.sample(['-i', '-v', '-c', '-n', '-o', '-w', '-x', '-E', '-F', '-b', '-h', '-H', '-m1', '-A1', '-B1', '-C1', '-l', '-L', '-q', '-s', '-e', '-z'], random.randint(0, 3))
        if '-e' in opts:
            opts.remove('-e'); return ['grep'] + opts + ['-e', pat]
        return ['grep'] + opts + ['--', pat]
    if cmd == 'cut':
        mode = random.choice(['-f', '-c', '-b'])
        lst = random.choice(['1', '2', '1,3', '2-', '-2', '1-2,4', '3-5', '1,1'])
        opts = [mode, lst]
        if mode == '-f':
            opts += random.sample(['-d:', '-d,', '-s', '--complement', '--output-delimiter=|', '-d '], random.randint(0, 2))
        else:
            opts += random.sample(['--complement', '--output-delimiter=|'], random.randint(0, 1))
        return ['cut'] + opts
    if cmd == 'uniq':
        return ['uniq'] + random.sample(['-c', '-d', '-u', '-i', '-f1', '-s1', '-w2', '-D', '--group'], random.randint(0, 2))
    if cmd == 'tr':
        sets = random.choice([['a-z', 'A-Z'], ['-d', ' '], ['-s', ' '], ['-cd', '[:alnum:]\\n'], ['[:lower:]', '[:upper:]'], ['-s', 'a-z'], ['ab', 'x'], ['-c', 'a-z', '_'], ['-ds', 'a', 'b'], ['0-9', '#']])
        return ['tr'] + sets
    if cmd == 'wc':
        return ['wc'] + random.sample(['-l', '-w', '-c', '-m', '-L'], random.randint(0, 3))
    if cmd == 'head':
        return ['head'] + random.choice([[], ['-n', '2'], ['-n', '-2'], ['-c', '5'], ['-c', '-3'], ['-3'], ['-n', '0']])
    if cmd == 'tail':
        return ['tail'] + random.choice([[], ['-n', '2'], ['-n', '+2'], ['-c', '5'], ['-c', '+3'], ['-3'], ['-n', '0'], ['+2']])
    if cmd == 'nl':
        return ['nl'] + random.sample(['-ba', '-bt', '-nln', '-nrz', '-w3', '-s:', '-v0', '-i2'], random.randint(0, 3))
    if cmd == 'fold':
        return ['fold'] + random.sample(['-w5', '-s', '-b', '-w3'], random.randint(0, 2))
    if cmd == 'paste':
        return ['paste'] + random.sample(['-s', '-d,', '-d:;'], random.randint(0, 2)) + ['-']
    if cmd == 'rev': return ['rev']
    if cmd == 'tac': return ['tac'] + random.choice([[], ['-s', ':'], ['-b'], ['-r', '-s', '[0-9]']])
    if cmd == 'expand': return ['expand'] + random.choice([[], ['-t3'], ['-t', '2,5'], ['-i']])
    if cmd == 'fmt': return ['fmt'] + random.choice([['-p', ':', '-w10'], ['-p', 'a', '-w8'], ['-p', ' x ', '-w12'], ['-w10'], ['-w20', '-u'], ['-s', '-w5'], ['-c', '-w8'], ['-t', '-w9']])
    if cmd == 'column': return ['column'] + random.choice([['-t'], ['-t', '-s:'], ['-t', '-s', ':,'], [], ['-x'], ['-c', '30']])
cmds = sys.argv[1].split(',')
fails = 0
for i in range(int(sys.argv[3]) if len(sys.argv) > 3 else 200):
    cmd = random.choice(cmds)
    args = gen(cmd)
    inp = text()
    h = host(args, inp); s = sim(args, inp)
    if h != s:
        fails += 1
        if fails <= 8:
            print('DIFF', args, repr(inp))
            print('  host', h)
            print('  sim ', s)
print('fails', fails)
