"""Rational numbers."""
import math


class Fraction:
    def __init__(self, numerator=0, denominator=None):
        if denominator is None:
            if isinstance(numerator, Fraction):
                n, d = numerator.numerator, numerator.denominator
            elif isinstance(numerator, float):
                n, d = numerator.as_integer_ratio()
            elif isinstance(numerator, str):
                s = numerator.strip()
                if "/" in s:
                    a, b = s.split("/")
                    n, d = int(a), int(b)
                elif "." in s or "e" in s.lower():
                    whole, _, frac = s.partition(".")
                    n, d = int(whole + frac), 10 ** len(frac)
                else:
                    n, d = int(s), 1
            else:
                n, d = int(numerator), 1
        else:
            n, d = numerator, denominator
            if isinstance(n, Fraction) or isinstance(d, Fraction):
                f = Fraction(n) / Fraction(d)
                n, d = f.numerator, f.denominator
        if d == 0:
            raise ZeroDivisionError(f"Fraction({n}, 0)")
        g = math.gcd(n, d)
        if d < 0:
            g = -g
        self.numerator = n // g
        self.denominator = d // g

    def __repr__(self):
        return f"Fraction({self.numerator}, {self.denominator})"

    def __str__(self):
        if self.denominator == 1:
            return str(self.numerator)
        return f"{self.numerator}/{self.denominator}"

    @staticmethod
    def _c(o):
        return o if isinstance(o, Fraction) else Fraction(o)

    def __add__(self, o):
        if isinstance(o, float):
            return float(self) + o
        o = self._c(o)
        return Fraction(self.numerator * o.denominator + o.numerator * self.denominator, self.denominator * o.denominator)

    __radd__ = __add__

    def __sub__(self, o):
        if isinstance(o, float):
            return float(self) - o
        o = self._c(o)
        return Fraction(self.numerator * o.denominator - o.numerator * self.denominator, self.denominator * o.denominator)

    def __rsub__(self, o):
        return self._c(o) - self

    def __mul__(self, o):
        if isinstance(o, float):
            return float(self) * o
        o = self._c(o)
        return Fraction(self.numerator * o.numerator, self.denominator * o.denominator)

    __rmul__ = __mul__

    def __truediv__(self, o):
        if isinstance(o, float):
            return float(self) / o
        o = self._c(o)
        return Fraction(self.numerator * o.denominator, self.denominator * o.numerator)

    def __rtruediv__(self, o):
        return self._c(o) / self

    def __floordiv__(self, o):
        q = self / o
        return q.numerator // q.denominator

    def __neg__(self):
        return Fraction(-self.numerator, self.denominator)

    def __abs__(self):
        return Fraction(abs(self.numerator), self.denominator)

    def __pow__(self, e):
        if isinstance(e, int):
            if e >= 0:
                return Fraction(self.numerator ** e, self.denominator ** e)
            return Fraction(self.denominator ** -e, self.numerator ** -e)
        return float(self) ** e

    def __float__(self):
        return self.numerator / self.denominator

    def __int__(self):
        return int(self.numerator / self.denominator) if self.numerator >= 0 else -(-self.numerator // self.denominator)

    def __eq__(self, o):
        if isinstance(o, float):
            return float(self) == o
        try:
            o = self._c(o)
        except (TypeError, ValueError):
            return NotImplemented
        return self.numerator == o.numerator and self.denominator == o.denominator

    def __lt__(self, o):
        o = self._c(o)
        return self.numerator * o.denominator < o.numerator * self.denominator

    def __le__(self, o):
        return self == o or self < o

    def __gt__(self, o):
        return not self <= o

    def __ge__(self, o):
        return not self < o

    def __hash__(self):
        if self.denominator == 1:
            return hash(self.numerator)
        return hash((self.numerator, self.denominator))

    def limit_denominator(self, max_denominator=1000000):
        if self.denominator <= max_denominator:
            return Fraction(self)
        p0, q0, p1, q1 = 0, 1, 1, 0
        n, d = self.numerator, self.denominator
        while True:
            a = n // d
            q2 = q0 + a * q1
            if q2 > max_denominator:
                break
            p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
            n, d = d, n - a * d
        k = (max_denominator - q0) // q1
        b1 = Fraction(p0 + k * p1, q0 + k * q1)
        b2 = Fraction(p1, q1)
        return b2 if abs(b2 - self) <= abs(b1 - self) else b1

    def as_integer_ratio(self):
        return (self.numerator, self.denominator)
