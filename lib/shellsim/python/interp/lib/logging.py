"""A subset of logging: loggers, levels, basicConfig, StreamHandler, FileHandler, Formatter."""
import sys
import time as _time

CRITICAL = FATAL = 50
ERROR = 40
WARNING = WARN = 30
INFO = 20
DEBUG = 10
NOTSET = 0
_names = {50: "CRITICAL", 40: "ERROR", 30: "WARNING", 20: "INFO", 10: "DEBUG", 0: "NOTSET"}
_levels = {v: k for k, v in _names.items()}
_levels["WARN"] = 30
_levels["FATAL"] = 50


def getLevelName(level):
    if isinstance(level, int):
        return _names.get(level, f"Level {level}")
    return _levels.get(level, f"Level {level}")


def _check(level):
    if isinstance(level, str):
        return _levels[level.upper()]
    return level


class LogRecord:
    def __init__(self, name, level, pathname, lineno, msg, args, exc_info, func=None):
        self.name = name
        self.levelno = level
        self.levelname = getLevelName(level)
        self.pathname = pathname
        self.filename = pathname.rsplit("/", 1)[-1]
        self.module = self.filename.rsplit(".", 1)[0]
        self.lineno = lineno
        self.msg = msg
        self.args = args
        self.exc_info = exc_info
        self.funcName = func
        self.created = _time.time()
        self.msecs = (self.created - int(self.created)) * 1000
        self.relativeCreated = 0
        self.process = 1
        self.thread = 1
        self.threadName = "MainThread"
        self.processName = "MainProcess"

    def getMessage(self):
        msg = str(self.msg)
        if self.args:
            msg = msg % self.args
        return msg


class Formatter:
    default_time_format = "%Y-%m-%d %H:%M:%S"

    def __init__(self, fmt=None, datefmt=None, style="%"):
        self._fmt = fmt or "%(message)s"
        self.datefmt = datefmt
        self.style = style

    def formatTime(self, record, datefmt=None):
        ct = _time.gmtime(record.created)
        if datefmt:
            return _time.strftime(datefmt, ct)
        return _time.strftime(self.default_time_format, ct) + ",%03d" % record.msecs

    def format(self, record):
        record.message = record.getMessage()
        if "asctime" in self._fmt:
            record.asctime = self.formatTime(record, self.datefmt)
        if self.style == "{":
            s = self._fmt.format(**record.__dict__)
        else:
            s = self._fmt % record.__dict__
        if record.exc_info:
            import traceback
            s += "\n" + "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        return s


class Filter:
    def __init__(self, name=""):
        self.name = name

    def filter(self, record):
        return not self.name or record.name == self.name or record.name.startswith(self.name + ".")


class Handler:
    def __init__(self, level=NOTSET):
        self.level = _check(level)
        self.formatter = None
        self.filters = []

    def setLevel(self, level):
        self.level = _check(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def addFilter(self, f):
        self.filters.append(f)

    def format(self, record):
        return (self.formatter or _defaultFormatter).format(record)

    def handle(self, record):
        if record.levelno >= self.level and all(f.filter(record) for f in self.filters):
            self.emit(record)

    def emit(self, record):
        pass

    def flush(self):
        pass

    def close(self):
        pass


class StreamHandler(Handler):
    terminator = "\n"

    def __init__(self, stream=None):
        Handler.__init__(self)
        self._stream = stream

    @property
    def stream(self):
        return self._stream if self._stream is not None else sys.stderr

    def emit(self, record):
        self.stream.write(self.format(record) + self.terminator)


class FileHandler(StreamHandler):
    def __init__(self, filename, mode="a", encoding=None, delay=False):
        StreamHandler.__init__(self, open(filename, mode))
        self.baseFilename = filename

    def emit(self, record):
        StreamHandler.emit(self, record)
        self._stream.flush()

    def close(self):
        self._stream.close()


class NullHandler(Handler):
    pass


_defaultFormatter = Formatter()
BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s"


class Logger:
    def __init__(self, name, level=NOTSET):
        self.name = name
        self.level = level
        self.handlers = []
        self.parent = None
        self.propagate = True
        self.disabled = False
        self.filters = []

    def setLevel(self, level):
        self.level = _check(level)

    def getEffectiveLevel(self):
        lg = self
        while lg is not None:
            if lg.level:
                return lg.level
            lg = lg.parent
        return NOTSET

    def isEnabledFor(self, level):
        return level >= self.getEffectiveLevel()

    def addHandler(self, h):
        if h not in self.handlers:
            self.handlers.append(h)

    def removeHandler(self, h):
        if h in self.handlers:
            self.handlers.remove(h)

    def hasHandlers(self):
        lg = self
        while lg is not None:
            if lg.handlers:
                return True
            lg = lg.parent if lg.propagate else None
        return False

    def addFilter(self, f):
        self.filters.append(f)

    def getChild(self, suffix):
        return getLogger(self.name + "." + suffix if self.name != "root" else suffix)

    def _log(self, level, msg, args, exc_info=None, stacklevel=1, **kw):
        if self.disabled or not self.isEnabledFor(level):
            return
        try:
            f = sys._getframe(stacklevel + 1)
            path, line, func = f.f_code.co_filename, f.f_lineno, f.f_code.co_name
        except Exception:
            path, line, func = "(unknown file)", 0, "(unknown function)"
        if exc_info and not isinstance(exc_info, tuple):
            exc_info = sys.exc_info()
        record = LogRecord(self.name, level, path, line, msg, args, exc_info, func)
        if "extra" in kw and kw["extra"]:
            for k, v in kw["extra"].items():
                setattr(record, k, v)
        lg = self
        found = False
        while lg is not None:
            for h in lg.handlers:
                found = True
                h.handle(record)
            lg = lg.parent if lg.propagate else None
        if not found and level >= WARNING:
            sys.stderr.write(record.getMessage() + "\n")

    def debug(self, msg, *args, **kw):
        self._log(DEBUG, msg, args, **kw)

    def info(self, msg, *args, **kw):
        self._log(INFO, msg, args, **kw)

    def warning(self, msg, *args, **kw):
        self._log(WARNING, msg, args, **kw)

    warn = warning

    def error(self, msg, *args, **kw):
        self._log(ERROR, msg, args, **kw)

    def exception(self, msg, *args, exc_info=True, **kw):
        self._log(ERROR, msg, args, exc_info=exc_info, **kw)

    def critical(self, msg, *args, **kw):
        self._log(CRITICAL, msg, args, **kw)

    fatal = critical

    def log(self, level, msg, *args, **kw):
        self._log(level, msg, args, **kw)


root = Logger("root", WARNING)
_loggers = {}


def getLogger(name=None):
    if not name or name == "root":
        return root
    if name not in _loggers:
        lg = Logger(name)
        parent = name.rpartition(".")[0]
        lg.parent = getLogger(parent) if parent else root
        _loggers[name] = lg
    return _loggers[name]


def basicConfig(**kw):
    if root.handlers and not kw.get("force"):
        return
    if kw.get("force"):
        root.handlers[:] = []
    if "filename" in kw:
        h = FileHandler(kw["filename"], kw.get("filemode", "a"))
    else:
        h = StreamHandler(kw.get("stream"))
    h.setFormatter(Formatter(kw.get("format", BASIC_FORMAT), kw.get("datefmt"), kw.get("style", "%")))
    root.addHandler(h)
    if "level" in kw:
        root.setLevel(kw["level"])


def debug(msg, *a, **k):
    if not root.handlers:
        basicConfig()
    root.debug(msg, *a, **k)


def info(msg, *a, **k):
    if not root.handlers:
        basicConfig()
    root.info(msg, *a, **k)


def warning(msg, *a, **k):
    if not root.handlers:
        basicConfig()
    root.warning(msg, *a, **k)


warn = warning


def error(msg, *a, **k):
    if not root.handlers:
        basicConfig()
    root.error(msg, *a, **k)


def exception(msg, *a, **k):
    if not root.handlers:
        basicConfig()
    root.exception(msg, *a, **k)


def critical(msg, *a, **k):
    if not root.handlers:
        basicConfig()
    root.critical(msg, *a, **k)


def log(level, msg, *a, **k):
    if not root.handlers:
        basicConfig()
    root.log(level, msg, *a, **k)


def disable(level=CRITICAL):
    root.disabled = level >= CRITICAL


def shutdown():
    pass


def captureWarnings(capture):
    pass


class LoggerAdapter:
    def __init__(self, logger, extra=None):
        self.logger = logger
        self.extra = extra

    def __getattr__(self, name):
        return getattr(self.logger, name)
