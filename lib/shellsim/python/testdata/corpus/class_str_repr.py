class P:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __str__(self):
        return f"({self.x}, {self.y})"
    def __repr__(self):
        return f"P(x={self.x!r}, y={self.y!r})"
p = P(1, "a")
print(p, str(p), repr(p), [p], {"k": p}, f"{p}", f"{p!r}", "%s %r" % (p, p))
class OnlyRepr:
    def __repr__(self):
        return "<OnlyRepr>"
print(OnlyRepr(), str(OnlyRepr()), [OnlyRepr()])
class Fmt:
    def __format__(self, spec):
        return f"Fmt[{spec}]"
print(f"{Fmt():>10}", format(Fmt(), "x"), "{:abc}".format(Fmt()))
