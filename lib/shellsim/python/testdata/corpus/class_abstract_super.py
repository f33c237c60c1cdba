class Base:
    def __init__(self, name):
        self.name = name
        self.log = [f"Base.__init__({name})"]
    def greet(self):
        return f"I am {self.name}"
class Mixin:
    def greet(self):
        return "mixin+" + super().greet()
class Derived(Mixin, Base):
    def __init__(self, name, extra):
        super().__init__(name)
        self.extra = extra
        self.log.append("Derived.__init__")
    def greet(self):
        return super().greet().upper()
d = Derived("d", 1)
print(d.greet(), d.log, d.extra)
print([c.__name__ for c in Derived.__mro__])
print(super(Derived, d).greet())
