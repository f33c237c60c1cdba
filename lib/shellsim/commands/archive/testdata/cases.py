import io, tarfile, zipfile, gzip as gz
def mktar(members, compress=False):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode='w:gz' if compress else 'w', format=tarfile.GNU_FORMAT) as t:
        for m in members:
            name, kind, data = m
            ti = tarfile.TarInfo(name)
            ti.mtime = 1735689600
            ti.uname = ti.gname = 'root'
            if kind == 'dir':
                ti.type = tarfile.DIRTYPE; ti.mode = 0o755
                t.addfile(ti)
            elif kind == 'sym':
                ti.type = tarfile.SYMTYPE; ti.linkname = data; ti.mode = 0o777
                t.addfile(ti)
            else:
                ti.size = len(data); ti.mode = 0o644
                t.addfile(ti, io.BytesIO(data))
    return b.getvalue()
def mkzip(members):
    b = io.BytesIO()
    with zipfile.ZipFile(b, 'w') as z:
        for name, data, method in members:
            zi = zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0))
            zi.compress_type = method
            zi.external_attr = (0o40755 << 16) if name.endswith('/') else (0o100644 << 16)
            z.writestr(zi, data)
    return b.getvalue()
BIG = ('hello world ' * 200).encode()
T = mktar([('d/', 'dir', None), ('d/a.txt', 'file', b'hello\n'), ('d/s/', 'dir', None), ('d/s/b', 'file', b'x\n'), ('d/l', 'sym', 'a.txt')])
TGZ = mktar([('d/', 'dir', None), ('d/a.txt', 'file', b'hello\n')], compress=True)
Z = mkzip([('d/', b'', zipfile.ZIP_STORED), ('d/a.txt', b'hello\n', zipfile.ZIP_STORED), ('d/big.txt', BIG, zipfile.ZIP_DEFLATED)])
ZEVIL = mkzip([('../evil.txt', b'bad\n', zipfile.ZIP_STORED), ('ok.txt', b'ok\n', zipfile.ZIP_STORED)])
GZ = gz.compress(b'hello\n', mtime=0)
F = {'x.tar': T, 'x.tgz': TGZ, 'x.zip': Z, 'evil.zip': ZEVIL, 'a.txt': 'hello\n', 'a.txt.gz': GZ, 'plain': 'hi\n', 'p.gz': 'hi\n', 'big.txt': BIG}
CASES = []
def c(name, args, stdin='', files=F, **kw):
    CASES.append(dict(name=name, args=args, stdin=stdin, files=files, **kw))
c('tar-t', ['tar', 'tf', 'x.tar'])
c('tar-tv', ['tar', '-tvf', 'x.tar'])
c('tar-tz', ['tar', 'tzf', 'x.tgz'])
c('tar-t-auto-gz', ['tar', '-tf', 'x.tgz'])
c('tar-t-member', ['tar', '-tf', 'x.tar', 'd/s'])
c('tar-t-missing-member', ['tar', '-tf', 'x.tar', 'nope'])
c('tar-x', ['tar', 'xf', 'x.tar'], check=['d/a.txt', 'd/s/b'])
c('tar-xv', ['tar', '-xvf', 'x.tar'], check=['d/a.txt'])
c('tar-x-strip', ['tar', '-xf', 'x.tar', '--strip-components=1'], check=['a.txt', 's/b'])
c('tar-x-C', ['tar', '-xf', 'x.tar', '-C', 'out'], dirs=['out'], check=['out/d/a.txt'])
c('tar-xO', ['tar', '-xOf', 'x.tar', 'd/a.txt'])
c('tar-x-stdin', ['tar', '-xzf', '-'], stdin=TGZ, check=['d/a.txt'])
c('tar-missing', ['tar', '-tf', 'nope.tar'])
c('tar-not-tar', ['tar', '-tf', 'a.txt'])
c('tar-z-not-gz', ['tar', '-tzf', 'x.tar'])
c('tar-no-mode', ['tar', 'f', 'x.tar'])
c('tar-empty-create', ['tar', 'cf', 'y.tar'])
c('gzip-l', ['gzip', '-l', 'a.txt.gz'])
c('gzip-exists', ['gzip', '-k', 'a.txt'])
c('gzip-already', ['gzip', 'a.txt.gz'])
c('gzip-dir', ['gzip', 'out'], dirs=['out'])
c('gzip-missing', ['gzip', 'nosuch'])
c('gunzip-suffix', ['gunzip', 'plain'])
c('gunzip-notgz', ['gunzip', 'p.gz'])
c('gunzip-c', ['gunzip', '-c', 'a.txt.gz'])
c('zcat', ['zcat', 'a.txt.gz'])
c('zcat-stdin', ['zcat'], stdin=GZ)
c('gunzip', ['gunzip', 'a.txt.gz'], files={'a.txt.gz': GZ}, check=['a.txt', 'a.txt.gz'])
c('gzip-d-stdin', ['gzip', '-d'], stdin=GZ)
c('unzip-l', ['unzip', '-l', 'x.zip'])
c('unzip', ['unzip', 'x.zip'], check=['d/a.txt', 'd/big.txt'])
c('unzip-q', ['unzip', '-q', 'x.zip'], check=['d/a.txt'])
c('unzip-d', ['unzip', 'x.zip', '-d', 'out'], dirs=['out'], check=['out/d/a.txt'])
c('unzip-p', ['unzip', '-p', 'x.zip', 'd/a.txt'])
c('unzip-member', ['unzip', 'x.zip', 'd/a.txt'], check=['d/a.txt', 'd/big.txt'])
c('unzip-exists-eof', ['unzip', 'x.zip'], files=dict(F, **{'d/a.txt': 'old\n'}), check=['d/a.txt'])
c('unzip-exists-o', ['unzip', '-o', 'x.zip'], files=dict(F, **{'d/a.txt': 'old\n'}), check=['d/a.txt'])
c('unzip-exists-n', ['unzip', '-n', 'x.zip'], files=dict(F, **{'d/a.txt': 'old\n'}), check=['d/a.txt'])
c('unzip-evil', ['unzip', 'evil.zip', '-d', 'out'], dirs=['out'], check=['out/evil.txt', 'evil.txt', 'out/ok.txt'])
c('unzip-missing', ['unzip', 'nope.zip'])
c('unzip-t', ['unzip', '-t', 'x.zip'])
c('zip-new', ['zip', 'new.zip', 'a.txt', 'plain'])
c('zip-noext', ['zip', 'new', 'a.txt'])
c('zip-q', ['zip', '-q', 'new.zip', 'a.txt'])
# Deflate ratios can differ from Info-ZIP's zlib by a point, so zip-deflate is not compared.
c('zip-missing', ['zip', 'new.zip', 'a.txt', 'nosuch'])
c('zip-nothing', ['zip', 'new.zip', 'nosuch'])
c('zip-update', ['zip', 'x.zip', 'a.txt'])
c('zip-delete', ['zip', '-d', 'x.zip', 'd/a.txt'])
ZX = {'d/a.py': '1\n', 'd/a.pyc': '2\n', 'd/.git/x': '3\n', 'd/sub/b.pyc': '4\n'}
c('zip-exclude', ['zip', '-r', 'o.zip', 'd', '-x', '*.pyc', 'd/.git/*'], files=ZX)
