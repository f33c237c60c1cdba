import traceback
def a():
    raise ValueError("deep")
def b():
    try:
        a()
    except ValueError as e:
        raise RuntimeError("wrapped") from e
try:
    b()
except RuntimeError as e:
    print(type(e.__cause__).__name__, e.__cause__, e)
    lines = traceback.format_exception_only(type(e), e)
    print(lines)
