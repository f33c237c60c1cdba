def f(a, b=2, *args, key="k", **kw):
    return (a, b, args, key, sorted(kw.items()))
print(f(1))
print(f(1, 3, 4, 5, key="x", z=1, y=2))
print(f(*[1, 2, 3], **{"key": "d", "extra": True}))
def pos_only(a, b, /, c, *, d):
    return a + b + c + d
print(pos_only(1, 2, c=3, d=4))
try:
    pos_only(1, b=2, c=3, d=4)
except TypeError as e:
    print("TypeError:", e)
try:
    f()
except TypeError as e:
    print("TypeError:", e)
try:
    f(1, 2, b=3)
except TypeError as e:
    print("TypeError:", e)
def defaults(x, acc=[]):
    acc.append(x)
    return acc
print(defaults(1), defaults(2))
