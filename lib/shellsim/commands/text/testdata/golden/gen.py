import subprocess, tempfile, os, sys, json

def golit(s):
    # Go string literal
    if '`' not in s and '\r' not in s and all(c == '\n' or c == '\t' or 32 <= ord(c) < 127 for c in s) and s.count('\n') > 1:
        return '`' + s + '`'
    out = '"'
    for ch in s:
        o = ord(ch)
        if ch == '"': out += '\\"'
        elif ch == '\\': out += '\\\\'
        elif ch == '\n': out += '\\n'
        elif ch == '\t': out += '\\t'
        elif 32 <= o < 127: out += ch
        elif o < 256: out += '\\x%02x' % o
        else: out += ch
    return out + '"'

# Fixture maps used by more than one case of a table are declared once, as a
# package-level variable next to the test, and referenced by name.
_fixtures = []

def fmap(files):
    lit = 'map[string]string{%s}' % ', '.join('%s: %s' % (golit(k), golit(v)) for k, v in sorted(files.items()))
    if lit not in _fixtures:
        _fixtures.append(lit)
    return '@@FIXTURE%d@@' % _fixtures.index(lit)

def run(args, files=None, stdin='', env=None):
    files = files or {}
    with tempfile.TemporaryDirectory() as d:
        for p, c in files.items():
            fp = os.path.join(d, p)
            if p.endswith('/'):
                os.makedirs(fp, exist_ok=True); continue
            os.makedirs(os.path.dirname(fp), exist_ok=True)
            with open(fp, 'wb') as f: f.write(c.encode('latin-1'))
        e = {'LC_ALL': 'C', 'PATH': os.environ['PATH']}
        if env: e.update(env)
        r = subprocess.run(args, cwd=d, input=stdin.encode('latin-1'), capture_output=True, env=e, timeout=10)
        return r.stdout.decode('latin-1'), r.stderr.decode('latin-1'), r.returncode, d

def case(args, files=None, stdin='', name=None, env=None):
    out, err, st, _ = run(args, files, stdin, env)
    parts = []
    if name: parts.append('name: %s' % golit(name))
    parts.append('args: []string{%s}' % ', '.join(golit(a) for a in args))
    if files:
        parts.append('files: ' + fmap(files))
    if stdin: parts.append('stdin: %s' % golit(stdin))
    if env: parts.append('env: map[string]string{%s}' % ', '.join('%s: %s' % (golit(k), golit(v)) for k, v in sorted(env.items())))
    parts.append('out: %s' % golit(out))
    if err: parts.append('err: %s' % golit(err))
    if st: parts.append('status: %d' % st)
    return '\t\t{' + ', '.join(parts) + '},'

def emit(pkgfile, funcname, cases, note='Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.'):
    body = '\n'.join(cases)
    prefix = funcname[len('Test'):]
    prefix = prefix[:1].lower() + prefix[1:]
    decls, n = [], 0
    for i, lit in enumerate(_fixtures):
        tok = '@@FIXTURE%d@@' % i
        if body.count(tok) > 1:
            n += 1
            name = '%sFiles%d' % (prefix, n)
            decls.append('var %s = %s' % (name, lit))
            body = body.replace(tok, name)
        else:
            body = body.replace(tok, lit)
    _fixtures.clear()
    lines = ['package text', '', 'import "testing"', '']
    if decls:
        lines += ['// Fixtures shared by several cases below.'] + decls + ['']
    lines += ['// ' + note, 'func %s(t *testing.T) {' % funcname, '\trunTable(t, []tc{', body]
    lines += ['\t})', '}', '']
    open(pkgfile, 'w').write('\n'.join(lines))

def case_files(args, files=None, stdin='', name=None):
    files = files or {}
    import shutil
    d = tempfile.mkdtemp()
    try:
        for p, c in files.items():
            with open(os.path.join(d, p), 'wb') as f: f.write(c.encode('latin-1'))
        e = {'LC_ALL': 'C', 'PATH': os.environ['PATH']}
        r = subprocess.run(args, cwd=d, input=stdin.encode('latin-1'), capture_output=True, env=e, timeout=10)
        out, err, st = r.stdout.decode('latin-1'), r.stderr.decode('latin-1'), r.returncode
        created = {}
        for fn in sorted(os.listdir(d)):
            if fn in files: continue
            created[fn] = open(os.path.join(d, fn), 'rb').read().decode('latin-1')
    finally:
        shutil.rmtree(d)
    parts = ['args: []string{%s}' % ', '.join(golit(a) for a in args)]
    if files:
        parts.append('files: ' + fmap(files))
    if stdin: parts.append('stdin: %s' % golit(stdin))
    parts.append('out: %s' % golit(out))
    if err: parts.append('err: %s' % golit(err))
    if st: parts.append('status: %d' % st)
    parts.append('check: wantFiles(%s, map[string]string{%s})' % (
        fmap(files),
        ', '.join('%s: %s' % (golit(k), golit(v)) for k, v in created.items())))
    return '\t\t{' + ', '.join(parts) + '},'
