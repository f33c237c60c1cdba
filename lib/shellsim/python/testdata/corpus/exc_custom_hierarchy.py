class AppError(Exception):
    pass
class NotFound(AppError):
    def __init__(self, key):
        super().__init__(f"not found: {key}")
        self.key = key
class Invalid(AppError):
    pass
def lookup(d, k):
    if not isinstance(k, str):
        raise Invalid("key must be str")
    if k not in d:
        raise NotFound(k)
    return d[k]
for k in ["a", "z", 3]:
    try:
        print("value", lookup({"a": 1}, k))
    except NotFound as e:
        print("NotFound", e.key, e)
    except AppError as e:
        print(type(e).__name__, e, isinstance(e, Exception))
try:
    try:
        raise KeyError("inner")
    except KeyError:
        raise ValueError("outer")
except ValueError as e:
    print(repr(e), repr(e.__context__))
