"""Abstract base classes: abstract methods are checked at instantiation."""


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


def _abstracts(cls):
    names = set()
    for klass in reversed(cls.__mro__):
        for name, value in klass.__dict__.items():
            if getattr(value, "__isabstractmethod__", False):
                names.add(name)
            elif name in names:
                names.discard(name)
    return names


class ABCMeta(type):
    pass


class ABC:
    def __new__(cls, *args, **kwargs):
        missing = sorted(_abstracts(cls))
        if missing:
            s = "s" if len(missing) > 1 else ""
            raise TypeError(f"Can't instantiate abstract class {cls.__name__} without an implementation for abstract method{s} " + ", ".join(f"'{m}'" for m in missing))
        return object.__new__(cls)


abstractproperty = property
abstractclassmethod = classmethod
abstractstaticmethod = staticmethod
