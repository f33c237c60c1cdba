"""Type hints: accepted and ignored at run time, as CPython does."""


def _type_repr(t):
    if isinstance(t, type):
        if t.__module__ == "builtins":
            return t.__qualname__
        return f"{t.__module__}.{t.__qualname__}"
    if t is Ellipsis:
        return "..."
    if t is None:
        return "None"
    if isinstance(t, list):
        return "[" + ", ".join(_type_repr(a) for a in t) + "]"
    return repr(t)


class _GenericAlias:
    def __init__(self, origin, name, args=()):
        self.__origin__ = origin
        self._name = name
        self.__args__ = args

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        return _GenericAlias(self.__origin__, self._name, params)

    def __repr__(self):
        if not self.__args__:
            return "typing." + self._name
        return f"typing.{self._name}[{', '.join(_type_repr(a) for a in self.__args__)}]"

    def __call__(self, *args, **kwargs):
        return self.__origin__(*args, **kwargs)

    def __mro_entries__(self, bases):
        return (self.__origin__,)

    def __instancecheck__(self, obj):
        return isinstance(obj, self.__origin__)

    def __eq__(self, other):
        return isinstance(other, _GenericAlias) and (self.__origin__, self.__args__) == (other.__origin__, other.__args__)

    def __hash__(self):
        return hash((self._name, self.__args__))

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


class _Special:
    def __init__(self, name):
        self._name = name

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        if self._name == "Optional":
            return _SpecialForm("Optional", params)
        return _SpecialForm(self._name, params)

    def __call__(self, *args, **kwargs):
        if args:
            return args[0]
        return None

    def __repr__(self):
        return "typing." + self._name

    def __or__(self, other):
        return self

    def __ror__(self, other):
        return self

    def __mro_entries__(self, bases):
        return (object,)


class _SpecialForm:
    def __init__(self, name, args):
        self._name = name
        self.__args__ = args

    def __repr__(self):
        if self._name == "Union" and len(self.__args__) == 2 and type(None) in self.__args__:
            other = [a for a in self.__args__ if a is not type(None)][0]
            return f"typing.Optional[{_type_repr(other)}]"
        return f"typing.{self._name}[{', '.join(_type_repr(a) if a is not None else 'None' for a in self.__args__)}]"

    def __call__(self, *a, **k):
        raise TypeError(f"Cannot instantiate typing.{self._name}")

    def __mro_entries__(self, bases):
        return (object,)

    def __or__(self, other):
        return self

    def __ror__(self, other):
        return self


Any = _Special("Any")
Union = _Special("Union")
Optional = _Special("Optional")
List = _GenericAlias(list, "List")
Dict = _GenericAlias(dict, "Dict")
Set = _GenericAlias(set, "Set")
FrozenSet = _GenericAlias(frozenset, "FrozenSet")
Tuple = _GenericAlias(tuple, "Tuple")
Type = _GenericAlias(type, "Type")
Callable = _Special("Callable")
Iterable = _Special("Iterable")
Iterator = _Special("Iterator")
Generator = _Special("Generator")
Sequence = _Special("Sequence")
Mapping = _Special("Mapping")
MutableMapping = _Special("MutableMapping")
MutableSequence = _Special("MutableSequence")
Literal = _Special("Literal")
Final = _Special("Final")
ClassVar = _Special("ClassVar")
Annotated = _Special("Annotated")
NoReturn = _Special("NoReturn")
Never = _Special("Never")
Self = _Special("Self")
TypeAlias = _Special("TypeAlias")
DefaultDict = _GenericAlias(dict, "DefaultDict")
OrderedDict = _GenericAlias(dict, "OrderedDict")
Counter = _GenericAlias(dict, "Counter")
Deque = _GenericAlias(list, "Deque")
AnyStr = str
Text = str
Hashable = _Special("Hashable")
Sized = _Special("Sized")
IO = _Special("IO")
TextIO = _Special("TextIO")
BinaryIO = _Special("BinaryIO")
Pattern = _Special("Pattern")
Match = _Special("Match")
Awaitable = _Special("Awaitable")
Coroutine = _Special("Coroutine")
TYPE_CHECKING = False


class TypeVar:
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name

    def __repr__(self):
        return "~" + self.__name__


class ParamSpec(TypeVar):
    pass


class Generic:
    def __class_getitem__(cls, params):
        return cls


class Protocol:
    def __class_getitem__(cls, params):
        return cls


class NamedTuple(tuple):
    """Typed named tuples: fields come from the class annotations."""

    def __init_subclass__(cls, **kw):
        anns = cls.__dict__.get("__annotations__", {})
        fields = tuple(anns)
        defaults = {f: cls.__dict__[f] for f in fields if f in cls.__dict__}
        cls._fields = fields
        cls._field_defaults = defaults

        def __new__(klass, *args, **kwargs):
            values = list(args)
            for f in fields[len(values):]:
                if f in kwargs:
                    values.append(kwargs.pop(f))
                elif f in defaults:
                    values.append(defaults[f])
                else:
                    raise TypeError(f"{klass.__name__}.__new__() missing 1 required positional argument: '{f}'")
            if kwargs:
                raise TypeError(f"{klass.__name__}.__new__() got an unexpected keyword argument '{next(iter(kwargs))}'")
            return tuple.__new__(klass, values)
        cls.__new__ = staticmethod(__new__)
        for i, f in enumerate(fields):
            setattr(cls, f, property(lambda self, i=i: tuple.__getitem__(self, i)))

    def __repr__(self):
        return type(self).__name__ + "(" + ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self)) + ")"

    def _asdict(self):
        return dict(zip(self._fields, self))

    def _replace(self, **kw):
        return type(self)(*[kw.pop(f, v) for f, v in zip(self._fields, self)])

    @classmethod
    def _make(cls, iterable):
        return cls(*iterable)


class _TypedDictMeta:
    pass


def TypedDict(name, fields=None, total=True):
    return dict


def NewType(name, tp):
    def new_type(x):
        return x
    new_type.__name__ = name
    return new_type


def cast(typ, val):
    return val


def overload(func):
    return func


def final(f):
    return f


def no_type_check(f):
    return f


def runtime_checkable(cls):
    return cls


def get_type_hints(obj, globalns=None, localns=None):
    return dict(getattr(obj, "__annotations__", {}))


def get_origin(tp):
    return None


def get_args(tp):
    return ()


def assert_never(x):
    raise AssertionError("Expected code to be unreachable")
