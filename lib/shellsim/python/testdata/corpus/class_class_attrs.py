class Counter:
    instances = 0
    registry = []
    def __init__(self, name):
        Counter.instances += 1
        self.name = name
        self.registry.append(name)
    def __repr__(self):
        return f"Counter<{self.name}>"
a, b = Counter("a"), Counter("b")
print(Counter.instances, Counter.registry, a.registry is b.registry)
a.instances = 100
print(a.instances, b.instances, Counter.instances)
print(vars(a), sorted(k for k in vars(Counter) if not k.startswith("__")))
class Child(Counter):
    pass
c = Child("c")
print(Counter.instances, c, type(c).__mro__[1].__name__)
setattr(c, "extra", 5)
print(getattr(c, "extra"), c.__dict__)
delattr(c, "extra")
print(hasattr(c, "extra"))
