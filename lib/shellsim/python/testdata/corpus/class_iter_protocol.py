class Range2:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        i = 0
        while i < self.n:
            yield i
            i += 2
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
print(list(Range2(7)), list(Countdown(3)), sum(Range2(10)))
class Seq:
    def __getitem__(self, i):
        if i >= 4:
            raise IndexError
        return i * 10
print(list(Seq()), 20 in Seq())
it = iter(Countdown(2))
print(next(it), next(it), next(it, "done"))
