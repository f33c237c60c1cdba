def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "done"

print(list(countdown(5)))
def chain(*its):
    for it in its:
        yield from it
print(list(chain([1, 2], "ab", range(3))))
g = countdown(2)
print(next(g), next(g), next(g, "end"))
def acc():
    total = 0
    while True:
        x = yield total
        if x is None:
            break
        total += x
a = acc()
next(a)
print(a.send(5), a.send(10))
squares = (x * x for x in range(6))
print(sum(squares), list(squares))
print(list(zip(*[[1, 2, 3], [4, 5, 6]])), list(enumerate("abc", 1)), dict(zip("ab", range(2))))
it = iter([1, 2, 3])
print(next(it), list(it))
print(list(map(lambda x, y: x + y, [1, 2], [10, 20])), list(filter(lambda x: x % 2, range(7))))
print(list(reversed([1, 2, 3])), sorted({3: "a", 1: "b"}), list(range(10, 0, -3)))
