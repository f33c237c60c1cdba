"""JSON encoding and decoding (ShellSim: the codec is native)."""
import _json

__all__ = ["dump", "dumps", "load", "loads", "JSONDecodeError", "JSONEncoder", "JSONDecoder"]


class JSONDecodeError(ValueError):
    def __init__(self, *args):
        ValueError.__init__(self, *args)


class JSONEncoder:
    def __init__(self, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,
                 sort_keys=False, indent=None, separators=None, default=None):
        self.skipkeys = skipkeys
        self.ensure_ascii = ensure_ascii
        self.allow_nan = allow_nan
        self.sort_keys = sort_keys
        self.indent = indent
        self.separators = separators
        if default is not None:
            self.default = default

    def default(self, o):
        raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")

    def encode(self, o):
        return _json.dumps(o, skipkeys=self.skipkeys, ensure_ascii=self.ensure_ascii,
                           allow_nan=self.allow_nan, sort_keys=self.sort_keys, indent=self.indent,
                           separators=self.separators, default=self.default)

    def iterencode(self, o, _one_shot=False):
        yield self.encode(o)


class JSONDecoder:
    def __init__(self, *, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,
                 strict=True, object_pairs_hook=None):
        self.object_hook = object_hook
        self.object_pairs_hook = object_pairs_hook
        self.parse_float = parse_float
        self.parse_int = parse_int

    def decode(self, s):
        return _json.loads(s, object_hook=self.object_hook, object_pairs_hook=self.object_pairs_hook,
                           parse_float=self.parse_float, parse_int=self.parse_int)


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None,
          indent=None, separators=None, default=None, sort_keys=False, **kw):
    if cls is not None:
        enc = cls(skipkeys=skipkeys, ensure_ascii=ensure_ascii, allow_nan=allow_nan, sort_keys=sort_keys,
                  indent=indent, separators=separators, default=default, **kw)
        return enc.encode(obj)
    return _json.dumps(obj, skipkeys=skipkeys, ensure_ascii=ensure_ascii, allow_nan=allow_nan,
                       indent=indent, separators=separators, default=default, sort_keys=sort_keys)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,
          object_pairs_hook=None, **kw):
    if cls is not None:
        return cls(object_hook=object_hook, parse_float=parse_float, parse_int=parse_int,
                   object_pairs_hook=object_pairs_hook, **kw).decode(s)
    return _json.loads(s, object_hook=object_hook, parse_float=parse_float, parse_int=parse_int,
                       object_pairs_hook=object_pairs_hook)


def load(fp, **kw):
    return loads(fp.read(), **kw)
