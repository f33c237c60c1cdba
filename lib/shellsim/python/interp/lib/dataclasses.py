"""Data classes: generated __init__, __repr__, __eq__ (and order, frozen)."""
__all__ = ["dataclass", "field", "Field", "fields", "asdict", "astuple", "replace", "is_dataclass",
           "FrozenInstanceError", "MISSING", "InitVar", "KW_ONLY"]


class _MissingType:
    def __repr__(self):
        return "MISSING"


MISSING = _MissingType()


class FrozenInstanceError(AttributeError):
    pass


class InitVar:
    def __init__(self, type):
        self.type = type

    def __class_getitem__(cls, t):
        return InitVar(t)


class _KW_ONLY_TYPE:
    pass


KW_ONLY = _KW_ONLY_TYPE()


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = metadata or {}
        self.kw_only = kw_only

    def __repr__(self):
        return f"Field(name={self.name!r},type={self.type!r},default={self.default!r},default_factory={self.default_factory!r},init={self.init!r},repr={self.repr!r},hash={self.hash!r},compare={self.compare!r},metadata={self.metadata!r},kw_only={self.kw_only!r})"


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
          metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _process(cls, init, repr_, eq, order, frozen, kw_only_all):
    anns = cls.__dict__.get("__annotations__", {})
    flds = {}
    for b in cls.__mro__[-1:0:-1]:
        bf = b.__dict__.get("__dataclass_fields__")
        if bf:
            for f in bf.values():
                flds[f.name] = f
    kw_only = kw_only_all
    for name, typ in anns.items():
        if typ is KW_ONLY or isinstance(typ, _KW_ONLY_TYPE):
            kw_only = True
            continue
        if typ is InitVar or isinstance(typ, InitVar):
            continue
        if isinstance(typ, str) and typ.startswith("ClassVar"):
            continue
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            f = default
        else:
            if isinstance(default, (list, dict, set)):
                raise ValueError(f"mutable default {type(default)} for field {name} is not allowed: use default_factory")
            f = field(default=default)
        f.name = name
        f.type = typ
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        flds[name] = f
        if isinstance(default, Field):
            if f.default is MISSING:
                try:
                    delattr(cls, name)
                except AttributeError:
                    pass
            else:
                setattr(cls, name, f.default)
    cls.__dataclass_fields__ = flds
    cls.__dataclass_params__ = (init, repr_, eq, order, frozen)
    field_list = list(flds.values())

    if init and "__init__" not in cls.__dict__:
        pos = [f for f in field_list if f.init and not f.kw_only]
        kwo = [f for f in field_list if f.init and f.kw_only]
        seen_default = False
        for f in pos:
            has_def = f.default is not MISSING or f.default_factory is not MISSING
            if seen_default and not has_def:
                raise TypeError(f"non-default argument '{f.name}' follows default argument")
            seen_default = seen_default or has_def

        def __init__(self, *args, **kwargs):
            if len(args) > len(pos):
                raise TypeError(f"{cls.__name__}.__init__() takes {len(pos) + 1} positional arguments but {len(args) + 1} were given")
            values = {}
            for f, a in zip(pos, args):
                values[f.name] = a
            for f in pos[len(args):] + kwo:
                if f.name in kwargs:
                    values[f.name] = kwargs.pop(f.name)
                elif f.default is not MISSING:
                    values[f.name] = f.default
                elif f.default_factory is not MISSING:
                    values[f.name] = f.default_factory()
                else:
                    missing = [g.name for g in pos[len(args):] + kwo if g.name not in kwargs and g.name not in values and g.default is MISSING and g.default_factory is MISSING]
                    raise TypeError(f"{cls.__name__}.__init__() missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}: " + " and ".join(repr(m) for m in missing))
            for name in kwargs:
                if name in values:
                    raise TypeError(f"{cls.__name__}.__init__() got multiple values for argument '{name}'")
                raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument '{name}'")
            for f in field_list:
                if not f.init:
                    if f.default is not MISSING:
                        values[f.name] = f.default
                    elif f.default_factory is not MISSING:
                        values[f.name] = f.default_factory()
                    else:
                        continue
                object.__setattr__(self, f.name, values[f.name])
            post = getattr(self, "__post_init__", None)
            if post is not None:
                post()
        __init__.__qualname__ = cls.__qualname__ + ".__init__"
        cls.__init__ = __init__

    if repr_ and "__repr__" not in cls.__dict__:
        def __repr__(self):
            return self.__class__.__qualname__ + "(" + ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in field_list if f.repr) + ")"
        cls.__repr__ = __repr__

    def _key(self):
        return tuple(getattr(self, f.name) for f in field_list if f.compare)

    if eq and "__eq__" not in cls.__dict__:
        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return _key(self) == _key(other)
            return NotImplemented
        cls.__eq__ = __eq__
        if not frozen and "__hash__" not in cls.__dict__:
            cls.__hash__ = None

    if order:
        def _cmp(op):
            def f(self, other):
                if other.__class__ is self.__class__:
                    return op(_key(self), _key(other))
                return NotImplemented
            return f
        cls.__lt__ = _cmp(lambda a, b: a < b)
        cls.__le__ = _cmp(lambda a, b: a <= b)
        cls.__gt__ = _cmp(lambda a, b: a > b)
        cls.__ge__ = _cmp(lambda a, b: a >= b)

    if frozen:
        cls.__dataclass_frozen__ = True

        def __delattr__(self, name):
            raise FrozenInstanceError(f"cannot delete field '{name}'")
        cls.__delattr__ = __delattr__
        if eq:
            def __hash__(self):
                return hash(_key(self))
            cls.__hash__ = __hash__
    cls.__match_args__ = tuple(f.name for f in field_list if f.init)
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
              match_args=True, kw_only=False, slots=False):
    def wrap(c):
        return _process(c, init, repr, eq, order, frozen, kw_only)
    if cls is None:
        return wrap
    return wrap(cls)


def fields(obj):
    flds = getattr(obj, "__dataclass_fields__", None)
    if flds is None:
        raise TypeError("must be called with a dataclass type or instance")
    return tuple(flds.values())


def is_dataclass(obj):
    return hasattr(obj, "__dataclass_fields__")


def asdict(obj, *, dict_factory=dict):
    def conv(v):
        if is_dataclass(v) and not isinstance(v, type):
            return dict_factory([(f.name, conv(getattr(v, f.name))) for f in fields(v)])
        if isinstance(v, tuple) and hasattr(v, "_fields"):
            return type(v)(*[conv(x) for x in v])
        if isinstance(v, (list, tuple)):
            return type(v)(conv(x) for x in v)
        if isinstance(v, dict):
            return type(v)((conv(k), conv(x)) for k, x in v.items())
        return v
    if not is_dataclass(obj):
        raise TypeError("asdict() should be called on dataclass instances")
    return conv(obj)


def astuple(obj):
    return tuple(asdict(obj).values())


def replace(obj, **changes):
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)
