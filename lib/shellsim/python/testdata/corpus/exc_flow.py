def f(x):
    try:
        if x == 0:
            raise ValueError("zero")
        if x == 1:
            return 1 / 0
        return x
    except ValueError as e:
        print("caught value", e)
        return -1
    except ZeroDivisionError as e:
        print("caught zero", e)
        raise RuntimeError("wrapped") from e
    else:
        print("no exception")
    finally:
        print("finally", x)

print(f(0))
print(f(5))
try:
    f(1)
except RuntimeError as e:
    print(type(e).__name__, e, type(e.__cause__).__name__)

class MyErr(Exception):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code
try:
    raise MyErr(42)
except Exception as e:
    print(repr(e), str(e), e.code, e.args, isinstance(e, MyErr))
for exc in [KeyError("k"), IndexError("i"), TypeError("t"), OSError(2, "No such file")]:
    try:
        raise exc
    except (KeyError, IndexError) as e:
        print("lookup", repr(e), str(e))
    except Exception as e:
        print("other", type(e).__name__, e)
def gen():
    try:
        yield 1
        yield 2
    finally:
        print("gen cleanup")
for x in gen():
    print(x)
