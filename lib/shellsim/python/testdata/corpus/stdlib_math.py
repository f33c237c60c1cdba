import math
print(math.sqrt(16), math.pi, math.e, math.floor(-2.5), math.ceil(2.1), math.trunc(-2.7))
print(math.log(100, 10), math.log2(8), math.log10(1000), math.exp(1), math.pow(2, 10))
print(math.sin(0), math.cos(math.pi), round(math.tan(math.pi / 4), 10), math.hypot(3, 4))
print(math.isclose(0.1 + 0.2, 0.3), math.inf > 10**100, math.isnan(float("nan")), math.fabs(-3))
print(math.comb(10, 3), math.perm(5, 2), math.prod([1, 2, 3, 4]), math.fsum([0.1] * 10))
print(math.degrees(math.pi), math.radians(180), math.copysign(3, -1), math.fmod(7, 3))
print(divmod(17, 5), divmod(-17, 5), pow(3, 4, 5), abs(-7.5), round(-2.5), round(0.125, 2))
print(7 // 2, -7 // 2, 7 % -3, 2 ** -1, 10 / 4, 1e308 * 10, int(3.99), int(-3.99))
try:
    math.sqrt(-1)
except ValueError as e:
    print("ValueError", e)
try:
    1 / 0
except ZeroDivisionError as e:
    print(e)
