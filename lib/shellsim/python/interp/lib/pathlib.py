"""Object-oriented filesystem paths (PurePosixPath semantics over the VFS)."""
import os
import fnmatch as _fnmatch

__all__ = ["PurePath", "PurePosixPath", "Path", "PosixPath"]


class PurePath:
    def __init__(self, *args):
        parts = []
        for a in args:
            if isinstance(a, PurePath):
                parts.append(a._str)
            else:
                parts.append(os.fspath(a))
        if not parts:
            s = "."
        else:
            s = os.path.join(*parts) if parts else "."
        self._str = self._normalize(s)

    @staticmethod
    def _normalize(s):
        if s == "":
            return "."
        absolute = s.startswith("/")
        double = s.startswith("//") and not s.startswith("///")
        comps = [c for c in s.split("/") if c and c != "."]
        body = "/".join(comps)
        if absolute:
            return ("//" if double else "/") + body
        return body or "."

    def __fspath__(self):
        return self._str

    def __str__(self):
        return self._str

    _repr_name = "PurePosixPath"

    def __repr__(self):
        return f"{self._repr_name}({self._str!r})"

    def __hash__(self):
        return hash(self._str)

    def __eq__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._str == other._str

    def __lt__(self, other):
        return self.parts < other.parts

    def __le__(self, other):
        return self.parts <= other.parts

    def __gt__(self, other):
        return self.parts > other.parts

    def __ge__(self, other):
        return self.parts >= other.parts

    def __truediv__(self, key):
        return type(self)(self._str, key)

    def __rtruediv__(self, key):
        return type(self)(key, self._str)

    @property
    def parts(self):
        if self._str == ".":
            return ()
        if self._str.startswith("/"):
            return ("/",) + tuple(c for c in self._str.split("/") if c)
        return tuple(self._str.split("/"))

    @property
    def name(self):
        if self._str in (".", "/"):
            return ""
        return self._str.rsplit("/", 1)[-1]

    @property
    def suffix(self):
        name = self.name
        i = name.rfind(".")
        if 0 < i < len(name) - 1:
            return name[i:]
        return ""

    @property
    def suffixes(self):
        name = self.name
        if name.endswith("."):
            return []
        name = name.lstrip(".")
        return ["." + s for s in name.split(".")[1:]]

    @property
    def stem(self):
        name = self.name
        i = name.rfind(".")
        if 0 < i < len(name) - 1:
            return name[:i]
        return name

    @property
    def parent(self):
        s = self._str
        if s in ("/", "."):
            return self
        if "/" not in s:
            return type(self)(".")
        head = s.rsplit("/", 1)[0]
        return type(self)(head or "/")

    @property
    def parents(self):
        out = []
        p = self
        while True:
            q = p.parent
            if q == p:
                break
            out.append(q)
            p = q
        return tuple(out)

    @property
    def anchor(self):
        return "/" if self._str.startswith("/") else ""

    @property
    def root(self):
        return self.anchor

    @property
    def drive(self):
        return ""

    def is_absolute(self):
        return self._str.startswith("/")

    def joinpath(self, *args):
        return type(self)(self._str, *args)

    def with_name(self, name):
        if not self.name:
            raise ValueError(f"{self!r} has an empty name")
        return self.parent / name

    def with_suffix(self, suffix):
        if suffix and not suffix.startswith("."):
            raise ValueError(f"Invalid suffix {suffix!r}")
        return self.parent / (self.stem + suffix)

    def with_stem(self, stem):
        return self.parent / (stem + self.suffix)

    def relative_to(self, other, *_deprecated, walk_up=False):
        other = type(self)(other)
        a, b = self.parts, other.parts
        if a[:len(b)] != b:
            if walk_up:
                rel = os.path.relpath(self._str, other._str)
                return type(self)(rel)
            raise ValueError(f"{str(self)!r} is not in the subpath of {str(other)!r}")
        rest = a[len(b):]
        return type(self)(*rest) if rest else type(self)(".")

    def is_relative_to(self, other):
        try:
            self.relative_to(other)
            return True
        except ValueError:
            return False

    def match(self, pattern):
        pat_parts = pattern.split("/")
        parts = self.parts
        if len(pat_parts) > len(parts):
            return False
        for p, s in zip(reversed(pat_parts), reversed(parts)):
            if not _fnmatch.fnmatchcase(s, p):
                return False
        return True

    def as_posix(self):
        return self._str

    def as_uri(self):
        return "file://" + self._str


PurePosixPath = PurePath


class Path(PurePath):
    _repr_name = "PosixPath"

    @classmethod
    def cwd(cls):
        return cls(os.getcwd())

    @classmethod
    def home(cls):
        return cls(os.path.expanduser("~"))

    def absolute(self):
        return Path(os.path.abspath(self._str)) if not self.is_absolute() else self

    def resolve(self, strict=False):
        if strict and not self.exists():
            raise FileNotFoundError(2, "No such file or directory", self._str)
        return Path(os.path.realpath(self._str))

    def expanduser(self):
        return Path(os.path.expanduser(self._str))

    def exists(self, *, follow_symlinks=True):
        return os.path.exists(self._str) if follow_symlinks else os.path.lexists(self._str)

    def is_file(self):
        return os.path.isfile(self._str)

    def is_dir(self):
        return os.path.isdir(self._str)

    def is_symlink(self):
        return os.path.islink(self._str)

    def is_mount(self):
        return self._str == "/"

    def stat(self):
        return os.stat(self._str)

    def lstat(self):
        return os.lstat(self._str)

    def owner(self):
        return "root"

    def group(self):
        return "root"

    def chmod(self, mode):
        os.chmod(self._str, mode)

    def open(self, mode="r", buffering=-1, encoding=None, errors=None, newline=None):
        return open(self._str, mode, encoding=encoding, errors=errors)

    def read_text(self, encoding=None, errors=None):
        with open(self._str, "r", encoding=encoding, errors=errors) as f:
            return f.read()

    def read_bytes(self):
        with open(self._str, "rb") as f:
            return f.read()

    def write_text(self, data, encoding=None, errors=None, newline=None):
        if not isinstance(data, str):
            raise TypeError(f"data must be str, not {type(data).__name__}")
        with open(self._str, "w", encoding=encoding) as f:
            return f.write(data)

    def write_bytes(self, data):
        with open(self._str, "wb") as f:
            return f.write(data)

    def touch(self, mode=0o666, exist_ok=True):
        if self.exists():
            if not exist_ok:
                raise FileExistsError(17, "File exists", self._str)
            os.utime(self._str)
            return
        open(self._str, "a").close()

    def mkdir(self, mode=0o777, parents=False, exist_ok=False):
        try:
            if parents:
                os.makedirs(self._str, exist_ok=exist_ok)
            else:
                os.mkdir(self._str)
        except FileExistsError:
            if not exist_ok or not self.is_dir():
                raise

    def rmdir(self):
        os.rmdir(self._str)

    def unlink(self, missing_ok=False):
        try:
            os.unlink(self._str)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def rename(self, target):
        os.rename(self._str, str(target))
        return Path(target)

    def replace(self, target):
        os.replace(self._str, str(target))
        return Path(target)

    def symlink_to(self, target, target_is_directory=False):
        os.symlink(str(target), self._str)

    def readlink(self):
        return Path(os.readlink(self._str))

    def iterdir(self):
        for name in os.listdir(self._str):
            yield self / name

    def glob(self, pattern):
        import glob as _glob
        base = self._str
        for p in _glob.glob(os.path.join(base, pattern), recursive=True):
            yield Path(p)

    def rglob(self, pattern):
        return self.glob("**/" + pattern)

    def walk(self, top_down=True):
        for root, dirs, files in os.walk(self._str, topdown=top_down):
            yield Path(root), dirs, files

    def samefile(self, other):
        return os.path.samefile(self._str, str(other))


PosixPath = Path
