"""gzip compression over the virtual filesystem."""
import _archive
import builtins
import io


class BadGzipFile(OSError):
    pass


def compress(data, compresslevel=9, *, mtime=None):
    return _archive.gzip_compress(bytes(data))


def decompress(data):
    return _archive.gzip_decompress(bytes(data))


class GzipFile:
    def __init__(self, filename=None, mode="rb", compresslevel=9, fileobj=None):
        self.name = filename
        self.mode = mode
        self._w = "w" in mode or "a" in mode or "x" in mode
        self._buf = b""
        self._fileobj = fileobj
        if not self._w:
            raw = fileobj.read() if fileobj is not None else builtins.open(filename, "rb").read()
            self._r = io.BytesIO(decompress(raw))

    def read(self, n=-1):
        return self._r.read(n)

    def readline(self):
        return self._r.readline()

    def __iter__(self):
        return iter(self._r.getvalue().splitlines(True))

    def write(self, data):
        self._buf += bytes(data)
        return len(data)

    def close(self):
        if self._w:
            out = compress(self._buf)
            if self._fileobj is not None:
                self._fileobj.write(out)
            else:
                with builtins.open(self.name, "wb") as f:
                    f.write(out)
            self._w = False

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


class _TextGzip:
    def __init__(self, g, encoding):
        self._g = g
        self._enc = encoding or "utf-8"
        if not g._w:
            self._text = io.StringIO(g.read().decode(self._enc))

    def read(self, n=-1):
        return self._text.read(n)

    def readline(self):
        return self._text.readline()

    def __iter__(self):
        return iter(self._text)

    def write(self, s):
        return self._g.write(s.encode(self._enc))

    def close(self):
        self._g.close()

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


def open(filename, mode="rb", compresslevel=9, encoding=None, errors=None, newline=None):
    g = GzipFile.__new__(GzipFile)
    g.name = filename
    g.mode = mode
    g._w = "w" in mode or "a" in mode or "x" in mode
    g._buf = b""
    g._fileobj = None
    if not g._w:
        with builtins.open(filename, "rb") as f:
            g._r = io.BytesIO(decompress(f.read()))
    if "t" in mode:
        return _TextGzip(g, encoding)
    return g
