"""Warnings: printed to stderr once per location, as CPython's default filter."""
import sys

_hooks = []
_filters = []
_seen = set()


class WarningMessage:
    def __init__(self, message, category, filename, lineno):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno

    def __repr__(self):
        return f"{{message : {self.message!r}, category : {self.category.__name__!r}, filename : {self.filename!r}, lineno : {self.lineno}, line : None}}"


def warn(message, category=None, stacklevel=1, source=None, skip_file_prefixes=()):
    if isinstance(message, Warning):
        category = type(message)
    if category is None:
        category = UserWarning
    try:
        f = sys._getframe(stacklevel)
        filename, lineno = f.f_code.co_filename, f.f_lineno
    except Exception:
        filename, lineno = "sys", 1
    w = WarningMessage(message if isinstance(message, Warning) else category(message), category, filename, lineno)
    if _hooks:
        _hooks[-1](w)
        return
    action = "default"
    for act, cat in _filters:
        if issubclass(category, cat):
            action = act
            break
    if action == "ignore":
        return
    if action == "error":
        raise w.message
    if issubclass(category, (DeprecationWarning, PendingDeprecationWarning)) and action == "default":
        return
    key = (str(message), category, lineno)
    if key in _seen and action != "always":
        return
    _seen.add(key)
    sys.stderr.write(f"{filename}:{lineno}: {category.__name__}: {message}\n")


def simplefilter(action, category=Warning, lineno=0, append=False):
    _filters.insert(0, (action, category))


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    _filters.insert(0, (action, category))


def resetwarnings():
    _filters.clear()


class catch_warnings:
    def __init__(self, *, record=False, action=None, category=Warning, **kw):
        self.record = record
        self.action = action
        self.category = category

    def __enter__(self):
        self._saved = _filters[:]
        self._saved_hooks = _hooks[:]
        if self.action:
            simplefilter(self.action, self.category)
        if self.record:
            log = []
            _hooks.append(log.append)
            return log
        return None

    def __exit__(self, *a):
        _filters[:] = self._saved
        _hooks[:] = self._saved_hooks


def showwarning(message, category, filename, lineno, file=None, line=None):
    (file or sys.stderr).write(f"{filename}:{lineno}: {category.__name__}: {message}\n")


def formatwarning(message, category, filename, lineno, line=None):
    return f"{filename}:{lineno}: {category.__name__}: {message}\n"
