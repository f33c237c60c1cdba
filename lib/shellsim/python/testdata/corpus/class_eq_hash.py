class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __eq__(self, o):
        return isinstance(o, Point) and (self.x, self.y) == (o.x, o.y)
    def __hash__(self):
        return hash((self.x, self.y))
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
s = {Point(1, 2), Point(1, 2), Point(2, 1)}
print(len(s), Point(1, 2) in s, {Point(0, 0): "origin"}[Point(0, 0)])
print(Point(1, 2) == Point(1, 2), Point(1, 2) != Point(2, 2), Point(1, 2) == (1, 2))
class NoHash:
    def __eq__(self, o):
        return True
try:
    {NoHash()}
except TypeError as e:
    print("TypeError:", e)
print(sorted([Point(2, 1), Point(1, 5)], key=lambda p: (p.x, p.y)))
