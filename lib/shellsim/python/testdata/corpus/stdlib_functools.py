import functools, operator
print(functools.reduce(operator.add, [1, 2, 3, 4]), functools.reduce(lambda a, b: a * b, [1, 2, 3], 10))
p = functools.partial(int, base=2)
print(p("1010"))
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(80), fib.cache_info().hits > 0)
def deco(f):
    @functools.wraps(f)
    def wrapper(*a, **k):
        return f(*a, **k) * 2
    return wrapper
@deco
def three():
    "doc"
    return 3
print(three(), three.__name__, three.__doc__)
@functools.total_ordering
class V:
    def __init__(self, v): self.v = v
    def __eq__(self, o): return self.v == o.v
    def __lt__(self, o): return self.v < o.v
print(V(1) <= V(2), V(3) >= V(2), V(1) > V(2))
print(sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
print(operator.itemgetter(1)([4, 5]), operator.attrgetter("v")(V(7)), operator.mul(3, 4))
print(sorted([("a", 2), ("b", 1)], key=operator.itemgetter(1)))
