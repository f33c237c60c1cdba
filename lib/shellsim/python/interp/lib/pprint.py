"""Pretty printer for data structures (CPython's layout for the common cases)."""
import sys


def _safe_key(x):
    return (str(type(x)), x) if not isinstance(x, (int, float, str)) else ("", x)


def pformat(obj, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True, underscore_numbers=False):
    return _Printer(indent, width, sort_dicts).format(obj, 0, 0)


def pprint(obj, stream=None, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True, underscore_numbers=False):
    (stream or sys.stdout).write(pformat(obj, indent, width, depth, compact=compact, sort_dicts=sort_dicts) + "\n")


pp = pprint


def isreadable(obj):
    return True


def saferepr(obj):
    return repr(obj)


class _Printer:
    def __init__(self, indent, width, sort_dicts):
        self.indent = indent
        self.width = width
        self.sort_dicts = sort_dicts

    def _items(self, d):
        items = list(d.items())
        if self.sort_dicts:
            try:
                items.sort(key=lambda kv: kv[0])
            except TypeError:
                items.sort(key=lambda kv: _safe_key(kv[0]))
        return items

    def _repr(self, obj):
        if isinstance(obj, dict) and type(obj) is dict and self.sort_dicts:
            return "{" + ", ".join(f"{self._repr(k)}: {self._repr(v)}" for k, v in self._items(obj)) + "}"
        if type(obj) is list:
            return "[" + ", ".join(self._repr(v) for v in obj) + "]"
        if type(obj) is tuple:
            if len(obj) == 1:
                return "(" + self._repr(obj[0]) + ",)"
            return "(" + ", ".join(self._repr(v) for v in obj) + ")"
        return repr(obj)

    def format(self, obj, indent, allowance):
        rep = self._repr(obj)
        if len(rep) <= self.width - indent - allowance:
            return rep
        if type(obj) is dict and obj:
            items = self._items(obj)
            parts = []
            inner = indent + self.indent
            for i, (k, v) in enumerate(items):
                krep = self._repr(k)
                last = i == len(items) - 1
                vrep = self.format(v, inner + len(krep) + 2, allowance + 1 if last else 1)
                parts.append(f"{krep}: {vrep}")
            return "{" + (",\n" + " " * inner).join(parts) + "}"
        if type(obj) in (list, tuple) and obj:
            open_, close = ("[", "]") if type(obj) is list else ("(", ")")
            inner = indent + self.indent
            parts = []
            for i, v in enumerate(obj):
                last = i == len(obj) - 1
                parts.append(self.format(v, inner, allowance + 1 if last else 1))
            body = (",\n" + " " * inner).join(parts)
            if type(obj) is tuple and len(obj) == 1:
                body += ","
            return open_ + body + close
        if isinstance(obj, str) and len(obj) > 0:
            chunks = []
            words = obj.split(" ")
            cur = ""
            limit = self.width - indent - allowance - 2
            for w in words:
                cand = cur + (" " if cur else "") + w if cur else w
                if len(repr(cand)) > limit and cur:
                    chunks.append(cur + " ")
                    cur = w
                else:
                    cur = cand
            chunks.append(cur)
            if len(chunks) == 1:
                return rep
            return "(" + ("\n" + " " * (indent + 1)).join(repr(c) for c in chunks) + ")"
        return rep


class PrettyPrinter:
    def __init__(self, indent=1, width=80, depth=None, stream=None, *, compact=False, sort_dicts=True, underscore_numbers=False):
        self._p = _Printer(indent, width, sort_dicts)
        self._stream = stream

    def pformat(self, obj):
        return self._p.format(obj, 0, 0)

    def pprint(self, obj):
        (self._stream or sys.stdout).write(self.pformat(obj) + "\n")
