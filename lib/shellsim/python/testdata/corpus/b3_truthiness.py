values = [0, 0.0, "", [], {}, set(), None, False, (), 1, -1, "0", [0], {0: 0}, " "]
print([bool(v) for v in values])
print([v or "default" for v in ["", "x", 0, 5]])
print(0 and 1, 1 and 0, 1 and 2, 0 or 0.0, None or [] or "last")
class Empty:
    def __len__(self):
        return 0
class Truthy:
    def __bool__(self):
        return True
print(bool(Empty()), bool(Truthy()), bool(object()))
