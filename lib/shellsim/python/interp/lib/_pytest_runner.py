"""The pytest runner behind the pytest package (see pytest/__init__.py)."""
import sys
import os
import _pytest_support as _ps

WIDTH = 80


class ExitCode:
    OK = 0
    TESTS_FAILED = 1
    INTERRUPTED = 2
    INTERNAL_ERROR = 3
    USAGE_ERROR = 4
    NO_TESTS_COLLECTED = 5


class UsageError(Exception):
    pass


class OutcomeException(BaseException):
    def __init__(self, msg=""):
        BaseException.__init__(self, msg)
        self.msg = msg


class Skipped(OutcomeException):
    pass


class Failed(OutcomeException):
    pass


class XFailed(OutcomeException):
    pass


def fail(reason="", pytrace=True, msg=None):
    raise Failed(msg if msg is not None else reason)


def _skip(reason="", *, allow_module_level=False, msg=None):
    raise Skipped(msg if msg is not None else reason)


class _SkipCallable:
    Exception = Skipped

    def __call__(self, reason="", *, allow_module_level=False, msg=None):
        _skip(reason, allow_module_level=allow_module_level, msg=msg)


skip = _SkipCallable()


class _FailCallable:
    Exception = Failed

    def __call__(self, reason="", pytrace=True, msg=None):
        fail(reason, pytrace, msg)


fail = _FailCallable()


def xfail(reason=""):
    raise XFailed(reason)


def importorskip(modname, minversion=None, reason=None, *, exc_type=None):
    try:
        __import__(modname)
    except ImportError:
        raise Skipped(reason or f"could not import {modname!r}: No module named {modname!r}")
    return sys.modules[modname]


# ---------------------------------------------------------------- marks

class Mark:
    def __init__(self, name, args, kwargs):
        self.name = name
        self.args = args
        self.kwargs = kwargs

    def __repr__(self):
        return f"Mark(name={self.name!r}, args={self.args!r}, kwargs={self.kwargs!r})"


class MarkDecorator:
    def __init__(self, mark):
        self.mark = mark

    @property
    def name(self):
        return self.mark.name

    @property
    def args(self):
        return self.mark.args

    @property
    def kwargs(self):
        return self.mark.kwargs

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and (callable(args[0]) or isinstance(args[0], type)):
            func = args[0]
            marks = list(getattr(func, "pytestmark", []))
            marks.append(self.mark)
            try:
                func.pytestmark = marks
            except AttributeError:
                pass
            return func
        return MarkDecorator(Mark(self.mark.name, self.mark.args + args, dict(self.mark.kwargs, **kwargs)))

    def with_args(self, *args, **kwargs):
        return MarkDecorator(Mark(self.mark.name, self.mark.args + args, dict(self.mark.kwargs, **kwargs)))


class _MarkGenerator:
    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return MarkDecorator(Mark(name, (), {}))


mark = _MarkGenerator()


class ParameterSet:
    def __init__(self, values, marks, id):
        self.values = values
        self.marks = marks
        self.id = id


def param(*values, marks=(), id=None):
    if isinstance(marks, MarkDecorator):
        marks = (marks,)
    return ParameterSet(values, [m.mark if isinstance(m, MarkDecorator) else m for m in marks], id)


def _marks_of(obj):
    out = []
    for m in getattr(obj, "pytestmark", []) or []:
        out.append(m.mark if isinstance(m, MarkDecorator) else m)
    return out


# ------------------------------------------------------------- fixtures

class FixtureDef:
    def __init__(self, func, name, scope, params, autouse, ids):
        self.func = func
        self.name = name
        self.scope = scope
        self.params = params
        self.autouse = autouse
        self.ids = ids


def fixture(fixture_function=None, *, scope="function", params=None, autouse=False, ids=None, name=None):
    def deco(func):
        func._pytestfixture = FixtureDef(func, name or func.__name__, scope, list(params) if params is not None else None, autouse, ids)
        return func
    if fixture_function is not None and callable(fixture_function):
        return deco(fixture_function)
    if isinstance(fixture_function, str):
        scope = fixture_function
    return deco


class FixtureLookupError(LookupError):
    pass


class _Node:
    def __init__(self, name, nodeid, path, cls):
        self.name = name
        self.nodeid = nodeid
        self.path = path
        self.fspath = path
        self.cls = cls
        self.own_markers = []
        self.keywords = {}

    def get_closest_marker(self, name):
        for m in self.own_markers:
            if m.name == name:
                return m
        return None

    def iter_markers(self, name=None):
        return [m for m in self.own_markers if name is None or m.name == name]

    def add_marker(self, m):
        self.own_markers.append(m.mark if isinstance(m, MarkDecorator) else m)


class FixtureRequest:
    def __init__(self, session, item, scope="function"):
        self._session = session
        self._item = item
        self.node = item.node if item is not None else None
        self.scope = scope
        self.param = None
        self.param_index = 0
        self.fixturename = None
        self.config = session.config
        self.function = item.func if item is not None else None
        self.cls = item.cls if item is not None else None
        self.instance = item.instance if item is not None else None
        self.module = item.module if item is not None else None

    @property
    def path(self):
        return self._item.path

    def addfinalizer(self, fn):
        self._session.finalizers[self.scope].append(fn)

    def getfixturevalue(self, name):
        return self._session.get_fixture(name, self._item)

    def applymarker(self, m):
        self.node.add_marker(m)


# ------------------------------------------------------------- raises

class ExceptionInfo:
    def __init__(self, exc):
        self.value = exc
        self.type = type(exc)
        self.tb = None
        self.traceback = []

    @property
    def typename(self):
        return self.type.__name__

    def match(self, regexp):
        import re
        if not re.search(regexp, str(self.value)):
            raise AssertionError(f"Regex pattern did not match.\n Regex: {regexp!r}\n Input: {str(self.value)!r}")
        return True

    def errisinstance(self, exc):
        return isinstance(self.value, exc)

    def exconly(self, tryshort=False):
        return _ps.exc_line(self.value)

    def __repr__(self):
        return f"<ExceptionInfo {_ps.exc_line(self.value)} tblen=1>"

    def __str__(self):
        return repr(self)


class RaisesContext:
    def __init__(self, expected, match=None, check=None):
        self.expected = expected
        self.match_expr = match
        self.check = check
        self.excinfo = None

    def __enter__(self):
        self.excinfo = ExceptionInfo.__new__(ExceptionInfo)
        return self.excinfo

    def __exit__(self, exc_type, exc_val, exc_tb):
        if exc_type is None:
            exp = self.expected
            if isinstance(exp, tuple):
                names = "(" + ", ".join(e.__name__ for e in exp) + ")"
            else:
                names = exp.__name__
            raise Failed(f"DID NOT RAISE {names}")
        if not issubclass(exc_type, self.expected):
            return False
        self.excinfo.__init__(exc_val)
        if self.match_expr is not None:
            import re
            if not re.search(self.match_expr, str(exc_val)):
                raise AssertionError(f"Regex pattern did not match.\n  Expected regex: {self.match_expr!r}\n  Actual message: {str(exc_val)!r}")
        if self.check is not None and not self.check(exc_val):
            return False
        return True


def raises(expected_exception, *args, match=None, check=None, **kwargs):
    if not args:
        return RaisesContext(expected_exception, match, check)
    func = args[0]
    try:
        func(*args[1:], **kwargs)
    except expected_exception as e:
        return ExceptionInfo(e)
    raise Failed(f"DID NOT RAISE {expected_exception}")


class WarningsChecker:
    def __init__(self, expected=None, match=None):
        self.expected = expected
        self.match_expr = match
        self.list = []

    def __enter__(self):
        import warnings
        self._saved = warnings._hooks[:]
        warnings._hooks.append(self.list.append)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        import warnings
        warnings._hooks[:] = self._saved
        if exc_type is not None or self.expected is None:
            return False
        import re
        for w in self.list:
            if issubclass(w.category, self.expected) and (self.match_expr is None or re.search(self.match_expr, str(w.message))):
                return False
        raise Failed(f"DID NOT WARN. No warnings of type {self.expected!r} were emitted.")

    def __len__(self):
        return len(self.list)

    def __getitem__(self, i):
        return self.list[i]

    def pop(self, cls=Warning):
        for i, w in enumerate(self.list):
            if issubclass(w.category, cls):
                return self.list.pop(i)
        raise AssertionError(f"{cls!r} not found in warning list")


def warns(expected_warning=Warning, *args, match=None, **kwargs):
    if args:
        with WarningsChecker(expected_warning, match):
            return args[0](*args[1:], **kwargs)
    return WarningsChecker(expected_warning, match)


def deprecated_call(func=None, *args, **kwargs):
    return warns((DeprecationWarning, PendingDeprecationWarning), func, *args, **kwargs) if func else warns((DeprecationWarning, PendingDeprecationWarning))


# -------------------------------------------------------------- approx

class ApproxBase:
    def __init__(self, expected, rel=None, abs=None, nan_ok=False):
        self.expected = expected
        self.rel = rel
        self.abs = abs
        self.nan_ok = nan_ok

    def _tol(self, e):
        abs_ = 1e-12 if self.abs is None else self.abs
        rel = 1e-6 if self.rel is None else self.rel
        if self.rel is None and self.abs is not None:
            return abs_
        return max(rel * __builtins__abs(e), abs_)

    def _eq1(self, actual, expected):
        if isinstance(expected, (int, float)) and not isinstance(expected, bool) and isinstance(actual, (int, float)):
            if expected == actual:
                return True
            if expected != expected:
                return self.nan_ok and actual != actual
            if expected in (float("inf"), float("-inf")):
                return False
            return __builtins__abs(actual - expected) <= self._tol(expected)
        return actual == expected

    def __eq__(self, actual):
        e = self.expected
        if isinstance(e, dict):
            if not isinstance(actual, dict) or set(actual) != set(e):
                return False
            return all(self._eq1(actual[k], e[k]) for k in e)
        if isinstance(e, (list, tuple)):
            if not isinstance(actual, (list, tuple)) or len(actual) != len(e):
                return False
            return all(self._eq1(a, x) for a, x in zip(actual, e))
        if isinstance(actual, (list, tuple)) and not isinstance(e, (list, tuple)):
            return all(self._eq1(a, e) for a in actual)
        return self._eq1(actual, e)

    def __ne__(self, actual):
        return not self.__eq__(actual)

    __hash__ = None

    def __repr__(self):
        e = self.expected
        if isinstance(e, (int, float)) and not isinstance(e, bool):
            return f"{e} ± {_fmt_tol(self._tol(e))}"
        if isinstance(e, (list, tuple)):
            inner = ", ".join(f"{x} ± {_fmt_tol(self._tol(x))}" if isinstance(x, (int, float)) else repr(x) for x in e)
            return f"approx([{inner}])" if isinstance(e, list) else f"approx(({inner}))"
        if isinstance(e, dict):
            inner = ", ".join(f"{k!r}: {v} ± {_fmt_tol(self._tol(v))}" for k, v in e.items())
            return "approx({" + inner + "})"
        return f"approx({e!r})"


__builtins__abs = abs


def _fmt_tol(t):
    s = f"{t:.1e}"
    return s


def approx(expected, rel=None, abs=None, nan_ok=False):
    return ApproxBase(expected, rel, abs, nan_ok)


# ---------------------------------------------------------- monkeypatch

_notset = object()


class MonkeyPatch:
    def __init__(self):
        self._setattr = []
        self._setitem = []
        self._cwd = None
        self._syspath = None

    @classmethod
    def context(cls):
        import contextlib

        @contextlib.contextmanager
        def ctx():
            m = cls()
            try:
                yield m
            finally:
                m.undo()
        return ctx()

    def setattr(self, target, name, value=_notset, raising=True):
        if value is _notset:
            if not isinstance(target, str):
                raise TypeError("use setattr(target, name, value) or setattr(target, value) with target being a dotted import string")
            value = name
            modpath, attr = target.rsplit(".", 1)
            target = _resolve(modpath)
            name = attr
        old = getattr(target, name, _notset)
        if raising and old is _notset:
            raise AttributeError(f"{target!r} has no attribute {name!r}")
        self._setattr.append((target, name, old))
        setattr(target, name, value)

    def delattr(self, target, name=_notset, raising=True):
        if name is _notset:
            modpath, name = target.rsplit(".", 1)
            target = _resolve(modpath)
        if not hasattr(target, name):
            if raising:
                raise AttributeError(name)
            return
        self._setattr.append((target, name, getattr(target, name)))
        delattr(target, name)

    def setitem(self, dic, name, value):
        self._setitem.append((dic, name, dic.get(name, _notset)))
        dic[name] = value

    def delitem(self, dic, name, raising=True):
        if name not in dic:
            if raising:
                raise KeyError(name)
            return
        self._setitem.append((dic, name, dic.get(name, _notset)))
        del dic[name]

    def setenv(self, name, value, prepend=None):
        value = str(value)
        if prepend and name in os.environ:
            value = value + prepend + os.environ[name]
        self.setitem(os.environ, name, value)

    def delenv(self, name, raising=True):
        self.delitem(os.environ, name, raising=raising)

    def syspath_prepend(self, path):
        if self._syspath is None:
            self._syspath = sys.path[:]
        sys.path.insert(0, str(path))

    def chdir(self, path):
        if self._cwd is None:
            self._cwd = os.getcwd()
        os.chdir(str(path))

    def undo(self):
        for obj, name, value in reversed(self._setattr):
            if value is not _notset:
                setattr(obj, name, value)
            else:
                try:
                    delattr(obj, name)
                except AttributeError:
                    pass
        self._setattr[:] = []
        for dic, name, value in reversed(self._setitem):
            if value is _notset:
                dic.pop(name, None)
            else:
                dic[name] = value
        self._setitem[:] = []
        if self._syspath is not None:
            sys.path[:] = self._syspath
            self._syspath = None
        if self._cwd is not None:
            os.chdir(self._cwd)
            self._cwd = None


def _resolve(name):
    parts = name.split(".")
    obj = __import__(parts[0])
    for i, p in enumerate(parts[1:]):
        try:
            obj = getattr(obj, p)
        except AttributeError:
            __import__(".".join(parts[:i + 2]))
            obj = getattr(obj, p)
    return obj


class CaptureResult(tuple):
    @property
    def out(self):
        return self[0]

    @property
    def err(self):
        return self[1]


class CaptureFixture:
    def __init__(self):
        import io
        self._io = io
        self._out = io.StringIO()
        self._err = io.StringIO()
        self._saved = (sys.stdout, sys.stderr)
        sys.stdout, sys.stderr = self._out, self._err

    def readouterr(self):
        out, err = self._out.getvalue(), self._err.getvalue()
        self._out.seek(0)
        self._out.truncate()
        self._err.seek(0)
        self._err.truncate()
        return CaptureResult((out, err))

    def close(self):
        sys.stdout, sys.stderr = self._saved

    def disabled(self):
        import contextlib
        cap = self

        @contextlib.contextmanager
        def ctx():
            sys.stdout, sys.stderr = cap._saved
            try:
                yield
            finally:
                sys.stdout, sys.stderr = cap._out, cap._err
        return ctx()


class LogCaptureFixture:
    def __init__(self):
        import logging
        self.records = []
        self._handler = _ListHandler(self.records)
        logging.getLogger().addHandler(self._handler)
        self._logging = logging

    @property
    def text(self):
        return "".join(f"{r.levelname:<8} {r.name}:{r.filename}:{r.lineno} {r.getMessage()}\n" for r in self.records)

    @property
    def messages(self):
        return [r.getMessage() for r in self.records]

    @property
    def record_tuples(self):
        return [(r.name, r.levelno, r.getMessage()) for r in self.records]

    def clear(self):
        self.records[:] = []

    def set_level(self, level, logger=None):
        self._logging.getLogger(logger).setLevel(level)

    def at_level(self, level, logger=None):
        import contextlib

        @contextlib.contextmanager
        def ctx():
            lg = self._logging.getLogger(logger)
            old = lg.level
            lg.setLevel(level)
            try:
                yield
            finally:
                lg.setLevel(old)
        return ctx()

    def close(self):
        self._logging.getLogger().removeHandler(self._handler)


class _ListHandler:
    def __init__(self, records):
        self.records = records
        self.level = 0

    def handle(self, record):
        self.records.append(record)


# ------------------------------------------------------------ collection

class Item:
    def __init__(self, module, modpath, relpath, name, func, cls=None, callspec=None, callspec_id=None, marks=()):
        self.module = module
        self.path = modpath
        self.relpath = relpath
        self.originalname = name
        self.name = name if callspec_id is None else f"{name}[{callspec_id}]"
        self.func = func
        self.cls = cls
        self.instance = None
        self.callspec = callspec or {}
        if cls is not None:
            self.nodeid = f"{relpath}::{cls.__name__}::{self.name}"
        else:
            self.nodeid = f"{relpath}::{self.name}"
        self.node = _Node(self.name, self.nodeid, modpath, cls)
        self.node.own_markers = list(marks)
        self.marks = self.node.own_markers
        self.keywords = set([name, self.name, os.path.basename(relpath)[:-3]] + [m.name for m in self.marks])
        if cls is not None:
            self.keywords.add(cls.__name__)
        self.unittest = False


def _idval(v, argname, idx):
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        if v.isascii():
            return v.encode("unicode_escape").decode("ascii") if False else _escape_id(v)
        return _escape_id(v)
    if isinstance(v, bytes):
        return str(v)[2:-1]
    if isinstance(v, type) and hasattr(v, "__name__"):
        return v.__name__
    if hasattr(v, "__name__") and callable(v):
        return v.__name__
    import enum
    if isinstance(v, enum.Enum):
        return str(v)
    return f"{argname}{idx}"


def _escape_id(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 32 or o == 127:
            out.append("\\x%02x" % o)
        elif o > 127:
            out.append(ch.encode("unicode_escape").decode("ascii") if False else _uesc(ch))
        else:
            out.append(ch)
    return "".join(out)


def _uesc(ch):
    o = ord(ch)
    if o <= 0xff:
        return "\\x%02x" % o
    if o <= 0xffff:
        return "\\u%04x" % o
    return "\\U%08x" % o


def _parametrize(marks):
    """Expand parametrize marks into (callspec, id, marks) combinations."""
    combos = [({}, [], [])]
    for m in reversed([m for m in marks if m.name == "parametrize"]):
        if len(m.args) < 2:
            raise UsageError("parametrize() requires argnames and argvalues")
        argnames, argvalues = m.args[0], m.args[1]
        ids = m.kwargs.get("ids")
        if len(m.args) > 2 and ids is None:
            ids = m.args[2] if not isinstance(m.args[2], bool) else None
        if isinstance(argnames, str):
            names = [n.strip() for n in argnames.split(",") if n.strip()]
        else:
            names = list(argnames)
        sets = []
        for i, v in enumerate(list(argvalues)):
            vmarks = []
            vid = None
            if isinstance(v, ParameterSet):
                vmarks, vid, v = v.marks, v.id, v.values
                if len(names) == 1:
                    v = v[0] if len(v) == 1 else v
            if len(names) == 1:
                vals = [v]
            else:
                vals = list(v)
                if len(vals) != len(names):
                    raise UsageError(f"wrong number of values in parametrize: {names!r} vs {vals!r}")
            if vid is None and ids is not None:
                if callable(ids):
                    r = ids(vals[0] if len(vals) == 1 else v)
                    vid = r if r is not None else None
                elif i < len(ids) and ids[i] is not None:
                    vid = str(ids[i])
            if vid is None:
                vid = "-".join(_idval(x, n, i) for x, n in zip(vals, names))
            sets.append((dict(zip(names, vals)), vid, list(vmarks)))
        if not sets:
            sets = [({n: None for n in names}, "NOTSET", [Mark("skip", (), {"reason": "got empty parameter set"})])]
        new = []
        for cs, cid, cm in combos:
            for s, sid, sm in sets:
                d = dict(cs)
                d.update(s)
                new.append((d, [sid] + cid, cm + sm))
        combos = new
    out = []
    for d, idparts, ms in combos:
        out.append((d, "-".join(idparts) if idparts else None, ms))
    # duplicate ids get a numeric suffix, as pytest does
    seen = {}
    for x in out:
        if x[1] is not None:
            seen[x[1]] = seen.get(x[1], 0) + 1
    counters = {}
    res = []
    for d, i, ms in out:
        if i is not None and seen[i] > 1:
            n = counters.get(i, 0)
            counters[i] = n + 1
            i = f"{i}{n}"
        res.append((d, i, ms))
    return res


class Config:
    def __init__(self, opts, rootdir):
        self.option = opts
        self.rootdir = rootdir
        self.rootpath = rootdir
        self.args = opts.args
        self.invocation_params = opts

    def getoption(self, name, default=None):
        return getattr(self.option, name.lstrip("-").replace("-", "_"), default)

    def getini(self, name):
        return []

    def addinivalue_line(self, name, line):
        pass


class Options:
    pass


_FLAG_OPTS = {"-q", "--quiet", "-v", "--verbose", "-x", "--exitfirst", "-s", "--capture=no", "-l", "--showlocals",
              "--co", "--collect-only", "--no-header", "--no-summary", "--disable-warnings", "--disable-pytest-warnings",
              "-vv", "-qq", "--strict-markers", "--strict-config", "--lf", "--last-failed", "--ff", "--new-first",
              "--cache-clear", "--version", "-V", "-h", "--help", "--setup-show", "--runxfail", "--color=no",
              "--color=yes", "--color=auto", "--code-highlight=no", "--code-highlight=yes", "-ra", "-rA", "-rf",
              "-rs", "-rx", "-rX", "-rE", "-rp", "-rP", "-rN", "--doctest-modules", "--full-trace", "--showlocals",
              "--import-mode=importlib", "--import-mode=prepend", "--import-mode=append", "--trace-config",
              "--continue-on-collection-errors", "--sw", "--stepwise", "-n0"}
_VALUE_OPTS = {"-k", "-m", "--maxfail", "--tb", "-p", "-o", "--override-ini", "-W", "--pythonwarnings", "--rootdir",
               "-c", "--confcutdir", "--basetemp", "--junitxml", "--junit-xml", "--durations", "--ctrf",
               "--import-mode", "--deselect", "--ignore", "--ignore-glob", "-r", "--log-level", "--log-cli-level",
               "--capture", "--json-report-file", "--timeout", "--color", "-n", "--cov", "--cov-report", "--durations-min"}
_PARTIAL_OPTS = {"--junitxml", "--junit-xml", "--durations", "--json-report-file", "--timeout", "--cov", "--cov-report", "-n"}


def _parse_args(args):
    o = Options()
    o.verbose = 0
    o.exitfirst = False
    o.keyword = None
    o.markexpr = None
    o.maxfail = 0
    o.tb = "auto"
    o.collectonly = False
    o.capture = "fd"
    o.reportchars = "fE"
    o.args = []
    o.ctrf = None
    o.deselect = []
    o.ignore = []
    o.rootdir = None
    o.no_header = False
    o.version = False
    o.help = False
    o.junitxml = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            o.args.extend(args[i + 1:])
            break
        if not a.startswith("-") or a == "-":
            o.args.append(a)
            i += 1
            continue
        name, eq, val = a.partition("=")
        if name in _VALUE_OPTS or (len(a) > 2 and a[:2] in ("-k", "-m", "-p", "-o", "-W", "-c", "-r", "-n") and not a.startswith("--") and a not in _FLAG_OPTS):
            if name in _VALUE_OPTS and not eq:
                if i + 1 >= len(args):
                    raise UsageError(f"argument {name}: expected one argument")
                val = args[i + 1]
                i += 1
            elif not eq:
                name, val = a[:2], a[2:]
            if name in _PARTIAL_OPTS:
                _ps.partial("pytest " + name)
            if name == "-k":
                o.keyword = val
            elif name == "-m":
                o.markexpr = val
            elif name == "--maxfail":
                o.maxfail = int(val)
            elif name == "--tb":
                o.tb = val
            elif name == "--ctrf":
                o.ctrf = val
            elif name in ("--junitxml", "--junit-xml"):
                o.junitxml = val
            elif name == "--deselect":
                o.deselect.append(val)
            elif name == "--ignore":
                o.ignore.append(val)
            elif name == "--rootdir":
                o.rootdir = val
            elif name == "-r":
                o.reportchars = val
            elif name == "--capture":
                o.capture = val
            elif name == "-p" and not val.startswith("no:"):
                _ps.unsupported("pytest -p " + val)
            i += 1
            continue
        if a in _FLAG_OPTS or (a.startswith("-") and not a.startswith("--") and all(c in "qvxslr" for c in a[1:])):
            if a in ("-q", "--quiet"):
                o.verbose -= 1
            elif a == "-qq":
                o.verbose -= 2
            elif a in ("-v", "--verbose"):
                o.verbose += 1
            elif a == "-vv":
                o.verbose += 2
            elif a in ("-x", "--exitfirst"):
                o.exitfirst = True
            elif a in ("--co", "--collect-only"):
                o.collectonly = True
            elif a in ("-s", "--capture=no"):
                o.capture = "no"
            elif a == "--no-header":
                o.no_header = True
            elif a in ("--version", "-V"):
                o.version = True
            elif a in ("-h", "--help"):
                o.help = True
            elif a.startswith("-r") and len(a) > 2:
                o.reportchars = a[2:]
            elif not a.startswith("--") and len(a) > 2:
                for c in a[1:]:
                    if c == "q":
                        o.verbose -= 1
                    elif c == "v":
                        o.verbose += 1
                    elif c == "x":
                        o.exitfirst = True
                    elif c == "s":
                        o.capture = "no"
            i += 1
            continue
        raise UsageError(f"unrecognized arguments: {a}")
    if o.exitfirst:
        o.maxfail = 1
    return o


def _find_rootdir(args, cwd):
    return cwd


def _is_test_file(name):
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _collect_paths(args, cwd, ignore):
    files = []
    errors = []
    ignore_abs = [os.path.abspath(p) for p in ignore]
    if not args:
        args = [cwd]
    for a in args:
        path, _, rest = a.partition("::")
        ap = os.path.abspath(path)
        if not os.path.exists(ap):
            errors.append(f"ERROR: file or directory not found: {a}")
            continue
        if os.path.isdir(ap):
            for root, dirs, fnames in os.walk(ap):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "node_modules", "venv", "build", "dist", "site-packages", ".venv") and not d.endswith(".egg-info") and os.path.join(root, d) not in ignore_abs)
                for f in sorted(fnames):
                    if _is_test_file(f):
                        files.append((os.path.join(root, f), None))
        else:
            files.append((ap, rest or None))
    return files, errors


def _matches_keyword(expr, item):
    names = set(n.lower() for n in item.keywords)
    s = expr
    import re
    tokens = re.findall(r"\(|\)|[^\s()]+", s)
    pos = 0

    def parse_or():
        nonlocal pos
        v = parse_and()
        while pos < len(tokens) and tokens[pos] == "or":
            pos += 1
            r = parse_and()
            v = v or r
        return v

    def parse_and():
        nonlocal pos
        v = parse_not()
        while pos < len(tokens) and tokens[pos] == "and":
            pos += 1
            r = parse_not()
            v = v and r
        return v

    def parse_not():
        nonlocal pos
        if pos < len(tokens) and tokens[pos] == "not":
            pos += 1
            return not parse_not()
        if pos < len(tokens) and tokens[pos] == "(":
            pos += 1
            v = parse_or()
            pos += 1
            return v
        t = tokens[pos].lower() if pos < len(tokens) else ""
        pos += 1
        return any(t in n for n in names)
    return parse_or()


def _matches_mark(expr, item):
    names = set(m.name for m in item.marks)
    import re
    tokens = re.findall(r"\(|\)|[^\s()]+", expr)
    pos = 0

    def parse_or():
        nonlocal pos
        v = parse_and()
        while pos < len(tokens) and tokens[pos] == "or":
            pos += 1
            r = parse_and()
            v = v or r
        return v

    def parse_and():
        nonlocal pos
        v = parse_not()
        while pos < len(tokens) and tokens[pos] == "and":
            pos += 1
            r = parse_not()
            v = v and r
        return v

    def parse_not():
        nonlocal pos
        if pos < len(tokens) and tokens[pos] == "not":
            pos += 1
            return not parse_not()
        if pos < len(tokens) and tokens[pos] == "(":
            pos += 1
            v = parse_or()
            pos += 1
            return v
        t = tokens[pos] if pos < len(tokens) else ""
        pos += 1
        return t in names
    return parse_or()


# -------------------------------------------------------------- session

class TestReport:
    def __init__(self, item, outcome, when, longrepr=None, summary=None, duration=0.0, wasxfail=None):
        self.item = item
        self.nodeid = item.nodeid if item is not None else ""
        self.outcome = outcome
        self.when = when
        self.longrepr = longrepr
        self.summary = summary
        self.duration = duration
        self.wasxfail = wasxfail
        self.sections = []


class Session:
    def __init__(self, opts, rootdir):
        self.opts = opts
        self.config = Config(opts, rootdir)
        self.rootdir = rootdir
        self.fixtures = {}      # name -> [FixtureDef] (builtin, conftest)
        self.cache = {"session": {}, "module": {}, "class": {}, "function": {}}
        self.finalizers = {"session": [], "module": [], "class": [], "function": []}
        self.reports = []
        self.collect_errors = []
        self.tmp_counter = 0
        self.basetemp = None
        self.shouldstop = False
        self._register_builtins()

    # ---- fixtures
    def _register_builtins(self):
        def tmp_path(request):
            return self._mktemp(request.node.name)
        def tmpdir(request):
            return self._mktemp(request.node.name)
        def tmp_path_factory(request):
            return _TmpFactory(self)
        def capsys(request):
            c = CaptureFixture()
            yield c
            c.close()
        def monkeypatch(request):
            m = MonkeyPatch()
            yield m
            m.undo()
        def caplog(request):
            c = LogCaptureFixture()
            yield c
            c.close()
        def request_fix(request):
            return request
        def pytestconfig(request):
            return self.config
        def recwarn(request):
            w = WarningsChecker()
            w.__enter__()
            yield w
            w.__exit__(None, None, None)
        for name, f, scope in [("tmp_path", tmp_path, "function"), ("tmpdir", tmpdir, "function"),
                               ("tmp_path_factory", tmp_path_factory, "session"), ("tmpdir_factory", tmp_path_factory, "session"),
                               ("capsys", capsys, "function"), ("capfd", capsys, "function"),
                               ("capsysbinary", capsys, "function"), ("monkeypatch", monkeypatch, "function"),
                               ("caplog", caplog, "function"), ("request", request_fix, "function"),
                               ("pytestconfig", pytestconfig, "session"), ("recwarn", recwarn, "function")]:
            fd = FixtureDef(f, name, scope, None, False, None)
            fd.builtin = True
            self.fixtures.setdefault(name, []).append(fd)

    def _mktemp(self, name):
        import pathlib
        import re
        if self.basetemp is None:
            base = "/tmp/pytest-of-root"
            os.makedirs(base, exist_ok=True)
            n = 0
            while os.path.exists(f"{base}/pytest-{n}"):
                n += 1
            self.basetemp = f"{base}/pytest-{n}"
            os.makedirs(self.basetemp)
        safe = re.sub(r"[\W]", "_", name)[:30]
        n = 0
        while os.path.exists(f"{self.basetemp}/{safe}{n}"):
            n += 1
        p = f"{self.basetemp}/{safe}{n}"
        os.makedirs(p)
        return pathlib.Path(p)

    def register_module_fixtures(self, module, store):
        for name, obj in list(vars(module).items()):
            fd = getattr(obj, "_pytestfixture", None)
            if isinstance(fd, FixtureDef) and callable(obj):
                store.setdefault(fd.name, []).append(fd)

    def find_fixture(self, name, item):
        if item is not None and item.cls is not None:
            for klass in item.cls.__mro__:
                for attr, obj in vars(klass).items():
                    fd = getattr(obj, "_pytestfixture", None)
                    if isinstance(fd, FixtureDef) and fd.name == name:
                        return fd, klass
        if item is not None:
            lst = item.module_fixtures.get(name)
            if lst:
                return lst[-1], None
            for conf in reversed(item.conftests):
                lst = conf.get(name)
                if lst:
                    return lst[-1], None
        lst = self.fixtures.get(name)
        if lst:
            return lst[-1], None
        return None, None

    def autouse_names(self, item):
        names = []
        for conf in item.conftests:
            for n, lst in conf.items():
                if lst[-1].autouse:
                    names.append(n)
        for n, lst in item.module_fixtures.items():
            if lst[-1].autouse:
                names.append(n)
        if item.cls is not None:
            for klass in reversed(item.cls.__mro__):
                for attr, obj in vars(klass).items():
                    fd = getattr(obj, "_pytestfixture", None)
                    if isinstance(fd, FixtureDef) and fd.autouse:
                        names.append(fd.name)
        return names

    def get_fixture(self, name, item, stack=()):
        if name in stack:
            raise FixtureLookupError(f"recursive dependency involving fixture '{name}' detected")
        if name == "request":
            return item.request
        fd, klass = self.find_fixture(name, item)
        if fd is None:
            avail = sorted(set(list(self.fixtures) + list(item.module_fixtures) + [n for c in item.conftests for n in c]))
            raise FixtureLookupError(f"fixture '{name}' not found\n>       available fixtures: {', '.join(avail)}\n>       use 'pytest --fixtures [testpath]' for help on them.")
        scope = fd.scope if fd.scope in self.cache else "function"
        param_index = item.fixture_params.get(name)
        key = (name, param_index, id(fd))
        if scope == "module":
            key = key + (item.path,)
        if scope == "class":
            key = key + (item.cls,)
        cache = self.cache[scope]
        if key in cache:
            return cache[key]
        req = FixtureRequest(self, item, scope)
        req.fixturename = name
        if param_index is not None and fd.params is not None:
            req.param = fd.params[param_index]
            if isinstance(req.param, ParameterSet):
                req.param = req.param.values[0]
            req.param_index = param_index
        func = fd.func
        kwargs = {}
        params = _ps.params(func)
        bound_self = False
        if klass is not None:
            inst = item.instance if item.instance is not None else klass()
            func = getattr(inst, func.__name__)
            bound_self = True
        for i, (pname, hasdef) in enumerate(params):
            if bound_self and i == 0:
                continue
            if pname == "request":
                kwargs[pname] = req
            elif not hasdef:
                kwargs[pname] = self.get_fixture(pname, item, stack + (name,))
        if _ps.is_generator_function(fd.func):
            gen = func(**kwargs)
            value = next(gen)

            def finalize(gen=gen, name=name):
                try:
                    next(gen)
                except StopIteration:
                    pass
                else:
                    raise ValueError(f"fixture function has more than one 'yield': {name}")
            self.finalizers[scope].append(finalize)
        else:
            value = func(**kwargs)
        cache[key] = value
        return value

    def teardown(self, scope):
        errors = []
        fins = self.finalizers[scope]
        while fins:
            fn = fins.pop()
            try:
                fn()
            except BaseException as e:
                errors.append(e)
        self.cache[scope].clear()
        return errors


class _TmpFactory:
    def __init__(self, session):
        self.session = session

    def mktemp(self, basename, numbered=True):
        return self.session._mktemp(basename)

    def getbasetemp(self):
        import pathlib
        self.session._mktemp("base")
        return pathlib.Path(self.session.basetemp)


def _load_conftests(session, testfile, cache):
    """conftest.py files from the rootdir down to the test file's directory."""
    d = os.path.dirname(testfile)
    dirs = []
    root = session.rootdir
    while True:
        dirs.append(d)
        if d == root or d == "/" or not d.startswith(root) and len(dirs) > 1:
            break
        d = os.path.dirname(d)
    out = []
    for d in reversed(dirs):
        p = os.path.join(d, "conftest.py")
        if p in cache:
            if cache[p] is not None:
                out.append(cache[p])
            continue
        if os.path.isfile(p):
            if d not in sys.path:
                sys.path.insert(0, d)
            modname = "conftest" if d == root else "conftest_" + str(len(cache))
            mod = _ps.exec_file(modname, p)
            store = {}
            session.register_module_fixtures(mod, store)
            cache[p] = store
            out.append(store)
        else:
            cache[p] = None
    return out


def _collect_module(session, path, selector, conftest_cache):
    relpath = os.path.relpath(path, session.rootdir)
    if relpath.startswith(".."):
        relpath = path
    d = os.path.dirname(path)
    if d not in sys.path:
        sys.path.insert(0, d)
    conftests = _load_conftests(session, path, conftest_cache)
    modname = os.path.basename(path)[:-3]
    if modname in sys.modules and getattr(sys.modules[modname], "__file__", None) != path:
        modname = relpath[:-3].replace("/", ".")
    try:
        module = _ps.exec_file(modname, path)
    except Skipped as e:
        return [], [("skipped", relpath, str(e))]
    except BaseException as e:
        return [], [("error", relpath, e)]
    mod_fixtures = {}
    session.register_module_fixtures(module, mod_fixtures)
    items = []
    mod_marks = _marks_of(module)
    sel_parts = selector.split("::") if selector else []

    def want(name, clsname=None):
        if not sel_parts:
            return True
        if clsname is None:
            return sel_parts[0] == name or sel_parts[0].split("[")[0] == name
        if sel_parts[0] != clsname:
            return False
        return len(sel_parts) == 1 or sel_parts[1].split("[")[0] == name

    def add_function(name, func, cls=None, cls_marks=()):
        marks = list(_marks_of(func)) + list(cls_marks) + list(mod_marks)
        fixture_names = [p for p, hasdef in _ps.params(func) if not hasdef]
        if cls is not None and fixture_names:
            fixture_names = fixture_names[1:]
        combos = _parametrize(marks)
        for callspec, cid, pmarks in combos:
            base_item = Item(module, path, relpath, name, func, cls, callspec, cid, marks + pmarks)
            base_item.conftests = conftests
            base_item.module_fixtures = mod_fixtures
            base_item.fixture_params = {}
            # fixture params (params=[...]) multiply the item
            expanded = [base_item]
            needed = [n for n in fixture_names if n not in callspec]
            seen = set()
            while needed:
                fname = needed.pop(0)
                if fname in seen:
                    continue
                seen.add(fname)
                fd, _ = session.find_fixture(fname, base_item)
                if fd is None:
                    continue
                for p, hasdef in _ps.params(fd.func):
                    if not hasdef and p not in ("request", "self"):
                        needed.append(p)
                if fd.params:
                    new = []
                    for it in expanded:
                        for i, pv in enumerate(fd.params):
                            if fd.ids is not None:
                                pid = fd.ids(pv) if callable(fd.ids) else fd.ids[i]
                            elif isinstance(pv, ParameterSet) and pv.id is not None:
                                pid = pv.id
                            else:
                                pid = _idval(pv.values[0] if isinstance(pv, ParameterSet) else pv, fname, i)
                            cid2 = pid if it.callspec_id_str() is None else f"{it.callspec_id_str()}-{pid}"
                            ni = Item(module, path, relpath, name, func, cls, it.callspec, cid2, list(it.marks))
                            ni.conftests, ni.module_fixtures = conftests, mod_fixtures
                            ni.fixture_params = dict(it.fixture_params)
                            ni.fixture_params[fname] = i
                            new.append(ni)
                    expanded = new
            for it in expanded:
                if sel_parts:
                    last = sel_parts[-1]
                    if "[" in last and last != it.name:
                        continue
                items.append(it)

    for name, obj in list(vars(module).items()):
        if name.startswith("test") and callable(obj) and not isinstance(obj, type) and getattr(obj, "__module__", None) == module.__name__:
            if getattr(obj, "_pytestfixture", None) is not None:
                continue
            if want(name):
                add_function(name, obj)
        elif isinstance(obj, type) and name.startswith("Test") and obj.__module__ == module.__name__:
            if getattr(obj, "__test__", True) is False:
                continue
            is_ut = _is_unittest(obj)
            if "__init__" in obj.__dict__ and not is_ut:
                continue
            cls_marks = _marks_of(obj)
            for mname in _class_test_names(obj, is_ut):
                if want(mname, name):
                    add_function(mname, getattr(obj, mname), obj, cls_marks)
                    if is_ut:
                        items[-1].unittest = True
        elif isinstance(obj, type) and _is_unittest(obj) and obj.__module__ == module.__name__:
            for mname in _class_test_names(obj, True):
                if want(mname, name):
                    add_function(mname, getattr(obj, mname), obj, _marks_of(obj))
                    items[-1].unittest = True
    return items, []


def _is_unittest(cls):
    for k in cls.__mro__:
        if k.__name__ == "TestCase" and k.__module__ == "unittest":
            return True
    return False


def _class_test_names(cls, is_ut):
    names = []
    seen = set()
    for klass in cls.__mro__:
        for n, v in vars(klass).items():
            if n.startswith("test") and callable(v) and n not in seen:
                seen.add(n)
                names.append((klass, n))
    # definition order: base classes after the class's own, as pytest does
    ordered = []
    for klass in reversed(cls.__mro__):
        for n, v in vars(klass).items():
            if n.startswith("test") and callable(v) and n not in ordered:
                ordered.append(n)
    if is_ut:
        return sorted(ordered)
    return ordered


def _item_callspec_id(self):
    if "[" in self.name:
        return self.name[self.name.index("[") + 1:-1]
    return None


Item.callspec_id_str = _item_callspec_id


# ----------------------------------------------------------------- running

def _clock():
    return _ps.walltime()


def _saferepr(v):
    try:
        r = repr(v)
    except Exception as e:
        return f"<[{type(e).__name__}() raised in repr()] {type(v).__name__} object>"
    if len(r) > 240:
        r = r[:117] + "..." + r[-120:]
    return r


def _exc_summary(e):
    line = _ps.exc_line(e)
    return line


def _longrepr(item, e, session):
    """pytest's long traceback for a failed test: the test function source
    up to the failing line, then E lines."""
    lines = []
    tb = _ps.tb(e)
    tb = [t for t in tb if "/unittest/" not in t[0] and not t[0].endswith("/_pytest_runner.py")]
    entries = [t[:3] for t in tb if t[0] == item.path]
    srcs = {(t[0], t[1], t[2]): t[3] for t in tb}
    tb = [t[:3] for t in tb]
    if isinstance(e, (Failed,)) and not str(e):
        pass
    if session.opts.tb == "no":
        return ""
    if session.opts.tb == "line":
        if entries:
            f, ln, _ = entries[-1]
            return f"{f}:{ln}: {_exc_summary(e)}"
        return _exc_summary(e)
    shown = []
    test_entry = None
    for t in tb:
        if t[0] == item.path and t[2] == item.originalname:
            test_entry = t
    if test_entry is None and entries:
        test_entry = entries[0]
    if test_entry is not None:
        shown.append(test_entry)
    if tb and tb[-1] != test_entry and tb[-1][0] != "<pytest>" and session.opts.tb not in ("short",):
        shown.append(tb[-1])
    msg = _exc_message_lines(e)
    for i, (f, ln, fname) in enumerate(shown):
        is_last = i == len(shown) - 1
        if session.opts.tb == "short":
            src = _ps.source_line(f, ln)
            rel = os.path.relpath(f, session.rootdir) if f.startswith("/") else f
            lines.append(f"{rel}:{ln}: in {fname}")
            lines.append(f"    {src}")
            if is_last:
                lines.extend("E   " + m for m in msg)
            continue
        if fname == item.originalname and f == item.path:
            fa = getattr(item, "funcargs", None)
            if fa:
                lines.append(", ".join(f"{n} = {_saferepr(v)}" for n, v in fa))
                lines.append("")
            src, first = _ps.source(item.func)
            body = src[:max(0, ln - first + 1)]
            if not body:
                body = [_ps.source_line(f, ln)]
            indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
            for j, l in enumerate(body):
                marker = ">   " if j == len(body) - 1 else "    "
                lines.append(marker + l[indent:] if l.strip() else "")
        else:
            fsrc = srcs.get((f, ln, fname))
            if fsrc is not None:
                src, first = fsrc
                body = src[:max(0, ln - first + 1)]
                indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
                for j, l in enumerate(body):
                    marker = ">   " if j == len(body) - 1 else "    "
                    lines.append(marker + l[indent:] if l.strip() else "")
            else:
                lines.append(">   " + _ps.source_line(f, ln))
        if is_last:
            lines.extend("E   " + ("    " + m if m else "") for m in msg)
        lines.append("")
        rel = os.path.relpath(f, session.rootdir) if f.startswith("/") else f
        lines.append(f"{rel}:{ln}: {'' if not is_last else type(e).__name__}".rstrip(": ") + ("" if is_last else ": in " + fname))
        if not is_last:
            lines.append("_ " * 39 + "_")
            lines.append("")
    if not shown:
        lines.extend("E   " + ("    " + m if m else "") for m in msg)
    return "\n".join(lines)


def _strip_assert(e):
    # pytest drops the "AssertionError: " prefix only when the repr starts
    # with "AssertionError('assert " (a message containing a single quote is
    # repr'd with double quotes and keeps the prefix).
    return repr(e).startswith("AssertionError('assert ")


def _exc_message_lines(e):
    if isinstance(e, AssertionError):
        s = str(e)
        if not s:
            return ["AssertionError"]
        if _strip_assert(e):
            return s.split("\n")
        first, _, rest = s.partition("\n")
        return [f"AssertionError: {first}"] + (rest.split("\n") if rest else [])
    if isinstance(e, Failed):
        return ["Failed: " + str(e)]
    return _ps.exc_line(e).split("\n")


def _short_msg(e):
    if isinstance(e, AssertionError):
        s = str(e)
        if not s:
            return "AssertionError"
        if _strip_assert(e):
            return s.split("\n")[0]
        return "AssertionError: " + s.split("\n")[0]
    if isinstance(e, Failed):
        return "Failed: " + str(e).split("\n")[0]
    return _ps.exc_line(e).split("\n")[0]


def _run_item(session, item):
    """Runs setup, call and teardown; returns the list of reports."""
    reports = []
    item.request = FixtureRequest(session, item)
    skipmark = None
    for m in item.marks:
        if m.name == "skip":
            skipmark = m.kwargs.get("reason", m.args[0] if m.args else "unconditional skip")
            break
        if m.name == "skipif":
            cond = m.args[0] if m.args else m.kwargs.get("condition", True)
            if isinstance(cond, str):
                cond = eval(cond, vars(item.module))
            if cond:
                skipmark = m.kwargs.get("reason", "condition: " + str(m.args[0]) if m.args else "")
                break
    xfailmark = None
    for m in item.marks:
        if m.name == "xfail":
            cond = m.args[0] if m.args else m.kwargs.get("condition", True)
            if isinstance(cond, str):
                cond = eval(cond, vars(item.module))
            if cond:
                xfailmark = m
                break
    start = _clock()
    if skipmark is not None:
        reports.append(TestReport(item, "skipped", "setup", summary=skipmark, duration=0.0))
        return reports
    # setup
    kwargs = {}
    try:
        if item.cls is not None and not item.unittest:
            item.instance = item.cls()
            if hasattr(item.instance, "setup_method"):
                item.instance.setup_method(getattr(item.instance, item.originalname))
        for name in session.autouse_names(item):
            session.get_fixture(name, item)
        params = _ps.params(item.func)
        if item.cls is not None and params:
            params = params[1:]
        for pname, hasdef in params:
            if pname in item.callspec:
                kwargs[pname] = item.callspec[pname]
            elif not hasdef:
                kwargs[pname] = session.get_fixture(pname, item)
        for pname in item.callspec:
            if pname not in kwargs and not any(p == pname for p, _ in params):
                session.get_fixture(pname, item) if session.find_fixture(pname, item)[0] else None
    except Skipped as e:
        reports.append(TestReport(item, "skipped", "setup", summary=str(e) or "skipped"))
        _teardown(session, item, reports)
        return reports
    except BaseException as e:
        if isinstance(e, (KeyboardInterrupt,)):
            raise
        reports.append(TestReport(item, "error", "setup", longrepr=_setup_error_repr(item, e, session), summary=_short_msg(e)))
        _teardown(session, item, reports)
        return reports
    # call
    item.funcargs = []
    if item.unittest:
        item.instance = item.cls(item.originalname)
    if item.cls is not None:
        item.funcargs.append(("self", item.instance))
    for pname, _ in _ps.params(item.func)[1 if item.cls is not None else 0:]:
        if pname in kwargs:
            item.funcargs.append((pname, kwargs[pname]))
    outcome, longrepr, summary, wasxfail = "passed", None, None, None
    try:
        if item.unittest:
            _run_unittest(item)
        elif item.cls is not None:
            getattr(item.instance, item.originalname)(**kwargs)
        else:
            item.func(**kwargs)
        if xfailmark is not None:
            if xfailmark.kwargs.get("strict", False):
                outcome, summary = "failed", "[XPASS(strict)] " + xfailmark.kwargs.get("reason", "")
                longrepr = summary
            else:
                outcome, wasxfail = "xpassed", xfailmark.kwargs.get("reason", "")
    except Skipped as e:
        outcome, summary = "skipped", str(e) or "skipped"
    except XFailed as e:
        outcome, wasxfail = "xfailed", str(e)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        if isinstance(e, SystemExit) and False:
            raise
        raises_spec = xfailmark.kwargs.get("raises") if xfailmark is not None else None
        if xfailmark is not None and (raises_spec is None or isinstance(e, raises_spec)):
            outcome, wasxfail = "xfailed", xfailmark.kwargs.get("reason", "")
        else:
            outcome = "failed"
            longrepr = _longrepr(item, e, session)
            summary = _short_msg(e)
    reports.append(TestReport(item, outcome, "call", longrepr=longrepr, summary=summary, duration=_clock() - start, wasxfail=wasxfail))
    _teardown(session, item, reports)
    return reports


def _setup_error_repr(item, e, session):
    if isinstance(e, FixtureLookupError):
        src, first = _ps.source(item.func)
        head = src[0].strip() if src else f"def {item.originalname}"
        rel = item.relpath
        return f"file {item.path}, line {first}\n  {head}\nE       {e.args[0]}\n\n{item.path}:{first}"
    return _longrepr(item, e, session)


def _teardown(session, item, reports):
    errs = []
    if item.instance is not None and hasattr(item.instance, "teardown_method"):
        try:
            item.instance.teardown_method(getattr(item.instance, item.originalname))
        except BaseException as e:
            errs.append(e)
    errs.extend(session.teardown("function"))
    for e in errs:
        reports.append(TestReport(item, "error", "teardown", longrepr=_longrepr(item, e, session), summary=_short_msg(e)))


def _xunit(module, name, arg=None):
    f = getattr(module, name, None) if module is not None else None
    if f is None or not callable(f):
        return
    params = _ps.params(f)
    if params:
        f(arg if arg is not None else module)
    else:
        f()


def _xunit_cls(cls, name):
    if getattr(cls, "__unittest_skip__", False):
        return
    for k in cls.__mro__:
        if k.__name__ == "TestCase" and k.__module__ == "unittest":
            f = getattr(cls, name.replace("_class", "Class").replace("setup", "setUp").replace("teardown", "tearDown"), None)
            if f is not None:
                f()
            return
    f = getattr(cls, name, None)
    if f is not None:
        f()


def _run_unittest(item):
    inst = item.instance
    inst.setUp()
    try:
        getattr(inst, item.originalname)()
    finally:
        inst.tearDown()
        for fn, args, kw in reversed(getattr(inst, "_cleanups", [])):
            fn(*args, **kw)


def _sep(ch, title=""):
    if not title:
        return ch * WIDTH
    n = (WIDTH - len(title) - 2) // (2 * len(ch))
    n = max(n, 1)
    fill = ch * n
    line = f"{fill} {title} {fill}"
    if len(line) < WIDTH - 1 + (1 if len(ch) == 1 else 0) and len(ch) == 1:
        line += ch * (WIDTH - len(line))
    return line


def _write(s):
    sys.stdout.write(s)


def _fmt_duration(d):
    if d < 60:
        return f"{d:.2f}s"
    return f"{d:.2f}s ({int(d // 3600):d}:{int(d % 3600 // 60):02d}:{int(d % 60):02d})"


def _read_ini(cwd):
    """The first pytest configuration file from cwd upwards: (path, options)."""
    d = cwd
    while True:
        for name, section in (("pytest.ini", "pytest"), ("pyproject.toml", "tool.pytest.ini_options"),
                              ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")):
            p = os.path.join(d, name)
            if not os.path.isfile(p):
                continue
            opts = _ini_section(open(p).read(), section, name.endswith(".toml"))
            if opts is not None or name == "pytest.ini":
                return p, opts or {}
        parent = os.path.dirname(d)
        if parent == d:
            return None, {}
        d = parent


def _ini_section(text, section, toml):
    cur = None
    out = None
    key = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip() if not toml else raw.rstrip()
        st = line.strip()
        if not st or st.startswith(("#", ";")):
            continue
        if st.startswith("[") and st.endswith("]"):
            cur = st[1:-1].strip()
            if cur == section:
                out = {}
            key = None
            continue
        if cur != section:
            continue
        if line[0] in " \t" and key is not None and not toml:
            out[key] += " " + st
            continue
        k, sep, v = st.partition("=")
        if not sep:
            continue
        key = k.strip()
        v = v.strip()
        if toml:
            if v.startswith("["):
                v = " ".join(x.strip().strip("\"'") for x in v.strip("[]").split(",") if x.strip())
            else:
                v = v.strip("\"'")
        out[key] = v
    return out


def main(args=None, plugins=None):
    if args is None:
        args = sys.argv[1:]
    args = [str(a) for a in args]
    inifile, ini = _read_ini(os.getcwd())
    if ini.get("addopts"):
        import shlex
        args = shlex.split(ini["addopts"]) + args
    try:
        opts = _parse_args(args)
    except UsageError as e:
        sys.stderr.write("ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]\npytest: error: " + str(e) + "\n")
        return 4
    if opts.version:
        sys.stdout.write("pytest 8.3.4\n")
        return 0
    if opts.help:
        sys.stdout.write("usage: pytest [options] [file_or_dir] [file_or_dir] [...]\n")
        return 0
    cwd = os.getcwd()
    rootdir = os.path.abspath(opts.rootdir) if opts.rootdir else (os.path.dirname(inifile) if inifile else _find_rootdir(opts.args, cwd))
    opts.testpaths_text = ""
    if not opts.args and ini.get("testpaths"):
        opts.args = [os.path.join(rootdir, p) for p in ini["testpaths"].split()]
        opts.testpaths_text = ", ".join(ini["testpaths"].split())
    opts.inifile = inifile
    session = Session(opts, rootdir)
    _ps.set_assert_mode(True)
    try:
        return _main(session, opts, rootdir)
    finally:
        _ps.set_assert_mode(False)


def _main(session, opts, rootdir):
    start = _clock()
    verbose = opts.verbose
    if verbose >= 0 and not opts.no_header:
        _write(_sep("=", "test session starts") + "\n")
        _write(f"platform linux -- Python 3.13.0, pytest-8.3.4, pluggy-1.5.0\n")
        if verbose > 0:
            _write("cachedir: .pytest_cache\n")
        _write(f"rootdir: {rootdir}\n")
        if opts.inifile:
            _write(f"configfile: {os.path.relpath(opts.inifile, rootdir)}\n")
        if opts.inifile and ini_testpaths(opts):
            _write(f"testpaths: {ini_testpaths(opts)}\n")
    paths, errors = _collect_paths(opts.args, os.getcwd(), opts.ignore)
    if errors:
        if verbose >= 0 and not opts.no_header:
            _write("collected 0 items\n\n")
        _write(_sep("=", "no tests ran in " + _fmt_duration(_clock() - start)) + "\n") if verbose >= 0 else _write(f"no tests ran in {_fmt_duration(_clock() - start)}\n")
        for e in errors:
            sys.stderr.write(e + "\n")
        return 4
    items = []
    col_errors = []
    col_skips = []
    conftest_cache = {}
    for p, sel in paths:
        its, errs = _collect_module(session, p, sel, conftest_cache)
        items.extend(its)
        for kind, rel, e in errs:
            if kind == "skipped":
                col_skips.append((rel, e))
            else:
                col_errors.append((rel, e))
    total_collected = len(items)
    deselected = 0
    if opts.keyword:
        keep = [it for it in items if _matches_keyword(opts.keyword, it)]
        deselected += len(items) - len(keep)
        items = keep
    if opts.markexpr:
        keep = [it for it in items if _matches_mark(opts.markexpr, it)]
        deselected += len(items) - len(keep)
        items = keep
    if opts.deselect:
        keep = [it for it in items if it.nodeid not in opts.deselect]
        deselected += len(items) - len(keep)
        items = keep
    n = total_collected
    if verbose >= 0:
        msg = f"collected {n} item{'s' if n != 1 else ''}"
        if col_errors:
            msg += f" / {len(col_errors)} error{'s' if len(col_errors) != 1 else ''}"
        if deselected:
            msg += f" / {deselected} deselected / {len(items)} selected"
        if col_skips:
            msg += f" / {len(col_skips)} skipped"
        if not opts.no_header or True:
            _write(msg + "\n")
        if not opts.collectonly:
            _write("\n")
    if opts.collectonly:
        if verbose >= 0:
            cur_mod = None
            for it in items:
                if it.relpath != cur_mod:
                    cur_mod = it.relpath
                    _write(f"<Module {os.path.basename(it.relpath)}>\n")
                if it.cls is not None:
                    _write(f"  <Class {it.cls.__name__}>\n    <Function {it.name}>\n")
                else:
                    _write(f"  <Function {it.name}>\n")
        else:
            for it in items:
                _write(it.nodeid + "\n")
        if verbose >= 0:
            _write("\n" + _sep("=", f"{len(items)} test{'s' if len(items) != 1 else ''} collected in {_fmt_duration(_clock() - start)}") + "\n")
        else:
            _write(f"\n{len(items)} test{'s' if len(items) != 1 else ''} collected in {_fmt_duration(_clock() - start)}\n")
        return 0 if items else 5
    if col_errors:
        if verbose >= 0:
            _write(_sep("=", "ERRORS") + "\n")
        for rel, e in col_errors:
            _write(_sep("_", f"ERROR collecting {rel}") + "\n")
            _write(_ps.format_exc(e))
        _write(_sep("=", "short test summary info") + "\n")
        for rel, e in col_errors:
            _write(f"ERROR {rel}" + (f" - {_short_msg(e)}" if not isinstance(e, SyntaxError) else "") + "\n")
        _write(_sep("!", f"Interrupted: {len(col_errors)} error{'s' if len(col_errors) != 1 else ''} during collection") + "\n")
        _write(_sep("=", f"{len(col_errors)} error{'s' if len(col_errors) != 1 else ''} in {_fmt_duration(_clock() - start)}") + "\n")
        return 2
    all_reports = []
    counts = {}
    failures = []
    progress_col = 0
    cur_file = None
    line = ""
    ntests = len(items)
    failed_count = 0
    prev_module = None
    prev_cls = None
    prev_mod_obj = None
    for idx, item in enumerate(items):
        if prev_module is not None and item.path != prev_module:
            session.teardown("class")
            session.teardown("module")
        elif prev_cls is not None and item.cls is not prev_cls:
            session.teardown("class")
        if item.path != prev_module:
            if prev_module is not None:
                _xunit(prev_mod_obj, "teardown_module")
            _xunit(item.module, "setup_module")
            prev_mod_obj = item.module
        if item.cls is not prev_cls:
            if prev_cls is not None:
                _xunit_cls(prev_cls, "teardown_class")
            if item.cls is not None:
                _xunit_cls(item.cls, "setup_class")
        prev_module, prev_cls = item.path, item.cls
        _xunit(item.module, "setup_function", item.func) if item.cls is None else None
        reps = _run_item(session, item)
        _xunit(item.module, "teardown_function", item.func) if item.cls is None else None
        all_reports.extend(reps)
        # progress output
        letter = "."
        word = "PASSED"
        for r in reps:
            if r.outcome == "failed":
                letter, word = "F", "FAILED"
            elif r.outcome == "error" and letter != "F":
                letter, word = "E", "ERROR"
            elif r.outcome == "skipped" and letter == ".":
                letter, word = "s", "SKIPPED"
            elif r.outcome == "xfailed":
                letter, word = "x", "XFAIL"
            elif r.outcome == "xpassed":
                letter, word = "X", "XPASS"
        pct = f"[{(idx + 1) * 100 // ntests:3d}%]"
        if verbose > 0:
            text = f"{item.nodeid} {word}"
            _write(text + " " * max(1, WIDTH - 1 - len(text) - len(pct)) + pct + "\n")
            # errors at teardown of a passing test are shown as a second line
            for r in reps:
                if r.when == "teardown" and r.outcome == "error":
                    text = f"{item.nodeid} ERROR"
                    _write(text + " " * max(1, WIDTH - 1 - len(text) - len(pct)) + pct + "\n")
        else:
            if verbose == 0 and item.relpath != cur_file:
                if line:
                    _write(line + " " * max(1, WIDTH - 1 - len(line) - len(prev_pct)) + prev_pct + "\n")
                cur_file = item.relpath
                line = item.relpath + " "
            line += letter
            for r in reps:
                if r.when == "teardown" and r.outcome == "error":
                    line += "E"
            prev_pct = pct
            if verbose < 0 and len(line) >= WIDTH - 7:
                _write(line + " " * max(1, WIDTH - 1 - len(line) - len(pct)) + pct + "\n")
                line = ""
        if any(r.outcome in ("failed", "error") for r in reps):
            failed_count += 1
            if opts.maxfail and failed_count >= opts.maxfail:
                session.shouldstop = True
                break
    if verbose <= 0 and line:
        _write(line + " " * max(1, WIDTH - 1 - len(line) - len(prev_pct)) + prev_pct + "\n")
    if prev_cls is not None:
        _xunit_cls(prev_cls, "teardown_class")
    if prev_module is not None:
        _xunit(prev_mod_obj, "teardown_module")
    session.teardown("class")
    session.teardown("module")
    for e in session.teardown("session"):
        pass
    for r in all_reports:
        key = r.outcome
        if r.when == "teardown" and r.outcome == "error":
            key = "error"
        counts[key] = counts.get(key, 0) + 1
    errors = [r for r in all_reports if r.outcome == "error"]
    fails = [r for r in all_reports if r.outcome == "failed"]
    nl = "\n" if verbose >= 0 else ""
    if errors and opts.tb != "no":
        _write(nl + _sep("=", "ERRORS") + "\n")
        for r in errors:
            _write(_sep("_", f"ERROR at {r.when} of {r.item.name}") + "\n")
            if opts.tb != "line":
                _write("\n")
            _write(r.longrepr + "\n")
    if fails and opts.tb != "no":
        _write(("" if errors else nl) + _sep("=", "FAILURES") + "\n")
        for r in fails:
            title = r.item.name if r.item.cls is None else f"{r.item.cls.__name__}.{r.item.name}"
            _write(_sep("_", title) + "\n")
            if r.longrepr:
                if opts.tb == "line":
                    pass
                else:
                    _write("\n")
                _write(r.longrepr + "\n")
    elif (errors or fails) and verbose >= 0:
        _write("\n")
    # short test summary
    chars = opts.reportchars.replace("A", "PpsxXEf").replace("a", "sxXEf")
    if "P" in chars and "p" in chars:
        chars = chars.replace("P", "")
    summary = []
    order = []
    for ch in chars:
        if ch not in order:
            order.append(ch)
    for ch in order:
        for r in all_reports:
            if ch in "pP" and r.outcome == "passed":
                summary.append(("p", f"PASSED {r.nodeid}"))
            elif ch == "x" and r.outcome == "xfailed":
                summary.append(("x", f"XFAIL {r.nodeid}" + (f" - {r.wasxfail}" if r.wasxfail else "")))
            elif ch == "X" and r.outcome == "xpassed":
                summary.append(("X", f"XPASS {r.nodeid}" + (f" {r.wasxfail}" if r.wasxfail else "")))
            elif ch == "s" and r.outcome == "skipped":
                loc = f"{r.item.relpath}:{_ps.source(r.item.func)[1]}"
                summary.append(("s", f"SKIPPED [1] {loc}: {r.summary}"))
            elif ch == "E" and r.outcome == "error":
                summary.append(("E", _trim_line(f"ERROR {r.nodeid}", r.summary)))
            elif ch == "f" and r.outcome == "failed":
                summary.append(("f", _trim_line(f"FAILED {r.nodeid}", r.summary)))
        if ch in "pP":
            order = [c for c in order]
    if summary and verbose >= -1:
        _write(_sep("=", "short test summary info") + "\n")
        for _, s in summary:
            _write(s + "\n")
    if session.shouldstop and opts.maxfail:
        _write(_sep("!", f"stopping after {failed_count} failure{'s' if failed_count != 1 else ''}") + "\n")
    parts = []
    for key, label in [("failed", "failed"), ("passed", "passed"), ("skipped", "skipped"), ("deselected", "deselected"),
                       ("xfailed", "xfailed"), ("xpassed", "xpassed"), ("error", "error")]:
        c = counts.get(key, 0) if key != "deselected" else deselected
        if c:
            lab = label
            if key == "error" and c > 1:
                lab = "errors"
            parts.append(f"{c} {lab}")
    elapsed = _clock() - start
    if not parts:
        text = f"no tests ran in {_fmt_duration(elapsed)}"
    else:
        text = ", ".join(parts) + f" in {_fmt_duration(elapsed)}"
    if verbose >= 0:
        _write(_sep("=", text) + "\n")
    elif verbose == -1:
        _write(text + "\n")
    if opts.ctrf:
        _write_ctrf(opts.ctrf, all_reports, items, start)
    if opts.junitxml:
        _write_junit(opts.junitxml, all_reports, elapsed)
    if fails or errors:
        return 1
    if not items:
        return 5
    return 0


def ini_testpaths(opts):
    return getattr(opts, "testpaths_text", "")


def _trim_line(head, msg):
    """The summary line as pytest fits it to the terminal width."""
    if not msg:
        return head
    msg = msg.split("\n")[0]
    avail = WIDTH - len(head) - 3
    if len(msg) > avail:
        ell = "..."
        if avail >= len(ell):
            msg = msg[:avail - len(ell)] + ell
        else:
            return head
    return f"{head} - {msg}"


def _write_ctrf(path, reports, items, start):
    import json
    tests = []
    summary = {"tests": 0, "passed": 0, "failed": 0, "skipped": 0, "pending": 0, "other": 0}
    by_item = {}
    for r in reports:
        by_item.setdefault(r.nodeid, []).append(r)
    for nodeid, reps in by_item.items():
        status = "passed"
        msg = None
        for r in reps:
            if r.outcome in ("failed", "error"):
                status = "failed"
                msg = r.summary
            elif r.outcome == "skipped" and status == "passed":
                status = "skipped"
            elif r.outcome in ("xfailed", "xpassed") and status == "passed":
                status = "other"
        summary["tests"] += 1
        summary[status] += 1
        t = {"name": nodeid, "status": status, "duration": int(sum(r.duration for r in reps) * 1000)}
        if msg:
            t["message"] = msg
        tests.append(t)
    summary["start"] = int(start * 1000)
    summary["stop"] = int(_clock() * 1000)
    doc = {"results": {"tool": {"name": "pytest"}, "summary": summary, "tests": tests}}
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)


def _write_junit(path, reports, elapsed):
    def esc(s):
        return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    cases = []
    nf = ne = ns = 0
    for r in reports:
        if r.when != "call" and r.outcome not in ("error", "skipped"):
            continue
        cls = r.item.relpath[:-3].replace("/", ".") + ("." + r.item.cls.__name__ if r.item.cls else "")
        body = ""
        if r.outcome == "failed":
            nf += 1
            body = f'<failure message="{esc(r.summary)}">{esc(r.longrepr or "")}</failure>'
        elif r.outcome == "error":
            ne += 1
            body = f'<error message="{esc(r.summary)}">{esc(r.longrepr or "")}</error>'
        elif r.outcome == "skipped":
            ns += 1
            body = f'<skipped type="pytest.skip" message="{esc(r.summary)}" />'
        cases.append(f'<testcase classname="{esc(cls)}" name="{esc(r.item.name)}" time="{r.duration:.3f}">{body}</testcase>')
    xml = (f'<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="{ne}" failures="{nf}" '
           f'skipped="{ns}" tests="{len(cases)}" time="{elapsed:.3f}">' + "".join(cases) + "</testsuite></testsuites>")
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    with open(path, "w") as f:
        f.write(xml)
