import functools
def trace(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        print(f"-> {f.__name__}{args}")
        r = f(*args, **kwargs)
        print(f"<- {r}")
        return r
    return wrapper
def repeat(n):
    def deco(f):
        def inner(*a):
            return [f(*a) for _ in range(n)]
        return inner
    return deco
@trace
def add(a, b):
    return a + b
@repeat(3)
def hi(name):
    return f"hi {name}"
add(2, 3)
print(hi("bob"), add.__name__)
def class_deco(cls):
    cls.tagged = True
    return cls
@class_deco
class T:
    pass
print(T.tagged)
