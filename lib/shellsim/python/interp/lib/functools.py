"""Higher-order functions."""
__all__ = ["reduce", "partial", "wraps", "update_wrapper", "lru_cache", "cache", "cached_property",
           "total_ordering", "cmp_to_key", "singledispatch", "partialmethod"]

_initial_missing = object()


def reduce(function, iterable, initial=_initial_missing):
    it = iter(iterable)
    if initial is _initial_missing:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError("reduce() of empty iterable with no initial value") from None
    else:
        value = initial
    for element in it:
        value = function(value, element)
    return value


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        kw = dict(self.keywords)
        kw.update(keywords)
        return self.func(*self.args, *args, **kw)

    def __repr__(self):
        parts = [repr(self.func)] + [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.keywords.items()]
        return "functools.partial(" + ", ".join(parts) + ")"


class partialmethod:
    def __init__(self, func, *args, **keywords):
        self.func = func
        self.args = args
        self.keywords = keywords

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return partial(self.func, obj, *self.args, **self.keywords)


WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__")


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=("__dict__",)):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            pass
        else:
            try:
                setattr(wrapper, attr, value)
            except (AttributeError, TypeError):
                pass
    try:
        wrapper.__wrapped__ = wrapped
    except (AttributeError, TypeError):
        pass
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=("__dict__",)):
    def deco(wrapper):
        return update_wrapper(wrapper, wrapped, assigned, updated)
    return deco


class _CacheInfo(tuple):
    pass


def lru_cache(maxsize=128, typed=False):
    def decorating(user_function):
        cache = {}
        order = []
        stats = [0, 0]

        def wrapper(*args, **kwargs):
            key = args
            if kwargs:
                key = args + (object,) + tuple(sorted(kwargs.items()))
            if key in cache:
                stats[0] += 1
                return cache[key]
            stats[1] += 1
            result = user_function(*args, **kwargs)
            cache[key] = result
            if maxsize is not None:
                order.append(key)
                if len(order) > maxsize:
                    old = order.pop(0)
                    cache.pop(old, None)
            return result

        def cache_info():
            from collections import namedtuple
            CacheInfo = namedtuple("CacheInfo", ["hits", "misses", "maxsize", "currsize"])
            return CacheInfo(stats[0], stats[1], maxsize, len(cache))

        def cache_clear():
            cache.clear()
            order.clear()
            stats[0] = stats[1] = 0

        wrapper.cache_info = cache_info
        wrapper.cache_clear = cache_clear
        return update_wrapper(wrapper, user_function)

    if callable(maxsize) and not isinstance(maxsize, int):
        f, maxsize = maxsize, 128
        return decorating(f)
    return decorating


def cache(user_function):
    return lru_cache(maxsize=None)(user_function)


class cached_property:
    def __init__(self, func):
        self.func = func
        self.attrname = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner, name):
        self.attrname = name

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        d = instance.__dict__
        if self.attrname in d:
            return d[self.attrname]
        val = self.func(instance)
        d[self.attrname] = val
        return val


def total_ordering(cls):
    d = cls.__dict__
    if "__lt__" in d:
        if "__gt__" not in d:
            cls.__gt__ = lambda self, other: other < self if type(other) is type(self) else NotImplemented if self.__lt__(other) is NotImplemented else (not self.__lt__(other) and self != other)
        if "__le__" not in d:
            cls.__le__ = lambda self, other: self.__lt__(other) or self == other
        if "__ge__" not in d:
            cls.__ge__ = lambda self, other: not self.__lt__(other)
    elif "__gt__" in d:
        if "__lt__" not in d:
            cls.__lt__ = lambda self, other: not self.__gt__(other) and self != other
        if "__ge__" not in d:
            cls.__ge__ = lambda self, other: self.__gt__(other) or self == other
        if "__le__" not in d:
            cls.__le__ = lambda self, other: not self.__gt__(other)
    elif "__le__" in d:
        if "__lt__" not in d:
            cls.__lt__ = lambda self, other: self.__le__(other) and self != other
        if "__gt__" not in d:
            cls.__gt__ = lambda self, other: not self.__le__(other)
        if "__ge__" not in d:
            cls.__ge__ = lambda self, other: not self.__le__(other) or self == other
    elif "__ge__" in d:
        if "__gt__" not in d:
            cls.__gt__ = lambda self, other: self.__ge__(other) and self != other
        if "__lt__" not in d:
            cls.__lt__ = lambda self, other: not self.__ge__(other)
        if "__le__" not in d:
            cls.__le__ = lambda self, other: not self.__ge__(other) or self == other
    else:
        raise ValueError("must define at least one ordering operation: < > <= >=")
    return cls


def cmp_to_key(mycmp):
    class K:
        __slots__ = ["obj"]

        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

        __hash__ = None
    return K


def singledispatch(func):
    registry = {object: func}

    def dispatch(cls):
        for c in cls.__mro__:
            if c in registry:
                return registry[c]
        return func

    def register(cls, f=None):
        if f is None:
            if isinstance(cls, type):
                return lambda f: register(cls, f)
            f = cls
            ann = getattr(f, "__annotations__", {})
            cls = next(iter(ann.values()))
        registry[cls] = f
        return f

    def wrapper(*args, **kw):
        return dispatch(type(args[0]))(*args, **kw)

    wrapper.register = register
    wrapper.dispatch = dispatch
    wrapper.registry = registry
    update_wrapper(wrapper, func)
    return wrapper
