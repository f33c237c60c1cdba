class Util:
    factor = 3
    @staticmethod
    def add(a, b):
        return a + b
    @classmethod
    def scaled(cls, v):
        return v * cls.factor
class Sub(Util):
    factor = 10
print(Util.add(1, 2), Util().add(3, 4), Util.scaled(2), Sub.scaled(2), Sub().scaled(1))
class Slotted:
    __slots__ = ("a", "b")
    def __init__(self):
        self.a = 1
s = Slotted()
s.b = 2
print(s.a, s.b)
