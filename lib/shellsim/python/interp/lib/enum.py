"""Enumerations (Enum, IntEnum, StrEnum, Flag, auto)."""


class auto:
    _counter = 0

    def __init__(self):
        auto._counter += 1
        self._order = auto._counter
        self.value = None


class _EnumMeta(type):
    pass


def _is_member_name(name, value):
    if name.startswith("_") or callable(value) and not isinstance(value, auto) or isinstance(value, (classmethod, staticmethod, property)):
        return False
    return True


class Enum:
    def __init_subclass__(cls, **kw):
        members = {}
        values = {}
        last = 0
        for name, value in list(cls.__dict__.items()):
            if not _is_member_name(name, value):
                continue
            if isinstance(value, auto):
                value = cls._generate_next_value_(name, 1, len(members), [m._value_ for m in members.values()])
            if cls._base_type() is not None:
                member = cls.__new__(cls, value)
            else:
                member = object.__new__(cls)
            member._name_ = name
            member._value_ = value
            member.__dict__["name"] = name
            member.__dict__["value"] = value
            if value in values:
                member = values[value]
            else:
                values[value] = member
                members[name] = member
            setattr(cls, name, member)
        cls._member_map_ = members
        cls._value2member_map_ = values

    @classmethod
    def _base_type(cls):
        for b in cls.__mro__:
            if b in (int, str):
                return b
        return None

    @classmethod
    def _make_member(cls, value):
        base = cls._base_type()
        m = object.__new__(cls) if base is None else cls.__new__(cls, value)
        return m

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for v in reversed(last_values):
            try:
                return v + 1
            except TypeError:
                pass
        return start

    def __new__(cls, value=None, *args):
        if "_value2member_map_" not in cls.__dict__:
            base = cls._base_type()
            if base is None:
                return object.__new__(cls)
            return base.__new__(cls, value)
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):
            pass
        missing = cls._missing_(value)
        if missing is not None:
            return missing
        raise ValueError(f"{value!r} is not a valid {cls.__qualname__}")

    @classmethod
    def _missing_(cls, value):
        return None

    def __repr__(self):
        return f"<{self.__class__.__name__}.{self._name_}: {self._value_!r}>"

    def __str__(self):
        return f"{self.__class__.__name__}.{self._name_}"

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    def __eq__(self, other):
        return self is other

    def __reduce_ex__(self, proto):
        return self.__class__, (self._value_,)

    @classmethod
    def __class_getitem__(cls, name):
        return cls._member_map_[name]

    @classmethod
    def __members_list(cls):
        return list(cls._member_map_.values())


def _enum_iter(cls):
    return iter(list(cls._member_map_.values()))


class IntEnum(int, Enum):
    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)

    def __eq__(self, other):
        if isinstance(other, Enum):
            return self is other
        return self._value_ == other

    def __hash__(self):
        return hash(self._value_)

    def __lt__(self, other):
        return self._value_ < int(other)

    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_


class StrEnum(str, Enum):
    def __str__(self):
        return self._value_

    def __format__(self, spec):
        return format(self._value_, spec)

    def __eq__(self, other):
        if isinstance(other, Enum):
            return self is other
        return self._value_ == other

    def __hash__(self):
        return hash(self._value_)

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()


class Flag(Enum):
    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return 1 << count

    def __or__(self, other):
        return self.__class__(self._value_ | other._value_)

    def __and__(self, other):
        return self.__class__(self._value_ & other._value_)

    def __contains__(self, other):
        return other._value_ & self._value_ == other._value_

    @classmethod
    def _missing_(cls, value):
        m = object.__new__(cls)
        m._value_ = value
        m._name_ = "|".join(x._name_ for x in cls._member_map_.values() if x._value_ & value)
        m.__dict__["name"] = m._name_
        m.__dict__["value"] = value
        return m


class IntFlag(int, Flag):
    pass


def unique(cls):
    return cls


def verify(*a):
    return lambda cls: cls


EnumMeta = type
EnumType = type
