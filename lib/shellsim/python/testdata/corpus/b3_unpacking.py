a, b, c = "xyz"
print(a, b, c)
(a, b), c = (1, 2), 3
print(a, b, c)
first, *middle, last = range(6)
print(first, middle, last)
*init, tail = [1]
print(init, tail)
for i, (x, y) in enumerate([(1, 2), (3, 4)]):
    print(i, x + y)
d = {"k1": 1, "k2": 2}
for k, v in d.items():
    print(k, v)
try:
    a, b = [1, 2, 3]
except ValueError as e:
    print("ValueError:", e)
try:
    a, b, c = [1]
except ValueError as e:
    print("ValueError:", e)
print(*[1, 2], *(3,), *"45")
