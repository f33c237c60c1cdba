"""Reading tar archives (plain, gzip, bzip2) on the virtual filesystem."""
import _archive
import builtins
import os
import io


class TarError(Exception):
    pass


class ReadError(TarError):
    pass


class TarInfo:
    def __init__(self, name="", size=0, type="file", mode=0o644, data=b"", linkname=""):
        self.name = name
        self.size = size
        self._type = type
        self.mode = mode
        self._data = data
        self.linkname = linkname

    def isfile(self):
        return self._type == "file"

    isreg = isfile

    def isdir(self):
        return self._type == "dir"

    def issym(self):
        return self._type == "sym"

    def islnk(self):
        return self._type == "lnk"

    def __repr__(self):
        return f"<TarInfo {self.name!r} at 0x0>"


class TarFile:
    def __init__(self, name=None, mode="r", fileobj=None):
        if not mode.startswith("r"):
            raise NotImplementedError("ShellSim's tarfile only reads archives")
        data = fileobj.read() if fileobj is not None else builtins.open(name, "rb").read()
        self.name = name
        self._members = [TarInfo(*e) for e in _archive.tar_entries(data)]

    def getmembers(self):
        return list(self._members)

    def getnames(self):
        return [m.name for m in self._members]

    def getmember(self, name):
        for m in self._members:
            if m.name == name:
                return m
        raise KeyError(f"filename {name!r} not found")

    def extractfile(self, member):
        if isinstance(member, str):
            member = self.getmember(member)
        if not member.isfile():
            return None
        return io.BytesIO(member._data)

    def extractall(self, path=".", members=None, *, filter=None):
        for m in members or self._members:
            dest = os.path.join(path, m.name)
            if m.isdir():
                os.makedirs(dest, exist_ok=True)
            elif m.isfile():
                os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
                with builtins.open(dest, "wb") as f:
                    f.write(m._data)

    def __iter__(self):
        return iter(self._members)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


def open(name=None, mode="r", fileobj=None, **kw):
    return TarFile(name, mode, fileobj)


def is_tarfile(name):
    try:
        open(name)
        return True
    except Exception:
        return False
