from dataclasses import dataclass, field, asdict, astuple, replace, fields
@dataclass
class Item:
    name: str
    price: float
    tags: list = field(default_factory=list)
    qty: int = 1
    def total(self):
        return self.price * self.qty
i = Item("pen", 1.5, qty=4)
print(i, i.total(), asdict(i), astuple(i))
print(i == Item("pen", 1.5, [], 4), replace(i, qty=1), [f.name for f in fields(i)])
@dataclass(frozen=True, order=True)
class P:
    x: int
    y: int = 0
print(sorted([P(2, 1), P(1, 5), P(1, 2)]), hash(P(1, 2)) == hash(P(1, 2)), P(3))
try:
    P(1).x = 5
except Exception as e:
    print(type(e).__name__)
try:
    Item()
except TypeError as e:
    print("TypeError")
