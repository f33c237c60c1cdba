"""Print or retrieve tracebacks."""
import sys
import _pytest_support as _ps


def format_exception(exc, value=None, tb=None, limit=None, chain=True):
    if value is None or isinstance(exc, BaseException):
        value = exc if isinstance(exc, BaseException) else value
    return [_ps.format_exc(value)]


def format_exception_only(exc, value=None):
    if value is None and isinstance(exc, BaseException):
        value = exc
    return [_ps.exc_line(value) + "\n"]


def format_exc(limit=None, chain=True):
    e = sys.exception()
    if e is None:
        return "NoneType: None\n"
    return _ps.format_exc(e)


def print_exc(limit=None, file=None, chain=True):
    (file or sys.stderr).write(format_exc())


def print_exception(exc, value=None, tb=None, limit=None, file=None, chain=True):
    (file or sys.stderr).write("".join(format_exception(exc, value, tb)))


def format_stack(f=None, limit=None):
    return []


def print_stack(f=None, limit=None, file=None):
    pass


def extract_tb(tb, limit=None):
    return []


def extract_stack(f=None, limit=None):
    return []


class TracebackException:
    def __init__(self, exc_type, exc_value, exc_tb, **kw):
        self.exc = exc_value

    @classmethod
    def from_exception(cls, exc, **kw):
        return cls(type(exc), exc, None)

    def format(self, chain=True):
        return iter(format_exception(self.exc))

    def format_exception_only(self):
        return iter(format_exception_only(self.exc))
