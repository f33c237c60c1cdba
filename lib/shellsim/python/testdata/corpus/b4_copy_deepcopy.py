import copy
a = {"list": [1, [2, 3]], "n": 1}
b = copy.copy(a)
c = copy.deepcopy(a)
a["list"][1].append(4)
a["n"] = 99
print(b, c)
class P:
    def __init__(self, xs):
        self.xs = xs
p = P([1, 2])
q = copy.deepcopy(p)
q.xs.append(3)
print(p.xs, q.xs, copy.copy(p).xs is p.xs)
