class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)
    def __len__(self): return len(self.xs)
    def __getitem__(self, i): return self.xs[i]
    def __setitem__(self, i, v): self.xs[i] = v
    def __iter__(self): return iter(self.xs)
    def __add__(self, o): return Vec(*[a + b for a, b in zip(self, o)])
    def __mul__(self, k): return Vec(*[a * k for a in self])
    __rmul__ = __mul__
    def __neg__(self): return Vec(*[-a for a in self])
    def __abs__(self): return sum(a * a for a in self) ** 0.5
    def __bool__(self): return any(self.xs)
    def __contains__(self, x): return x in self.xs
    def __repr__(self): return f"Vec{tuple(self.xs)}"
    def __eq__(self, o): return self.xs == list(o)
    def __hash__(self): return hash(tuple(self.xs))
    def __call__(self, k): return self.xs[k] * 10

v = Vec(3, 4)
w = Vec(1, 2)
print(v + w, v * 2, 3 * v, -v, abs(v), len(v), v[0], list(v), 4 in v)
v[0] = 6
print(v, bool(Vec(0, 0)), bool(v), v(1), {v: 1}[Vec(6, 4)], v == [6, 4])
class Ctx:
    def __enter__(self):
        print("enter")
        return self
    def __exit__(self, t, e, tb):
        print("exit", t.__name__ if t else None)
        return t is KeyError
with Ctx() as c:
    print("inside")
with Ctx():
    raise KeyError("x")
print("after")
