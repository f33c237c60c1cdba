from functools import total_ordering
@total_ordering
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __add__(self, o):
        return Money(self.cents + (o.cents if isinstance(o, Money) else o))
    __radd__ = __add__
    def __sub__(self, o):
        return Money(self.cents - o.cents)
    def __mul__(self, k):
        return Money(self.cents * k)
    def __eq__(self, o):
        return self.cents == o.cents
    def __lt__(self, o):
        return self.cents < o.cents
    def __repr__(self):
        return f"${self.cents // 100}.{self.cents % 100:02d}"
items = [Money(250), Money(199), Money(1000)]
print(sum(items), max(items), sorted(items), Money(100) * 3 - Money(1))
print(Money(5) <= Money(5), Money(6) > Money(5), Money(1) != Money(2))
