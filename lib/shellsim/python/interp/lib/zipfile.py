"""ZIP archives (reading, and writing whole members) on the virtual filesystem."""
import _archive
import os

ZIP_STORED = 0
ZIP_DEFLATED = 8


class BadZipFile(Exception):
    pass


BadZipfile = BadZipFile


class ZipInfo:
    def __init__(self, filename, file_size=0):
        self.filename = filename
        self.file_size = file_size
        self.compress_size = file_size

    def is_dir(self):
        return self.filename.endswith("/")

    def __repr__(self):
        return f"<ZipInfo filename={self.filename!r} file_size={self.file_size}>"


class ZipFile:
    def __init__(self, file, mode="r", compression=ZIP_STORED, allowZip64=True, compresslevel=None):
        self.filename = file if isinstance(file, str) else getattr(file, "name", None)
        self.mode = mode
        self._file = file
        self._pending = []
        if mode == "r":
            data = open(file, "rb").read() if isinstance(file, str) or hasattr(file, "__fspath__") else file.read()
            self._data = data
            self._infos = [ZipInfo(n, s) for n, s, d in _archive.zip_entries(data)]
        elif mode in ("w", "x", "a"):
            self._data = b""
            self._infos = []
        else:
            raise ValueError("ZipFile requires mode 'r', 'w', 'x', or 'a'")

    def namelist(self):
        return [i.filename for i in self._infos]

    def infolist(self):
        return list(self._infos)

    def getinfo(self, name):
        for i in self._infos:
            if i.filename == name:
                return i
        raise KeyError(f"There is no item named {name!r} in the archive")

    def read(self, name):
        if isinstance(name, ZipInfo):
            name = name.filename
        return _archive.zip_read(self._data, name)

    def open(self, name, mode="r"):
        import io
        return io.BytesIO(self.read(name))

    def testzip(self):
        return None

    def writestr(self, name, data):
        if isinstance(name, ZipInfo):
            name = name.filename
        if isinstance(data, str):
            data = data.encode()
        self._pending.append((name, data))
        self._infos.append(ZipInfo(name, len(data)))

    def write(self, filename, arcname=None, compress_type=None):
        with open(filename, "rb") as f:
            self.writestr(arcname or os.path.basename(filename) if arcname is None and os.path.isabs(filename) else (arcname or filename), f.read())

    def extract(self, member, path=None):
        name = member.filename if isinstance(member, ZipInfo) else member
        dest = os.path.join(path or os.getcwd(), name)
        if name.endswith("/"):
            os.makedirs(dest, exist_ok=True)
            return dest
        os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
        with open(dest, "wb") as f:
            f.write(self.read(name))
        return dest

    def extractall(self, path=None, members=None):
        for n in members or self.namelist():
            self.extract(n, path)

    def close(self):
        if self.mode in ("w", "x", "a") and self._file is not None:
            data = _archive.zip_create(self._pending)
            if isinstance(self._file, str):
                with open(self._file, "wb") as f:
                    f.write(data)
            else:
                self._file.write(data)
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


def is_zipfile(filename):
    try:
        with open(filename, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except OSError:
        return False
