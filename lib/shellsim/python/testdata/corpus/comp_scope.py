x = 10
def outer():
    x = 1
    def inner():
        nonlocal x
        x += 1
        return x
    inner(); inner()
    return x
print(outer(), x)
def counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c = counter()
print(c(), c(), c())
fs = [lambda i=i: i * 2 for i in range(3)]
print([f() for f in fs])
g = 0
def setg():
    global g
    g = 5
setg()
print(g)
print({k: v for k, v in zip("abc", range(3)) if v}, {x % 3 for x in range(10)}, [[j for j in range(i)] for i in range(4)])
print([(i, j) for i in range(3) for j in range(i)])
if (n := len("hello")) > 3:
    print("walrus", n)
a, (b, c), *d = 1, (2, 3), 4, 5
print(a, b, c, d)
first, *_, last = range(10)
print(first, last)
