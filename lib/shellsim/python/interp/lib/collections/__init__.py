"""Container datatypes: defaultdict, Counter and OrderedDict are native;
namedtuple, deque, ChainMap and UserDict are written here."""
from _collections import defaultdict, Counter, OrderedDict
import sys as _sys

__all__ = ["defaultdict", "Counter", "OrderedDict", "namedtuple", "deque", "ChainMap", "UserDict", "UserList"]


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    field_names = tuple(map(str, field_names))
    for name in field_names:
        if name.startswith("_") and not rename:
            raise ValueError(f"Field names cannot start with an underscore: {name!r}")
    seen = set()
    for name in field_names:
        if name in seen:
            raise ValueError(f"Encountered duplicate field name: {name!r}")
        seen.add(name)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(field_names):
            raise TypeError("Got more default values than field names")
        field_defaults = dict(reversed(list(zip(reversed(field_names), reversed(defaults)))))
    nfields = len(field_names)

    def __new__(cls, *args, **kwargs):
        values = list(args)
        if len(values) > nfields:
            raise TypeError(f"{typename}.__new__() takes {nfields + 1} positional arguments but {len(values) + 1} were given")
        for name in field_names[len(values):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in field_defaults:
                values.append(field_defaults[name])
            else:
                missing = [n for n in field_names[len(values):] if n not in kwargs and n not in field_defaults]
                raise TypeError(f"{typename}.__new__() missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}: " + ", ".join(repr(m) for m in missing))
        if kwargs:
            raise TypeError(f"{typename}.__new__() got an unexpected keyword argument {next(iter(kwargs))!r}")
        return tuple.__new__(cls, values)

    def __repr__(self):
        return typename + "(" + ", ".join(f"{n}={v!r}" for n, v in zip(field_names, self)) + ")"

    def _asdict(self):
        return dict(zip(field_names, self))

    def _replace(self, **kw):
        vals = [kw.pop(n, v) for n, v in zip(field_names, self)]
        if kw:
            raise ValueError(f"Got unexpected field names: {list(kw)!r}")
        return type(self)(*vals)

    @classmethod
    def _make(cls, iterable):
        return cls(*iterable)

    def __getnewargs__(self):
        return tuple(self)

    ns = {"__new__": __new__, "__repr__": __repr__, "_asdict": _asdict, "_replace": _replace, "_make": _make,
          "_fields": field_names, "_field_defaults": field_defaults, "__slots__": (),
          "__getnewargs__": __getnewargs__, "__match_args__": field_names}
    for i, name in enumerate(field_names):
        ns[name] = property(_itemgetter(i))
    if module is None:
        try:
            module = _sys._getframe(1).f_globals.get("__name__", "__main__")
        except Exception:
            module = "__main__"
    ns["__module__"] = module
    return type(typename, (tuple,), ns)


def _itemgetter(i):
    def get(self):
        return self[i]
    return get


class deque:
    def __init__(self, iterable=(), maxlen=None):
        self._items = []
        self.maxlen = maxlen
        for x in iterable:
            self.append(x)

    def append(self, x):
        self._items.append(x)
        if self.maxlen is not None and len(self._items) > self.maxlen:
            del self._items[0]

    def appendleft(self, x):
        self._items.insert(0, x)
        if self.maxlen is not None and len(self._items) > self.maxlen:
            self._items.pop()

    def pop(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop(0)

    def extend(self, it):
        for x in it:
            self.append(x)

    def extendleft(self, it):
        for x in it:
            self.appendleft(x)

    def clear(self):
        self._items.clear()

    def rotate(self, n=1):
        if self._items:
            n %= len(self._items)
            self._items[:] = self._items[-n:] + self._items[:-n]

    def count(self, x):
        return self._items.count(x)

    def index(self, x, *args):
        return self._items.index(x, *args)

    def remove(self, x):
        self._items.remove(x)

    def reverse(self):
        self._items.reverse()

    def copy(self):
        return deque(self._items, self.maxlen)

    def insert(self, i, x):
        self._items.insert(i, x)

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))

    def __reversed__(self):
        return reversed(self._items)

    def __getitem__(self, i):
        return self._items[i]

    def __setitem__(self, i, v):
        self._items[i] = v

    def __delitem__(self, i):
        del self._items[i]

    def __contains__(self, x):
        return x in self._items

    def __bool__(self):
        return bool(self._items)

    def __eq__(self, other):
        if isinstance(other, deque):
            return self._items == other._items
        return NotImplemented

    def __add__(self, other):
        return deque(self._items + list(other), self.maxlen)

    def __repr__(self):
        if self.maxlen is None:
            return f"deque({self._items!r})"
        return f"deque({self._items!r}, maxlen={self.maxlen})"


class ChainMap:
    def __init__(self, *maps):
        self.maps = list(maps) or [{}]

    def __getitem__(self, key):
        for m in self.maps:
            if key in m:
                return m[key]
        raise KeyError(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __contains__(self, key):
        return any(key in m for m in self.maps)

    def __setitem__(self, key, value):
        self.maps[0][key] = value

    def __delitem__(self, key):
        del self.maps[0][key]

    def __len__(self):
        return len(set().union(*self.maps))

    def __iter__(self):
        d = {}
        for m in reversed(self.maps):
            d.update(dict.fromkeys(m))
        return iter(d)

    def keys(self):
        return list(iter(self))

    def items(self):
        return [(k, self[k]) for k in self]

    def values(self):
        return [self[k] for k in self]

    def new_child(self, m=None):
        return ChainMap({} if m is None else m, *self.maps)

    @property
    def parents(self):
        return ChainMap(*self.maps[1:])

    def __repr__(self):
        return f"ChainMap({', '.join(map(repr, self.maps))})"


class UserDict(dict):
    pass


class UserList(list):
    pass
