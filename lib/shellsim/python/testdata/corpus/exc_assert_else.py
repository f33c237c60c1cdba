def check(x):
    assert x > 0, f"x must be positive, got {x}"
    return x
print(check(5))
try:
    check(-1)
except AssertionError as e:
    print("AssertionError:", e)
try:
    assert False
except AssertionError as e:
    print(repr(e), e.args)
for n in [2, 0]:
    try:
        r = 10 / n
    except ZeroDivisionError:
        print("div by zero")
    else:
        print("ok", r)
