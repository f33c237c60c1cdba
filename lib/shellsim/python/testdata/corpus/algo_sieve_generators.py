def primes():
    found = []
    n = 2
    while True:
        if all(n % p for p in found if p * p <= n):
            found.append(n)
            yield n
        n += 1
import itertools
print(list(itertools.islice(primes(), 15)))
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
print([x for x in itertools.takewhile(lambda v: v < 100, fib())])
gen = (i * i for i in range(5))
print(next(gen), next(gen), list(gen))
