from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
    @abstractmethod
    def perimeter(self): ...
    def describe(self):
        return f"{type(self).__name__}: area={self.area():.1f} perimeter={self.perimeter():.1f}"
class Sq(Shape):
    def __init__(self, s): self.s = s
    def area(self): return self.s ** 2
    def perimeter(self): return 4 * self.s
class Half(Shape):
    def area(self): return 0
print(Sq(3).describe())
try:
    Half()
except TypeError as e:
    print("TypeError:", e)
