"""High-level file operations on the virtual filesystem."""
import os
import fnmatch


class Error(OSError):
    pass


class SameFileError(Error):
    pass


def copyfileobj(fsrc, fdst, length=0):
    fdst.write(fsrc.read())


def copyfile(src, dst, *, follow_symlinks=True):
    src, dst = os.fspath(src), os.fspath(dst)
    if os.path.abspath(src) == os.path.abspath(dst):
        raise SameFileError(f"{src!r} and {dst!r} are the same file")
    with open(src, "rb") as f:
        data = f.read()
    with open(dst, "wb") as f:
        f.write(data)
    return dst


def copymode(src, dst, *, follow_symlinks=True):
    os.chmod(dst, os.stat(src).st_mode & 0o7777)


def copystat(src, dst, *, follow_symlinks=True):
    st = os.stat(src)
    os.chmod(dst, st.st_mode & 0o7777)
    os.utime(dst, (st.st_mtime, st.st_mtime))


def copy(src, dst, *, follow_symlinks=True):
    src, dst = os.fspath(src), os.fspath(dst)
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(src))
    copyfile(src, dst)
    copymode(src, dst)
    return dst


def copy2(src, dst, *, follow_symlinks=True):
    src, dst = os.fspath(src), os.fspath(dst)
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(src))
    copyfile(src, dst)
    copystat(src, dst)
    return dst


def ignore_patterns(*patterns):
    def _ignore(path, names):
        out = set()
        for p in patterns:
            out.update(fnmatch.filter(names, p))
        return out
    return _ignore


def copytree(src, dst, symlinks=False, ignore=None, copy_function=copy2, ignore_dangling_symlinks=False,
             dirs_exist_ok=False):
    src, dst = os.fspath(src), os.fspath(dst)
    names = os.listdir(src)
    ignored = ignore(src, names) if ignore is not None else set()
    os.makedirs(dst, exist_ok=dirs_exist_ok)
    for name in names:
        if name in ignored:
            continue
        s = os.path.join(src, name)
        d = os.path.join(dst, name)
        if symlinks and os.path.islink(s):
            os.symlink(os.readlink(s), d)
        elif os.path.isdir(s):
            copytree(s, d, symlinks, ignore, copy_function, dirs_exist_ok=dirs_exist_ok)
        else:
            copy_function(s, d)
    return dst


def rmtree(path, ignore_errors=False, onerror=None, *, onexc=None, dir_fd=None):
    path = os.fspath(path)
    try:
        if os.path.islink(path):
            raise OSError("Cannot call rmtree on a symbolic link")
        for name in os.listdir(path):
            p = os.path.join(path, name)
            if os.path.isdir(p) and not os.path.islink(p):
                rmtree(p, ignore_errors)
            else:
                os.remove(p)
        os.rmdir(path)
    except OSError:
        if not ignore_errors:
            raise


def move(src, dst, copy_function=copy2):
    src, dst = os.fspath(src), os.fspath(dst)
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(src.rstrip("/")))
    os.rename(src, dst)
    return dst


def which(cmd, mode=1, path=None):
    if "/" in cmd:
        return cmd if os.path.exists(cmd) else None
    path = path or os.environ.get("PATH", "/usr/bin:/bin")
    for d in path.split(":"):
        p = os.path.join(d, cmd)
        if os.path.exists(p) and not os.path.isdir(p):
            return p
    return None


def disk_usage(path):
    from collections import namedtuple
    U = namedtuple("usage", "total used free")
    return U(64 << 20, 0, 64 << 20)


def get_terminal_size(fallback=(80, 24)):
    return os.get_terminal_size()


def make_archive(*a, **k):
    raise NotImplementedError("shutil.make_archive is not supported in ShellSim")
