"""Inspection of live objects (a subset)."""
import _pytest_support as _ps


def isclass(o):
    return isinstance(o, type)


def isfunction(o):
    return type(o).__name__ == "function"


def ismethod(o):
    return type(o).__name__ == "method"


def isgeneratorfunction(o):
    return _ps.is_generator_function(o)


def isgenerator(o):
    return type(o).__name__ == "generator"


def iscoroutinefunction(o):
    return False


def isbuiltin(o):
    return type(o).__name__ == "builtin_function_or_method"


def isroutine(o):
    return isfunction(o) or ismethod(o) or isbuiltin(o)


def ismodule(o):
    return type(o).__name__ == "module"


def getmembers(obj, predicate=None):
    out = []
    for name in dir(obj):
        try:
            v = getattr(obj, name)
        except AttributeError:
            continue
        if predicate is None or predicate(v):
            out.append((name, v))
    return out


def getsource(obj):
    lines, _ = _ps.source(obj)
    return "\n".join(lines) + "\n"


def getdoc(obj):
    return getattr(obj, "__doc__", None)


class Parameter:
    empty = object()
    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    VAR_POSITIONAL = 2
    KEYWORD_ONLY = 3
    VAR_KEYWORD = 4

    def __init__(self, name, kind=1, default=empty):
        self.name = name
        self.kind = kind
        self.default = default

    def __repr__(self):
        return f"<Parameter \"{self.name}\">"


class Signature:
    def __init__(self, parameters):
        self.parameters = {p.name: p for p in parameters}

    def __repr__(self):
        return "<Signature (" + ", ".join(self.parameters) + ")>"


def signature(fn):
    ps = []
    for name, hasdef in _ps.params(fn):
        ps.append(Parameter(name, 1, None if hasdef else Parameter.empty))
    return Signature(ps)
