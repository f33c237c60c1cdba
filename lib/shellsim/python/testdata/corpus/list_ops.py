xs = [3, 1, 4, 1, 5, 9, 2, 6]
xs.append(5); xs.extend([3, 5]); xs.insert(0, 8)
print(xs, xs.count(5), xs.index(9), len(xs))
xs.remove(1); print(xs.pop(), xs.pop(0), xs)
xs.sort(); print(xs)
xs.reverse(); print(xs)
print(xs[2:5], xs[::2], xs[::-3], xs[-1], xs[:-2])
xs[1:3] = ["a", "b", "c"]
print(xs)
del xs[::2]
print(xs)
m = [[0] * 3 for _ in range(2)]
m[0][1] = 5
print(m, [row[:] for row in m] == m, [1, 2] + [3], [0] * 3, [1, [2, [3]]])
print(min([4, 2, 8]), max("hello"), sum([0.1] * 10), sorted([3, 1, 2]) == [1, 2, 3])
print(list(range(5)), tuple("ab"), list(map(str, [1, 2])), [x for x in "hi"])
t = (1, 2, 3)
print(t + (4,), t * 2, t[1:], t.index(2), (1,), (), hash((1, 2)) == hash((1, 2)))
print([1, 2, 3] < [1, 2, 4], (1, "a") < (1, "b"), [] == [], [1] != [1.0])
