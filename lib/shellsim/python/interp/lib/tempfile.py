"""Temporary files and directories under /tmp of the virtual filesystem."""
import os
import shutil as _shutil

tempdir = None
_counter = [0]


def gettempdir():
    return tempdir or "/tmp"


def _name(prefix, suffix, dir):
    d = dir if dir is not None else gettempdir()
    os.makedirs(d, exist_ok=True)
    while True:
        _counter[0] += 1
        n = _counter[0]
        name = os.path.join(d, f"{prefix if prefix is not None else 'tmp'}{n:08x}{suffix or ''}")
        if not os.path.exists(name):
            return name


def mkstemp(suffix=None, prefix=None, dir=None, text=False):
    p = _name(prefix, suffix, dir)
    open(p, "w").close()
    return 3, p


def mkdtemp(suffix=None, prefix=None, dir=None):
    p = _name(prefix, suffix, dir)
    os.mkdir(p)
    return p


def mktemp(suffix="", prefix="tmp", dir=None):
    return _name(prefix, suffix, dir)


class _TemporaryFile:
    def __init__(self, mode, suffix, prefix, dir, delete):
        self.name = _name(prefix, suffix, dir)
        self._f = open(self.name, mode.replace("+", "") if "w" in mode else "w")
        if "+" in mode:
            self._f.close()
            self._f = open(self.name, mode)
        self.delete = delete

    def __getattr__(self, name):
        return getattr(self._f, name)

    def close(self):
        self._f.close()
        if self.delete and os.path.exists(self.name):
            os.remove(self.name)

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    def __iter__(self):
        return iter(self._f)


def NamedTemporaryFile(mode="w+b", buffering=-1, encoding=None, newline=None, suffix=None, prefix=None, dir=None,
                       delete=True, errors=None, delete_on_close=True):
    return _TemporaryFile(mode, suffix, prefix, dir, delete)


TemporaryFile = NamedTemporaryFile


class SpooledTemporaryFile(_TemporaryFile):
    def __init__(self, max_size=0, mode="w+b", **kw):
        _TemporaryFile.__init__(self, mode, None, None, None, True)


class TemporaryDirectory:
    def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False, delete=True):
        self.name = mkdtemp(suffix, prefix, dir)
        self.delete = delete

    def cleanup(self):
        if os.path.exists(self.name):
            _shutil.rmtree(self.name)

    def __enter__(self):
        return self.name

    def __exit__(self, *a):
        if self.delete:
            self.cleanup()

    def __repr__(self):
        return f"<TemporaryDirectory {self.name!r}>"
