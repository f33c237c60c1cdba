class Item:
    def __init__(self, sku, name, qty, price):
        self.sku, self.name, self.qty, self.price = sku, name, qty, price
    @property
    def value(self):
        return self.qty * self.price
class Inventory:
    def __init__(self):
        self.items = {}
    def add(self, item):
        if item.sku in self.items:
            raise KeyError(f"duplicate sku {item.sku}")
        self.items[item.sku] = item
    def remove_qty(self, sku, n):
        it = self.items[sku]
        if n > it.qty:
            raise ValueError(f"only {it.qty} of {it.name} left")
        it.qty -= n
    def report(self):
        for it in sorted(self.items.values(), key=lambda i: -i.value):
            print(f"{it.sku:<6}{it.name:<10}{it.qty:>5}{it.value:>10.2f}")
        print(f"total value: {sum(i.value for i in self.items.values()):.2f}")
inv = Inventory()
inv.add(Item("A1", "bolt", 100, 0.1))
inv.add(Item("B2", "nut", 250, 0.05))
inv.add(Item("C3", "gear", 10, 4.5))
inv.remove_qty("A1", 30)
for bad in [lambda: inv.add(Item("A1", "x", 1, 1)), lambda: inv.remove_qty("C3", 11)]:
    try:
        bad()
    except (KeyError, ValueError) as e:
        print(type(e).__name__, e)
inv.report()
