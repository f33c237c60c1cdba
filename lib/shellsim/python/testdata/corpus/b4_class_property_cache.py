import functools
class Dataset:
    def __init__(self, values):
        self.values = values
        self.computed = 0
    @functools.cached_property
    def mean(self):
        self.computed += 1
        return sum(self.values) / len(self.values)
d = Dataset([1, 2, 3, 4])
print(d.mean, d.mean, d.computed)
class Lazy:
    _cache = None
    @property
    def data(self):
        if self._cache is None:
            print("loading")
            self._cache = [1, 2]
        return self._cache
l = Lazy()
print(l.data, l.data)
