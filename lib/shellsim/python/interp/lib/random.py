"""Pseudo-random numbers: CPython's Mersenne Twister, seeded the same way,
so a seeded program draws the same values as under CPython."""
import _random
from math import log as _log, exp as _exp, sqrt as _sqrt, cos as _cos, sin as _sin, pi as _pi, floor as _floor

__all__ = ["Random", "seed", "random", "uniform", "randint", "choice", "sample", "randrange", "shuffle",
           "choices", "gauss", "normalvariate", "getrandbits", "triangular", "expovariate", "betavariate",
           "getstate", "setstate", "SystemRandom", "lognormvariate"]


class Random:
    VERSION = 3

    def __init__(self, x=None):
        self._h = _random.new(x)
        self.gauss_next = None

    def seed(self, a=None, version=2):
        _random.seed(self._h, a)
        self.gauss_next = None

    def random(self):
        return _random.random(self._h)

    def getrandbits(self, k):
        return _random.getrandbits(self._h, k)

    def getstate(self):
        return (self.VERSION, _random.getstate(self._h), self.gauss_next)

    def setstate(self, state):
        _random.setstate(self._h, state[1])
        self.gauss_next = state[2]

    def _randbelow(self, n):
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        istart = int(start)
        if stop is None:
            if istart > 0:
                return self._randbelow(istart)
            raise ValueError("empty range for randrange()")
        istop = int(stop)
        width = istop - istart
        if step == 1:
            if width > 0:
                return istart + self._randbelow(width)
            raise ValueError(f"empty range in randrange({start}, {stop})")
        if step > 0:
            n = (width + step - 1) // step
        elif step < 0:
            n = (width + step + 1) // step
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return istart + step * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x):
        randbelow = self._randbelow
        for i in reversed(range(1, len(x))):
            j = randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k, *, counts=None):
        if isinstance(population, (set, frozenset)):
            raise TypeError("Population must be a sequence.  For dicts or sets, use sorted(d).")
        n = len(population)
        if counts is not None:
            cum = []
            t = 0
            for c in counts:
                t += c
                cum.append(t)
            import bisect
            selections = self.sample(range(t), k=k)
            return [population[bisect.bisect(cum, s)] for s in selections]
        randbelow = self._randbelow
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = [None] * k
        setsize = 21
        if k > 5:
            setsize += 4 ** _ceil_log(k * 3, 4)
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = set()
            selected_add = selected.add
            for i in range(k):
                j = randbelow(n)
                while j in selected:
                    j = randbelow(n)
                selected_add(j)
                result[i] = population[j]
        return result

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        random = self.random
        n = len(population)
        if cum_weights is None:
            if weights is None:
                n += 0.0
                return [population[_floor(random() * n)] for i in range(k)]
            cum_weights = []
            t = 0
            for w in weights:
                t += w
                cum_weights.append(t)
        elif weights is not None:
            raise TypeError("Cannot specify both weights and cumulative weights")
        if len(cum_weights) != n:
            raise ValueError("The number of weights does not match the population")
        total = cum_weights[-1] + 0.0
        if total <= 0.0:
            raise ValueError("Total of weights must be greater than zero")
        import bisect
        hi = n - 1
        return [population[bisect.bisect(cum_weights, random() * total, 0, hi)] for i in range(k)]

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def triangular(self, low=0.0, high=1.0, mode=None):
        u = self.random()
        try:
            c = 0.5 if mode is None else (mode - low) / (high - low)
        except ZeroDivisionError:
            return low
        if u > c:
            u = 1.0 - u
            c = 1.0 - c
            low, high = high, low
        return low + (high - low) * _sqrt(u * c)

    def normalvariate(self, mu=0.0, sigma=1.0):
        NV_MAGICCONST = 4 * _exp(-0.5) / _sqrt(2.0)
        while True:
            u1 = self.random()
            u2 = 1.0 - self.random()
            z = NV_MAGICCONST * (u1 - 0.5) / u2
            zz = z * z / 4.0
            if zz <= -_log(u2):
                break
        return mu + z * sigma

    def gauss(self, mu=0.0, sigma=1.0):
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            x2pi = self.random() * 2 * _pi
            g2rad = _sqrt(-2.0 * _log(1.0 - self.random()))
            z = _cos(x2pi) * g2rad
            self.gauss_next = _sin(x2pi) * g2rad
        return mu + z * sigma

    def lognormvariate(self, mu, sigma):
        return _exp(self.normalvariate(mu, sigma))

    def expovariate(self, lambd=1.0):
        return -_log(1.0 - self.random()) / lambd

    def betavariate(self, alpha, beta):
        raise NotImplementedError("betavariate is not supported in ShellSim")

    def randbytes(self, n):
        return self.getrandbits(n * 8).to_bytes(n, "little")


def _ceil_log(x, base):
    n = 0
    v = 1
    while v < x:
        v *= base
        n += 1
    return n


SystemRandom = Random
_inst = Random()
seed = _inst.seed
random = _inst.random
uniform = _inst.uniform
triangular = _inst.triangular
randint = _inst.randint
choice = _inst.choice
randrange = _inst.randrange
sample = _inst.sample
shuffle = _inst.shuffle
choices = _inst.choices
normalvariate = _inst.normalvariate
lognormvariate = _inst.lognormvariate
expovariate = _inst.expovariate
gauss = _inst.gauss
getrandbits = _inst.getrandbits
getstate = _inst.getstate
setstate = _inst.setstate
randbytes = _inst.randbytes
