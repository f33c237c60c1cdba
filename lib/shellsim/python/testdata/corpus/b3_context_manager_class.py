class Timer:
    def __init__(self, name):
        self.name = name
        self.events = []
    def __enter__(self):
        self.events.append("start")
        return self
    def __exit__(self, et, ev, tb):
        self.events.append("stop" if et is None else f"error:{et.__name__}")
        return False
with Timer("a") as t:
    pass
print(t.events)
try:
    with Timer("b") as t2:
        raise KeyError("k")
except KeyError:
    print(t2.events)
class Transaction:
    def __init__(self, store):
        self.store = store
    def __enter__(self):
        self.snapshot = dict(self.store)
        return self.store
    def __exit__(self, et, ev, tb):
        if et:
            self.store.clear()
            self.store.update(self.snapshot)
        return True
db = {"a": 1}
with Transaction(db) as s:
    s["b"] = 2
    raise RuntimeError("rollback")
print(db)
