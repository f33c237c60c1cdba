"""In-memory streams (StringIO, BytesIO) and open()."""
open = open


class UnsupportedOperation(OSError, ValueError):
    pass


SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2
DEFAULT_BUFFER_SIZE = 8192


class StringIO:
    def __init__(self, initial_value="", newline="\n"):
        self._buf = initial_value or ""
        self._pos = 0
        self.closed = False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"string argument expected, got '{type(s).__name__}'")
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        if self._pos == len(self._buf):
            self._buf += s
        else:
            self._buf = self._buf[:self._pos] + s + self._buf[self._pos + len(s):]
        self._pos += len(s)
        return len(s)

    def writelines(self, lines):
        for l in lines:
            self.write(l)

    def read(self, n=-1):
        if n is None or n < 0:
            r = self._buf[self._pos:]
        else:
            r = self._buf[self._pos:self._pos + n]
        self._pos += len(r)
        return r

    def readline(self, limit=-1):
        i = self._buf.find("\n", self._pos)
        end = len(self._buf) if i < 0 else i + 1
        if limit is not None and limit >= 0:
            end = min(end, self._pos + limit)
        r = self._buf[self._pos:end]
        self._pos = end
        return r

    def readlines(self):
        out = []
        while True:
            l = self.readline()
            if not l:
                return out
            out.append(l)

    def __iter__(self):
        return self

    def __next__(self):
        l = self.readline()
        if not l:
            raise StopIteration
        return l

    def getvalue(self):
        return self._buf

    def seek(self, pos, whence=0):
        if whence == 1:
            pos += self._pos
        elif whence == 2:
            pos += len(self._buf)
        self._pos = max(0, pos)
        return self._pos

    def tell(self):
        return self._pos

    def truncate(self, size=None):
        if size is None:
            size = self._pos
        self._buf = self._buf[:size]
        return size

    def close(self):
        self.closed = True

    def flush(self):
        pass

    def isatty(self):
        return False

    def readable(self):
        return True

    def writable(self):
        return True

    def seekable(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


class BytesIO:
    def __init__(self, initial_bytes=b""):
        self._buf = bytes(initial_bytes)
        self._pos = 0
        self.closed = False

    def write(self, b):
        b = bytes(b)
        if self._pos == len(self._buf):
            self._buf += b
        else:
            self._buf = self._buf[:self._pos] + b + self._buf[self._pos + len(b):]
        self._pos += len(b)
        return len(b)

    def read(self, n=-1):
        if n is None or n < 0:
            r = self._buf[self._pos:]
        else:
            r = self._buf[self._pos:self._pos + n]
        self._pos += len(r)
        return r

    def readline(self, limit=-1):
        i = self._buf.find(b"\n", self._pos)
        end = len(self._buf) if i < 0 else i + 1
        r = self._buf[self._pos:end]
        self._pos = end
        return r

    def getvalue(self):
        return self._buf

    def seek(self, pos, whence=0):
        if whence == 1:
            pos += self._pos
        elif whence == 2:
            pos += len(self._buf)
        self._pos = max(0, pos)
        return self._pos

    def tell(self):
        return self._pos

    def close(self):
        self.closed = True

    def flush(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


class TextIOWrapper(StringIO):
    def __init__(self, buffer, encoding=None, errors=None, newline=None, line_buffering=False):
        StringIO.__init__(self, buffer.read().decode(encoding or "utf-8") if hasattr(buffer, "read") else "")


IOBase = object
TextIOBase = StringIO
RawIOBase = object
BufferedIOBase = BytesIO
