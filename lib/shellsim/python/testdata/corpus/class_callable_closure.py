class Multiplier:
    def __init__(self, k):
        self.k = k
    def __call__(self, x):
        return x * self.k
double = Multiplier(2)
print(double(21), list(map(double, [1, 2, 3])), callable(double))
def make_adders():
    return [lambda x, n=n: x + n for n in range(3)]
print([f(10) for f in make_adders()])
def memo(f):
    cache = {}
    def wrapper(n):
        if n not in cache:
            cache[n] = f(n)
        return cache[n]
    wrapper.cache = cache
    return wrapper
@memo
def sq(n):
    return n * n
print(sq(4), sq(4), sq.cache)
