"""Statistics on numeric data (mean, median, mode, variance, stdev, quantiles)."""
import math
from collections import Counter


class StatisticsError(ValueError):
    pass


def _data(data):
    data = list(data)
    if not data:
        raise StatisticsError("no data points")
    return data


def mean(data):
    data = _data(data)
    if all(isinstance(x, int) for x in data):
        s = sum(data)
        q, r = divmod(s, len(data))
        return q if r == 0 else s / len(data)
    return math.fsum(data) / len(data)


def fmean(data, weights=None):
    data = _data(data)
    if weights is None:
        return math.fsum(data) / len(data)
    weights = list(weights)
    return math.fsum(x * w for x, w in zip(data, weights)) / math.fsum(weights)


def geometric_mean(data):
    data = _data(data)
    return math.exp(math.fsum(math.log(x) for x in data) / len(data))


def harmonic_mean(data):
    data = _data(data)
    return len(data) / sum(1 / x for x in data)


def median(data):
    data = sorted(_data(data))
    n = len(data)
    if n % 2 == 1:
        return data[n // 2]
    i = n // 2
    return (data[i - 1] + data[i]) / 2


def median_low(data):
    data = sorted(_data(data))
    n = len(data)
    return data[n // 2] if n % 2 == 1 else data[n // 2 - 1]


def median_high(data):
    data = sorted(_data(data))
    return data[len(data) // 2]


def mode(data):
    data = _data(data)
    return Counter(data).most_common(1)[0][0]


def multimode(data):
    counts = Counter(data)
    if not counts:
        return []
    top = max(counts.values())
    return [v for v, c in counts.items() if c == top]


def _ss(data, c=None):
    if c is None:
        c = mean(data)
    if all(isinstance(x, int) for x in data) and isinstance(c, int):
        return sum((x - c) ** 2 for x in data)
    from fractions import Fraction as F
    return float(sum((F(x) - F(c)) ** 2 for x in data)) if False else math.fsum((x - c) ** 2 for x in data)


def pvariance(data, mu=None):
    data = _data(data)
    ss = _ss(data, mu)
    n = len(data)
    if isinstance(ss, int) and ss % n == 0:
        return ss // n
    return ss / n


def variance(data, xbar=None):
    data = _data(data)
    if len(data) < 2:
        raise StatisticsError("variance requires at least two data points")
    ss = _ss(data, xbar)
    n = len(data) - 1
    if isinstance(ss, int) and ss % n == 0:
        return ss // n
    return ss / n


def pstdev(data, mu=None):
    v = pvariance(data, mu)
    return math.sqrt(v)


def stdev(data, xbar=None):
    return math.sqrt(variance(data, xbar))


def quantiles(data, *, n=4, method="exclusive"):
    data = sorted(data)
    ld = len(data)
    if n < 1:
        raise StatisticsError("n must be at least 1")
    if ld < 2:
        raise StatisticsError("must have at least two data points")
    result = []
    if method == "inclusive":
        m = ld - 1
        for i in range(1, n):
            j, delta = divmod(i * m, n)
            interpolated = (data[j] * (n - delta) + data[j + 1] * delta) / n
            result.append(interpolated)
        return result
    m = ld + 1
    for i in range(1, n):
        j = i * m // n
        j = 1 if j < 1 else ld - 1 if j > ld - 1 else j
        delta = i * m - j * n
        interpolated = (data[j - 1] * (n - delta) + data[j] * delta) / n
        result.append(interpolated)
    return result
