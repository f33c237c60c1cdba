"""Names for built-in types."""
import sys


def _f():
    pass


FunctionType = type(_f)
LambdaType = FunctionType
MethodType = type(sys.exit)
BuiltinFunctionType = type(len)
BuiltinMethodType = type(len)
ModuleType = type(sys)
GeneratorType = type((lambda: (yield))())
NoneType = type(None)
EllipsisType = type(Ellipsis)
NotImplementedType = type(NotImplemented)


class SimpleNamespace:
    def __init__(self, mapping_or_iterable=(), /, **kwargs):
        if mapping_or_iterable:
            self.__dict__.update(dict(mapping_or_iterable))
        self.__dict__.update(kwargs)

    def __repr__(self):
        items = (f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"namespace({', '.join(items)})"

    def __eq__(self, other):
        if isinstance(other, SimpleNamespace):
            return self.__dict__ == other.__dict__
        return NotImplemented


class MappingProxyType(dict):
    pass


def new_class(name, bases=(), kwds=None, exec_body=None):
    ns = {}
    if exec_body is not None:
        exec_body(ns)
    return type(name, bases, ns)
