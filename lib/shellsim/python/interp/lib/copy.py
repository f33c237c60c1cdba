"""Shallow and deep copy."""


class Error(Exception):
    pass


error = Error


def copy(x):
    cls = type(x)
    if cls in (int, float, bool, str, bytes, tuple, frozenset, type(None), range) or callable(x) and not hasattr(x, "__dict__"):
        return x
    if cls is list:
        return list(x)
    if cls is dict:
        return dict(x)
    if cls is set:
        return set(x)
    if hasattr(x, "__copy__"):
        return x.__copy__()
    if isinstance(x, dict):
        y = cls.__new__(cls) if cls.__new__ is not object.__new__ else object.__new__(cls)
        y.update(x)
        y.__dict__.update(x.__dict__)
        return y
    if isinstance(x, list):
        y = object.__new__(cls)
        y.extend(x)
        return y
    if hasattr(x, "__dict__"):
        y = object.__new__(cls)
        y.__dict__.update(x.__dict__)
        return y
    return x


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    d = id(x)
    if d in memo:
        return memo[d]
    cls = type(x)
    if cls in (int, float, bool, str, bytes, type(None), range, frozenset) or isinstance(x, type) or callable(x) and not hasattr(x, "__dict__"):
        return x
    if hasattr(x, "__deepcopy__"):
        y = x.__deepcopy__(memo)
    elif cls is list:
        y = []
        memo[d] = y
        for v in x:
            y.append(deepcopy(v, memo))
    elif cls is tuple:
        y = tuple(deepcopy(v, memo) for v in x)
    elif cls is dict:
        y = {}
        memo[d] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
    elif cls is set:
        y = {deepcopy(v, memo) for v in x}
    elif isinstance(x, dict):
        y = copy(x)
        memo[d] = y
        for k in list(y.keys()):
            y[k] = deepcopy(y[k], memo)
    elif isinstance(x, tuple):
        y = cls(*[deepcopy(v, memo) for v in x])
    elif hasattr(x, "__dict__"):
        y = object.__new__(cls)
        memo[d] = y
        for k, v in x.__dict__.items():
            y.__dict__[k] = deepcopy(v, memo)
    else:
        y = x
    memo[d] = y
    return y
