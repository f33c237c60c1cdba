import itertools
def naturals():
    n = 0
    while True:
        yield n
        n += 1
evens = (n for n in naturals() if n % 2 == 0)
print(list(itertools.islice(evens, 5)))
squares = map(lambda x: x * x, naturals())
print(next(squares), next(squares), next(squares))
def collatz(n):
    while n != 1:
        yield n
        n = n // 2 if n % 2 == 0 else 3 * n + 1
    yield 1
print(list(collatz(6)), max(len(list(collatz(i))) for i in range(1, 30)))
