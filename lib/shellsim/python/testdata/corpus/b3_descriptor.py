class Positive:
    def __set_name__(self, owner, name):
        self.name = "_" + name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name)
    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f"{self.name[1:]} must be positive")
        setattr(obj, self.name, value)
class Order:
    qty = Positive()
    price = Positive()
    def __init__(self, qty, price):
        self.qty = qty
        self.price = price
o = Order(2, 5)
print(o.qty * o.price)
try:
    o.qty = 0
except ValueError as e:
    print("ValueError:", e)
