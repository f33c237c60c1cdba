"""Unix-style pathname expansion over the virtual filesystem."""
import os
import fnmatch

__all__ = ["glob", "iglob", "escape"]


def _has_magic(s):
    return any(c in s for c in "*?[")


def glob(pathname, *, root_dir=None, recursive=False, include_hidden=False):
    return list(iglob(pathname, root_dir=root_dir, recursive=recursive, include_hidden=include_hidden))


def iglob(pathname, *, root_dir=None, recursive=False, include_hidden=False):
    if root_dir is not None:
        base = os.fspath(root_dir)
        for p in _glob(os.path.join(base, pathname), recursive, include_hidden):
            yield os.path.relpath(p, base)
        return
    for p in _glob(pathname, recursive, include_hidden):
        yield p


def _glob(pathname, recursive, hidden):
    if not _has_magic(pathname):
        if os.path.lexists(pathname) or (pathname.endswith("/") and os.path.isdir(pathname)):
            yield pathname
        return
    absolute = pathname.startswith("/")
    parts = [p for p in pathname.split("/") if p != ""]
    starts = ["/"] if absolute else [""]
    results = starts
    for i, part in enumerate(parts):
        nxt = []
        for base in results:
            if not _has_magic(part):
                cand = base + part if base in ("", "/") else base + "/" + part
                if os.path.lexists(cand):
                    nxt.append(cand)
                continue
            if recursive and part == "**":
                nxt.extend(_rlist(base, hidden))
                continue
            d = base if base else "."
            try:
                names = sorted(os.listdir(d))
            except OSError:
                continue
            for name in names:
                if name.startswith(".") and not part.startswith(".") and not hidden:
                    continue
                if fnmatch.fnmatchcase(name, part):
                    nxt.append(base + name if base in ("", "/") else base + "/" + name)
        results = nxt
    for r in results:
        yield r


def _rlist(base, hidden):
    out = [base]
    d = base if base else "."
    for root, dirs, files in os.walk(d):
        dirs.sort()
        rel = root
        if base == "" and root.startswith("./"):
            rel = root[2:]
        elif base == "" and root == ".":
            continue
        if not hidden and any(p.startswith(".") for p in rel.split("/") if p not in (".", "")):
            continue
        if rel != base:
            out.append(rel)
    for i, p in enumerate(out):
        if p != base and base == "":
            out[i] = p
    result = []
    for p in out:
        result.append(p if p else "")
    return result


def escape(pathname):
    return "".join("[" + c + "]" if c in "*?[" else c for c in pathname)
